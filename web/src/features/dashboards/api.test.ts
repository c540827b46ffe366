import { afterEach, describe, expect, test, vi } from "vitest";
import { ApiError } from "../../shared/api/client";
import { absoluteUrl, createDashboard, getDashboard, normalizeConfig, saveDashboard } from "./api";

afterEach(() => vi.unstubAllGlobals());

const dashboard = { id: "d1", workspaceId: "w1", name: "D", config: { boardIds: [], widgets: [], filters: {} } };

function reply(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

describe("dashboards API", () => {
  test("create sends the contract's body with an empty grid", async () => {
    const fetchMock = vi.fn().mockResolvedValue(reply(dashboard, 201));
    vi.stubGlobal("fetch", fetchMock);
    await createDashboard("w1", "Sprint board");
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/dashboards");
    expect(init.method).toBe("POST");
    expect(JSON.parse(init.body as string)).toEqual({
      workspaceId: "w1",
      name: "Sprint board",
      config: { boardIds: [], widgets: [], filters: {} },
    });
  });

  test("read returns the ETag; save sends it as If-Match and takes the new one", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(reply(dashboard, 200, { ETag: '"1"' }))
      .mockResolvedValueOnce(reply(dashboard, 200, { ETag: '"2"' }));
    vi.stubGlobal("fetch", fetchMock);
    const read = await getDashboard("d1");
    expect(read.etag).toBe('"1"');
    const saved = await saveDashboard("d1", { name: "D", config: read.data.config }, read.etag);
    expect(saved.etag).toBe('"2"');
    const init = fetchMock.mock.calls[1]?.[1] as RequestInit;
    expect(init.method).toBe("PATCH");
    expect(init.headers).toMatchObject({ "If-Match": '"1"' });
  });

  test("a save whose reply has no ETag reads the dashboard for it", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(reply(dashboard, 200))
      .mockResolvedValueOnce(reply(dashboard, 200, { ETag: '"3"' }));
    vi.stubGlobal("fetch", fetchMock);
    expect((await saveDashboard("d1", { name: "D", config: dashboard.config }, '"2"')).etag).toBe('"3"');
  });

  test("a stale save is a 412 ApiError", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn().mockResolvedValue(reply({ error: { code: "precondition_failed", message: "Changed." } }, 412)),
    );
    const error = await saveDashboard("d1", { name: "D", config: dashboard.config }, '"1"').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(412);
  });

  test("a config written by a script without some parts is completed", () => {
    expect(normalizeConfig({ widgets: [{ id: "x", type: "numbers" } as never] })).toEqual({
      boardIds: [],
      widgets: [],
      filters: {},
    });
  });

  test("a public link given as a path becomes an address", () => {
    expect(absoluteUrl("/p/abc", "http://127.0.0.1:5000")).toBe("http://127.0.0.1:5000/p/abc");
    expect(absoluteUrl("http://127.0.0.1:1/p/x", "http://o")).toBe("http://127.0.0.1:1/p/x");
  });
});

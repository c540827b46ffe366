import { afterEach, expect, test, vi } from "vitest";
import { ApiError } from "../../shared/api/client";
import { fetchFullBoard, updateItem } from "./api";

afterEach(() => vi.unstubAllGlobals());

function stubFetch(reply: () => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return reply();
  });
  return calls;
}

const body = { board: { id: "b1", workspaceId: "w", name: "B", columns: [], groups: [] }, items: [] };

test("the first read sends no validator and returns the ETag", async () => {
  const calls = stubFetch(() => new Response(JSON.stringify(body), { status: 200, headers: { ETag: '"v7"' } }));
  const reply = await fetchFullBoard("b1", null);
  expect(reply).toEqual({ full: body, etag: '"v7"' });
  expect(calls[0]?.url).toBe("/api/boards/b1/full");
  expect(calls[0]?.init.headers).toEqual({});
});

test("a revalidation sends If-None-Match and a 304 means unchanged", async () => {
  const calls = stubFetch(() => new Response(null, { status: 304 }));
  expect(await fetchFullBoard("b1", '"v7"')).toBeNull();
  expect(calls[0]?.init.headers).toEqual({ "If-None-Match": '"v7"' });
});

test("an edit sends only the changed value, and a refusal carries the server's code and message", async () => {
  const calls = stubFetch(
    () =>
      new Response(JSON.stringify({ error: { code: "invalid_value", message: 'values.s: "Nope" is not a label' } }), {
        status: 400,
      }),
  );
  const refusal = updateItem("i/1", { values: { s: "Nope" } });
  await expect(refusal).rejects.toBeInstanceOf(ApiError);
  await expect(refusal).rejects.toMatchObject({
    status: 400,
    code: "invalid_value",
    message: 'values.s: "Nope" is not a label',
  });
  expect(calls[0]?.url).toBe("/api/items/i%2F1");
  expect(calls[0]?.init.method).toBe("PATCH");
  expect(calls[0]?.init.body).toBe('{"values":{"s":"Nope"}}');
});

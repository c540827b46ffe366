import { afterEach, describe, expect, it, vi } from "vitest";
import { deviceId, reportLoad } from "./deviceLoad";

function memory(): Pick<Storage, "getItem" | "setItem"> {
  const kept = new Map<string, string>();
  return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => void kept.set(key, value) };
}

describe("deviceId", () => {
  it("is made once and then read back", () => {
    const storage = memory();
    const first = deviceId(storage, () => "id-1");
    expect(first).toBe("id-1");
    expect(deviceId(storage, () => "id-2")).toBe("id-1");
  });

  it("replaces a kept id the server would refuse", () => {
    const storage = memory();
    storage.setItem("switchboard.deviceId", "not an id!");
    expect(deviceId(storage, () => "fresh")).toBe("fresh");
  });

  it("still answers when storage throws", () => {
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => undefined,
    };
    expect(deviceId(refusing, () => "spare")).toBe("spare");
  });
});

describe("reportLoad", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("posts the start and one finish with the same device", async () => {
    const calls: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((url: string, init: RequestInit) => {
        calls.push([url, JSON.parse(String(init.body))]);
        return Promise.resolve(new Response(null, { status: 204 }));
      }),
    );
    const kept = memory();
    // A device that never finished a load here reports no start.
    await reportLoad("started", kept);
    expect(calls).toHaveLength(0);
    await reportLoad("finished", kept);
    await reportLoad("finished", kept);
    await reportLoad("started", kept);
    expect(calls).toHaveLength(2);
    const [first, second] = calls as [
      [string, { device: string; stage: string }],
      [string, { device: string; stage: string }],
    ];
    const [url, finish] = first;
    const [, start] = second;
    expect(url).toBe("/api/device-loads");
    expect(start.stage).toBe("started");
    expect(finish.stage).toBe("finished");
    expect(finish.device).toBe(start.device);
  });

  it("swallows a refused report", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("offline"))),
    );
    const kept = memory();
    kept.setItem("switchboard.loadedHere", "1");
    await expect(reportLoad("started", kept)).resolves.toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { Autosaver, type SaveResult } from "./autosave";

class Conflict extends Error {}

function setup(save: (draft: string, etag: string | null) => Promise<SaveResult>) {
  return new Autosaver<string>({
    initial: "v0",
    etag: "e0",
    save,
    isConflict: (e) => e instanceof Conflict,
    debounceMs: 800,
    retryMs: 1000,
    maxRetryMs: 4000,
    now: () => 0,
  });
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("Autosaver", () => {
  test("a change shows at once and is saved once, after the debounce, with If-Match", async () => {
    const save = vi.fn(async (_d: string, etag: string | null) => ({ etag: `${etag}+` }));
    const saver = setup(save);
    saver.update("v1");
    saver.update("v2");
    expect(saver.getSnapshot()).toMatchObject({ draft: "v2", status: "pending" });
    await vi.advanceTimersByTimeAsync(799);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith("v2", "e0");
    expect(saver.getSnapshot().status).toBe("saved");
    expect(saver.dirty).toBe(false);
    saver.update("v3");
    await vi.advanceTimersByTimeAsync(800);
    expect(save).toHaveBeenLastCalledWith("v3", "e0+");
  });

  test("a change made while saving is saved after that save", async () => {
    let release: (r: SaveResult) => void = () => {};
    const save = vi.fn(
      (_d: string, _e: string | null) =>
        new Promise<SaveResult>((resolve) => {
          release = resolve;
        }),
    );
    const saver = setup(save);
    saver.update("v1");
    await vi.advanceTimersByTimeAsync(800);
    expect(saver.getSnapshot().status).toBe("saving");
    saver.update("v2");
    expect(saver.getSnapshot()).toMatchObject({ draft: "v2", status: "saving" });
    release({ etag: "e1" });
    await vi.advanceTimersByTimeAsync(0);
    expect(saver.getSnapshot().status).toBe("pending");
    await vi.advanceTimersByTimeAsync(800);
    expect(save).toHaveBeenLastCalledWith("v2", "e1");
    release({ etag: "e2" });
    await vi.advanceTimersByTimeAsync(0);
    expect(saver.getSnapshot().status).toBe("saved");
  });

  test("a failed save keeps the draft and retries with backoff until it succeeds", async () => {
    let fail = 2;
    const save = vi.fn(async () => {
      if (fail-- > 0) throw new Error("offline");
      return { etag: "e1" };
    });
    const saver = setup(save);
    saver.update("v1");
    await vi.advanceTimersByTimeAsync(800);
    expect(saver.getSnapshot()).toMatchObject({ draft: "v1", status: "error", error: "offline", retryAt: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(saver.getSnapshot()).toMatchObject({ status: "error", retryAt: 2000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(3);
    expect(saver.getSnapshot()).toMatchObject({ draft: "v1", status: "saved", error: null });
  });

  test("Retry saves at once", async () => {
    const save = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue({ etag: "e1" });
    const saver = setup(save);
    saver.update("v1");
    await vi.advanceTimersByTimeAsync(800);
    expect(saver.getSnapshot().status).toBe("error");
    saver.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenCalledTimes(2);
    expect(saver.getSnapshot().status).toBe("saved");
  });

  test("a conflict stops saving until reload or overwrite", async () => {
    const save = vi.fn().mockRejectedValueOnce(new Conflict("stale")).mockResolvedValue({ etag: "e9" });
    const saver = setup(save);
    saver.update("mine");
    await vi.advanceTimersByTimeAsync(800);
    expect(saver.getSnapshot()).toMatchObject({ status: "conflict", draft: "mine" });
    saver.update("mine2");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(save).toHaveBeenCalledTimes(1);
    expect(saver.getSnapshot()).toMatchObject({ status: "conflict", draft: "mine2" });
    saver.overwrite("e5");
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenLastCalledWith("mine2", "e5");
    expect(saver.getSnapshot().status).toBe("saved");
  });

  test("reload after a conflict takes the stored version and saves nothing", async () => {
    const save = vi.fn().mockRejectedValueOnce(new Conflict("stale"));
    const saver = setup(save);
    saver.update("mine");
    await vi.advanceTimersByTimeAsync(800);
    saver.reset("theirs", "e7");
    expect(saver.getSnapshot()).toMatchObject({ status: "saved", draft: "theirs", error: null });
    expect(saver.dirty).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(1);
  });
});

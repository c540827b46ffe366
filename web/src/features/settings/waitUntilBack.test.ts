import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { waitUntilBack } from "./waitUntilBack";

describe("waitUntilBack", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("probes every interval, the first after one interval, and stops at the first yes", async () => {
    const answers = [false, false, true];
    const probe = vi.fn(async () => answers.shift() ?? false);
    const back = waitUntilBack(probe, { intervalMs: 500, timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(499);
    expect(probe).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(back).resolves.toBe(true);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it("counts a failing probe as not yet", async () => {
    const probe = vi.fn().mockRejectedValueOnce(new Error("connection refused")).mockResolvedValue(true);
    const back = waitUntilBack(probe, { intervalMs: 500 });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(back).resolves.toBe(true);
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it("gives up after the timeout, having probed every interval until then", async () => {
    const probe = vi.fn(async () => false);
    const back = waitUntilBack(probe, { intervalMs: 500, timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(back).resolves.toBe(false);
    expect(probe).toHaveBeenCalledTimes(120);
  });

  it("does not wait past the timeout for a probe that never answers", async () => {
    const probe = vi.fn(() => new Promise<boolean>(() => {}));
    let settled: boolean | undefined;
    void waitUntilBack(probe, { intervalMs: 500, timeoutMs: 2_000 }).then((b) => (settled = b));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(settled).toBe(false);
    expect(probe).toHaveBeenCalledTimes(1);
  });
});

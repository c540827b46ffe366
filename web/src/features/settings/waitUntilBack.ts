/**
 * Waiting for a restarting server: `probe` is asked every `intervalMs` until it answers true,
 * or until `timeoutMs` have passed. The first probe waits one interval too, because right after
 * the restart is accepted the old process may still answer while it drains.
 */

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True once a probe said the server is back; false when the time ran out first. */
export async function waitUntilBack(
  probe: () => Promise<boolean>,
  { intervalMs = 500, timeoutMs = 60_000 }: WaitOptions = {},
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() + intervalMs <= deadline) {
    await delay(intervalMs);
    // A probe that hangs (a connection the old process never answers) counts as "not yet".
    const left = deadline - Date.now();
    const answer = await Promise.race([probe().catch(() => false), delay(Math.max(left, 0)).then(() => false)]);
    if (answer) return true;
  }
  return false;
}

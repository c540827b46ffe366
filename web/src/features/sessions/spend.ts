/**
 * What a session has spent, as shown. The ceilings stored on a session (`maxDollarsPerSession`,
 * `maxTurnsPerSession`) are not enforced (the spec keeps them "stored and returned only"), so
 * nothing is drawn against them: a limit that never bites would only mislead.
 */
import type { Session } from "../../shared/api/types.generated";

export function dollars(value: number): string {
  return `$${value < 10 ? value.toFixed(2) : value.toFixed(1)}`;
}

/** `null` when the engine reports no price (Codex, `command` engines): there is nothing to show. */
export function costOf(session: Pick<Session, "costUsd">): string | null {
  return session.costUsd === null ? null : dollars(session.costUsd);
}

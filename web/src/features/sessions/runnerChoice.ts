/**
 * Where a session runs, in the sessions feature's words: the New session dialog's "Runs on"
 * choices (from `GET /runners`), what it says about the chosen runner, and the small label the
 * session page and the agent board put beside a session that does not run on this machine.
 */
import type { Runner, Session } from "../../shared/api/types.generated";

export interface RunnerOption {
  /** What the spawn sends as `runner`. */
  value: string;
  label: string;
}

export const LOCAL_RUNNER = "local";
export const AUTO_RUNNER = "auto";

const THIS_MACHINE: RunnerOption = { value: LOCAL_RUNNER, label: "This machine" };
const AUTO: RunnerOption = { value: AUTO_RUNNER, label: "Auto" };

/**
 * This machine first, then every runner of `runners.toml` that can be used (an invalid
 * declaration cannot), a runner not connected saying so, then Auto. Without the list (not read
 * yet, or failed) this machine and Auto are still offered: the server places those itself.
 */
export function runnerOptions(runners: readonly Runner[] | undefined): RunnerOption[] {
  const remote = (runners ?? [])
    .filter((r) => r.kind !== "local" && r.state !== "invalid")
    .map((r) => ({ value: r.name, label: r.state === "connected" ? r.name : `${r.name} (${r.state})` }));
  return [THIS_MACHINE, ...remote, AUTO];
}

/**
 * What the dialog says under "Runs on" about the chosen runner: the folder is a path on that host,
 * and the engine's program may be missing there (its helper reported no version of it).
 */
export function runnerNotes(runners: readonly Runner[] | undefined, chosen: string, engine: string): string[] {
  if (chosen === LOCAL_RUNNER) return [];
  if (chosen === AUTO_RUNNER) {
    return ["Auto places it on the connected runner with room and the most memory free: the folder must exist there."];
  }
  const notes = [`The folder is a path on ${chosen}.`];
  const reported = runners?.find((r) => r.name === chosen && r.kind === "ssh")?.engines.find((e) => e.name === engine);
  if (reported && reported.version === null) {
    notes.push(`${chosen} reported no version of ${engine}: its program may be missing there.`);
  }
  return notes;
}

/** The runner a session's label names; null on this machine, where no label is shown. */
export function runnerLabel(session: Pick<Session, "runner">): string | null {
  return session.runner && session.runner !== LOCAL_RUNNER ? session.runner : null;
}

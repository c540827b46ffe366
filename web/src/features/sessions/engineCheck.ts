/**
 * What the New session dialog says about the chosen engine, from `GET /doctor`: a blocking notice
 * when a session on it cannot start (its program is missing, or the sandbox cannot run and the
 * engine may not run unconfined), a non-blocking one when it can but deserves a look (a version
 * the conformance suite does not cover, a version that could not be read, running unconfined).
 */
import type { DoctorReport, Engine, Sandbox } from "../../shared/api/types.generated";

export interface EngineCheck {
  /** A session on this engine cannot start: the dialog's Start button stays off. */
  blocking: boolean;
  title: string;
  /** Why, in the server's words. */
  reasons: string[];
  /** The facts behind them: the program, the version, the sandbox. */
  facts: string[];
}

/** The notice for the engine named `name`; null when there is nothing to say (or no report yet). */
export function engineCheck(report: DoctorReport | undefined, name: string): EngineCheck | null {
  const engine = report?.engines.find((e) => e.name === name);
  if (!report || !engine) return null;
  const blocking = engine.blockers.length > 0;
  if (!blocking && engine.warnings.length === 0) return null;
  return {
    blocking,
    title: title(engine, blocking),
    reasons: blocking ? engine.blockers : engine.warnings,
    facts: facts(engine, report.sandbox),
  };
}

function title(engine: Engine, blocking: boolean): string {
  if (blocking) {
    return engine.path === null || !engine.executable
      ? `Engine "${engine.name}" is missing: its program cannot be run`
      : `Engine "${engine.name}" cannot start a session here`;
  }
  if (engine.coverage === "not_covered") {
    return `Engine "${engine.name}" is at ${engine.version ?? "a version"}, which the test suite does not cover`;
  }
  return `Engine "${engine.name}" may need a look`;
}

function facts(engine: Engine, sandbox: Sandbox): string[] {
  const program = engine.command[0] ?? "";
  const lines = [
    engine.path === null
      ? `Program: ${program} (not found)`
      : `Program: ${engine.path}${engine.executable ? "" : " (not executable)"}`,
  ];
  if (engine.coverage !== "not_applicable") {
    const covered = engine.coveredVersion ? `; the suite covers ${engine.coveredVersion}` : "";
    lines.push(`Version: ${engine.version ?? "unknown"}${covered}`);
  }
  lines.push(`Sandbox: ${sandboxWords(sandbox)}`);
  return lines;
}

export function sandboxWords(sandbox: Sandbox): string {
  if (sandbox.error !== null) return `cannot run (${sandbox.error})`;
  const abi = `Landlock ABI ${sandbox.landlockAbi}`;
  switch (sandbox.mode) {
    case "namespaces":
      return `namespaces, ${abi}`;
    case "landlock":
      return `Landlock file rules only (${abi}; user namespaces: ${sandbox.userNamespacesError ?? "no"})`;
    default:
      return "unavailable";
  }
}

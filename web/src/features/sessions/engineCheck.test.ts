import { describe, expect, it } from "vitest";
import type { DoctorReport, Engine, EngineInfo, Sandbox } from "../../shared/api/types.generated";
import { engineCheck, engineSetup, isDemoEngine, sandboxWords } from "./engineCheck";

const sandbox = (overrides: Partial<Sandbox> = {}): Sandbox => ({
  mode: "namespaces",
  landlockAbi: 7,
  userNamespaces: true,
  userNamespacesError: null,
  networkControl: true,
  error: null,
  ...overrides,
});

const engine = (overrides: Partial<Engine> = {}): Engine => ({
  name: "primary",
  kind: "claude",
  command: ["claude"],
  path: "/usr/bin/claude",
  executable: true,
  version: "2.1.330",
  coveredVersion: "2.1.330",
  coverage: "covered",
  unsafeAllowUnsandboxed: false,
  blockers: [],
  warnings: [],
  ...overrides,
});

const report = (engines: Engine[], box: Sandbox = sandbox()): DoctorReport => ({
  canStart: engines.some((e) => e.blockers.length === 0),
  blockers: [],
  resources: {
    mode: "cgroup-v1",
    why: "the cgroup v1 hierarchies",
    unavailable: [],
    keepAwake: { available: true, why: "logind is on the system bus" },
  },
  warnings: [],
  enginesFile: { path: "/data/engines.toml", present: true, error: null },
  engines,
  sandbox: box,
  ports: {
    serverPid: 1,
    control: { port: 19519, state: "switchboard" },
    ui: { port: 19520, state: "switchboard" },
    staleServerPid: null,
  },
  dataDir: { path: "/data", exists: true, mode: "0700", ownerOnly: true, files: [] },
  runners: [],
});

describe("the chosen engine's notice", () => {
  it("is nothing for a covered engine that can run, or before the report arrives", () => {
    expect(engineCheck(report([engine()]), "primary")).toBeNull();
    expect(engineCheck(undefined, "primary")).toBeNull();
    expect(engineCheck(report([engine()]), "another")).toBeNull();
  });

  it("blocks when the engine's program is missing, and says where it was looked for", () => {
    const missing = engine({
      path: null,
      executable: false,
      version: null,
      coverage: "unknown",
      blockers: ["`claude` is not on PATH."],
    });
    const check = engineCheck(report([missing]), "primary");
    expect(check).toEqual({
      blocking: true,
      title: 'Engine "primary" is missing: its program cannot be run',
      reasons: ["`claude` is not on PATH."],
      facts: [
        "Program: claude (not found)",
        "Version: unknown; the suite covers 2.1.330",
        "Sandbox: namespaces, Landlock ABI 7",
      ],
    });
  });

  it("warns without blocking when the version is not the one the suite covers", () => {
    const newer = engine({
      name: "second",
      kind: "codex",
      command: ["codex"],
      path: "/usr/bin/codex",
      version: "0.170.1",
      coveredVersion: "0.169.0",
      coverage: "not_covered",
      warnings: ["Version 0.170.1 is not the one the conformance suite covers (@openai/codex 0.169.0)."],
    });
    const check = engineCheck(report([engine(), newer]), "second");
    expect(check?.blocking).toBe(false);
    expect(check?.title).toBe('Engine "second" is at 0.170.1, which the test suite does not cover');
    expect(check?.reasons).toEqual(newer.warnings);
    expect(check?.facts).toContain("Version: 0.170.1; the suite covers 0.169.0");
  });

  it("blocks when the sandbox cannot run, and names the sandbox's reason", () => {
    const box = sandbox({ mode: "unavailable", landlockAbi: 0, error: "this kernel has no usable Landlock" });
    const confined = engine({ blockers: ["The sandbox cannot run here: this kernel has no usable Landlock."] });
    const check = engineCheck(report([confined], box), "primary");
    expect(check?.blocking).toBe(true);
    expect(check?.title).toBe('Engine "primary" cannot start a session here');
    expect(check?.facts).toContain("Sandbox: cannot run (this kernel has no usable Landlock)");
  });

  it("says nothing of versions for a command engine", () => {
    const echo = engine({
      name: "echo",
      kind: "command",
      command: ["/opt/echo"],
      path: "/opt/echo",
      executable: false,
      version: null,
      coveredVersion: null,
      coverage: "not_applicable",
      blockers: ["/opt/echo is not executable."],
    });
    const check = engineCheck(report([echo]), "echo");
    expect(check?.facts).toEqual(["Program: /opt/echo (not executable)", "Sandbox: namespaces, Landlock ABI 7"]);
  });
});

describe("the sandbox in words", () => {
  it("names the fallback and why", () => {
    expect(sandboxWords(sandbox({ mode: "landlock", landlockAbi: 5, userNamespacesError: "EPERM" }))).toBe(
      "Landlock file rules only (Landlock ABI 5; user namespaces: EPERM)",
    );
  });
});

const listed = (name: string, kind = "claude", label?: string): EngineInfo => ({
  name,
  kind,
  command: [kind],
  canFork: kind !== "command",
  ...(label === undefined ? {} : { label }),
});
const demo = listed("demo", "claude", "Demo engine (scripted, no model)");

describe("the engine the dialog chooses first", () => {
  it("is the demo engine when it is the only one, with word of how to configure a real one", () => {
    expect(isDemoEngine(demo)).toBe(true);
    expect(isDemoEngine(listed("primary"))).toBe(false);
    expect(engineSetup([demo], undefined)).toEqual({ initial: "demo", demoOnly: true, enginesFile: null });
    expect(engineSetup([demo], report([])).enginesFile).toBe("/data/engines.toml");
  });

  it("is a real engine when one is configured, the demo engine still offered beside it", () => {
    expect(engineSetup([demo, listed("echo", "command"), listed("primary")], undefined)).toEqual({
      initial: "primary",
      demoOnly: false,
      enginesFile: null,
    });
    expect(engineSetup([demo, listed("second", "codex")], undefined).initial).toBe("second");
  });

  it("falls back to the demo engine when the doctor finds every real engine blocked", () => {
    const missing = engine({ path: null, executable: false, blockers: ["`claude` is not on PATH."] });
    const setup = engineSetup([demo, listed("primary")], report([missing]));
    expect(setup).toEqual({ initial: "demo", demoOnly: true, enginesFile: "/data/engines.toml" });
  });

  it("keeps a blocked engine chosen when there is no demo engine, so its notice says why", () => {
    const missing = engine({ path: null, executable: false, blockers: ["`claude` is not on PATH."] });
    expect(engineSetup([listed("primary")], report([missing]))).toEqual({
      initial: "primary",
      demoOnly: false,
      enginesFile: "/data/engines.toml",
    });
    expect(engineSetup([], undefined).initial).toBe("");
  });
});

import { describe, expect, it } from "vitest";
import type { Runner } from "../../shared/api/types.generated";
import {
  connectedSummary,
  engineText,
  KIND_LABEL,
  loadText,
  megabytes,
  memoryText,
  onlyLocal,
  reasonShown,
  runnerFacts,
  sandboxText,
  sessionsText,
  settingWords,
  sortRunners,
} from "./runners";

const NOW = Date.parse("2026-01-01T10:00:00Z");

const local = (overrides: Partial<Runner> = {}): Runner => ({
  name: "local",
  kind: "local",
  state: "connected",
  reason: null,
  sessions: 2,
  maxSessions: null,
  load: 0.5,
  memory: { totalMb: 32_000, availableMb: 12_600 },
  engines: [{ name: "primary", version: "2.1.3 (Claude Code)" }],
  sandbox: "namespaces",
  switchboardVersion: "0.1.0",
  labels: [],
  destination: null,
  lastSeen: "2026-01-01T10:00:00Z",
  ...overrides,
});

const ssh = (name: string, overrides: Partial<Runner> = {}): Runner => ({
  ...local(),
  name,
  kind: "ssh",
  sessions: 0,
  maxSessions: 8,
  labels: ["gpu"],
  destination: `alice@${name}.example`,
  lastSeen: "2026-01-01T09:55:00Z",
  ...overrides,
});

const never = (name: string, overrides: Partial<Runner> = {}): Runner =>
  ssh(name, {
    state: "connecting",
    load: null,
    memory: null,
    engines: [],
    sandbox: null,
    switchboardVersion: null,
    lastSeen: null,
    ...overrides,
  });

describe("sortRunners", () => {
  it("puts local first, then the runners by name, invalid declarations last", () => {
    const runners = [
      ssh("zeta"),
      ssh("broken", { state: "invalid", reason: "runners.toml line 3, column 1: …" }),
      local(),
      ssh("alpha", { state: "unreachable" }),
      ssh("runners.toml", { state: "invalid" }),
    ];
    expect(sortRunners(runners).map((r) => r.name)).toEqual(["local", "alpha", "zeta", "broken", "runners.toml"]);
  });

  it("keeps the order given between runners of the same name, and leaves its input alone", () => {
    const first = ssh("local", { state: "invalid", reason: "first" });
    const second = ssh("local", { state: "invalid", reason: "second" });
    const runners = [local(), first, second];
    expect(sortRunners(runners)).toEqual([runners[0], first, second]);
    expect(runners.map((r) => r.reason)).toEqual([null, "first", "second"]);
  });
});

describe("onlyLocal and connectedSummary", () => {
  it("see nothing but this machine when runners.toml declares nothing", () => {
    expect(onlyLocal([local()])).toBe(true);
    expect(connectedSummary([local()])).toBeNull();
  });

  it("count the connected runners when there are others", () => {
    const runners = [local(), ssh("devbox"), ssh("far", { state: "unreachable" }), ssh("bad", { state: "invalid" })];
    expect(onlyLocal(runners)).toBe(false);
    expect(connectedSummary(runners)).toBe("2 of 4 connected");
  });
});

describe("reasonShown", () => {
  it("gives the whole reason of a runner that is not connected", () => {
    const message = "ssh: connect to host devbox.example port 22: Connection refused";
    expect(reasonShown(ssh("devbox", { state: "unreachable", reason: message }))).toBe(message);
    expect(reasonShown(ssh("devbox", { state: "invalid", reason: "runners.toml line 2, column 1: x" }))).toBe(
      "runners.toml line 2, column 1: x",
    );
    expect(reasonShown(never("devbox"))).toBeNull();
  });

  it("shows none for a connected runner", () => {
    expect(reasonShown(ssh("devbox", { reason: "stale words" }))).toBeNull();
  });
});

describe("the words for a runner's figures", () => {
  it("says megabytes below a gigabyte, one decimal below ten, whole gigabytes above", () => {
    expect(megabytes(0)).toBe("0 MB");
    expect(megabytes(512.4)).toBe("512 MB");
    expect(megabytes(1023)).toBe("1023 MB");
    expect(megabytes(1024)).toBe("1.0 GB");
    expect(megabytes(3482)).toBe("3.4 GB");
    expect(megabytes(10_200)).toBe("10 GB");
    expect(megabytes(10_239)).toBe("10 GB");
    expect(megabytes(64_000)).toBe("63 GB");
  });

  it("says memory as available of total", () => {
    expect(memoryText({ totalMb: 32_000, availableMb: 12_600 })).toBe("12 GB free of 31 GB");
    expect(memoryText({ totalMb: 2048, availableMb: 300 })).toBe("300 MB free of 2.0 GB");
  });

  it("says load with two decimals", () => {
    expect(loadText(0)).toBe("0.00");
    expect(loadText(1.234)).toBe("1.23");
  });

  it("says sessions against the limit when there is one", () => {
    expect(sessionsText({ sessions: 3, maxSessions: 8 })).toBe("3 of 8 running");
    expect(sessionsText({ sessions: 3, maxSessions: null })).toBe("3 running");
  });

  it("says an engine's version, or that none came", () => {
    expect(engineText({ name: "primary", version: "2.1.3 (Claude Code)" })).toBe("primary 2.1.3 (Claude Code)");
    expect(engineText({ name: "second", version: null })).toBe("second: not found, or printed no version");
  });

  it("names the sandbox modes", () => {
    expect(sandboxText("namespaces")).toBe("Namespaces");
    expect(sandboxText("landlock")).toBe("Landlock");
    expect(sandboxText("unavailable")).toBe("None: this kernel cannot confine engines");
    expect(sandboxText("something-new")).toBe("something-new");
  });

  it("says whether the setting is on once it is read", () => {
    expect(settingWords(undefined)).toBe("");
    expect(settingWords(true)).toBe("; it is on now");
    expect(settingWords(false)).toBe("; it is off now");
  });
});

describe("runnerFacts", () => {
  const shown = (runner: Runner) =>
    Object.fromEntries(
      runnerFacts(runner, NOW).map((f) => [f.label, f.unknown ? `(${f.values.join(", ")})` : f.values]),
    );

  it("says where a pool runner connected from, and that its pod is its boundary", () => {
    const pool = ssh("pool-1", { kind: "pool", destination: "10.0.0.7:53122", sandbox: "pod" });
    const facts = shown(pool);
    expect(facts["Connected from"]).toEqual(["10.0.0.7:53122"]);
    expect(facts.Destination).toBeUndefined();
    expect(facts.Sandbox).toEqual([sandboxText("pod")]);
    expect(sandboxText("pod")).toContain("pod");
    expect(KIND_LABEL[pool.kind]).toBe("Pool");
  });

  it("shows this machine's figures, without a destination, labels or a last-reached time", () => {
    expect(shown(local())).toEqual({
      Sessions: ["2 running"],
      Load: ["0.50"],
      Memory: ["12 GB free of 31 GB"],
      Engines: ["primary 2.1.3 (Claude Code)"],
      Sandbox: ["Namespaces"],
      Switchboard: ["0.1.0"],
    });
  });

  it("shows a connected host's figures, labels, destination and when it was last reached", () => {
    expect(shown(ssh("devbox"))).toEqual({
      Sessions: ["0 of 8 running"],
      Load: ["0.50"],
      Memory: ["12 GB free of 31 GB"],
      Engines: ["primary 2.1.3 (Claude Code)"],
      Sandbox: ["Namespaces"],
      Helper: ["0.1.0"],
      Labels: ["gpu"],
      Destination: ["alice@devbox.example"],
      "Last reached": ["5 min ago"],
    });
  });

  it("says what a host never reached has not reported, and leaves out labels it has none of", () => {
    expect(shown(never("devbox", { labels: [] }))).toEqual({
      Sessions: ["0 of 8 running"],
      Load: "(not reached yet)",
      Memory: "(not reached yet)",
      Engines: "(not reached yet)",
      Sandbox: "(not reached yet)",
      Helper: "(not reached yet)",
      Destination: ["alice@devbox.example"],
      "Last reached": "(never)",
    });
  });

  it("says a host reached with no engine in force has none", () => {
    expect(shown(ssh("devbox", { engines: [] })).Engines).toEqual(["none"]);
    expect(shown(local({ engines: [], load: null })).Engines).toEqual(["none"]);
    expect(shown(local({ load: null })).Load).toBe("(not reported)");
  });

  it("shows nothing of an invalid declaration but sessions still running there", () => {
    const invalid = ssh("devbox", { state: "invalid", reason: "bad", destination: null, lastSeen: null });
    expect(runnerFacts(invalid, NOW)).toEqual([]);
    expect(shown({ ...invalid, sessions: 1 })).toEqual({ Sessions: ["1 of 8 running"] });
  });
});

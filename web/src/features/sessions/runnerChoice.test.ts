import { describe, expect, it } from "vitest";
import type { Runner } from "../../shared/api/types.generated";
import { session } from "./fixtures";
import { runnerLabel, runnerNotes, runnerOptions } from "./runnerChoice";

const runner = (name: string, overrides: Partial<Runner> = {}): Runner => ({
  name,
  kind: name === "local" ? "local" : "ssh",
  state: "connected",
  reason: null,
  sessions: 0,
  maxSessions: null,
  load: null,
  memory: null,
  engines: [],
  sandbox: null,
  switchboardVersion: null,
  labels: [],
  destination: name === "local" ? null : `${name}.example`,
  lastSeen: null,
  ...overrides,
});

describe("runnerOptions", () => {
  it("offers this machine, every usable runner and Auto, sending each one's name", () => {
    const options = runnerOptions([
      runner("local"),
      runner("devbox"),
      runner("far", { state: "unreachable", reason: "Connection refused" }),
      runner("new", { state: "connecting" }),
      runner("broken", { state: "invalid", reason: "runners.toml line 1, column 1: x" }),
    ]);
    expect(options.map((o) => o.value)).toEqual(["local", "devbox", "far", "new", "auto"]);
    expect(options.map((o) => o.label)).toEqual([
      "This machine",
      "devbox",
      "far (unreachable)",
      "new (connecting)",
      "Auto",
    ]);
  });

  it("offers this machine and Auto while the list is not there", () => {
    expect(runnerOptions(undefined).map((o) => o.value)).toEqual(["local", "auto"]);
  });

  it("never offers an invalid declaration named like this machine twice", () => {
    const options = runnerOptions([runner("local"), runner("local", { kind: "ssh", state: "invalid" })]);
    expect(options.map((o) => o.value)).toEqual(["local", "auto"]);
  });
});

describe("runnerNotes", () => {
  const runners = [
    runner("local"),
    runner("devbox", {
      engines: [
        { name: "primary", version: "2.1.3" },
        { name: "second", version: null },
      ],
    }),
  ];

  it("says nothing on this machine", () => {
    expect(runnerNotes(runners, "local", "second")).toEqual([]);
  });

  it("says the folder is on the chosen host, and that the engine may be missing there", () => {
    expect(runnerNotes(runners, "devbox", "primary")).toEqual(["The folder is a path on devbox."]);
    expect(runnerNotes(runners, "devbox", "second")).toEqual([
      "The folder is a path on devbox.",
      "devbox reported no version of second: its program may be missing there.",
    ]);
    expect(runnerNotes(undefined, "devbox", "second")).toEqual(["The folder is a path on devbox."]);
  });

  it("says where the folder must be for Auto", () => {
    expect(runnerNotes(runners, "auto", "primary")).toEqual([
      "Auto places it on the connected runner with room and the most memory free: the folder must exist there.",
    ]);
  });
});

describe("runnerLabel", () => {
  it("names the runner only when it is not this machine", () => {
    expect(runnerLabel(session("s1"))).toBeNull();
    expect(runnerLabel(session("s1", { runner: "devbox" }))).toBe("devbox");
    expect(runnerLabel({ runner: "" })).toBeNull();
  });
});

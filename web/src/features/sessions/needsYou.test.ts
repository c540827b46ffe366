import { describe, expect, it } from "vitest";
import type { Activity } from "../../shared/api/types.generated";
import { session } from "./fixtures";
import { durationWords, errorWords, needsYou, needsYouReason, waitWords } from "./needsYou";

const said = (text: string, kind: Activity["kind"] = "writing"): Activity => ({
  kind,
  text,
  at: "2026-01-01T10:00:00Z",
});

describe("which sessions need you", () => {
  it("keeps those waiting for input or failed, not archived, newest first", () => {
    const cards = needsYou([
      session("old-wait", { status: "waiting_for_input", updatedAt: "2026-01-01T09:00:00Z" }),
      session("running", { status: "running", updatedAt: "2026-01-01T12:00:00Z" }),
      session("failed", { status: "failed", updatedAt: "2026-01-01T11:00:00Z", error: "boom" }),
      session("archived", { status: "waiting_for_input", archived: true, updatedAt: "2026-01-01T12:00:00Z" }),
      session("finished", { status: "finished", updatedAt: "2026-01-01T12:00:00Z" }),
      session("new-wait", { status: "waiting_for_input", updatedAt: "2026-01-01T11:30:00Z" }),
      session("archived-failure", { status: "failed", archived: true }),
    ]);
    expect(cards.map((c) => c.session.id)).toEqual(["new-wait", "failed", "old-wait"]);
    expect(cards.map((c) => c.since)).toEqual(["2026-01-01T11:30:00Z", "2026-01-01T11:00:00Z", "2026-01-01T09:00:00Z"]);
  });

  it("leaves out a waiting session already answered: its follow-up is queued and it moves on", () => {
    const answered = session("answered", { status: "waiting_for_input", pendingMessages: 1 });
    expect(needsYou([answered])).toEqual([]);
    expect(needsYou([{ ...answered, pendingMessages: 0 }])).toHaveLength(1);
  });

  it("leaves out a session answered here until a later turn waits again", () => {
    const waiting = session("w", { status: "waiting_for_input", turns: 1 });
    const answeredAtOne = new Map([["w", 1]]);
    expect(needsYou([waiting], answeredAtOne)).toEqual([]);
    expect(needsYou([{ ...waiting, turns: 2 }], answeredAtOne)).toHaveLength(1);
    expect(needsYou([{ ...waiting, status: "failed" }], answeredAtOne)).toHaveLength(1);
  });

  it("orders equal times by id, so the cards do not swap places between draws", () => {
    const at = "2026-01-01T10:00:00Z";
    const cards = needsYou([
      session("b", { status: "failed", updatedAt: at }),
      session("a", { status: "waiting_for_input", updatedAt: at }),
    ]);
    expect(cards.map((c) => c.session.id)).toEqual(["a", "b"]);
  });

  it("says a session asked a question when the rule read its turn so, or its last step was the question tool", () => {
    const [tool] = needsYou([session("t", { status: "waiting_for_input", activity: said("AskUserQuestion", "tool") })]);
    expect(tool?.reason).toBe("question");
    expect(tool?.said).toBeNull();
    const [asked] = needsYou([
      session("w", {
        status: "waiting_for_input",
        turnEnd: "asked",
        activity: said("Should I use Postgres or SQLite? "),
      }),
    ]);
    expect(asked).toMatchObject({ reason: "question", said: "Should I use Postgres or SQLite?" });
  });

  it("leaves out a turn that did its work: done, answerable, nobody waited on", () => {
    const done = session("d", { status: "waiting_for_input", turnEnd: "done", activity: said("Done with the fix.") });
    expect(needsYou([done])).toEqual([]);
    expect(needsYouReason(done)).toBeNull();
    // What holds the session (an approval, an input request) still needs you, whatever the turn said.
    expect(needsYouReason(done, new Set(["d"]))).toBe("approval");
    expect(needsYouReason({ ...done, awaitingApproval: true })).toBe("approval");
  });

  it("counts a waiting turn the rule has not read yet as asking, so no question is missed meanwhile", () => {
    expect(needsYouReason(session("u", { status: "waiting_for_input", turnEnd: null }))).toBe("reply");
  });

  it("never holds a running, finished or archived session, and always a failed one", () => {
    expect(needsYouReason(session("r", { status: "running" }))).toBeNull();
    expect(needsYouReason(session("f", { status: "finished" }))).toBeNull();
    expect(needsYouReason(session("a", { status: "waiting_for_input", turnEnd: "asked", archived: true }))).toBeNull();
    expect(needsYouReason(session("x", { status: "failed" }))).toBe("failed");
  });

  it("says a session awaits approval when its data says so", () => {
    const [card] = needsYou([session("s", { status: "waiting_for_input", awaitingApproval: true })]);
    expect(card?.reason).toBe("approval");
  });

  it("otherwise waits for a reply, with what it wrote last, and not what it did", () => {
    const [wrote] = needsYou([session("w", { status: "waiting_for_input", activity: said("All tests pass.") })]);
    expect(wrote).toMatchObject({ reason: "reply", said: "All tests pass." });
    const [read] = needsYou([session("r", { status: "waiting_for_input", activity: said("src/main.rs", "reading") })]);
    expect(read).toMatchObject({ reason: "reply", said: null });
    const [silent] = needsYou([session("q", { status: "waiting_for_input" })]);
    expect(silent).toMatchObject({ reason: "reply", said: null });
  });

  it("gives a failed session its error in words, not what it wrote", () => {
    const [card] = needsYou([
      session("f", {
        status: "failed",
        activity: said("Compiling…"),
        error: "the engine exited with status 3: no such target\nat line 2",
      }),
    ]);
    expect(card).toMatchObject({ reason: "failed", said: "The engine stopped with an error: no such target." });
  });
});

describe("an error in words", () => {
  it("says the engine's exit and signals plainly, from the first line only", () => {
    expect(errorWords("the engine exited with status 1")).toBe("The engine stopped with exit status 1.");
    expect(errorWords("the engine exited with status 2: API Error: 529 overloaded")).toBe(
      "The engine stopped with an error: API Error: 529 overloaded.",
    );
    expect(errorWords("the engine was killed by signal 9")).toBe("The engine was killed (SIGKILL).");
    expect(errorWords("the engine was killed by signal 15: stopping")).toBe(
      "The engine was terminated (SIGTERM): stopping.",
    );
    expect(errorWords("lost track of the engine process: No child processes (os error 10)")).toBe(
      "Switchboard lost track of the engine's process: the process had already ended.",
    );
    expect(errorWords("\n  engine `echo` has no command to run\nmore")).toBe("Engine `echo` has no command to run.");
  });

  it("keeps a sentence's own stop, and cuts a long one", () => {
    expect(errorWords("Usage limit reached!")).toBe("Usage limit reached!");
    const long = errorWords(`x${"y".repeat(400)}`);
    expect(long).toHaveLength(200);
    expect(long.endsWith("…")).toBe(true);
  });

  it("says when there is no message at all", () => {
    expect(errorWords("error_max_turns")).toBe("It stopped at its turn limit before it finished.");
    expect(errorWords(null)).toBe("It failed without saying why.");
    expect(errorWords("  \n ")).toBe("It failed without saying why.");
  });
});

describe("how long it waited", () => {
  it("writes a wait to the unit that matters", () => {
    const min = 60_000;
    expect(durationWords(0)).toBe("under a minute");
    expect(durationWords(59_999)).toBe("under a minute");
    expect(durationWords(-5_000)).toBe("under a minute");
    expect(durationWords(5 * min)).toBe("5 min");
    expect(durationWords(60 * min)).toBe("1 h");
    expect(durationWords(125 * min)).toBe("2 h 5 min");
    expect(durationWords(24 * 60 * min)).toBe("1 d");
    expect(durationWords((3 * 24 + 4) * 60 * min + 59 * min)).toBe("3 d 4 h");
  });

  it("says a wait as waiting, and a failure as past", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(waitWords({ reason: "question", since: "2026-01-01T11:55:00Z" }, now)).toBe("Waiting 5 min");
    expect(waitWords({ reason: "reply", since: "2026-01-01T12:00:00Z" }, now)).toBe("Waiting under a minute");
    expect(waitWords({ reason: "failed", since: "2026-01-01T10:00:00Z" }, now)).toBe("Failed 2 h ago");
    expect(waitWords({ reason: "failed", since: "2026-01-01T11:59:30Z" }, now)).toBe("Failed just now");
  });
});

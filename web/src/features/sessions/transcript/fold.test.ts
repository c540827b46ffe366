import { describe, expect, test } from "vitest";
import type { Entry, EntryBody } from "../../../shared/api/types.generated";
import { FINAL_MARKER, foldSettingsOf, foldTurn, type FoldSettings, type TurnRow } from "./fold";

const DEFAULTS: FoldSettings = foldSettingsOf(undefined);

/** Entries of turn 1 numbered from 1, in order. */
function turn(...bodies: EntryBody[]): Entry[] {
  return bodies.map((body, i) => ({ seq: i + 1, turn: 1, at: null, ...body }));
}

const text = (t: string): EntryBody => ({ kind: "text", text: t });
const thinking = (t: string): EntryBody => ({ kind: "thinking", text: t });
const final = (t: string): EntryBody => ({ kind: "final", text: t });
const call = (name: string): EntryBody => ({ kind: "tool_call", toolId: name, name, input: {} });
const result = (name: string): EntryBody => ({ kind: "tool_result", toolId: name, output: "ok", isError: false });
const error = (message: string): EntryBody => ({ kind: "error", message });
const marked = (before: string, after: string) => [before, FINAL_MARKER, after].filter((l) => l !== "").join("\n");

/** A row in a compact form: a shown entry's text or name, `[…]` for a fold, `---` for a marker. */
function describeRow(row: TurnRow): string {
  if (row.kind === "marker") return "---";
  if (row.kind === "folded") return `[${row.entries.map((e) => describeEntry(e)).join(", ")}]`;
  return describeEntry(row.entry);
}
function describeEntry(entry: Entry): string {
  switch (entry.kind) {
    case "tool_call":
      return `call ${entry.name}`;
    case "tool_result":
      return "result";
    case "error":
      return `error ${entry.message}`;
    case "todo":
      return "todo";
    case "permission":
      return `permission ${entry.tool} ${entry.decision}`;
    default:
      return `${entry.kind} ${entry.text}`;
  }
}
const fold = (entries: Entry[], settings: Partial<FoldSettings> = {}) =>
  foldTurn(entries, { ...DEFAULTS, ...settings }).map(describeRow);

describe("defaults", () => {
  test("are the catalog's", () => {
    expect(DEFAULTS).toEqual({
      alwaysHide: true,
      showAllBlocks: true,
      structuralFloor: true,
      debug: false,
      cliBoundaryWins: false,
    });
  });
  test("follow the stored values", () => {
    expect(foldSettingsOf({ finalMessageMarkerDebug: true, finalMessageMarkerAlwaysHide: false })).toMatchObject({
      debug: true,
      alwaysHide: false,
    });
  });
});

describe("without a marker", () => {
  test("a turn without a final entry shows everything (a command engine, or a turn still running)", () => {
    expect(fold(turn({ kind: "stdout", text: "a" }, { kind: "stdout", text: "b" }))).toEqual(["stdout a", "stdout b"]);
    expect(fold(turn(thinking("hm"), call("Read"), result("Read")))).toEqual(["thinking hm", "call Read", "result"]);
  });

  test("the engine's boundary folds everything before the final into one row", () => {
    expect(fold(turn(thinking("hm"), call("Read"), result("Read"), text("Plan"), final("Done")))).toEqual([
      "[thinking hm, call Read, result, text Plan]",
      "final Done",
    ]);
  });

  test("the final's copy as a text entry is dropped, so the answer shows once", () => {
    expect(fold(turn(call("Read"), result("Read"), text("Done"), final("Done")))).toEqual([
      "[call Read, result]",
      "final Done",
    ]);
    expect(fold(turn(text("Done"), final("Done")))).toEqual(["final Done"]);
  });

  test("only the last copy is dropped; an earlier identical message stays folded", () => {
    expect(fold(turn(text("Done"), call("X"), text("Done"), final("Done")))).toEqual([
      "[text Done, call X]",
      "final Done",
    ]);
  });

  test("an error is never folded away", () => {
    expect(fold(turn(call("X"), error("boom"), text("Plan"), final("Done")))).toEqual([
      "[call X]",
      "error boom",
      "[text Plan]",
      "final Done",
    ]);
  });

  test("the fold's key is its first entry's seq, so it stays while the turn grows", () => {
    const rows = foldTurn(turn(call("X"), result("X"), final("Done")), DEFAULTS);
    expect(rows[0]).toMatchObject({ kind: "folded", key: "fold-1" });
  });
});

describe("with a marker", () => {
  test("the marker line is never shown, and what precedes it on a tool turn folds", () => {
    expect(fold(turn(call("Read"), result("Read"), thinking("hm"), text(marked("", "The answer"))))).toEqual([
      "[call Read, result, thinking hm]",
      "text The answer",
    ]);
  });

  test("a message split by the marker: its first part folds, its second shows", () => {
    expect(fold(turn(text("Let me look"), call("X"), result("X"), text(marked("Working notes", "Answer"))))).toEqual([
      "[text Let me look, call X, result]",
      "text Working notes",
      "text Answer",
    ]);
  });

  test("alwaysHide on: a plain answer (no tools) also folds what precedes the marker", () => {
    expect(fold(turn(thinking("hm"), text(marked("Draft", "Answer"))))).toEqual([
      "[thinking hm, text Draft]",
      "text Answer",
    ]);
  });

  test("alwaysHide off: a plain answer shows whole, only the marker line goes", () => {
    expect(fold(turn(thinking("hm"), text(marked("Draft", "Answer"))), { alwaysHide: false })).toEqual([
      "thinking hm",
      "text Draft",
      "text Answer",
    ]);
  });

  test("alwaysHide off still folds on a turn that used tools", () => {
    expect(fold(turn(call("X"), result("X"), text(marked("", "Answer"))), { alwaysHide: false })).toEqual([
      "[call X, result]",
      "text Answer",
    ]);
  });

  test("the structural floor keeps a question written after the last tool step", () => {
    const entries = turn(
      call("X"),
      result("X"),
      text("Which one do you want?"),
      thinking("t"),
      text(marked("", "Summary")),
    );
    expect(fold(entries)).toEqual(["[call X, result]", "text Which one do you want?", "[thinking t]", "text Summary"]);
  });

  test("without the floor, the marker hides that question too", () => {
    const entries = turn(call("X"), result("X"), text("Which one do you want?"), text(marked("", "Summary")));
    expect(fold(entries, { structuralFloor: false })).toEqual([
      "[call X, result, text Which one do you want?]",
      "text Summary",
    ]);
  });

  test("the floor does not keep text written before the last tool step", () => {
    const entries = turn(text("First I read"), call("X"), result("X"), text(marked("", "Summary")));
    expect(fold(entries)).toEqual(["[text First I read, call X, result]", "text Summary"]);
  });

  test("the floor does not apply to a plain answer (no tool step)", () => {
    expect(fold(turn(text("Draft"), text(marked("", "Answer"))))).toEqual(["[text Draft]", "text Answer"]);
  });

  test("showAllBlocks on: every marked message shows, what lies between them folds", () => {
    const entries = turn(
      thinking("a"),
      text(marked("", "Part one")),
      text("continued"),
      call("X"),
      result("X"),
      text("narration"),
      text(marked("", "Part two")),
    );
    expect(fold(entries, { structuralFloor: false })).toEqual([
      "[thinking a]",
      "text Part one",
      "text continued",
      "[call X, result, text narration]",
      "text Part two",
    ]);
  });

  test("showAllBlocks off: only the last marked message shows", () => {
    const entries = turn(text(marked("", "Part one")), call("X"), result("X"), text(marked("", "Part two")));
    expect(fold(entries, { showAllBlocks: false })).toEqual(["[text Part one, call X, result]", "text Part two"]);
  });

  test("everything after the last marker shows, tool steps included", () => {
    expect(fold(turn(thinking("t"), text(marked("", "Answer")), call("X")))).toEqual([
      "[thinking t]",
      "text Answer",
      "call X",
    ]);
  });

  test("a marker as a message's last line leaves nothing empty behind", () => {
    expect(fold(turn(call("X"), text(marked("Answer", "")), text("After")))).toEqual([
      "[call X]",
      "text Answer",
      "text After",
    ]);
  });

  test("a marker inside thinking is not a marker", () => {
    expect(fold(turn(thinking(marked("", "no")), text("Answer")))).toEqual([
      `thinking ${marked("", "no")}`,
      "text Answer",
    ]);
  });

  test("a marker needs a line of its own (surrounding spaces allowed)", () => {
    expect(fold(turn(call("X"), text(`see ${FINAL_MARKER} here`)))).toEqual([
      "call X",
      `text see ${FINAL_MARKER} here`,
    ]);
    expect(fold(turn(call("X"), text(`  ${FINAL_MARKER}  \nAnswer`)))).toEqual(["[call X]", "text Answer"]);
  });

  test("with the engine's final: the marked copy is dropped and the final is split at its marker", () => {
    const answer = marked("", "Answer");
    expect(fold(turn(call("X"), result("X"), text(answer), final(answer)))).toEqual([
      "[call X, result]",
      "final Answer",
    ]);
  });

  test("the marker wins over the engine's boundary by default", () => {
    const entries = turn(call("X"), text(marked("", "Marked")), text("Last words"), final("Last words"));
    expect(fold(entries)).toEqual(["[call X]", "text Marked", "final Last words"]);
  });

  test("cliBoundaryWins: the engine's final is the boundary and the marker is only dropped", () => {
    const entries = turn(call("X"), text(marked("", "Marked")), text("Last words"), final("Last words"));
    expect(fold(entries, { cliBoundaryWins: true })).toEqual(["[call X, text Marked]", "final Last words"]);
  });

  test("cliBoundaryWins without a final (still running, or a command engine): the marker rules", () => {
    expect(fold(turn(call("X"), text(marked("", "Marked"))), { cliBoundaryWins: true })).toEqual([
      "[call X]",
      "text Marked",
    ]);
  });

  test("debug: a divider at each marker and nothing hidden", () => {
    const entries = turn(call("X"), text(marked("Notes", "Answer")));
    expect(fold(entries, { debug: true })).toEqual(["call X", "text Notes", "---", "text Answer"]);
  });

  test("an error before the marker stays shown", () => {
    expect(fold(turn(call("X"), error("denied"), text(marked("", "Answer"))))).toEqual([
      "[call X]",
      "error denied",
      "text Answer",
    ]);
  });
});

import { expect, test } from "vitest";
import type { Entry } from "../../../shared/api/types.generated";
import { foldSettingsOf } from "./fold";
import { entryOfEvent, groupEntries, LOG_MAX_ENTRIES, LOG_MAX_CHARS, mergeEntries, transcriptRows } from "./rows";

const out = (seq: number, turn = 1): Entry => ({ seq, turn, at: null, kind: "stdout", text: `line ${seq}` });
const seqs = (entries: Entry[]) => entries.map((e) => e.seq);

test("live output after what is held is appended", () => {
  expect(seqs(mergeEntries([out(1), out(2)], [out(3)]))).toEqual([1, 2, 3]);
});

test("an earlier page goes in front", () => {
  expect(seqs(mergeEntries([out(5), out(6)], [out(2), out(3)]))).toEqual([2, 3, 5, 6]);
});

test("overlaps (live output that arrived before its page) are kept once, in order", () => {
  expect(seqs(mergeEntries([out(4), out(7)], [out(3), out(4), out(5)]))).toEqual([3, 4, 5, 7]);
  expect(seqs(mergeEntries([], [out(1)]))).toEqual([1]);
  expect(seqs(mergeEntries([out(1)], []))).toEqual([1]);
});

test("an output event becomes an entry, with the time it was stored", () => {
  const at = "2026-01-05T09:00:00.000Z";
  expect(entryOfEvent({ sessionId: "s", turn: 2, seq: 9, at, entry: { kind: "stdout", text: "hi" } })).toEqual({
    seq: 9,
    turn: 2,
    at,
    kind: "stdout",
    text: "hi",
  });
});

const settings = foldSettingsOf(undefined);

test("each turn opens with its header and what the user sent, when known", () => {
  const rows = transcriptRows([out(1), out(2), out(3, 2)], settings, new Map([[1, "hello"]]), true, 2);
  expect(rows.map((r) => r.key)).toEqual(["turn-1", "log-1", "turn-2", "log-3"]);
  expect(rows[0]).toMatchObject({ kind: "turn", turn: 1, input: "hello" });
  expect(rows[2]).toMatchObject({ kind: "turn", turn: 2, input: null });
});

test("a turn cut by the page's start has no header until its start is loaded", () => {
  const rows = transcriptRows([out(5, 3), out(6, 4)], settings, new Map(), false, 4);
  expect(rows.map((r) => r.key)).toEqual(["log-5", "turn-4", "log-6"]);
});

test("started turns without output yet show their header", () => {
  const rows = transcriptRows([out(1)], settings, new Map([[2, "next"]]), true, 2);
  expect(rows.map((r) => r.key)).toEqual(["turn-1", "log-1", "turn-2"]);
  expect(transcriptRows([], settings, new Map(), true, 1).map((r) => r.key)).toEqual(["turn-1"]);
});

test("folds keep their key", () => {
  const entries: Entry[] = [
    { seq: 1, turn: 1, at: null, kind: "tool_call", toolId: "t", name: "Read", input: {} },
    { seq: 2, turn: 1, at: null, kind: "final", text: "Done" },
  ];
  expect(transcriptRows(entries, settings, new Map(), true, 1).map((r) => r.key)).toEqual([
    "turn-1",
    "fold-1",
    "entry-2",
  ]);
});

test("a turn's input entry is its header's text, and a page starting with it shows the header", () => {
  const input = (seq: number, turn: number, text: string): Entry => ({
    seq,
    turn,
    at: null,
    kind: "input",
    text,
    source: "message",
  });
  const rows = transcriptRows([input(4, 2, "and now?"), out(5, 2)], settings, new Map([[2, "stale"]]), false, 2);
  expect(rows.map((r) => r.key)).toEqual(["turn-2", "log-5"]);
  expect(rows[0]).toMatchObject({ kind: "turn", turn: 2, input: "and now?" });
});

const call = (seq: number, toolId: string | null, name = "Bash"): Entry => ({
  seq,
  turn: 1,
  at: null,
  kind: "tool_call",
  toolId,
  name,
  input: { command: "ls" },
});
const result = (seq: number, toolId: string | null, isError = false): Entry => ({
  seq,
  turn: 1,
  at: null,
  kind: "tool_result",
  toolId,
  output: "ok",
  isError,
});
const err = (seq: number): Entry => ({ seq, turn: 1, at: null, kind: "stderr", text: `warning ${seq}` });

test("a tool call and its result are one row, matched by id even when calls ran side by side", () => {
  const rows = groupEntries([call(1, "a"), call(2, "b"), result(3, "b"), result(4, "a", true)]);
  expect(rows.map((r) => (r.kind === "tool" ? [r.call.seq, r.result?.seq] : r.kind))).toEqual([
    [1, 4],
    [2, 3],
  ]);
});

test("a result without an id joins the call right before it; one whose call is not held stands alone", () => {
  expect(groupEntries([call(1, null), result(2, null)]).map((r) => r.kind)).toEqual(["tool"]);
  expect(groupEntries([result(2, "gone")]).map((r) => r.kind)).toEqual(["entry"]);
  const running = groupEntries([call(1, "x")])[0];
  expect(running).toMatchObject({ kind: "tool", result: null });
});

test("consecutive output of one stream is one log, named by its first line", () => {
  const rows = transcriptRows([out(1), out(2), err(3), out(4), out(5)], settings, new Map(), true, 1);
  expect(rows.map((r) => r.key)).toEqual(["turn-1", "log-1", "log-3", "log-4"]);
  expect(rows[1]).toMatchObject({ kind: "log", stream: "stdout" });
  expect(rows[1]?.kind === "log" && rows[1].entries.map((e) => e.seq)).toEqual([1, 2]);
});

test("a long run of output is cut into logs of a bounded size", () => {
  const many = Array.from({ length: LOG_MAX_ENTRIES * 2 + 5 }, (_, i) => out(i + 1));
  const logs = groupEntries(many);
  expect(logs.map((r) => (r.kind === "log" ? r.entries.length : 0))).toEqual([LOG_MAX_ENTRIES, LOG_MAX_ENTRIES, 5]);
  const big: Entry = { seq: 1, turn: 1, at: null, kind: "stdout", text: "x".repeat(LOG_MAX_CHARS) };
  expect(groupEntries([big, { ...big, seq: 2 }])).toHaveLength(2);
});

test("a fold holds its entries grouped, so 'N earlier steps' opens to exactly N rows", () => {
  const entries: Entry[] = [
    { seq: 1, turn: 1, at: null, kind: "thinking", text: "hm" },
    call(2, "a"),
    result(3, "a", true),
    call(4, "b"),
    result(5, "b"),
    err(6),
    { seq: 7, turn: 1, at: null, kind: "final", text: "Done" },
  ];
  const fold = transcriptRows(entries, settings, new Map(), true, 1).find((r) => r.kind === "folded");
  expect(fold?.kind === "folded" && fold.steps.map((s) => s.key)).toEqual(["entry-1", "entry-2", "entry-4", "log-6"]);
});

import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import type { Entry } from "../../../shared/api/types.generated";
import { ToolStep } from "./ToolStep";

type ToolCall = Extract<Entry, { kind: "tool_call" }>;
type ToolResult = Extract<Entry, { kind: "tool_result" }>;

const bash = (command: string): ToolCall => ({
  seq: 1,
  turn: 1,
  at: "2026-01-01T10:00:00.000Z",
  kind: "tool_call",
  toolId: "t",
  name: "Bash",
  input: { command },
});
const outcome = (output: string, isError: boolean): ToolResult => ({
  seq: 2,
  turn: 1,
  at: "2026-01-01T10:00:42.000Z",
  kind: "tool_result",
  toolId: "t",
  output,
  isError,
});
const text = (html: string) => html.replace(/<[^>]+>/g, "");

test("a failed step says so in a shape and a word, with its exit code, command and last lines unopened", () => {
  const lines = Array.from({ length: 12 }, (_, i) => `err ${i + 1}`).join("\n");
  const html = renderToStaticMarkup(
    <ToolStep call={bash("go build ./...")} result={outcome(`Exit code 1\n${lines}`, true)} />,
  );
  expect(html).toContain('data-tool-state="failed"');
  expect(html).toContain('<span aria-hidden="true">✗</span><span class="visually-hidden">Failed</span>');
  expect(text(html)).toContain("$ go build ./...");
  expect(text(html)).toContain("exit 1");
  expect(text(html)).toContain("42 s");
  expect(text(html)).toContain("+ 7 more lines");
  expect(text(html)).toContain("err 8\nerr 9\nerr 10\nerr 11\nerr 12");
  expect(text(html)).not.toContain("err 7\n");
  expect(html).not.toContain('"command"');
});

test("a step that worked is ✓ and shows no output until opened", () => {
  const html = renderToStaticMarkup(<ToolStep call={bash("ls")} result={outcome("a\nb\n", false)} />);
  expect(html).toContain('<span aria-hidden="true">✓</span><span class="visually-hidden">Succeeded</span>');
  expect(text(html)).not.toContain("a\nb");
  expect(html).not.toContain("step-tail");
});

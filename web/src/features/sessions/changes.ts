/** How a line of a unified diff is drawn: added, deleted, a hunk's header, a file header, or context. */
export type DiffLineKind = "added" | "deleted" | "hunk" | "header" | "context";

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ") || line.startsWith("index ")) {
    return "header";
  }
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "deleted";
  return "context";
}

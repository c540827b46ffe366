/** A file edit drawn as a line diff: its path, then each line marked added, deleted or the same. */
import { diffOf, type FileEdit } from "../edits";
import "./code.css";
import "./diff.css";

export function Diff({ edit }: { edit: FileEdit }) {
  return (
    <div className="diff">
      <div className="diff-path">{edit.path}</div>
      <pre className="code-block">
        {diffOf(edit).map((line, i) => (
          <div key={i} className={`diff-${line.kind}`}>
            {line.kind === "add" ? "+ " : line.kind === "del" ? "- " : "  "}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

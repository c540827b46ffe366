/** One cell of the board table, drawn and edited by its column's type. */
import { memo } from "react";
import { plainDay } from "../../../shared/time";
import { formatNumber } from "../format";
import { settingsOf, type Column, type JsonValue } from "../types";
import type { CellProps } from "./cellProps";
import { DropdownCell } from "./DropdownCell";
import { InlineEdit } from "./InlineEdit";
import { PeopleCell } from "./PeopleCell";
import { SessionLinkCell, sessionIdOf } from "./SessionLinkCell";
import { StatusCell } from "./StatusCell";
import { TimelineCell } from "./TimelineCell";

export interface CellChange {
  (itemId: string, column: Column, value: JsonValue): void;
}

interface Props {
  itemId: string;
  itemName: string;
  column: Column;
  value: unknown;
  onChange: CellChange;
}

export const Cell = memo(function Cell({ itemId, itemName, column, value, onChange }: Props) {
  const label = `${column.title} of ${itemName}`;
  const change = (next: unknown) => onChange(itemId, column, next as JsonValue);
  return (
    <div className={`cell cell-${column.type}`} role="cell" data-column-id={column.id}>
      <Editor column={column} value={value} label={label} onChange={change} />
    </div>
  );
});

function Editor(props: CellProps<unknown>) {
  const { column, value, label, onChange: change } = props;
  switch (column.type) {
    case "text": {
      const text = typeof value === "string" ? value : "";
      const commit = (next: string) => change(next === "" ? null : next);
      const sessionId = sessionIdOf(text);
      if (sessionId) return <SessionLinkCell sessionId={sessionId} text={text} label={label} onCommit={commit} />;
      return <InlineEdit display={text} initial={text} inputType="text" label={label} onCommit={commit} />;
    }
    case "number": {
      const settings = settingsOf(column);
      const unit = settings.unit;
      return (
        <InlineEdit
          display={formatNumber(value, settings)}
          initial={typeof value === "number" ? String(value) : ""}
          inputType="number"
          label={unit ? `${label} (${unit})` : label}
          className="number"
          onCommit={(text) => {
            if (text.trim() === "") return change(null);
            const figure = Number(text);
            if (Number.isFinite(figure)) change(figure);
          }}
        />
      );
    }
    case "date":
      return (
        <InlineEdit
          display={typeof value === "string" ? plainDay(value) : ""}
          initial={typeof value === "string" ? value : ""}
          inputType="date"
          label={label}
          onCommit={(text) => change(text === "" ? null : text)}
        />
      );
    case "checkbox":
      return (
        // The label is the touch target: the box alone is smaller than a finger.
        <label className="cell-check">
          <input
            type="checkbox"
            aria-label={label}
            checked={value === true}
            onChange={(e) => change(e.target.checked)}
          />
        </label>
      );
    case "status":
      return <StatusCell {...props} />;
    case "people":
      return <PeopleCell {...props} />;
    case "timeline":
      return <TimelineCell {...props} />;
    case "dropdown":
      return <DropdownCell {...props} />;
    default:
      return <span className="muted">{value === undefined || value === null ? "" : JSON.stringify(value)}</span>;
  }
}

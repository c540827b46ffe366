/** One item as a table row: its name, a cell per column, and delete. Memoised by item. */
import { memo, useState } from "react";
import { Cell, type CellChange } from "./cells/Cell";
import { InlineEdit } from "./cells/InlineEdit";
import { Button } from "../../shared/ui/Button";
import { Icon } from "../../shared/ui/Icon";
import type { Column, Item } from "./types";

interface Props {
  item: Item;
  columns: Column[];
  onChange: CellChange;
  onRename: (itemId: string, name: string) => void;
  onDelete: (itemId: string) => void;
  /** The item the address names: marked, and focusable so the board can put the focus on it. */
  targeted: boolean;
}

export const ItemRow = memo(function ItemRow({ item, columns, onChange, onRename, onDelete, targeted }: Props) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div
      className={targeted ? "board-row item-row item-row-target" : "board-row item-row"}
      role="row"
      data-item-id={item.id}
      aria-current={targeted ? "true" : undefined}
      tabIndex={targeted ? -1 : undefined}
    >
      <div className="cell cell-name" role="rowheader">
        <InlineEdit
          display={item.name}
          initial={item.name}
          inputType="text"
          label={`Name of ${item.name}`}
          onCommit={(name) => onRename(item.id, name)}
        />
      </div>
      {columns.map((column) => (
        <Cell
          key={column.id}
          itemId={item.id}
          itemName={item.name}
          column={column}
          value={item.values[column.id]}
          onChange={onChange}
        />
      ))}
      <div className="cell cell-actions" role="cell">
        {confirming ? (
          <Button variant="danger" autoFocus onBlur={() => setConfirming(false)} onClick={() => onDelete(item.id)}>
            Delete?
          </Button>
        ) : (
          <Button variant="icon" label={`Delete ${item.name}`} onClick={() => setConfirming(true)}>
            <Icon name="trash" />
          </Button>
        )}
      </div>
    </div>
  );
});

/** People as initials avatars from the member directory; the picker toggles members. */
import { useState } from "react";
import { initials, paletteColor, stringList } from "../format";
import { pillStyle } from "../../../shared/ui/Pill";
import { useMembers } from "../members";
import type { CellProps } from "./cellProps";
import { Popover } from "../../../shared/ui/Popover";

const SHOWN = 3;

/** Initials on the member's colour; `spoken` reads the full name where no text beside it says it. */
export function Avatar({ id, name, spoken = false }: { id: string; name: string; spoken?: boolean }) {
  return (
    <span className="avatar" title={name} style={pillStyle(paletteColor(id))}>
      <span aria-hidden="true">{initials(name)}</span>
      {spoken && <span className="visually-hidden">{name}</span>}
    </span>
  );
}

export function PeopleCell({ column, value, label, onChange }: CellProps<string[]>) {
  const [open, setOpen] = useState(false);
  const { members, byId } = useMembers();
  const ids = stringList(value);
  const toggle = (id: string) => {
    const next = ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
    onChange(next.length ? next : null);
  };
  return (
    <>
      <button type="button" className="cell-button people" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {/* Named by its content, "Owner of Alpha: Ada Lovelace": the initials are drawn, the names read. */}
        <span className="visually-hidden">{ids.length > 0 ? `${label}: ` : label}</span>
        {ids.slice(0, SHOWN).map((id) => (
          <Avatar key={id} id={id} name={byId.get(id)?.name ?? "Unknown member"} spoken />
        ))}
        {ids.length > SHOWN && <span className="avatar more">+{ids.length - SHOWN}</span>}
      </button>
      {open && (
        <Popover label={`Choose ${column.title}`} onClose={() => setOpen(false)}>
          {members.length === 0 && <p className="muted">The member directory is empty.</p>}
          <ul className="member-list">
            {members.map((m) => (
              <li key={m.id}>
                <label>
                  <input type="checkbox" checked={ids.includes(m.id)} onChange={() => toggle(m.id)} />
                  <Avatar id={m.id} name={m.name} />
                  <span>{m.name}</span>
                </label>
              </li>
            ))}
          </ul>
        </Popover>
      )}
    </>
  );
}

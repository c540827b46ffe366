/**
 * The dashboard toolbar's controls: connect boards, add a widget, People and Filter (which
 * scope every widget at once and say which boards they did not reach), Export and Invite.
 */
import { errorMessage } from "../../shared/api/errorMessage";
import { useMemo, useState } from "react";
import type { Board, Member } from "../../shared/api/types.generated";
import { inviteMember } from "./api";
import { WIDGET_MENU, type MenuWidgetType } from "./engine/widgetMenu";
import type { DashboardFilters, FilterRule } from "./engine/types";
import { FILTER_OP_CHOICES, addRule, opNeedsValue, removeRule, togglePerson, updateRule } from "./filterEdit";
import { Modal } from "./Modal";
import { PopoverButton } from "./PopoverButton";
import { WIDGET_LABELS, type ColumnOption } from "./widgetDefaults";

export function ConnectBoardsModal({
  boards,
  connected,
  onChange,
  onClose,
}: {
  boards: readonly Pick<Board, "id" | "name">[] | null;
  connected: readonly string[];
  onChange: (ids: string[]) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const known = new Set((boards ?? []).map((b) => b.id));
  const rows: Pick<Board, "id" | "name">[] = [
    ...(boards ?? []),
    ...connected.filter((id) => !known.has(id)).map((id) => ({ id, name: `Missing board ${id}` })),
  ];
  const shown = rows.filter((b) => b.name.toLowerCase().includes(query.trim().toLowerCase()));
  const toggle = (id: string) =>
    onChange(connected.includes(id) ? connected.filter((c) => c !== id) : [...connected, id]);
  return (
    <Modal title="Connect boards" onClose={onClose}>
      <input
        className="dash-search"
        placeholder="Search boards"
        aria-label="Search boards"
        value={query}
        autoFocus
        onChange={(e) => setQuery(e.target.value)}
      />
      {boards === null && <p className="dash-muted">Loading boards…</p>}
      <ul className="dash-check-list">
        {shown.map((b) => (
          <li key={b.id}>
            <label>
              <input type="checkbox" checked={connected.includes(b.id)} onChange={() => toggle(b.id)} /> {b.name}
            </label>
          </li>
        ))}
        {boards !== null && shown.length === 0 && <li className="dash-muted">No board matches.</li>}
      </ul>
      <p className="dash-muted dash-small">{connected.length} connected</p>
    </Modal>
  );
}

/** A menu of actions; choosing one closes the menu first. */
function ActionMenu({ items, close }: { items: { label: string; run: () => void }[]; close: () => void }) {
  return (
    <ul className="dash-menu" role="menu">
      {items.map((item) => (
        <li key={item.label}>
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              close();
              item.run();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function AddWidgetMenu({ onAdd }: { onAdd: (type: MenuWidgetType) => void }) {
  return (
    <PopoverButton label="+ Add widget" className="dash-add-widget">
      {(close) => (
        <ActionMenu
          close={close}
          items={WIDGET_MENU.map((type) => ({ label: WIDGET_LABELS[type], run: () => onAdd(type) }))}
        />
      )}
    </PopoverButton>
  );
}

export function PeopleMenu({
  members,
  filters,
  onChange,
}: {
  members: readonly Member[];
  filters: DashboardFilters;
  onChange: (filters: DashboardFilters) => void;
}) {
  const selected = Array.isArray(filters.people) ? filters.people : [];
  return (
    <PopoverButton label="People" badge={selected.length} className="dash-people">
      {() => (
        <ul className="dash-check-list">
          {members.length === 0 && <li className="dash-muted">No members yet: Invite adds one.</li>}
          {members.map((m) => (
            <li key={m.id}>
              <label>
                <input
                  type="checkbox"
                  checked={selected.includes(m.id)}
                  onChange={() => onChange(togglePerson(filters, m.id))}
                />{" "}
                {m.name}
              </label>
            </li>
          ))}
        </ul>
      )}
    </PopoverButton>
  );
}

function ruleColumn(rule: FilterRule): string {
  return typeof rule.column === "string" ? rule.column : "";
}

export function FilterMenu({
  columns,
  filters,
  notes,
  onChange,
}: {
  columns: readonly ColumnOption[];
  filters: DashboardFilters;
  notes: readonly string[];
  onChange: (filters: DashboardFilters) => void;
}) {
  const rules = Array.isArray(filters.rules) ? filters.rules : [];
  return (
    <PopoverButton label="Filter" badge={rules.length} className="dash-filter">
      {() => (
        <div className="dash-filter-panel">
          {rules.length === 0 && <p className="dash-muted">No rules: every item counts.</p>}
          {rules.map((rule, i) => (
            <div className="dash-rule" key={i} data-rule-index={i}>
              <select
                aria-label="Rule column"
                value={ruleColumn(rule)}
                onChange={(e) => onChange(updateRule(filters, i, { column: e.target.value }))}
              >
                {typeof rule.column !== "string" && <option value="">Board by board</option>}
                {columns.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
              <select
                aria-label="Rule operator"
                value={rule.op}
                onChange={(e) => onChange(updateRule(filters, i, { op: e.target.value }))}
              >
                {FILTER_OP_CHOICES.map((o) => (
                  <option key={o.op} value={o.op}>
                    {o.label}
                  </option>
                ))}
              </select>
              {opNeedsValue(rule.op) && (
                <input
                  aria-label="Rule value"
                  value={rule.value === undefined || rule.value === null ? "" : String(rule.value)}
                  onChange={(e) => onChange(updateRule(filters, i, { value: e.target.value }))}
                />
              )}
              <button
                type="button"
                className="dash-icon-button"
                aria-label="Remove rule"
                onClick={() => onChange(removeRule(filters, i))}
              >
                ✕
              </button>
            </div>
          ))}
          <button
            type="button"
            disabled={columns.length === 0}
            onClick={() => onChange(addRule(filters, columns[0]?.id ?? ""))}
          >
            + Add rule
          </button>
          <FilterNotes notes={notes} className="dash-filter-notes" />
        </div>
      )}
    </PopoverButton>
  );
}

export function ExportMenu({ onPng, onPdf }: { onPng: () => void; onPdf: () => void }) {
  return (
    <PopoverButton label="Export" className="dash-export">
      {(close) => (
        <ActionMenu
          close={close}
          items={[
            { label: "PNG image", run: onPng },
            { label: "Print / PDF", run: onPdf },
          ]}
        />
      )}
    </PopoverButton>
  );
}

/** The boards a rule or the People filter did not reach, in words. */
export function FilterNotes({ notes, className }: { notes: readonly string[]; className: string }) {
  if (notes.length === 0) return null;
  return (
    <ul className={className} data-testid="filter-notes">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

export function InviteModal({ onInvited, onClose }: { onInvited: (m: Member) => void; onClose: () => void }) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onInvited(await inviteMember(name.trim(), email.trim()));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="Invite a member" onClose={onClose}>
      <form onSubmit={submit} className="dash-form">
        <label className="dash-field">
          <span>Name</span>
          <input value={name} required autoFocus onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="dash-field">
          <span>Email (optional)</span>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {error && <p className="dash-error">{error}</p>}
        <button type="submit" disabled={busy || name.trim() === ""}>
          Invite
        </button>
      </form>
    </Modal>
  );
}

interface NameLookup {
  names: ReadonlyMap<string, string>;
  fallback: string;
  lookup: (id: string) => string;
}

function sameNames(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, name] of a) if (b.get(id) !== name) return false;
  return true;
}

/**
 * A name-by-id function that stays the same function while the names do: the widgets take it
 * as a prop, and each board arriving while the dashboard loads brings a new list of the same
 * names, which would otherwise redraw the whole grid.
 */
export function useNameLookup<T extends { id: string; name: string }>(rows: readonly T[] | null, fallback: string) {
  const names = useMemo(() => new Map((rows ?? []).map((r) => [r.id, r.name])), [rows]);
  const [last, setLast] = useState<NameLookup | null>(null);
  if (last && last.fallback === fallback && sameNames(last.names, names)) return last.lookup;
  const lookup = (id: string) => names.get(id) ?? `${fallback} ${id}`;
  setLast({ names, fallback, lookup });
  return lookup;
}

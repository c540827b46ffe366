/**
 * `/settings`: every key of `GET /settings`, named, grouped and described by the
 * generated catalog. Each change is sent at once; a refusal is shown beside
 * the field and the stored value stays. `#<pane>` in the address scrolls to
 * that section (see `panes.ts`).
 */
import { memo, useDeferredValue, useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { SETTING_DEFINITIONS, type SettingDefinition } from "../../shared/api/settings.generated";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { effectNote } from "./effectNote";
import { RestartButton } from "./RestartButton";
import { fieldFor, parseField, textOf, type Field } from "./settingFields";
import { useSettings } from "../../shared/settings";
import { useHash } from "../../shared/router";
import { paneFor, paneOf, slug } from "./panes";

interface Section {
  title: string;
  pane: string;
  /** The area's slug, the pane that opens its first section. */
  area: string;
  keys: string[];
}

const DEFINITIONS = new Map<string, SettingDefinition>(SETTING_DEFINITIONS.map((d) => [d.key, d]));

/** Catalog order, one section per area and section; keys this build does not describe come last. */
export function sectionsOf(keys: readonly string[]): Section[] {
  const sections = new Map<string, Section>();
  for (const key of keys) {
    const d = DEFINITIONS.get(key);
    const title = d ? (d.section === "general" ? d.area : `${d.area}: ${d.section}`) : "Other";
    let section = sections.get(title);
    if (!section) {
      const pane = d ? paneOf(d.area, d.section) : "other";
      section = { title, pane, area: d ? slug(d.area) : "other", keys: [] };
      sections.set(title, section);
    }
    section.keys.push(key);
  }
  return [...sections.values()];
}

/**
 * Whether a key is listed: it matches the filter (key, label or description), and it has an
 * effect in this version unless `showStoredOnly` (keys this build does not describe are listed,
 * so nothing stored is out of reach).
 */
export function isListed(key: string, needle: string, showStoredOnly: boolean): boolean {
  const d = DEFINITIONS.get(key);
  if (d && !d.inEffect && !showStoredOnly) return false;
  if (!needle) return true;
  return [key, d?.label ?? "", d?.description ?? ""].some((text) => text.toLowerCase().includes(needle));
}

/** How many of the keys have no effect in this version: what the switch below reveals. */
function storedOnlyCount(keys: readonly string[]): number {
  return keys.filter((key) => DEFINITIONS.get(key)?.inEffect === false).length;
}

export function SettingsPage() {
  const { values, error, update } = useSettings();
  const [filter, setFilter] = useState("");
  const [showStoredOnly, setShowStoredOnly] = useState(false);
  const needle = useDeferredValue(filter.trim().toLowerCase());
  const sections = useMemo(
    () => sectionsOf(Object.keys(values ?? {}).filter((k) => isListed(k, needle, showStoredOnly))),
    [values, needle, showStoredOnly],
  );
  const hidden = useMemo(() => storedOnlyCount(Object.keys(values ?? {})), [values]);
  const pane = paneFor(useHash(), sections);
  useEffect(() => {
    if (pane) document.querySelector(`[data-pane="${pane}"]`)?.scrollIntoView({ block: "start" });
  }, [pane]);

  if (error !== undefined) return <ErrorNote error={error} />;
  if (!values) return <Loading what="settings" />;

  return (
    <section className="page settings-page">
      <header className="page-head">
        <h1>Settings</h1>
        <RestartButton />
        <input
          type="search"
          aria-label="Filter settings"
          placeholder="Filter settings"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <label className="settings-stored-only">
          <input type="checkbox" checked={showStoredOnly} onChange={(e) => setShowStoredOnly(e.target.checked)} />
          Show settings that have no effect yet ({hidden})
        </label>
      </header>
      {sections.map((section) => (
        <section key={section.title} className="settings-section" aria-label={section.title} data-pane={section.pane}>
          <h2>{section.title}</h2>
          <div className="settings-list">
            {section.keys.map((key) => (
              <SettingRow key={key} settingKey={key} value={values[key]} onSave={update} />
            ))}
          </div>
        </section>
      ))}
      {sections.length === 0 && <p className="muted">No setting matches.</p>}
    </section>
  );
}

interface RowProps {
  settingKey: string;
  value: unknown;
  onSave: (key: string, value: unknown) => Promise<unknown>;
}

const SettingRow = memo(function SettingRow({ settingKey, value, onSave }: RowProps) {
  const definition = DEFINITIONS.get(settingKey);
  const field = fieldFor(definition, value);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = `setting-${settingKey}`;

  const save = async (next: unknown) => {
    setProblem(null);
    setSaving(true);
    try {
      await onSave(settingKey, next);
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="setting-row" data-setting={settingKey}>
      <div className="setting-label">
        <label htmlFor={id}>{definition ? definition.label : <code>{settingKey}</code>}</label>
        {definition && <span className="setting-description">{definition.description}</span>}
        {definition && (
          <span className={`setting-effect${definition.inEffect ? "" : " setting-stored-only"}`}>
            {effectNote(definition)}
          </span>
        )}
        {definition && (
          <code className="muted">
            {settingKey}
            {definition.guarded ? " · guarded" : ""}
          </code>
        )}
      </div>
      <div className="setting-control">
        <Control id={id} field={field} value={value} disabled={saving} onSave={save} onInvalid={setProblem} />
        {definition && field.kind !== "toggle" && field.kind !== "select" && (
          <span className="muted setting-accepted">Takes {definition.accepted}.</span>
        )}
        {problem && (
          <p className="inline-error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
});

interface ControlProps {
  id: string;
  field: Field;
  value: unknown;
  disabled: boolean;
  onSave: (value: unknown) => void;
  onInvalid: (reason: string) => void;
}

function Control({ id, field, value, disabled, onSave, onInvalid }: ControlProps) {
  switch (field.kind) {
    case "toggle":
      return (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          disabled={disabled}
          onChange={(e) => onSave(e.target.checked)}
        />
      );
    case "select":
      return (
        <select
          id={id}
          value={String(value)}
          disabled={disabled}
          onChange={(e) => onSave(parseField(field, e.target.value))}
        >
          {field.options.map((o) => (
            <option key={o} value={String(o)}>
              {o}
            </option>
          ))}
        </select>
      );
    default:
      return (
        <TextControl
          key={textOf(field, value)}
          id={id}
          field={field}
          value={value}
          onSave={onSave}
          onInvalid={onInvalid}
        />
      );
  }
}

/** Text, number and JSON fields save when left or on Enter (Ctrl+Enter for JSON), not on each key. */
function TextControl({ id, field, value, onSave, onInvalid }: Omit<ControlProps, "disabled">) {
  const initial = textOf(field, value);
  const [text, setText] = useState(initial);
  const commit = () => {
    if (text === initial) return;
    try {
      onSave(parseField(field, text));
    } catch (e) {
      onInvalid(errorMessage(e));
    }
  };
  if (field.kind === "json") {
    return (
      <textarea
        id={id}
        rows={Math.min(6, initial.split("\n").length)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) commit();
        }}
      />
    );
  }
  const number = field.kind === "number" ? field : undefined;
  return (
    <input
      id={id}
      type={number ? "number" : "text"}
      min={number?.min}
      max={number?.max}
      step={number ? (number.integer ? 1 : "any") : undefined}
      maxLength={field.kind === "text" ? field.maxLength : undefined}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit();
      }}
    />
  );
}

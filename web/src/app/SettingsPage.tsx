/**
 * `/settings`: a form generated from `GET /settings`. Each change is sent at
 * once; a refusal is shown beside the field and the stored value stays.
 */
import { memo, useDeferredValue, useState } from "react";
import { errorMessage } from "../shared/api/errorMessage";
import { ErrorNote, Loading } from "../shared/ui/Status";
import { fieldFor, humanize, parseField, textOf, type Field } from "./settingFields";
import { useSettings } from "./settings";

export function SettingsPage() {
  const { values, error, update } = useSettings();
  const [filter, setFilter] = useState("");
  const deferred = useDeferredValue(filter.trim().toLowerCase());

  if (error !== undefined) return <ErrorNote error={error} />;
  if (!values) return <Loading what="settings" />;
  const keys = Object.keys(values).filter(
    (k) => !deferred || k.toLowerCase().includes(deferred) || humanize(k).toLowerCase().includes(deferred),
  );

  return (
    <section className="page settings-page">
      <header className="page-head">
        <h1>Settings</h1>
        <input
          type="search"
          aria-label="Filter settings"
          placeholder="Filter settings"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </header>
      <div className="settings-list">
        {keys.map((key) => (
          <SettingRow key={key} settingKey={key} value={values[key]} onSave={update} />
        ))}
        {keys.length === 0 && <p className="muted">No setting matches.</p>}
      </div>
    </section>
  );
}

interface RowProps {
  settingKey: string;
  value: unknown;
  onSave: (key: string, value: unknown) => Promise<unknown>;
}

const SettingRow = memo(function SettingRow({ settingKey, value, onSave }: RowProps) {
  const field = fieldFor(settingKey, value);
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
      <label htmlFor={id} className="setting-label">
        <span>{humanize(settingKey)}</span>
        <code className="muted">{settingKey}</code>
      </label>
      <div className="setting-control">
        <Control id={id} field={field} value={value} disabled={saving} onSave={save} onInvalid={setProblem} />
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
        <select id={id} value={String(value)} disabled={disabled} onChange={(e) => onSave(e.target.value)}>
          {field.options.map((o) => (
            <option key={o} value={o}>
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
  return (
    <input
      id={id}
      type={field.kind === "number" ? "number" : "text"}
      step={field.kind === "number" ? "any" : undefined}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit();
      }}
    />
  );
}

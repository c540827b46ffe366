/**
 * The settings panel of one widget: title, function, column, chart type, grouping, date bucket,
 * the four sprint columns and the burndown's sprint. Every change goes straight to the draft.
 */
import type { WidgetConfig } from "./engine/types";
import { widgetLabel, type ColumnOption } from "./widgetDefaults";

const FUNCTIONS = ["count", "sum", "avg", "median", "min", "max"] as const;
const CHART_TYPES = ["bar", "column", "pie", "donut", "line"] as const;
const SPRINT_FIELDS = [
  { key: "sprintColumn", label: "Sprint column", types: ["text", "status", "dropdown"] },
  { key: "effortColumn", label: "Effort column", types: ["number"] },
  { key: "doneColumn", label: "Done column", types: ["status", "checkbox", "date", "timeline"] },
  { key: "dateColumn", label: "Date column", types: ["date", "timeline"] },
] as const;

export interface WidgetSettingsProps {
  widget: WidgetConfig;
  columns: readonly ColumnOption[];
  sprintNames: readonly string[];
  onChange: (widget: WidgetConfig) => void;
  onRemove: () => void;
  onClose: () => void;
}

function ColumnSelect({
  label,
  value,
  columns,
  types,
  extra,
  onChange,
}: {
  label: string;
  value: unknown;
  columns: readonly ColumnOption[];
  types?: readonly string[];
  extra?: { value: string; label: string }[];
  onChange: (value: string | undefined) => void;
}) {
  const options = types ? columns.filter((c) => types.includes(c.type) || c.type === "mixed") : columns;
  const custom = value !== undefined && typeof value !== "string";
  const current = typeof value === "string" ? value : custom ? "\u0000custom" : "";
  return (
    <label className="dash-field">
      <span>{label}</span>
      <select value={current} onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}>
        <option value="">—</option>
        {extra?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {options.map((c) => (
          <option key={c.id} value={c.id}>
            {c.title} ({c.type}
            {c.boardCount > 1 ? `, ${c.boardCount} boards` : ""})
          </option>
        ))}
        {typeof value === "string" &&
          value !== "" &&
          !options.some((c) => c.id === value) &&
          !extra?.some((o) => o.value === value) && (
            <option value={value}>{value} (not on the connected boards)</option>
          )}
        {custom && <option value={"\u0000custom"}>Board by board (set in the JSON)</option>}
      </select>
    </label>
  );
}

export function WidgetSettings({ widget, columns, sprintNames, onChange, onRemove, onClose }: WidgetSettingsProps) {
  const settings = widget.settings ?? {};
  const set = (key: string, value: unknown) => {
    const next = { ...settings };
    if (value === undefined || value === "") delete next[key];
    else next[key] = value;
    onChange({ ...widget, settings: next });
  };
  const fn = typeof settings.function === "string" ? settings.function : "count";
  const isSprint = widget.type === "velocity" || widget.type === "plannedVsUnplanned" || widget.type === "burndown";

  return (
    <aside className="dash-panel" aria-label="Widget settings">
      <div className="dash-panel-head">
        <strong>{widgetLabel(widget.type)} settings</strong>
        <button type="button" className="dash-icon-button" aria-label="Close settings" onClick={onClose}>
          ✕
        </button>
      </div>
      <label className="dash-field">
        <span>Title</span>
        <input value={widget.title ?? ""} onChange={(e) => onChange({ ...widget, title: e.target.value })} />
      </label>
      {(widget.type === "numbers" || widget.type === "chart") && (
        <>
          <label className="dash-field">
            <span>Function</span>
            <select value={fn} onChange={(e) => set("function", e.target.value)}>
              {FUNCTIONS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          <ColumnSelect
            label={fn === "count" ? "Column (count non-empty cells)" : "Number column"}
            value={settings.column}
            columns={columns}
            types={fn === "count" ? undefined : ["number"]}
            onChange={(v) => set("column", v)}
          />
        </>
      )}
      {widget.type === "chart" && (
        <>
          <label className="dash-field">
            <span>Chart type</span>
            <select value={String(settings.chartType ?? "bar")} onChange={(e) => set("chartType", e.target.value)}>
              {CHART_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <ColumnSelect
            label="Group by"
            value={settings.groupBy}
            columns={columns}
            extra={[
              { value: "group", label: "Group" },
              { value: "board", label: "Board" },
            ]}
            onChange={(v) => set("groupBy", v)}
          />
          <label className="dash-field">
            <span>Dates by</span>
            <select value={String(settings.dateBucket ?? "day")} onChange={(e) => set("dateBucket", e.target.value)}>
              <option value="day">day</option>
              <option value="week">week</option>
              <option value="month">month</option>
            </select>
          </label>
        </>
      )}
      {widget.type === "battery" && (
        <ColumnSelect
          label="Status column"
          value={settings.column}
          columns={columns}
          types={["status"]}
          onChange={(v) => set("column", v)}
        />
      )}
      {isSprint &&
        SPRINT_FIELDS.map((f) => (
          <ColumnSelect
            key={f.key}
            label={f.label}
            value={settings[f.key]}
            columns={columns}
            types={f.types}
            onChange={(v) => set(f.key, v)}
          />
        ))}
      {widget.type === "burndown" && (
        <label className="dash-field">
          <span>Sprint</span>
          <select value={String(settings.sprint ?? "")} onChange={(e) => set("sprint", e.target.value)}>
            <option value="">Latest</option>
            {sprintNames.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" className="dash-danger" onClick={onRemove}>
        Remove widget
      </button>
    </aside>
  );
}

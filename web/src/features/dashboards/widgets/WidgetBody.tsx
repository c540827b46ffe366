/**
 * Draws one widget's engine result: figures as text, charts on the chart canvas, the approximation
 * notes of the sprint widgets, and any configuration problem in words.
 * `onDrawn` is called once what the result shows is on screen.
 */
import { memo, useEffect, useMemo } from "react";
import type { WidgetResult } from "../engine/computeWidget";
import type { BatteryResult } from "../engine/computeBattery";
import type { NumbersResult } from "../engine/computeNumbers";
import type { TableResult } from "../engine/computeTable";
import { ChartCanvas, type ChartSizeMemo } from "./ChartCanvas";
import { burndownSpec, chartWidgetSpec, plannedSpec, velocitySpec, type ChartSpec } from "./chartSpec";
import { InfoIcon } from "../../../shared/ui/InfoIcon";
import { plainDay } from "../../../shared/time";

export interface WidgetBodyProps {
  result: WidgetResult;
  personName: (id: string) => string;
  boardName: (id: string) => string;
  onDrawn: () => void;
  /** Where the widget keeps its chart's last size (see `ChartCanvas`). */
  chartSize?: ChartSizeMemo;
}

function Drawn({ onDrawn, dep }: { onDrawn: () => void; dep: unknown }) {
  useEffect(() => onDrawn(), [onDrawn, dep]);
  return null;
}

function Missing({
  ids,
  boardName,
  what,
}: {
  ids: readonly string[];
  boardName: (id: string) => string;
  what: string;
}) {
  if (ids.length === 0) return null;
  return (
    <p className="dash-widget-note" title={ids.map(boardName).join(", ")}>
      {ids.length} board{ids.length === 1 ? "" : "s"} without {what}, left out.
    </p>
  );
}

/** `dep` is the result shown: a new result with the same text is still a new drawing. */
function Problem({ text, onDrawn, dep }: { text: string; onDrawn: () => void; dep: unknown }) {
  return (
    <div className="dash-widget-problem">
      {text}
      <Drawn onDrawn={onDrawn} dep={dep} />
    </div>
  );
}

function NumbersBody({
  result,
  onDrawn,
  boardName,
}: { result: NumbersResult } & Omit<WidgetBodyProps, "result" | "personName">) {
  if (result.problem) return <Problem text={result.problem} onDrawn={onDrawn} dep={result} />;
  return (
    <div className="dash-numbers">
      <div className="dash-figure" title={result.full} data-figure>
        {result.display}
      </div>
      {result.mixedUnits && (
        <ul className="dash-units">
          {result.figures.map((f) => (
            <li key={f.unit.unit} title={f.full}>
              {f.display} <span className="dash-muted">({f.unit.unit || "no unit"})</span>
            </li>
          ))}
        </ul>
      )}
      <div className="dash-muted dash-small">{result.function}</div>
      <Missing ids={result.boardsWithoutColumn} boardName={boardName} what="this column" />
      <Drawn onDrawn={onDrawn} dep={result} />
    </div>
  );
}

function BatteryBody({ result, onDrawn }: { result: BatteryResult; onDrawn: () => void }) {
  if (result.problem) return <Problem text={result.problem} onDrawn={onDrawn} dep={result} />;
  return (
    <div className="dash-battery">
      <div className="dash-battery-bar">
        {result.segments.map((s, i) => (
          <span
            key={s.label}
            style={{ width: `${s.share * 100}%`, background: s.color ?? `hsl(${(i * 67) % 360} 60% 55%)` }}
            title={`${s.label}: ${s.count} (${Math.round(s.share * 100)}%)`}
          />
        ))}
      </div>
      <div className="dash-muted dash-small">
        {Math.round(result.doneShare * 100)}% done · {result.total} items
      </div>
      <Drawn onDrawn={onDrawn} dep={result} />
    </div>
  );
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") {
    const v = value as { from?: string; to?: string };
    return v.from || v.to ? `${plainDay(v.from ?? "")} – ${plainDay(v.to ?? "")}` : JSON.stringify(value);
  }
  // A date cell is a day ("2026-11-21"), said as every page says a day.
  return typeof value === "string" ? plainDay(value) : String(value);
}

function TableBody({
  result,
  onDrawn,
  boardName,
}: {
  result: TableResult;
  onDrawn: () => void;
  boardName: (id: string) => string;
}) {
  return (
    <div className="dash-table-wrap">
      <table className="dash-table">
        <thead>
          <tr>
            <th>Item</th>
            <th>Board</th>
            {result.columns.map((c) => (
              <th key={c.key}>{c.title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((r) => (
            <tr key={r.itemId}>
              <td>{r.name}</td>
              <td>{boardName(r.boardId)}</td>
              {r.cells.map((cell, i) => (
                <td key={i}>{cellText(cell)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {result.truncated && (
        <p className="dash-muted dash-small">
          {result.rows.length} of {result.totalRows} rows
        </p>
      )}
      <Drawn onDrawn={onDrawn} dep={result} />
    </div>
  );
}

function ChartBody({
  spec,
  onDrawn,
  chartSize,
  empty,
  note,
}: {
  spec: ChartSpec;
  onDrawn: () => void;
  chartSize?: ChartSizeMemo;
  empty?: string | null;
  note?: string;
}) {
  return (
    <div className="dash-chart-body">
      {empty ? (
        <div className="dash-empty">
          {empty}
          <Drawn onDrawn={onDrawn} dep={spec} />
        </div>
      ) : (
        <ChartCanvas spec={spec} onDrawn={onDrawn} sizeMemo={chartSize} />
      )}
      {note && (
        <p className="dash-widget-note" title={note}>
          <InfoIcon /> {note}
        </p>
      )}
    </div>
  );
}

/**
 * Memoised: the same result (kept as the same object when the worker says it is unchanged) with
 * the same callbacks draws nothing again.
 */
export const WidgetBody = memo(function WidgetBody({
  result,
  personName,
  boardName,
  onDrawn,
  chartSize,
}: WidgetBodyProps) {
  const spec = useMemo(() => {
    switch (result.kind) {
      case "chart":
        return chartWidgetSpec(result, personName);
      case "velocity":
        return velocitySpec(result);
      case "plannedVsUnplanned":
        return plannedSpec(result);
      case "burndown":
        return burndownSpec(result);
      default:
        return null;
    }
  }, [result, personName]);

  switch (result.kind) {
    case "numbers":
      return <NumbersBody result={result} onDrawn={onDrawn} boardName={boardName} />;
    case "chart":
      if (result.problem) return <Problem text={result.problem} onDrawn={onDrawn} dep={result} />;
      return (
        <>
          <ChartBody
            spec={spec as ChartSpec}
            onDrawn={onDrawn}
            chartSize={chartSize}
            empty={result.empty ? (result.emptyReason === "zero-total" ? "Nothing positive to show" : "No data") : null}
          />
          <Missing ids={result.boardsWithoutColumn} boardName={boardName} what="this column" />
        </>
      );
    case "velocity":
      if (result.problem) return <Problem text={result.problem} onDrawn={onDrawn} dep={result} />;
      return (
        <>
          <div className="dash-muted dash-small">
            Average completed (last {result.averageOver.length}): <strong>{result.averageDisplay}</strong>
            {result.unestimatedCount > 0 && ` · ${result.unestimatedCount} unestimated`}
          </div>
          <ChartBody
            spec={spec as ChartSpec}
            onDrawn={onDrawn}
            chartSize={chartSize}
            empty={result.sprints.length === 0 ? "No sprints" : null}
          />
          <Missing ids={result.boardsWithoutSprintColumn} boardName={boardName} what="the sprint column" />
        </>
      );
    case "plannedVsUnplanned":
      if (result.problem) return <Problem text={result.problem} onDrawn={onDrawn} dep={result} />;
      return (
        <ChartBody
          spec={spec as ChartSpec}
          onDrawn={onDrawn}
          chartSize={chartSize}
          empty={result.sprints.length === 0 ? "No sprints" : null}
          note={result.note}
        />
      );
    case "burndown":
      if (result.problem) return <Problem text={`${result.problem}. ${result.note}`} onDrawn={onDrawn} dep={result} />;
      return (
        <>
          <div className="dash-muted dash-small">
            {result.sprint} · {plainDay(result.start ?? "")} → {plainDay(result.end ?? "")}
          </div>
          <ChartBody spec={spec as ChartSpec} onDrawn={onDrawn} chartSize={chartSize} note={result.note} />
        </>
      );
    case "battery":
      return <BatteryBody result={result} onDrawn={onDrawn} />;
    case "table":
      return <TableBody result={result} onDrawn={onDrawn} boardName={boardName} />;
    case "apps":
      return <Problem text={result.message} onDrawn={onDrawn} dep={result} />;
    default:
      return <Problem text={`Unknown widget type “${result.type}”`} onDrawn={onDrawn} dep={result} />;
  }
});

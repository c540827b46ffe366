/**
 * The dashboard's grid: react-grid-layout on 12 columns, each widget in an element carrying
 * `data-widget-id`. Editable, a widget moves by dragging its title bar and resizes from its
 * right edge, bottom edge or corner; read-only (the public page), nothing moves. On a narrow
 * screen the widgets stack at full width and stay put: the arrangement is the desktop's.
 */
import { memo, useCallback, useEffect, useMemo, useRef } from "react";
import ReactGridLayout, { type Layout, useContainerWidth, verticalCompactor } from "react-grid-layout";
import "react-grid-layout/css/styles.css";
import "react-resizable/css/styles.css";
import type { WidgetResult } from "./engine/computeWidget";
import type { WidgetConfig } from "./engine/types";
import { type ResultsSource, useResults } from "./resultsStore";
import { GRID_COLS, GRID_MARGIN, NARROW_GRID_PX, ROW_HEIGHT, stackedLayout } from "./layout";
import type { ChartSize } from "./widgets/ChartCanvas";
import { WidgetBody } from "./widgets/WidgetBody";
import { widgetLabel } from "./widgetDefaults";
import { Icon } from "../../shared/ui/Icon";

export interface WidgetGridProps {
  widgets: readonly WidgetConfig[];
  /**
   * Each widget reads its own result here and marks `data-drawn` with the snapshot's `dataKey`
   * once drawn, and `data-drawn-at` with the page's clock then (so a bench reads when without
   * watching every frame); a new result redraws that widget alone.
   */
  results: ResultsSource;
  personName: (id: string) => string;
  boardName: (id: string) => string;
  editable: boolean;
  selectedId?: string | null;
  onLayout?: (layout: Layout) => void;
  onSettings?: (id: string) => void;
  gridRef?: React.Ref<HTMLDivElement>;
}

interface WidgetContentProps {
  widget: WidgetConfig;
  results: ResultsSource;
  personName: (id: string) => string;
  boardName: (id: string) => string;
  onSettings?: (id: string) => void;
}

function markDrawn(body: HTMLElement, key: unknown): void {
  body.dataset.drawn = String(key);
  body.dataset.drawnAt = performance.now().toFixed(1);
}

const WidgetContent = memo(function WidgetContent({
  widget,
  results,
  personName,
  boardName,
  onSettings,
}: WidgetContentProps) {
  // Undefined while the widget is being computed.
  const result = useResults(results, (r) => r.results.get(widget.id));
  const drawKey = useResults(results, (r) => r.dataKey);
  const bodyRef = useRef<HTMLDivElement>(null);
  const keyRef = useRef(drawKey);
  keyRef.current = drawKey;
  const resultRef = useRef(result);
  resultRef.current = result;
  /** The result the body last said is on screen. */
  const drawnRef = useRef<WidgetResult | undefined>(undefined);
  const chartSize = useRef<ChartSize | null>(null);
  const onDrawn = useCallback(() => {
    drawnRef.current = resultRef.current;
    if (bodyRef.current) markDrawn(bodyRef.current, keyRef.current);
  }, []);
  // New data with this widget's result unchanged (the same object): the body, memoised, draws
  // nothing, and what it shows is already the new data's.
  useEffect(() => {
    if (result && drawnRef.current === result && bodyRef.current) markDrawn(bodyRef.current, drawKey);
  }, [drawKey, result]);
  return (
    <>
      <div className="dash-widget-head">
        <span className="dash-drag" title={onSettings ? "Drag to move" : undefined}>
          {widget.title || widgetLabel(widget.type)}
        </span>
        {onSettings && (
          <button
            type="button"
            className="dash-icon-button dash-no-drag"
            aria-label={`Settings of ${widget.title || widget.type}`}
            onClick={() => onSettings(widget.id)}
          >
            <Icon name="gear" />
          </button>
        )}
      </div>
      <div className="dash-widget-body" ref={bodyRef}>
        {result ? (
          <WidgetBody
            result={result}
            personName={personName}
            boardName={boardName}
            onDrawn={onDrawn}
            chartSize={chartSize}
          />
        ) : (
          <div className="dash-muted">Computing…</div>
        )}
      </div>
    </>
  );
});

/** Memoised: a filter edit or a new result re-renders the widgets that changed, not the grid. */
export const WidgetGrid = memo(function WidgetGrid(props: WidgetGridProps) {
  const { widgets, onSettings, selectedId } = props;
  // The grid waits for its width: placed at a guessed one, every widget right of the first column
  // would glide to its place and every chart would draw twice.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const narrow = width < NARROW_GRID_PX;
  const editable = props.editable && !narrow;
  const onLayout = editable ? props.onLayout : undefined;
  const layout = useMemo(() => {
    const placed = widgets.map((w) => ({
      i: w.id,
      x: w.layout.x,
      y: w.layout.y,
      w: w.layout.w,
      h: w.layout.h,
      static: !editable,
    }));
    return narrow ? stackedLayout(placed) : placed;
  }, [widgets, editable, narrow]);
  return (
    <div ref={containerRef} className="dash-grid-container" data-stacked={narrow || undefined}>
      <div ref={props.gridRef} className="dash-grid-capture">
        {mounted && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols: GRID_COLS, rowHeight: ROW_HEIGHT, margin: GRID_MARGIN }}
            dragConfig={{ enabled: editable, handle: ".dash-widget-head", cancel: ".dash-no-drag", bounded: false }}
            resizeConfig={{ enabled: editable, handles: ["se", "e", "s"] }}
            compactor={verticalCompactor}
            onLayoutChange={editable ? onLayout : undefined}
          >
            {widgets.map((widget) => (
              <div
                key={widget.id}
                data-widget-id={widget.id}
                data-widget-type={widget.type}
                className={`dash-widget${selectedId === widget.id ? " dash-widget-selected" : ""}`}
              >
                <WidgetContent
                  widget={widget}
                  results={props.results}
                  personName={props.personName}
                  boardName={props.boardName}
                  onSettings={props.editable ? onSettings : undefined}
                />
              </div>
            ))}
          </ReactGridLayout>
        )}
      </div>
    </div>
  );
});

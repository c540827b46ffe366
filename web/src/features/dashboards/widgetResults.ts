/**
 * Widget results memoised per filter result: the filter step runs once per change of boards or
 * filters, and each widget is computed once per (filter result, type, settings). Moving or
 * resizing a widget, or editing another widget, recomputes nothing.
 */
import type { FilteredData } from "./engine/applyFilters";
import { type WidgetResult, computeWidget } from "./engine/computeWidget";
import type { WidgetConfig } from "./engine/types";

interface Entry {
  type: string;
  settings: WidgetConfig["settings"];
  result: WidgetResult;
}

export class WidgetResultCache {
  private data: FilteredData | null = null;
  private entries = new Map<string, Entry>();

  /** The widget's result over `data`, reused while neither the data nor its settings changed. */
  get(data: FilteredData, widget: WidgetConfig): WidgetResult {
    if (data !== this.data) {
      this.data = data;
      this.entries = new Map();
    }
    const hit = this.entries.get(widget.id);
    if (hit && hit.type === widget.type && hit.settings === widget.settings) return hit.result;
    const result = computeWidget(data, widget);
    this.entries.set(widget.id, { type: widget.type, settings: widget.settings, result });
    return result;
  }
}

/**
 * The inbox page's view reports for the Stats tab (`inboxAnalyticsEnabled`): which rows were on
 * screen, for how long, and whether they were left untouched, sent as counts per category every
 * minute, when the rows leave the page (the Stats tab opens, the page is hidden or closes). Row ids
 * stay in the browser.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "../../shared/api/client";
import type { InboxRow } from "../../shared/api/types.generated";
import { closeTally, emptyTally, rowHidden, rowShown, type ViewTally } from "./stats";

/** How often a report goes out while the page stays open. */
const REPORT_EVERY_MS = 60_000;

/** `rows` are the rows on the page, or undefined while none are shown. */
export function useViewReports(rows: readonly InboxRow[] | undefined, enabled: boolean) {
  const tally = useRef<ViewTally>(emptyTally());
  const current = useRef<readonly InboxRow[]>([]);
  // Coming back into view observes the rows afresh: an observer says nothing of rows that never moved.
  const [shownAgain, setShownAgain] = useState(0);

  const flush = useCallback(() => {
    const { reports, next } = closeTally(tally.current, current.current, performance.now());
    tally.current = next;
    if (reports.length === 0) return;
    // A lost report costs a minute of figures; the page does not bother the user with it.
    apiFetch("/inbox/stats/views", { method: "POST", body: reports }).catch(() => undefined);
  }, []);

  const hideAll = useCallback(() => {
    const at = performance.now();
    for (const id of [...tally.current.onScreen.keys()]) rowHidden(tally.current, id, at);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(flush, REPORT_EVERY_MS);
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        hideAll();
        flush();
      } else {
        setShownAgain((n) => n + 1);
      }
    };
    const onHide = () => {
      hideAll();
      flush();
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onHide);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onHide);
      onHide();
    };
  }, [enabled, flush, hideAll]);

  useEffect(() => {
    if (rows) current.current = rows;
    if (!enabled) return;
    if (!rows) {
      hideAll();
      flush();
      return;
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const at = performance.now();
    for (const id of [...tally.current.onScreen.keys()]) if (!byId.has(id)) rowHidden(tally.current, id, at);
    if (typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        const at = performance.now();
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.rowId;
          const row = id === undefined ? undefined : byId.get(id);
          if (!row) continue;
          if (entry.isIntersecting && document.visibilityState === "visible") rowShown(tally.current, row, at);
          else rowHidden(tally.current, row.id, at);
        }
      },
      { threshold: 0.5 },
    );
    for (const element of document.querySelectorAll<HTMLElement>(".inbox-list [data-row-id]"))
      observer.observe(element);
    // Rows that stay listed stay on screen with the time they came; the next observer corrects them.
    return () => observer.disconnect();
  }, [rows, enabled, shownAgain, flush, hideAll]);
}

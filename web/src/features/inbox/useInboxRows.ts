/**
 * The rows of one inbox tab, kept live: the first page of `GET /inbox`, further pages on demand
 * (`before=<last id>`), each `inbox` event merged in, and the first page read again on `reset`
 * or a reconnect.
 */
import { useCallback, useEffect, useState } from "react";
import type { InboxEvent, InboxRow } from "../../shared/api/types.generated";
import { listInbox } from "../../shared/inbox/api";
import { createCatchUp } from "../../shared/stream/catchUp";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { appendPage, applyEvent, type Tab } from "./list";

export const PAGE = 50;

export interface InboxRows {
  rows: readonly InboxRow[] | undefined;
  error: unknown;
  /** Whether a further page may exist. */
  more: boolean;
  loadingMore: boolean;
  loadMore(): void;
  reload(): void;
  /** Puts the server's answer to a change in place at once (its event may come later). */
  replace(row: InboxRow): void;
}

export function useInboxRows(tab: Tab): InboxRows {
  const [state, setState] = useState<{ tab: Tab; rows?: readonly InboxRow[]; error?: unknown; more: boolean }>({
    tab,
    more: false,
  });
  const [loadingMore, setLoadingMore] = useState(false);
  // Events that arrive while the first page is read are applied again to it once it comes.
  const [catchUp] = useState(() => createCatchUp<InboxEvent>());
  const category = tab === "all" ? undefined : tab;

  const reload = useCallback(() => {
    catchUp.read(
      listInbox({ category, limit: PAGE }),
      (page, missed) => {
        const now = new Date().toISOString();
        const rows = missed.reduce((held, event) => applyEvent(held, event, tab, now), page as readonly InboxRow[]);
        setState({ tab, rows, more: page.length === PAGE });
      },
      (error: unknown) => setState({ tab, error, more: false }),
    );
  }, [catchUp, tab, category]);
  useEffect(reload, [reload]);
  useStreamLifecycle("reset", reload);
  useStreamLifecycle("open", reload);

  useStreamEvent<InboxEvent>("inbox", (event) => {
    catchUp.heard(event);
    const now = new Date().toISOString();
    setState((held) => (held.rows ? { ...held, rows: applyEvent(held.rows, event, held.tab, now) } : held));
  });

  const rows = state.tab === tab ? state.rows : undefined;
  const last = rows?.[rows.length - 1]?.id;
  const loadMore = useCallback(() => {
    if (!last) return;
    const mine = catchUp.generation();
    setLoadingMore(true);
    listInbox({ category, limit: PAGE, before: last })
      .then(
        (page) =>
          mine === catchUp.generation() &&
          setState((held) => ({ ...held, rows: appendPage(held.rows ?? [], page), more: page.length === PAGE })),
        (error: unknown) => mine === catchUp.generation() && setState((held) => ({ ...held, error })),
      )
      .finally(() => setLoadingMore(false));
  }, [catchUp, category, last]);

  const replace = useCallback((row: InboxRow) => {
    const now = new Date().toISOString();
    setState((held) =>
      held.rows ? { ...held, rows: applyEvent(held.rows, { change: "updated", ...row }, held.tab, now) } : held,
    );
  }, []);

  return {
    rows,
    error: state.tab === tab ? state.error : undefined,
    more: state.tab === tab && state.more,
    loadingMore,
    loadMore,
    reload,
    replace,
  };
}

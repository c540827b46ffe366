/**
 * The rows of one inbox tab, kept live: the first page of `GET /inbox`, further pages on demand
 * (`before=<last id>`), each `inbox` event merged in, and the first page read again on `reset`
 * or a reconnect.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { InboxEvent, InboxRow } from "../../shared/api/types.generated";
import { listInbox } from "../../shared/inbox/api";
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
  const generation = useRef(0);
  const category = tab === "all" ? undefined : tab;

  // Events that arrive while the first page is read are applied again to it once it comes: the
  // server may have listed it before they happened.
  const missed = useRef<InboxEvent[] | null>(null);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    missed.current = [];
    listInbox({ category, limit: PAGE }).then(
      (page) => {
        if (mine !== generation.current) return;
        const now = new Date().toISOString();
        const rows = (missed.current ?? []).reduce(
          (held, event) => applyEvent(held, event, tab, now),
          page as readonly InboxRow[],
        );
        missed.current = null;
        setState({ tab, rows, more: page.length === PAGE });
      },
      (error: unknown) => {
        if (mine !== generation.current) return;
        missed.current = null;
        setState({ tab, error, more: false });
      },
    );
  }, [tab, category]);
  useEffect(reload, [reload]);
  useStreamLifecycle("reset", reload);
  useStreamLifecycle("open", reload);

  useStreamEvent<InboxEvent>("inbox", (event) => {
    missed.current?.push(event);
    const now = new Date().toISOString();
    setState((held) => (held.rows ? { ...held, rows: applyEvent(held.rows, event, held.tab, now) } : held));
  });

  const rows = state.tab === tab ? state.rows : undefined;
  const last = rows?.[rows.length - 1]?.id;
  const loadMore = useCallback(() => {
    if (!last) return;
    const mine = generation.current;
    setLoadingMore(true);
    listInbox({ category, limit: PAGE, before: last })
      .then(
        (page) =>
          mine === generation.current &&
          setState((held) => ({ ...held, rows: appendPage(held.rows ?? [], page), more: page.length === PAGE })),
        (error: unknown) => mine === generation.current && setState((held) => ({ ...held, error })),
      )
      .finally(() => setLoadingMore(false));
  }, [category, last]);

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

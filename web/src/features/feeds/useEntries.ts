/**
 * The entries the reader lists for one feed (or all) and filter: the first page, more by cursor,
 * and read/star applied at once and put back with the server's words when it refuses. A new
 * query shows as loading by itself, as `useApi` does.
 */
import { useCallback, useEffect, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { flagEntry, listEntries, type EntryFlag, type EntryQuery, type FeedEntry } from "./api";
import { appendPage, flagged } from "./reader";

interface Read {
  key: string;
  entries: FeedEntry[];
  next: string | null;
  error?: unknown;
}

const keyOf = (query: EntryQuery) => `${query.feedId ?? ""}\n${query.unread ? 1 : 0}\n${query.starred ? 1 : 0}`;

export function useEntries(query: EntryQuery) {
  const key = keyOf(query);
  const [read, setRead] = useState<Read | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const { feedId, unread, starred } = query;

  useEffect(() => {
    let live = true;
    listEntries({ feedId, unread, starred }).then(
      (page) => live && setRead({ key, entries: page.entries, next: page.next }),
      (error: unknown) => live && setRead({ key, entries: [], next: null, error }),
    );
    return () => {
      live = false;
    };
  }, [key, feedId, unread, starred, generation]);

  const current = read?.key === key ? read : null;
  const next = current?.next ?? null;

  const loadMore = useCallback(() => {
    if (!next || loadingMore) return;
    setLoadingMore(true);
    listEntries({ feedId, unread, starred, cursor: next })
      .then(
        (page) =>
          setRead((r) =>
            r && r.key === key ? { ...r, entries: appendPage(r.entries, page.entries), next: page.next } : r,
          ),
        (error: unknown) => setRefusal(errorMessage(error)),
      )
      .finally(() => setLoadingMore(false));
  }, [next, loadingMore, feedId, unread, starred, key]);

  /** Changes one listed entry in place (an optimistic flag, or "mark all read"). */
  const update = useCallback(
    (change: (entries: FeedEntry[]) => FeedEntry[]) => setRead((r) => r && { ...r, entries: change(r.entries) }),
    [],
  );

  /** Applies the flag at once; a refusal puts the entry back and says why. Resolves to whether the server took it. */
  const flag = useCallback(
    async (entry: FeedEntry, which: EntryFlag): Promise<boolean> => {
      update((entries) => entries.map((e) => (e.id === entry.id ? flagged(e, which) : e)));
      try {
        await flagEntry(entry.id, which);
        return true;
      } catch (error) {
        update((entries) => entries.map((e) => (e.id === entry.id ? entry : e)));
        setRefusal(errorMessage(error));
        return false;
      }
    },
    [update],
  );

  return {
    entries: current?.entries ?? [],
    next,
    error: current?.error,
    loading: current === null || loadingMore,
    refusal,
    dismiss: () => setRefusal(null),
    loadMore,
    flag,
    update,
    reload: () => setGeneration((g) => g + 1),
  };
}

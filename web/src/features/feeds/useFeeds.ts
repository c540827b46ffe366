/**
 * The reader's feeds: read once and again on asking, with the unread counts moved in place as
 * entries are read, so the list agrees with the entries without reading every feed again.
 */
import { useCallback, useEffect, useState } from "react";
import { listFeeds, type Feed } from "./api";
import { withUnread } from "./reader";

export function useFeeds() {
  const [list, setList] = useState<Feed[] | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    listFeeds().then(
      (feeds) => {
        if (!live) return;
        setList(feeds);
        setError(undefined);
      },
      (cause: unknown) => live && setError(cause),
    );
    return () => {
      live = false;
    };
  }, [generation]);

  const adjust = useCallback((feedId: string, delta: number) => {
    if (delta !== 0) setList((feeds) => feeds && withUnread(feeds, feedId, delta));
  }, []);

  /** After "mark all read": that feed's count (or every feed's) is zero. */
  const zero = useCallback((feedId: string | null) => {
    setList((feeds) => feeds && feeds.map((f) => (feedId === null || f.id === feedId ? { ...f, unread: 0 } : f)));
  }, []);

  /** A feed as the server now has it (after a refresh). */
  const replace = useCallback((feed: Feed) => {
    setList((feeds) => feeds && feeds.map((f) => (f.id === feed.id ? feed : f)));
  }, []);

  const reload = useCallback(() => {
    setError(undefined);
    setGeneration((g) => g + 1);
  }, []);

  return { list: list ?? [], loaded: list !== null, error, reload, adjust, zero, replace };
}

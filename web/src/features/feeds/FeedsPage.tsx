/**
 * `/feeds` (issue 68): the feeds reader. The feeds with their unread counts and any failure, a
 * feed's (or every feed's) entries newest first, paged by cursor, unread or starred only when
 * asked, and the open entry beside them; read and star applied at once and put back with the
 * server's words when refused. Keys: J/K next and previous, M read, S star, O the original. A
 * phone shows one pane at a time.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { typingIn } from "../../shared/keys";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useMediaQuery } from "../../shared/useMediaQuery";
import { useNow } from "../../shared/useNow";
import { readAll, refreshFeed, removeFeed, type Feed, type FeedEntry } from "./api";
import { AddFeed } from "./AddFeed";
import { ArticlePane } from "./ArticlePane";
import { EntryList } from "./EntryList";
import { FeedList } from "./FeedList";
import {
  allRead,
  feedStatusText,
  neighbourEntry,
  readerCommand,
  safeLink,
  toggleFlag,
  unreadDelta,
  type ReaderCommand,
} from "./reader";
import { useEntries } from "./useEntries";
import { useFeeds } from "./useFeeds";
import "./feeds.css";

const NARROW = "(max-width: 640px)";

type Show = "all" | "unread" | "starred";

export function FeedsPage() {
  const feeds = useFeeds();
  const [chosen, setChosen] = useState<string | null>(null);
  const [show, setShow] = useState<Show>("all");
  const entries = useEntries({ feedId: chosen ?? undefined, unread: show === "unread", starred: show === "starred" });
  const [openId, setOpenId] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const narrow = useMediaQuery(NARROW);
  const now = useNow();
  const pane = useRef<HTMLDivElement>(null);
  const feed = feeds.list.find((f) => f.id === chosen) ?? null;
  const open = entries.entries.find((e) => e.id === openId) ?? null;

  const flag = useCallback(
    async (entry: FeedEntry, which: ReturnType<typeof toggleFlag>) => {
      const delta = unreadDelta(entry, which);
      feeds.adjust(entry.feedId, delta);
      if (!(await entries.flag(entry, which))) feeds.adjust(entry.feedId, -delta);
    },
    [entries, feeds],
  );

  const openEntry = useCallback(
    (id: number | null) => {
      // K on the first entry (or J on the last) stays put: it neither re-reads nor re-opens it.
      if (id === openId) return;
      setOpenId(id);
      const entry = entries.entries.find((e) => e.id === id);
      // Opening an entry reads it; M makes it unread again.
      if (entry && !entry.read) void flag(entry, "read");
    },
    [entries.entries, flag, openId],
  );

  useEffect(() => {
    if (openId !== null) pane.current?.focus();
  }, [openId]);

  const command = useCallback(
    (which: ReaderCommand) => {
      switch (which) {
        case "next":
        case "previous":
          openEntry(neighbourEntry(entries.entries, openId, which === "next" ? 1 : -1));
          return;
        case "toggleRead":
        case "toggleStar":
          if (open) void flag(open, toggleFlag(which, open));
          return;
        case "openOriginal": {
          const link = safeLink(open?.link ?? null);
          if (link) window.open(link, "_blank", "noopener,noreferrer");
          return;
        }
      }
    },
    [entries.entries, openId, open, openEntry, flag],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typingIn(event.target)) return;
      const which = readerCommand(event);
      if (!which) return;
      event.preventDefault();
      command(which);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [command]);

  const choose = (feedId: string | null) => {
    setChosen(feedId);
    setOpenId(null);
  };

  const markAllRead = async () => {
    setProblem(null);
    try {
      await readAll(chosen ?? undefined);
      entries.update((list) => allRead(list, chosen));
      feeds.zero(chosen);
    } catch (cause) {
      setProblem(errorMessage(cause));
    }
  };

  if (feeds.error !== undefined) {
    return (
      <section className="page feeds-page">
        <PageHeader title="Feeds" />
        <ErrorNote error={feeds.error} onRetry={feeds.reload} />
      </section>
    );
  }
  if (!feeds.loaded) {
    return (
      <section className="page feeds-page">
        <PageHeader title="Feeds" />
        <Loading what="your feeds" />
      </section>
    );
  }

  const added = (added: Feed | null) => {
    feeds.reload();
    if (added) choose(added.id);
  };
  if (feeds.list.length === 0) {
    return (
      <section className="page feeds-page touch">
        <PageHeader title="Feeds" />
        <EmptyState>No feeds yet. Add a feed or a site by its address, or import an OPML file.</EmptyState>
        <AddFeed onAdded={added} />
      </section>
    );
  }

  const listPane = (
    <div className="feeds-entries-pane">
      <div className="feeds-toolbar">
        <div className="feeds-field">
          <label htmlFor="feeds-show">Show</label>
          <select id="feeds-show" value={show} onChange={(e) => (setShow(e.target.value as Show), setOpenId(null))}>
            <option value="all">All entries</option>
            <option value="unread">Unread only</option>
            <option value="starred">Starred only</option>
          </select>
        </div>
        <button type="button" onClick={() => void markAllRead()}>
          Mark all read
        </button>
        {feed && (
          <FeedActions
            key={feed.id}
            feed={feed}
            onChanged={(changed) => (feeds.replace(changed), entries.reload())}
            onRemoved={() => (choose(null), feeds.reload())}
          />
        )}
      </div>
      {feed?.status === "failing" && (
        <p className="feeds-failing" role="note">
          {feedStatusText(feed, now)}
        </p>
      )}
      {entries.error !== undefined ? (
        <ErrorNote error={entries.error} onRetry={entries.reload} />
      ) : entries.entries.length === 0 && entries.loading ? (
        <Loading what="entries" />
      ) : entries.entries.length === 0 ? (
        <EmptyState>{show === "all" ? "No entries yet." : `No ${show} entries.`}</EmptyState>
      ) : (
        <EntryList
          entries={entries.entries}
          open={openId}
          now={now}
          more={entries.next !== null}
          loading={entries.loading}
          showFeed={chosen === null}
          onOpen={openEntry}
          onLoadMore={entries.loadMore}
        />
      )}
    </div>
  );
  const article = open && (
    <ArticlePane
      key={open.id}
      ref={pane}
      entry={open}
      now={now}
      onCommand={command}
      onBack={narrow ? () => setOpenId(null) : undefined}
    />
  );
  const refusal = entries.refusal ?? problem;

  return (
    <section className="page feeds-page touch">
      <PageHeader title="Feeds" />
      {refusal && (
        <p className="feeds-error" role="alert">
          Not done: {refusal}{" "}
          <button type="button" onClick={() => (entries.dismiss(), setProblem(null))}>
            Dismiss
          </button>
        </p>
      )}
      {narrow ? (
        (article ?? (
          <>
            <FeedList feeds={feeds.list} chosen={chosen} narrow now={now} onChoose={choose} />
            {listPane}
            <AddFeedDetails onAdded={added} />
          </>
        ))
      ) : (
        <div className="feeds-panes">
          <div className="feeds-side">
            <FeedList feeds={feeds.list} chosen={chosen} narrow={false} now={now} onChoose={choose} />
            <AddFeedDetails onAdded={added} />
          </div>
          {listPane}
          {article || <p className="muted feeds-none-open">Open an entry, or press J.</p>}
        </div>
      )}
    </section>
  );
}

function AddFeedDetails({ onAdded }: { onAdded: (feed: Feed | null) => void }) {
  return (
    <details className="feeds-add-details">
      <summary>Add or import feeds</summary>
      <AddFeed onAdded={onAdded} />
    </details>
  );
}

/** The chosen feed's own actions: poll it now, or unsubscribe (asked twice, since its entries go too). */
function FeedActions({
  feed,
  onChanged,
  onRemoved,
}: {
  feed: Feed;
  onChanged: (feed: Feed) => void;
  onRemoved: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => void run(async () => onChanged(await refreshFeed(feed.id)))}
      >
        Refresh<span className="visually-hidden"> {feed.title}</span>
      </button>
      {confirming ? (
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await removeFeed(feed.id);
              onRemoved();
            })
          }
        >
          Really unsubscribe from {feed.title}
        </button>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Unsubscribe<span className="visually-hidden"> from {feed.title}</span>
        </button>
      )}
      {error && (
        <span className="feeds-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

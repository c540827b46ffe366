/**
 * `/briefing` (issue 68): the latest daily briefing and the feeds' morning digest read as a page,
 * one section per source with its links, each with a "Run now" that writes a new one
 * (`POST /digests/run`) and waits for it to arrive; under them, while the summarizer is on, the
 * email summaries. A briefing whose setting is off says so and where to turn it on.
 */
import { useCallback, useEffect, useState } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { errorMessage } from "../../shared/api/errorMessage";
import type { InboxRow } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { Link } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { When } from "../../shared/ui/When";
import { useNow } from "../../shared/useNow";
import { EMAIL_SUMMARIES_PATH, emailSummaries, listBriefingRows, runDigest, type DigestKind } from "./api";
import { briefingSections, briefingVersion, latestBriefings, summariesShown } from "./briefing";
import { safeLink } from "./reader";
import "./feeds.css";

const PLUGINS = [remarkGfm];

/** Links in a briefing open the source in a tab of their own, without telling it where from. */
const COMPONENTS: Components = {
  a: ({ href, children }) => {
    const link = safeLink(href ?? null, window.location.origin);
    return link ? (
      <a href={link} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <>{children}</>
    );
  },
};

/** How often the page looks for the briefing a "Run now" asked for, and for how long. */
const WAIT_STEP_MS = 2_000;
const WAIT_LIMIT_MS = 120_000;

const SETTINGS_FEEDS = "/settings#inbox-notifications-mail-files-documents-and-feeds";
const SETTINGS_INBOX = "/settings#inbox-notifications-inbox-behaviour-and-notices";

interface Kind {
  kind: DigestKind;
  title: string;
  setting: { key: string; label: string; path: string };
}

const KINDS: readonly Kind[] = [
  {
    kind: "daily",
    title: "Daily briefing",
    setting: { key: "dailyDigestEnabled", label: "Daily briefing", path: SETTINGS_INBOX },
  },
  {
    kind: "rss",
    title: "Feeds digest",
    setting: { key: "rssDigestEnabled", label: "Morning feed briefing", path: SETTINGS_FEEDS },
  },
];

export function BriefingPage() {
  const { values } = useSettings();
  const [rows, setRows] = useState<InboxRow[] | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [generation, setGeneration] = useState(0);
  const now = useNow();

  useEffect(() => {
    let live = true;
    listBriefingRows().then(
      (read) => live && (setRows(read), setError(undefined)),
      (cause: unknown) => live && setError(cause),
    );
    return () => {
      live = false;
    };
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  const latest = latestBriefings(rows ?? []);
  return (
    <section className="page briefing-page touch">
      <PageHeader title="Briefing" />
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {rows === null && error === undefined ? (
        <Loading what="the briefings" />
      ) : (
        KINDS.map((k) => (
          <BriefingCard
            key={k.kind}
            kind={k}
            on={values?.[k.setting.key] === true}
            row={latest[k.kind]}
            now={now}
            onReload={reload}
          />
        ))
      )}
      {summariesShown(values) && <EmailSummaries now={now} />}
    </section>
  );
}

function BriefingCard({
  kind,
  on,
  row,
  now,
  onReload,
}: {
  kind: Kind;
  on: boolean;
  row: InboxRow | null;
  now: number;
  onReload: () => void;
}) {
  const headingId = `briefing-${kind.kind}`;
  /** The row the page had when "Run now" was pressed, and when it was: the wait ends when another arrives. */
  const [waiting, setWaiting] = useState<{ since: number; had: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const arrived = waiting !== null && row !== null && briefingVersion(row) !== waiting.had;

  useEffect(() => {
    if (!waiting || arrived) return;
    const timer = window.setInterval(() => {
      if (Date.now() - waiting.since > WAIT_LIMIT_MS) {
        setWaiting(null);
        setError("No new briefing arrived yet; it will appear here when it is written.");
      } else onReload();
    }, WAIT_STEP_MS);
    return () => window.clearInterval(timer);
  }, [waiting, arrived, onReload]);

  const run = async () => {
    setError(null);
    setWaiting({ since: Date.now(), had: briefingVersion(row) });
    try {
      await runDigest(kind.kind);
      onReload();
    } catch (cause) {
      setWaiting(null);
      setError(errorMessage(cause));
    }
  };
  const busy = waiting !== null && !arrived;

  return (
    <section className="briefing-card" aria-labelledby={headingId}>
      <header className="briefing-head">
        <h2 id={headingId}>{kind.title}</h2>
        {row && <When className="muted" at={row.updatedAt} now={now} />}
        <button type="button" disabled={busy} aria-busy={busy || undefined} onClick={() => void run()}>
          {busy ? "Writing…" : "Run now"}
          <span className="visually-hidden"> ({kind.title})</span>
        </button>
      </header>
      {!on && (
        <p className="muted">
          Not written on its own while{" "}
          <Link to={kind.setting.path} title={`Setting key: ${kind.setting.key}`}>
            {kind.setting.label}
          </Link>{" "}
          is off; Run now writes one anyway.
        </p>
      )}
      {error && (
        <p className="feeds-error" role="alert">
          {error}
        </p>
      )}
      {row ? (
        <>
          <p className="briefing-title">{row.title}</p>
          {briefingSections(row.body ?? "").map((section, at) => (
            <section key={at} className="briefing-section" aria-label={section.title || undefined}>
              {section.title && <h3>{section.title}</h3>}
              <div className="briefing-markdown">
                <Markdown remarkPlugins={PLUGINS} components={COMPONENTS}>
                  {section.body}
                </Markdown>
              </div>
            </section>
          ))}
        </>
      ) : (
        <EmptyState>None yet.</EmptyState>
      )}
    </section>
  );
}

/** A summary's state as the list says it, for those that have no summary to show. */
const STATE_WORDS: Readonly<Record<string, string>> = {
  pending: "Waiting to be summarized.",
  waiting: "The day's cost cap was reached: summarized tomorrow.",
  no_text: "The mail has no text to summarize.",
};

function EmailSummaries({ now }: { now: number }) {
  const reply = useApi<unknown>(EMAIL_SUMMARIES_PATH);
  const list = reply.data === undefined ? [] : emailSummaries(reply.data);
  return (
    <section className="briefing-card" aria-labelledby="briefing-email">
      <header className="briefing-head">
        <h2 id="briefing-email">Email summaries</h2>
      </header>
      {reply.error !== undefined ? (
        <ErrorNote error={reply.error} onRetry={reply.reload} />
      ) : reply.data === undefined ? (
        <Loading what="the email summaries" />
      ) : list.length === 0 ? (
        <EmptyState>No mail summarized yet.</EmptyState>
      ) : (
        <ul className="briefing-summaries">
          {list.map((s) => {
            const link = safeLink(s.link, window.location.origin);
            return (
              <li key={s.id} className="briefing-summary">
                <p className="briefing-summary-head">
                  <strong>{link ? <a href={link}>{s.subject}</a> : s.subject}</strong>
                  {s.from && <span className="muted"> · {s.from}</span>}
                  {s.createdAt && (
                    <>
                      {" · "}
                      <When className="muted" at={s.createdAt} now={now} />
                    </>
                  )}
                </p>
                {s.summary && <p className="briefing-summary-text">{s.summary}</p>}
                {!s.summary && !s.failure && s.state && STATE_WORDS[s.state] && (
                  <p className="muted">{STATE_WORDS[s.state]}</p>
                )}
                {s.failure && <p className="feeds-error">Not summarized: {s.failure}</p>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

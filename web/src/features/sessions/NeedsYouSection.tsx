/**
 * "Needs you", the section the inbox opens with: every session waiting for the user or failed
 * (`needsYou`), newest first, each with why it waits, what it said last or how it failed, for how
 * long, a link to it, and the board's reply box, or Retry and Archive for a failure. Kept live by
 * the board's `useLiveSessions`, so a session that moves on (answered here or anywhere) leaves.
 * Drawn by the sessions feature and handed to the inbox page by the shell, so the two stay apart.
 */
import { useCallback, useMemo, useState } from "react";
import { ReplyBox } from "../../shared/answers/ReplyBox";
import { Link, sessionPath } from "../../shared/router";
import { exactTime } from "../../shared/time";
import { Pill } from "../../shared/ui/Pill";
import { ErrorNote } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { useNow } from "../../shared/useNow";
import type { Session } from "../../shared/api/types.generated";
import { archiveSession, markSessionSeen } from "./api";
import { sessionTitle } from "./lifecycle";
import { needsYou, REASON_WORDS, waitWords, type NeedsYouCard } from "./needsYou";
import { useLiveSessions } from "./useLiveSessions";
import { useRetry } from "./useRetry";
import "./needsYou.css";

export function NeedsYou() {
  const { sessions, error, reload } = useLiveSessions();
  const now = useNow();
  const [answered, setAnswered] = useState<ReadonlyMap<string, number>>(new Map());
  const cards = useMemo(() => needsYou(sessions ?? [], answered), [sessions, answered]);
  const onAnswered = useCallback(
    (session: Session) => setAnswered((before) => new Map(before).set(session.id, session.turns)),
    [],
  );
  // A failed read says so, with a retry, rather than hide what waits; until the first read answers,
  // and while nothing waits, nothing is drawn.
  if (cards.length === 0 && error !== undefined) return <ErrorNote error={error} onRetry={reload} />;
  return <NeedsYouSection cards={cards} now={now} onAnswered={onAnswered} />;
}

interface SectionProps {
  cards: readonly NeedsYouCard[];
  now: number;
  /** A card's reply was accepted, with the session as it was when answered. */
  onAnswered?: (session: Session) => void;
}

/** The section as drawn from its cards; none, and it is not drawn at all. */
export function NeedsYouSection({ cards, now, onAnswered }: SectionProps) {
  if (cards.length === 0) return null;
  return (
    <section className="needs-you" aria-labelledby="needs-you-heading">
      <h2 id="needs-you-heading">
        Needs you <span className="muted">({cards.length})</span>
      </h2>
      <ul className="inbox-list needs-you-list" aria-label="Sessions that need you">
        {cards.map((card) => (
          <Card key={card.session.id} card={card} now={now} onAnswered={onAnswered} />
        ))}
      </ul>
    </section>
  );
}

function Card({ card, now, onAnswered }: { card: NeedsYouCard } & Pick<SectionProps, "now" | "onAnswered">) {
  const toast = useToast();
  const retry = useRetry();
  const { session, reason, said, since } = card;
  const title = sessionTitle(session);
  const failed = reason === "failed";
  // Answered here, the session's unread inbox rows are read, as answering from its row does.
  const seen = () =>
    void markSessionSeen(session.id).catch((e: unknown) => toast.error(e, "The session's rows were not marked read"));
  const sent = () => {
    onAnswered?.(session);
    seen();
  };
  return (
    <li className={`needs-you-card needs-you-${reason}`} data-needs-you={session.id}>
      <div className="inbox-head needs-you-head">
        <Pill status={reason} className="needs-you-reason">
          {REASON_WORDS[reason]}
        </Pill>
        <Link to={sessionPath(session.id)} className="needs-you-title">
          {title}
        </Link>
        <time className="muted needs-you-time" dateTime={since} title={exactTime(since)}>
          {waitWords(card, now)}
        </time>
      </div>
      {said && (
        <p
          className={failed ? "needs-you-said inline-error" : "needs-you-said"}
          title={failed ? (session.error ?? undefined) : undefined}
        >
          {said}
        </p>
      )}
      {failed ? (
        <div className="needs-you-actions">
          <button type="button" aria-label={`Retry ${title}`} onClick={() => retry(session)}>
            Retry
          </button>
          <button
            type="button"
            aria-label={`Archive ${title}`}
            onClick={() =>
              void archiveSession(session.id).catch((e: unknown) => toast.error(e, "The session was not archived"))
            }
          >
            Archive
          </button>
        </div>
      ) : (
        <ReplyBox sessionId={session.id} to={title} onSent={sent} />
      )}
    </li>
  );
}

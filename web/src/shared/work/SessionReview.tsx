/**
 * The session page's review: what reviewers found in the piece of work the session is on, shown
 * only once one has looked at it. Read from `GET /work` when the page opens, and again when an
 * inbox row about that work arrives (a review with a high finding makes one) or the stream
 * starts over.
 */
import type { InboxEvent, Session } from "../api/types.generated";
import { useApi } from "../hooks/useApi";
import { useStreamEvent, useStreamLifecycle } from "../stream/useStream";
import { useNow } from "../useNow";
import { WORK_PATH, type WorkList } from "./api";
import { ReviewFindings } from "./ReviewFindings";
import { workOfSession } from "./reviews";

export function SessionReview({ session }: { session: Pick<Session, "id"> }) {
  const { data, reload } = useApi<WorkList>(WORK_PATH);
  const now = useNow();
  const entry = data ? workOfSession(data.work, session.id) : undefined;
  useStreamEvent<InboxEvent>("inbox", (event) => {
    if (event.change === "read_all") return;
    const about = event.source.sessionId;
    if (about === session.id || (about && entry?.sessions.includes(about))) reload();
  });
  useStreamLifecycle("reset", reload);
  // A failed read shows nothing rather than an error: the section is an extra on a page about
  // the session, and the work page says what went wrong with the same read.
  if (!entry || entry.reviews.length === 0) return null;
  return (
    <section className="session-review" aria-label="Review">
      <ReviewFindings entry={entry} now={now} open />
    </section>
  );
}

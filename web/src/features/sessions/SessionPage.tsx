/**
 * `/sessions/<id>`: one session, watched and answered. The session and its transcript follow the
 * event stream (no polling); follow-ups sent while a turn runs show as queued until their turn
 * starts.
 */
import { useCallback, useEffect, useMemo, useReducer, useState } from "react";
import type { InboxEvent, Session } from "../../shared/api/types.generated";
import { listInbox } from "../../shared/inbox/api";
import { navigate } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { Pill } from "../../shared/ui/Pill";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { getSession, listSessions, markSessionSeen } from "./api";
import { Composer } from "./Composer";
import { ChangedFiles } from "./ChangedFiles";
import { SessionHeader } from "./SessionHeader";
import { SessionDriveFiles } from "./SessionDriveFiles";
import { ALL_SESSIONS, boardRows } from "./board";
import { composerClosed, sessionTitle } from "./lifecycle";
import { SessionAnswers } from "../../shared/answers/SessionAnswers";
import { SessionApps } from "../../shared/apps/SessionApps";
import { useApprovals } from "../../shared/answers/useApprovals";
import { usePendingRequests } from "../../shared/answers/usePendingRequests";
import { useToast } from "../../shared/ui/toasts";
import { SessionReview } from "../../shared/work/SessionReview";
import { postSendSteps, postSendTarget } from "./postSend";
import { foldSettingsOf } from "./transcript/fold";
import { PublishingContext, useMessagePublishing } from "./transcript/publishing";
import { Transcript } from "./transcript/Transcript";
import { useTranscript } from "./transcript/useTranscript";
import "./session.css";

/** The session as `GET /sessions/<id>` gives it, then as each `session` event carries it. */
function useSession(id: string) {
  const [state, setState] = useState<{ id: string; session?: Session; error?: unknown }>({ id });
  const [generation, reload] = useReducer((n: number) => n + 1, 0);
  // The read and the events race: a reply read before an event may arrive after it, so the
  // later `updatedAt` wins.
  const accept = useCallback(
    (session: Session) =>
      setState((held) =>
        held.id === id && held.session && held.session.updatedAt > session.updatedAt ? held : { id, session },
      ),
    [id],
  );
  useEffect(() => {
    let current = true;
    getSession(id).then(
      (session) => current && accept(session),
      (error: unknown) => current && setState({ id, error }),
    );
    return () => {
      current = false;
    };
  }, [id, generation, accept]);
  useStreamEvent<Session>("session", (session) => {
    if (session.id === id) accept(session);
  });
  useStreamLifecycle("reset", reload);
  // Another id's state is not this session's: it shows as loading until its own arrives.
  const current = state.id === id;
  return { session: current ? state.session : undefined, error: current ? state.error : undefined, reload };
}

/**
 * `postSendNavigation`: reads only what the steps need (the sessions for `next_in_project`, the
 * unread `session` rows for `next_in_inbox`), then goes where the first step that applies says.
 * A read that fails leaves the page where it is.
 */
async function goAfterSend(steps: ReturnType<typeof postSendSteps>, current: Session): Promise<void> {
  if (steps.length === 0 || steps[0] === "stay") return;
  try {
    const [sessions, rows] = await Promise.all([
      steps.includes("next_in_project") ? listSessions() : Promise.resolve([]),
      steps.includes("next_in_inbox") ? listInbox({ category: "session", state: "unread" }) : Promise.resolve([]),
    ]);
    const boardOrder = boardRows(sessions, ALL_SESSIONS, new Set()).map((r) => r.session);
    const target = postSendTarget(steps, { current, boardOrder, unreadSessionRows: rows });
    if (target) navigate(target);
  } catch {
    // Staying is always a safe answer.
  }
}

/**
 * The session's inbox rows are read once the user opens it, and again when a row about it arrives
 * while the page is in view: what the user is looking at is not news.
 */
function useSeen(id: string) {
  // A failed mark only leaves the row unread in the inbox, where the user can read it: no error
  // is worth interrupting the session page for.
  const mark = useCallback(() => void markSessionSeen(id).catch(() => undefined), [id]);
  useEffect(() => mark(), [mark]);
  useStreamEvent<InboxEvent>("inbox", (event) => {
    if (
      (event.change === "created" || event.change === "repeated") &&
      event.category === "session" &&
      event.source.sessionId === id &&
      document.visibilityState === "visible"
    ) {
      mark();
    }
  });
}

/** A follow-up sent from this page, and the turn it will be. */
interface Sent {
  turn: number;
  text: string;
}

export function SessionPage({ id }: { id: string }) {
  const { session, error, reload } = useSession(id);
  useSeen(id);
  const transcript = useTranscript(id);
  const { values } = useSettings();
  const foldSettings = useMemo(() => foldSettingsOf(values), [values]);
  const [sent, setSent] = useState<Sent[]>([]);
  const toast = useToast();
  const approvals = useApprovals(
    () => undefined,
    (e: unknown, context: string) => toast.error(e, context),
  );
  const publishFailed = useCallback((e: unknown) => toast.error(e, "Not published"), [toast]);
  const publishing = useMessagePublishing(id, values?.docsExportEnabled === true, publishFailed);
  const allRequests = usePendingRequests();
  const requests = useMemo(() => allRequests.filter((r) => r.sessionId === id), [allRequests, id]);

  useEffect(() => {
    if (session) document.title = `${sessionTitle(session)} · Switchboard`;
  }, [session]);

  // Keyed on the prompt, not the session, so a session event does not refold the transcript.
  const prompt = session?.prompt;
  const inputs = useMemo(() => {
    const map = new Map<number, string>(sent.map((s) => [s.turn, s.text]));
    if (prompt !== undefined) map.set(1, prompt);
    return map;
  }, [sent, prompt]);

  if (error !== undefined) return <ErrorNote error={error} onRetry={reload} />;
  if (!session) return <Loading what="the session" />;

  const queued = sent.filter((s) => s.turn > session.turns);
  const queuedElsewhere = Math.max(0, session.pendingMessages - queued.length);
  // Right after the message was accepted, it is the last of the session's pending turns.
  const onSent = (text: string, after: Session) => {
    setSent((all) => [...all, { turn: after.turns + after.pendingMessages, text }]);
    void goAfterSend(postSendSteps(values?.postSendNavigation), after);
  };

  return (
    <section className="page session-page">
      <SessionHeader session={session} />
      <ChangedFiles session={session} />
      <SessionApps sessionId={session.id} />
      <SessionDriveFiles session={session} />
      <SessionReview session={session} />
      {transcript.error !== undefined ? (
        <ErrorNote error={transcript.error} onRetry={transcript.reload} />
      ) : (
        <PublishingContext.Provider value={publishing}>
          <Transcript
            entries={transcript.entries}
            earlier={transcript.earlier}
            loaded={transcript.loaded}
            onLoadEarlier={transcript.loadEarlier}
            settings={foldSettings}
            inputs={inputs}
            // The prompt shows from the start, before its turn has begun.
            turns={Math.max(1, session.turns)}
          />
        </PublishingContext.Provider>
      )}
      {(queued.length > 0 || queuedElsewhere > 0) && (
        <ul className="queued-messages" aria-label="Queued messages">
          {queued.map((s) => (
            <li key={s.turn}>
              <Pill status="queued" /> {s.text}
            </li>
          ))}
          {queuedElsewhere > 0 && (
            <li className="muted">
              {queuedElsewhere} more {queuedElsewhere === 1 ? "message" : "messages"} queued
            </li>
          )}
        </ul>
      )}
      <SessionAnswers
        sessionId={session.id}
        title={sessionTitle(session)}
        approvals={approvals}
        requests={requests}
        reply={false}
      />
      <Composer
        sessionId={session.id}
        closed={composerClosed(session)}
        autoFocus={values !== undefined && (values.sessionAutoFocusInput ?? true)}
        onSent={onSent}
      />
    </section>
  );
}

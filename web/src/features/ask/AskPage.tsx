/**
 * Ask (`/ask`, while `askAppEnabled` is on): a box to ask the tutor a question about Switchboard
 * and this installation, and the conversations asked so far, newest first. Asking starts a session
 * in the Ask project (`POST /ask`) and opens its page, where the answer arrives and the
 * conversation goes on like any other session's (docs/ask.md).
 */
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Session } from "../../shared/api/types.generated";
import { ComposerField } from "../../shared/composer/ComposerField";
import { useApi } from "../../shared/hooks/useApi";
import { sessionStatusWords } from "../../shared/humanize";
import { Link, navigate, sessionPath } from "../../shared/router";
import { SETTING_LINKS } from "../../shared/settingLinks";
import { EmptyState } from "../../shared/ui/EmptyState";
import { FormActions } from "../../shared/ui/FormActions";
import { PageHeader } from "../../shared/ui/PageHeader";
import { Pill } from "../../shared/ui/Pill";
import { SettingLink } from "../../shared/ui/SettingLink";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { When } from "../../shared/ui/When";
import { useNow } from "../../shared/useNow";
import { askQuestion, ASK_SESSIONS_PATH } from "./api";
import { conversationName, newestFirst } from "./ask";
import "./ask.css";

export function AskPage() {
  const conversations = useApi<Session[]>(ASK_SESSIONS_PATH);
  const off = conversations.error instanceof ApiError && conversations.error.code === "ask_disabled";
  return (
    <section className="page ask-page">
      <PageHeader title="Ask" />
      {off ? (
        <EmptyState>
          <p>
            Ask is turned off. Turn on <SettingLink setting={SETTING_LINKS.askAppEnabled} /> to ask the tutor about
            Switchboard and this installation.
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="ask-intro muted">
            The tutor reads Switchboard&apos;s documentation and a fresh sheet of facts about this installation (its
            runners, engines, changed settings, sessions waiting or failed), cites what it used, and says when the docs
            do not cover something. It can look but never change anything.
          </p>
          <AskForm />
          <h2 className="ask-list-heading">Your questions</h2>
          {conversations.error !== undefined ? (
            <ErrorNote error={conversations.error} onRetry={conversations.reload} />
          ) : !conversations.data ? (
            <Loading what="your questions" />
          ) : (
            <Conversations sessions={conversations.data} />
          )}
        </>
      )}
    </section>
  );
}

function AskForm() {
  const [question, setQuestion] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const ask = (event?: FormEvent) => {
    event?.preventDefault();
    const text = question.trim();
    if (!text || busy) return;
    setBusy(true);
    setError(undefined);
    askQuestion(text).then(
      ({ sessionId }) => navigate(sessionPath(sessionId)),
      (e: unknown) => {
        setBusy(false);
        setError(errorMessage(e));
      },
    );
  };
  // Ctrl+Enter (or ⌘+Enter) asks; Enter alone starts a line, as a question often has several.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) ask(event);
  };
  return (
    <form className="ask-form" onSubmit={ask}>
      <label htmlFor="ask-question">Your question</label>
      <ComposerField
        id="ask-question"
        value={question}
        onValue={setQuestion}
        onKeyDown={onKeyDown}
        rows={3}
        placeholder="Why did my session stop? How do I add a runner? What does a setting do?"
        skills={null}
        disabled={busy}
      />
      <FormActions submitLabel={busy ? "Asking…" : "Ask"} busy={busy} disabled={!question.trim()} error={error} />
    </form>
  );
}

function Conversations({ sessions }: { sessions: readonly Session[] }) {
  const now = useNow();
  if (sessions.length === 0) {
    return <EmptyState>No questions yet: ask one above, and its conversation is kept here.</EmptyState>;
  }
  return (
    <ul className="ask-list">
      {newestFirst(sessions).map((session) => (
        <li key={session.id} className="ask-row">
          <Link to={sessionPath(session.id)} className="ask-row-name">
            {conversationName(session)}
          </Link>
          <span className="ask-row-facts">
            <Pill status={sessionStatusWords(session)} />
            <When at={session.updatedAt} now={now} className="muted" />
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A text cell that holds a session's address, `/sessions/<id>` (an agent task's Session column):
 * a link to the session's page named by the session, beside a button that edits the text. The
 * link is not inside the button, since one control cannot hold another.
 */
import { useEffect, useState } from "react";
import { Link, sessionPath } from "../../../shared/router";
import { sessionName } from "../api";
import { InlineEdit } from "./InlineEdit";

/** The session a cell's text addresses, or null when it is any other text. */
export function sessionIdOf(text: string): string | null {
  return /^\/sessions\/([A-Za-z0-9_-]+)$/.exec(text.trim())?.[1] ?? null;
}

interface Props {
  sessionId: string;
  text: string;
  label: string;
  onCommit: (text: string) => void;
}

export function SessionLinkCell({ sessionId, text, label, onCommit }: Props) {
  const [named, setNamed] = useState<{ id: string; name: string | null } | null>(null);
  useEffect(() => {
    let current = true;
    void sessionName(sessionId).then((name) => {
      if (current) setNamed({ id: sessionId, name });
    });
    return () => {
      current = false;
    };
  }, [sessionId]);
  const name = named?.id === sessionId ? named.name : null;
  return (
    <span className="cell-session">
      <Link to={sessionPath(sessionId)} className="cell-link">
        {name ?? `Session ${sessionId.slice(-8)}`}
      </Link>
      <InlineEdit display="✎" initial={text} inputType="text" label={label} onCommit={onCommit} />
    </span>
  );
}

/** How the Ask page names a conversation, apart from its drawing. */
import type { Session } from "../../shared/api/types.generated";

/** The longest question shown as a conversation's name before it is cut with an ellipsis. */
const LONGEST = 120;

/** A conversation's name: its title once it has one, else the question that started it, on one line. */
export function conversationName(session: Pick<Session, "title" | "prompt">): string {
  const title = session.title?.trim();
  if (title) return title;
  const question = session.prompt.replace(/\s+/g, " ").trim();
  if (!question) return "Untitled question";
  return question.length > LONGEST ? `${question.slice(0, LONGEST - 1).trimEnd()}…` : question;
}

/** Newest first by when each last changed, whatever order the server sent. */
export function newestFirst<T extends Pick<Session, "updatedAt">>(sessions: readonly T[]): T[] {
  return [...sessions].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
}

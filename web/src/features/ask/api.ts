/** The Ask project's calls (docs/ask.md): its conversations, newest first, and a new question. */
import { apiFetch } from "../../shared/api/client";
import type { AskQuestion, AskStarted } from "../../shared/api/types.generated";

export const ASK_SESSIONS_PATH = "/ask/sessions";

/** Starts a conversation with the tutor; its session's id (`POST /ask` → 201). */
export const askQuestion = (question: string) =>
  apiFetch<AskStarted>("/ask", { method: "POST", body: { question } satisfies AskQuestion });

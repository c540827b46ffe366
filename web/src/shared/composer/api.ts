/**
 * The server's side of the composer: the engine's skills for the `/` menu (`GET /skills`, kept a
 * short while per engine, folder and runner, as the server keeps them longer) and a pasted
 * document's import (`POST /imports/url`), and an attached image's upload (`POST /attachments`).
 */
import { ApiError, apiFetch } from "../api/client";
import { errorMessage } from "../api/errorMessage";
import type { Attachment, Session } from "../api/types.generated";
import type { ImportedDocument } from "./paste";
import { skillList, type Skill, type SkillList } from "./skills";

/** Whose skills the menu lists: an engine in a folder on a runner, or a session's (read when first asked). */
export type SkillSource = { engine: string; cwd: string; runner: string } | { sessionId: string };

/** How long a list is reused: long enough for a burst of typing, short enough that a new skill shows soon. */
const KEEP_MS = 30_000;

const kept = new Map<string, { at: number; list: Promise<SkillList> }>();

async function where(source: SkillSource): Promise<{ engine: string; cwd: string; runner: string }> {
  if (!("sessionId" in source)) return source;
  const session = await apiFetch<Session>(`/sessions/${encodeURIComponent(source.sessionId)}`);
  return { engine: session.engine, cwd: session.cwd, runner: session.runner };
}

/**
 * The skills offered for `source`. Never fails: an engine that cannot list, or a list that
 * could not be read, is an empty list with the reason (the menu shows it on hover).
 */
export function loadSkills(source: SkillSource): Promise<SkillList> {
  const key = JSON.stringify(source);
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && now - hit.at < KEEP_MS) return hit.list;
  const list = where(source)
    .then(({ engine, cwd, runner }) => {
      const query = new URLSearchParams({ engine, cwd, runner });
      return apiFetch<Skill[]>(`/skills?${query.toString()}`);
    })
    .then(skillList, (error: unknown): SkillList => {
      kept.delete(key);
      return { skills: [], reason: errorMessage(error) };
    });
  kept.set(key, { at: now, list });
  return list;
}

export const importUrl = (url: string) => apiFetch<ImportedDocument>("/imports/url", { method: "POST", body: { url } });

/**
 * Uploads an image as its raw bytes (`POST /attachments`); a refusal is the server's ApiError,
 * so its words (not an image, over 10 MiB) show on the chip.
 */
export async function uploadAttachment(file: Blob): Promise<Attachment> {
  let response: Response;
  try {
    response = await fetch("/api/attachments", {
      method: "POST",
      headers: { "Content-Type": file.type },
      body: file,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network_error", "Switchboard could not be reached. Is `switchboard serve` running?");
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `The server answered ${response.status}.`,
    );
  }
  return parsed as Attachment;
}

/** The board calls more than one feature makes: the boards page lists them, a dashboard connects them. */
import { apiFetch } from "./client";
import type { Board } from "./types.generated";

export function listBoards(workspaceId: string): Promise<Board[]> {
  return apiFetch<Board[]>(`/boards?workspaceId=${encodeURIComponent(workspaceId)}`);
}

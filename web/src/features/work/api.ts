/** Thin typed calls for "Where's my work" (docs/work.md). A refused action rejects with 409 `action_refused`. */
import { apiFetch } from "../../shared/api/client";
import type { Session, WorkEntry } from "../../shared/api/types.generated";
import { WORK_PATH } from "../../shared/work/api";

/** The pull request Switchboard opened on the host (`opened`), else the host's page where the user opens one. */
export interface PullRequestLink {
  url: string;
  opened: boolean;
}

const actionPath = (id: string, action: string) => `${WORK_PATH}/${encodeURIComponent(id)}/${action}`;

/** Removes the worktree and the local branch of landed work. */
export const pruneWork = (id: string) => apiFetch<undefined>(actionPath(id, "prune"), { method: "POST" });

/** Throws stranded work away: the server checks `branch` against the branch's exact name. */
export const discardWork = (id: string, branch: string) =>
  apiFetch<undefined>(actionPath(id, "discard"), { method: "POST", body: { confirm: branch } });

/** `git push --set-upstream`; answers the entry as it is after. */
export const pushWork = (id: string) => apiFetch<WorkEntry>(actionPath(id, "push"), { method: "POST" });

export const pullRequestLink = (id: string) =>
  apiFetch<PullRequestLink>(actionPath(id, "pull-request"), { method: "POST" });

/** A follow-up session in the same checkout; without a prompt the server writes one that names the branch. */
export const continueWork = (id: string, prompt: string) =>
  apiFetch<{ session: Session }>(actionPath(id, "continue"), {
    method: "POST",
    body: prompt.trim() === "" ? undefined : { prompt: prompt.trim() },
  });

/** A session that merges the repository's ready branches, oldest first; refused when none is ready. */
export const mergeReady = (repository: string) =>
  apiFetch<{ session: Session }>(`${WORK_PATH}/merge`, { method: "POST", body: { repository } });

/** The read of every piece of work, shared by the work page and the session page's review (docs/work.md). */
import type { WorkEntry } from "../api/types.generated";

/** Every piece of work of the account (`GET /work`). */
export const WORK_PATH = "/work";

export interface WorkList {
  work: WorkEntry[];
}

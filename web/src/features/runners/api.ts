/** Thin typed calls for runners: where sessions run (docs/runners.md). */
import { apiFetch } from "../../shared/api/client";
import type { Runner } from "../../shared/api/types.generated";

/** Every runner, `local` first, as last seen (`GET /runners`). */
export const RUNNERS_PATH = "/runners";

/** Reads `runners.toml` again and reaches every host before answering: up to ~10 s per unreachable one. */
export const checkRunners = (signal?: AbortSignal) => apiFetch<Runner[]>(`${RUNNERS_PATH}?refresh=true`, { signal });

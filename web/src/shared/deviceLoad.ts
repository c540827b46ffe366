/**
 * `mobileReliabilityAlertsEnabled` (docs/phone.md): the page tells the server that this device
 * started loading the app (from `main.tsx`, before React renders) and that it finished (once the
 * shell rendered). A start the server never sees finished makes one inbox alert, cleared by this
 * device's next finished load. The device is a random id kept in `localStorage`.
 */
import { apiFetch } from "./api/client";
import type { LoadStage } from "./api/types.generated";

const DEVICE_KEY = "switchboard.deviceId";

/** This device's id: made once, then read back; a storage that refuses it gets a fresh one. */
export function deviceId(storage: Pick<Storage, "getItem" | "setItem"> | undefined, random = randomId): string {
  try {
    const kept = storage?.getItem(DEVICE_KEY);
    if (kept && /^[A-Za-z0-9-]{1,64}$/.test(kept)) return kept;
    const made = random();
    storage?.setItem(DEVICE_KEY, made);
    return made;
  } catch {
    return random();
  }
}

function randomId(): string {
  return crypto.randomUUID();
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Set once this device finished a load: only then is a start reported, so a visitor who never
 * signed in here sends nothing the server would refuse, and a device that loaded before and now
 * never finishes is still caught.
 */
const LOADED_KEY = "switchboard.loadedHere";

let finished = false;
/** Read once per page, so the start and the finish name the same device even without storage. */
let device: string | undefined;

/** Reports a stage of this load; a report that fails (signed out, offline) is dropped. */
export function reportLoad(
  stage: LoadStage,
  kept: Pick<Storage, "getItem" | "setItem"> | undefined = storage(),
): Promise<void> {
  if (stage === "started" && !loadedBefore(kept)) return Promise.resolve();
  if (stage === "finished") {
    if (finished) return Promise.resolve();
    finished = true;
    try {
      kept?.setItem(LOADED_KEY, "1");
    } catch {
      // A storage that refuses only means the next start goes unreported.
    }
  }
  return apiFetch<void>("/device-loads", {
    method: "POST",
    body: { device: (device ??= deviceId(kept)), stage },
  }).catch(() => undefined);
}

function loadedBefore(kept: Pick<Storage, "getItem"> | undefined): boolean {
  try {
    return kept?.getItem(LOADED_KEY) === "1";
  } catch {
    return false;
  }
}

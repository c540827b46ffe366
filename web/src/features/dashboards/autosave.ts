/**
 * The dashboard's draft and its debounced autosave, apart from React so its states can be
 * tested with fake timers. Every change lands in the draft at once; the draft is saved
 * `debounceMs` after the last change. A failed save keeps the draft and retries with backoff;
 * a refusal because someone else saved first (412) stops saving until the person chooses to
 * reload or to overwrite.
 */
import { errorMessage } from "../../shared/api/errorMessage";

export type SaveStatus = "saved" | "pending" | "saving" | "error" | "conflict";

export interface AutosaveSnapshot<T> {
  draft: T;
  status: SaveStatus;
  /** The last failure's message while `status` is error or conflict. */
  error: string | null;
  /** When the next automatic retry runs (epoch ms), while `status` is error. */
  retryAt: number | null;
}

export interface SaveResult {
  etag: string | null;
}

export interface AutosaveOptions<T> {
  initial: T;
  etag: string | null;
  save: (draft: T, etag: string | null) => Promise<SaveResult>;
  /** True for the failure that means "changed elsewhere since you loaded it". */
  isConflict: (error: unknown) => boolean;
  debounceMs?: number;
  /** Backoff of automatic retries: first delay, doubled each time up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  now?: () => number;
}

/** The interval between the last change and its save. */
export const AUTOSAVE_DEBOUNCE_MS = 800;

export class Autosaver<T> {
  private snapshot: AutosaveSnapshot<T>;
  private etag: string | null;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped on every change; a save covers the version it started with. */
  private version = 0;
  private savedVersion = 0;
  private saving = false;
  private failures = 0;
  private disposed = false;

  constructor(private readonly options: AutosaveOptions<T>) {
    this.etag = options.etag;
    this.snapshot = { draft: options.initial, status: "saved", error: null, retryAt: null };
  }

  getSnapshot = (): AutosaveSnapshot<T> => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Replaces the draft (the page's every edit) and schedules its save. */
  update(draft: T): void {
    if (this.disposed) return;
    this.version++;
    const status = this.snapshot.status === "conflict" ? "conflict" : this.saving ? "saving" : "pending";
    this.set({ draft, status, retryAt: status === "pending" ? null : this.snapshot.retryAt });
    if (status === "pending") this.schedule(this.options.debounceMs ?? AUTOSAVE_DEBOUNCE_MS);
  }

  /** Saves now: the Retry button, and leaving the page. */
  retryNow(): void {
    if (this.snapshot.status === "conflict" || this.version === this.savedVersion) return;
    this.schedule(0);
  }

  /** After a conflict: save the draft over the other version, whose ETag is given. */
  overwrite(etag: string | null): void {
    this.etag = etag;
    this.set({ status: "pending", error: null, retryAt: null });
    this.schedule(0);
  }

  /** After a conflict: take the stored version as the new draft. */
  reset(draft: T, etag: string | null): void {
    this.clearTimer();
    this.etag = etag;
    this.version++;
    this.savedVersion = this.version;
    this.failures = 0;
    this.set({ draft, status: "saved", error: null, retryAt: null });
  }

  /** True when the draft holds changes the server has not acknowledged. */
  get dirty(): boolean {
    return this.version !== this.savedVersion;
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    this.listeners.clear();
  }

  private schedule(delay: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    if (this.saving || this.disposed || this.snapshot.status === "conflict") return;
    const version = this.version;
    if (version === this.savedVersion) {
      this.set({ status: "saved", error: null, retryAt: null });
      return;
    }
    this.saving = true;
    this.set({ status: "saving", retryAt: null });
    try {
      const result = await this.options.save(this.snapshot.draft, this.etag);
      if (this.disposed) return;
      this.saving = false;
      this.etag = result.etag;
      this.savedVersion = Math.max(this.savedVersion, version);
      this.failures = 0;
      if (this.version !== this.savedVersion) {
        this.set({ status: "pending", error: null });
        this.schedule(this.options.debounceMs ?? AUTOSAVE_DEBOUNCE_MS);
      } else {
        this.set({ status: "saved", error: null });
      }
    } catch (error) {
      if (this.disposed) return;
      this.saving = false;
      const message = errorMessage(error);
      if (this.options.isConflict(error)) {
        this.set({ status: "conflict", error: message, retryAt: null });
        return;
      }
      const first = this.options.retryMs ?? 2000;
      const delay = Math.min(first * 2 ** this.failures, this.options.maxRetryMs ?? 30_000);
      this.failures++;
      const now = this.options.now?.() ?? Date.now();
      this.set({ status: "error", error: message, retryAt: now + delay });
      this.schedule(delay);
    }
  }

  private set(change: Partial<AutosaveSnapshot<T>>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

/**
 * What the Scheduled messages and Drips pages compute, as pure functions: the request a form's
 * draft makes (or every problem with it), a timing in words, a drip's state, how an item is
 * shown.
 */
import { fieldProblems, type FormErrors } from "../../shared/api/formErrors";
import { cronPreset, presetWords, whenFields, type WhenDraft } from "../../shared/schedule/when";
import type {
  CadenceState,
  Drip,
  DripFields,
  DripItemKind,
  ScheduledMessage,
  ScheduledMessageFields,
} from "../../shared/api/types.generated";

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The form of a scheduled message: the note and the shared "when" picker's fields. */
export interface MessageDraft extends WhenDraft {
  markdown: string;
}

export interface DripDraft extends WhenDraft {
  name: string;
  /** Items from a folder on disk, or added here. */
  source: "folder" | "app";
  folder: string;
}

/** A draft's request, or every problem that keeps it from being sent. */
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

type Problems = [string, string][];

function checked<T>(problems: Problems, value: () => T): Checked<T> {
  return problems.length > 0 ? { ok: false, errors: fieldProblems(problems) } : { ok: true, value: value() };
}

/** The zone the browser is in; `UTC` when it will not say. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** `POST /scheduled-messages` for a draft, or every problem with it. */
export function messageFields(draft: MessageDraft, now: Date): Checked<ScheduledMessageFields> {
  const problems: Problems = [];
  if (!draft.markdown.trim()) problems.push(["markdown", "Write the note."]);
  const when = whenFields(draft, now);
  problems.push(...when.problems);
  return checked(problems, () => ({ markdown: draft.markdown, ...when.fields }));
}

/** `POST /drips` for a draft, or every problem with it: a drip repeats, so a one-off is refused. */
export function dripFields(draft: DripDraft, now: Date): Checked<DripFields> {
  const problems: Problems = [];
  const name = draft.name.trim();
  if (!name) problems.push(["name", "Name the drip."]);
  if (draft.source === "folder" && !draft.folder.trim()) {
    problems.push(["folder", "Give the folder's absolute path."]);
  }
  if (draft.repeat === "once") {
    problems.push(["repeat", "A drip repeats: choose how often."]);
    return checked(problems, () => ({ name, timeZone: draft.timeZone }));
  }
  const when = whenFields(draft, now);
  problems.push(...when.problems);
  // Not "once" (refused above), so the timing has no `at`.
  const { cron, rrule, timeZone } = when.fields;
  const folder = draft.source === "folder" ? { folder: draft.folder.trim() } : {};
  return checked(problems, () => ({ name, ...folder, timeZone, ...(cron === undefined ? { rrule } : { cron }) }));
}

/** An RRULE as stored, without its DTSTART line. */
export function ruleOnly(rrule: string): string {
  const line = rrule.split("\n").find((l) => l.toUpperCase().startsWith("RRULE:"));
  return (line ?? rrule).replace(/^RRULE:/i, "");
}

const DAY_NAMES: Record<string, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

/** A simple RRULE in words ("every weekday at 09:00"); null for one words would misstate. */
export function rruleWords(rrule: string): string | null {
  const parts = new Map(
    ruleOnly(rrule)
      .split(";")
      .map((p) => p.split("=") as [string, string | undefined]),
  );
  const known = new Set(["FREQ", "BYDAY", "BYHOUR", "BYMINUTE"]);
  if ([...parts.keys()].some((k) => !known.has(k))) return null;
  const hour = parts.get("BYHOUR");
  const minute = parts.get("BYMINUTE") ?? "0";
  if (!hour || !/^\d+$/.test(hour) || !/^\d+$/.test(minute)) return null;
  const at = `at ${hour.padStart(2, "0")}:${minute.padStart(2, "0")}`;
  const days = parts.get("BYDAY");
  switch (parts.get("FREQ")) {
    case "DAILY":
      return days ? null : `every day ${at}`;
    case "WEEKLY": {
      if (days === "MO,TU,WE,TH,FR") return `every weekday ${at}`;
      const names = days?.split(",").map((d) => DAY_NAMES[d]);
      if (!names || names.some((n) => n === undefined)) return null;
      return `every ${names.join(", ")} ${at}`;
    }
    default:
      return null;
  }
}

/** A message's or drip's timing, said for a card. */
export function timingText(timed: { at?: string | null; cron: string | null; rrule: string | null }): string {
  if (timed.at) return "Once";
  if (timed.cron) {
    const preset = cronPreset(timed.cron);
    return preset ? capitalized(presetWords(preset)) : `Cron ${timed.cron}`;
  }
  if (timed.rrule) {
    const words = rruleWords(timed.rrule);
    return words ? capitalized(words) : `RRULE ${ruleOnly(timed.rrule)}`;
  }
  return "";
}

/** A moment still to come, in words: "in 5 min", "in 3 h", "in 2 d"; "now" once it has come. */
export function untilText(iso: string, now: number): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  if (Number.isNaN(minutes) || minutes <= 0) return "now";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} d`;
}

/** The time of `iso` on the wall of `timeZone`: "5 Jan 2026, 09:30"; `iso` itself for a zone the browser lacks. */
export function wallTime(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(
      new Date(iso),
    );
  } catch {
    return iso;
  }
}

export const STATE_LABEL: Record<CadenceState, string> = { active: "Active", paused: "Paused", done: "Done" };

/** Active first, soonest first; then paused; then done, latest first. */
export function orderMessages(messages: readonly ScheduledMessage[]): ScheduledMessage[] {
  const rank: Record<CadenceState, number> = { active: 0, paused: 1, done: 2 };
  return [...messages].sort(
    (a, b) =>
      rank[a.state] - rank[b.state] ||
      (a.state === "done"
        ? (b.lastDeliveredAt ?? "").localeCompare(a.lastDeliveredAt ?? "")
        : (a.nextAt ?? "").localeCompare(b.nextAt ?? "")),
  );
}

/** What a drip's card says of its queue, and the tag that goes with it. */
export function dripStatus(drip: Drip): { tag: string; tone: "ok" | "quiet" | "warn"; queue: string } {
  const queue = `${drip.remaining} waiting · ${drip.released} released`;
  if (drip.problem) return { tag: "Folder unreadable", tone: "warn", queue };
  if (drip.state === "paused") return { tag: "Paused", tone: "quiet", queue };
  if (drip.state === "done") return { tag: "Ended", tone: "quiet", queue };
  if (drip.exhausted) {
    const more = drip.folder ? "add files to its folder" : "add items";
    return { tag: "Exhausted", tone: "warn", queue: `Nothing left to release: ${more}` };
  }
  return { tag: "Active", tone: "ok", queue };
}

/** How an item is shown: HTML in a sandboxed frame (a plain chip with previews off), the rest as text. */
export type ItemView = "frame" | "chip" | "markdown" | "text";

export function itemView(kind: DripItemKind, previewsOn: boolean): ItemView {
  if (kind === "html") return previewsOn ? "frame" : "chip";
  return kind;
}

/** The sandboxed preview of an HTML item, on the UI server's API. */
export function previewPath(dripId: string, itemId: string): string {
  return `/api/drips/${encodeURIComponent(dripId)}/items/${encodeURIComponent(itemId)}/preview`;
}

/** The item a link opened the page on (`?item=…`), if any. */
export function itemParam(search: string): string | null {
  return new URLSearchParams(search).get("item");
}

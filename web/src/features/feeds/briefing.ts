/**
 * The briefing page's reading of the inbox's `digest` rows: which is the daily briefing, which the
 * feeds' morning digest, the newest of each, and a row's body cut into one section per source
 * (its Markdown headings, else the "Source: …" lines the facts-only briefing is written in), so
 * the page reads as sections rather than one block.
 */
import type { InboxRow } from "../../shared/api/types.generated";
import type { DigestKind } from "./api";

/** Which briefing a `digest` row is, by its title: the daily briefing, the feeds' digest, or another summary. */
export function briefingKind(row: Pick<InboxRow, "title">): DigestKind | "other" {
  const title = row.title.toLowerCase();
  if (/\bdaily (briefing|digest)\b/.test(title)) return "daily";
  if (/\bmorning digest\b|\b(rss|feeds?|reading)\b/.test(title)) return "rss";
  return "other";
}

export interface LatestBriefings {
  daily: InboxRow | null;
  rss: InboxRow | null;
}

/**
 * What tells one written briefing from the next: a new row, or the same row bumped (its count
 * grows). Its time alone cannot, since two briefings can be written in the same second, or
 * under the manual clock of the tests at the same instant.
 */
export function briefingVersion(row: InboxRow | null): string | null {
  return row ? `${row.id}:${row.count}:${row.updatedAt}` : null;
}

/** The newest daily briefing and the newest feeds' digest among the rows, each null when there is none. */
export function latestBriefings(rows: readonly InboxRow[]): LatestBriefings {
  const newest = (kind: DigestKind) =>
    rows
      .filter((r) => briefingKind(r) === kind)
      .reduce<InboxRow | null>((best, r) => (best === null || r.updatedAt > best.updatedAt ? r : best), null);
  return { daily: newest("daily"), rss: newest("rss") };
}

export interface BriefingSection {
  /** The source's name; empty for what comes before the first section. */
  title: string;
  /** The section's Markdown. */
  body: string;
}

const HEADING = /^#{1,4}\s+(.+?)\s*#*\s*$/;
/** The sources' names as the facts name them (crates/briefings' `Source::label`), so prose with a colon is not cut. */
const SOURCES = [
  "Calendar",
  "Web mail",
  "Project events",
  "Project digests",
  "Feeds",
  "Sessions",
  "Team chat",
  "Text messages",
  "Messenger",
];
const LABEL = new RegExp(`^(${SOURCES.join("|")}):\\s*(.*)$`);

/**
 * The body cut into sections. A `---` line parts what the model wrote from the facts under it;
 * each part is cut at its Markdown headings when it has any, else at each line that opens with a
 * source's name and a colon ("Calendar: 2 events."), the rest of that line and the lines under
 * it being the section; a part with neither is one untitled section.
 */
export function briefingSections(body: string): BriefingSection[] {
  return body
    .replace(/\r\n/g, "\n")
    .split(/\n-{3,}\s*\n/)
    .flatMap((part) => partSections(part.split("\n")));
}

function partSections(lines: readonly string[]): BriefingSection[] {
  const headed = lines.some((line) => HEADING.test(line));
  const sections: BriefingSection[] = [];
  let current: { title: string; lines: string[] } = { title: "", lines: [] };
  const close = () => {
    const text = current.lines.join("\n").trim();
    if (current.title || text) sections.push({ title: current.title, body: text });
  };
  for (const line of lines) {
    const heading = headed ? HEADING.exec(line) : null;
    const label = headed ? null : LABEL.exec(line);
    if (heading?.[1]) {
      close();
      current = { title: heading[1], lines: [] };
    } else if (label?.[1] !== undefined) {
      close();
      // "Project events: 0." leaves "0.", which Markdown would read as a numbered list.
      const rest = (label[2] ?? "").replace(/^(\d+)([.)])/, "$1\\$2");
      current = { title: label[1], lines: rest ? [rest] : [] };
    } else {
      current.lines.push(line);
    }
  }
  close();
  return sections;
}

/** Whether the page shows the email summaries: only while the summarizer is on. */
export const summariesShown = (values: Readonly<Record<string, unknown>> | undefined) =>
  values?.emailSummarizerEnabled === true;

/** Whether the sidebar lists the briefing page: while any of what writes a briefing is on. */
export function briefingShown(values: Readonly<Record<string, unknown>> | undefined): boolean {
  return (
    values?.dailyDigestEnabled === true || values?.rssDigestEnabled === true || values?.emailSummarizerEnabled === true
  );
}

/** Whether the sidebar lists the reader: `rssEnabled`, on unless turned off. */
export const feedsShown = (values: Readonly<Record<string, unknown>> | undefined) => values?.rssEnabled !== false;

/** The reader's and the briefing page's pure parts: keys, paging, flags and counts, images, links, briefing sections. */
import { describe, expect, it } from "vitest";
import type { InboxRow } from "../../shared/api/types.generated";
import { emailSummaries, entriesPath, type Feed, type FeedEntry } from "./api";
import {
  briefingKind,
  briefingSections,
  briefingShown,
  briefingVersion,
  feedsShown,
  latestBriefings,
  summariesShown,
} from "./briefing";
import {
  allRead,
  appendPage,
  feedStatusText,
  flagged,
  neighbourEntry,
  opmlFileName,
  readerCommand,
  safeLink,
  toggleFlag,
  totalUnread,
  unreadDelta,
  withImages,
  withUnread,
} from "./reader";

const entry = (id: number, over: Partial<FeedEntry> = {}): FeedEntry => ({
  id,
  feedId: "f1",
  feedTitle: "Blog",
  title: `Entry ${id}`,
  link: `https://blog.test/${id}`,
  author: null,
  publishedAt: null,
  summary: "",
  content: "",
  remoteImages: 0,
  read: false,
  starred: false,
  fetchedAt: "2026-11-28T08:00:00Z",
  ...over,
});

const feed = (id: string, over: Partial<Feed> = {}): Feed => ({
  id,
  title: id,
  url: `https://${id}.test/feed`,
  siteUrl: null,
  status: "ok",
  failure: null,
  lastFetchedAt: null,
  nextPollAt: "2026-11-28T09:00:00Z",
  unread: 0,
  ...over,
});

const key = (k: string, mods: Partial<Record<"ctrlKey" | "altKey" | "metaKey", boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe("the reader's keys", () => {
  it("map j k m s o, either case, and leave the browser's chords alone", () => {
    expect(["j", "k", "m", "s", "o", "J", "x"].map((k) => readerCommand(key(k)))).toEqual([
      "next",
      "previous",
      "toggleRead",
      "toggleStar",
      "openOriginal",
      "next",
      null,
    ]);
    expect(readerCommand(key("s", { metaKey: true }))).toBeNull();
    expect(readerCommand(key("j", { ctrlKey: true }))).toBeNull();
  });

  it("move within the list, starting at the top when none is open", () => {
    const list = [entry(3), entry(2), entry(1)];
    expect(neighbourEntry(list, null, 1)).toBe(3);
    expect(neighbourEntry(list, 3, 1)).toBe(2);
    expect(neighbourEntry(list, 1, 1)).toBe(1);
    expect(neighbourEntry(list, 3, -1)).toBe(3);
    expect(neighbourEntry([], null, 1)).toBeNull();
  });

  it("toggle read and star from the entry's state", () => {
    expect(toggleFlag("toggleRead", { read: false, starred: false })).toBe("read");
    expect(toggleFlag("toggleRead", { read: true, starred: false })).toBe("unread");
    expect(toggleFlag("toggleStar", { read: false, starred: true })).toBe("unstar");
    expect(toggleFlag("toggleStar", { read: false, starred: false })).toBe("star");
  });
});

describe("flags and counts", () => {
  it("apply each flag", () => {
    expect(flagged(entry(1), "read").read).toBe(true);
    expect(flagged(entry(1, { read: true }), "unread").read).toBe(false);
    expect(flagged(entry(1), "star").starred).toBe(true);
    expect(flagged(entry(1, { starred: true }), "unstar").starred).toBe(false);
  });

  it("move the unread count only when the read state changes", () => {
    expect(unreadDelta({ read: false }, "read")).toBe(-1);
    expect(unreadDelta({ read: true }, "read")).toBe(0);
    expect(unreadDelta({ read: true }, "unread")).toBe(1);
    expect(unreadDelta({ read: false }, "star")).toBe(0);
  });

  it("keep a feed's count at zero or more and total them", () => {
    const feeds = [feed("a", { unread: 2 }), feed("b", { unread: 0 })];
    expect(withUnread(feeds, "a", -1).map((f) => f.unread)).toEqual([1, 0]);
    expect(withUnread(feeds, "b", -1).map((f) => f.unread)).toEqual([2, 0]);
    expect(totalUnread(withUnread(feeds, "b", 3))).toBe(5);
  });

  it("mark one feed's listed entries read, or all", () => {
    const list = [entry(1), entry(2, { feedId: "f2" })];
    expect(allRead(list, "f2").map((e) => e.read)).toEqual([false, true]);
    expect(allRead(list, null).every((e) => e.read)).toBe(true);
  });

  it("append a page without listing an entry twice", () => {
    expect(appendPage([entry(3), entry(2)], [entry(2), entry(1)]).map((e) => e.id)).toEqual([3, 2, 1]);
  });
});

describe("a feed's status", () => {
  const now = Date.parse("2026-11-28T09:00:00Z");
  it("says why a failing feed fails, and when an ok one answered", () => {
    expect(feedStatusText(feed("a", { status: "failing", failure: "timed out after 20 s" }), now)).toBe(
      "Failing: timed out after 20 s",
    );
    expect(feedStatusText(feed("a", { status: "failing" }), now)).toBe("Failing: the last fetch failed");
    expect(feedStatusText(feed("a", { status: "pending" }), now)).toBe("Not fetched yet");
    expect(feedStatusText(feed("a", { lastFetchedAt: "2026-11-28T08:55:00Z" }), now)).toBe("Fetched 5 min ago");
  });
});

describe("the entries' address", () => {
  it("leaves a filter that is off out, and encodes the cursor", () => {
    expect(entriesPath({})).toBe("/feeds/entries");
    expect(entriesPath({ feedId: "a b", unread: true, starred: false, cursor: "x/y=" })).toBe(
      "/feeds/entries?feedId=a+b&unread=true&cursor=x%2Fy%3D",
    );
  });
});

describe("an entry's images and links", () => {
  it("gives blocked images back their src and srcset only when asked", () => {
    const html =
      '<p>Hi</p><img data-blocked-src="https://cdn.test/a.png" data-blocked-srcset="https://cdn.test/a2.png 2x">';
    expect(withImages(html)).toBe('<p>Hi</p><img src="https://cdn.test/a.png" srcset="https://cdn.test/a2.png 2x">');
    expect(withImages('<p>data-blocked-src="x" in text</p>')).toBe('<p>data-blocked-src="x" in text</p>');
  });

  it("opens http(s) links only, a relative one against the base", () => {
    expect(safeLink("https://blog.test/post")).toBe("https://blog.test/post");
    expect(safeLink("javascript:alert(1)")).toBeNull();
    expect(safeLink("data:text/html,hi")).toBeNull();
    expect(safeLink("not a url")).toBeNull();
    expect(safeLink(null)).toBeNull();
    expect(safeLink("/mail?thread=1", "http://127.0.0.1:3000")).toBe("http://127.0.0.1:3000/mail?thread=1");
  });

  it("names the OPML download by its day", () => {
    expect(opmlFileName(new Date("2026-11-28T09:00:00Z"))).toBe("switchboard-feeds-2026-11-28.opml");
  });
});

const row = (title: string, updatedAt: string, body: string | null = null): InboxRow => ({
  id: title + updatedAt,
  category: "digest",
  title,
  body,
  createdAt: updatedAt,
  updatedAt,
  readAt: null,
  archivedAt: null,
  count: 1,
  source: {},
  actions: [],
});

describe("the briefings", () => {
  it("tell a briefing written again at the same instant from the one before", () => {
    const first = row("Daily briefing", "2026-11-28T00:00:00Z");
    expect(briefingVersion({ ...first, count: 2 })).not.toBe(briefingVersion(first));
    expect(briefingVersion({ ...first, id: "another" })).not.toBe(briefingVersion(first));
    expect(briefingVersion(first)).toBe(briefingVersion({ ...first }));
    expect(briefingVersion(null)).toBeNull();
  });

  it("tell the daily briefing from the feeds' digest and other summaries", () => {
    expect(briefingKind(row("Daily digest for 2026-11-27", ""))).toBe("daily");
    expect(briefingKind(row("Daily briefing: Saturday 28 November", ""))).toBe("daily");
    expect(briefingKind(row("Morning feed briefing", ""))).toBe("rss");
    expect(briefingKind(row("RSS digest", ""))).toBe("rss");
    expect(briefingKind(row("Morning digest for 2026-11-28", ""))).toBe("rss");
    expect(briefingKind(row("Weekly summary: 16 – 22 Nov", ""))).toBe("other");
  });

  it("pick the newest of each", () => {
    const rows = [
      row("Daily digest for 2026-11-26", "2026-11-27T06:00:00Z"),
      row("Daily digest for 2026-11-27", "2026-11-28T06:00:00Z"),
      row("Weekly summary", "2026-11-28T07:00:00Z"),
    ];
    const latest = latestBriefings(rows);
    expect(latest.daily?.title).toBe("Daily digest for 2026-11-27");
    expect(latest.rss).toBeNull();
  });

  it("cut a body at its headings, keeping what comes first", () => {
    expect(
      briefingSections("Good morning.\n\n## Calendar\n- Standup 9:00\n\n## RSS\n- [A post](https://x.test)"),
    ).toEqual([
      { title: "", body: "Good morning." },
      { title: "Calendar", body: "- Standup 9:00" },
      { title: "RSS", body: "- [A post](https://x.test)" },
    ]);
  });

  it("cut a facts-only body at its 'Source:' lines", () => {
    const body =
      "Sessions: 2 started, 1 finished, 0 failed; cost $0.40.\nCalendar: 2 events.\n- Standup\n- Review\nProject events: 0.";
    expect(briefingSections(body)).toEqual([
      { title: "Sessions", body: "2 started, 1 finished, 0 failed; cost $0.40." },
      { title: "Calendar", body: "2 events.\n- Standup\n- Review" },
      { title: "Project events", body: "0\\." },
    ]);
  });

  it("read what the model wrote apart from the facts under its rule", () => {
    const body =
      "A quiet night: two posts worth reading.\n\n---\n\nCalendar: nothing.\nFeeds:\n- [A post](https://x.test)";
    expect(briefingSections(body)).toEqual([
      { title: "", body: "A quiet night: two posts worth reading." },
      { title: "Calendar", body: "nothing." },
      { title: "Feeds", body: "- [A post](https://x.test)" },
    ]);
  });

  it("keep a body with neither as one section, and an empty body as none", () => {
    expect(briefingSections("just text\nmore")).toEqual([{ title: "", body: "just text\nmore" }]);
    expect(briefingSections("")).toEqual([]);
  });

  it("are listed in the sidebar while anything writes one, the reader while rssEnabled", () => {
    expect(briefingShown({})).toBe(false);
    expect(briefingShown({ rssDigestEnabled: true })).toBe(true);
    expect(briefingShown({ emailSummarizerEnabled: true })).toBe(true);
    expect(feedsShown({})).toBe(true);
    expect(feedsShown({ rssEnabled: false })).toBe(false);
    expect(summariesShown({ emailSummarizerEnabled: true })).toBe(true);
    expect(summariesShown(undefined)).toBe(false);
  });
});

describe("the email summaries", () => {
  it("read a bare list or {summaries}, each field by the names it may carry", () => {
    const one = {
      id: "s1",
      from: "ada@x.test",
      subject: "Invoice",
      summary: "Pay by Friday.",
      createdAt: "2026-11-28T06:00:00Z",
    };
    expect(emailSummaries([one])).toEqual([
      {
        id: "s1",
        from: "ada@x.test",
        subject: "Invoice",
        summary: "Pay by Friday.",
        state: null,
        failure: null,
        createdAt: "2026-11-28T06:00:00Z",
        link: null,
      },
    ]);
    expect(emailSummaries({ summaries: [{ id: 7, sender: "b@x.test", title: "Hi", error: "no text" }] })).toEqual([
      {
        id: "7",
        from: "b@x.test",
        subject: "Hi",
        summary: null,
        state: null,
        failure: "no text",
        createdAt: null,
        link: null,
      },
    ]);
    expect(emailSummaries({ nothing: true })).toEqual([]);
    expect(emailSummaries([null, "x"])).toEqual([]);
  });
});

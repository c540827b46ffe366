/** The mail client's pure parts: folder order, badge, density, triage keys and reducer, replies, snooze, summaries, the frame. */
import { describe, expect, it } from "vitest";
import type { MailMessage, ThreadSummary } from "./api";
import { mailCardTarget } from "./card";
import { byVolume, unsubscribeText } from "./cleanup";
import { addressOf, draftFor, prefixedSubject, splitAddresses } from "./compose";
import { badgeCount, densityPadding, folderLabel, headerLayout, mailShown, orderFolders, sizeText } from "./folders";
import {
  FRAME_SANDBOX,
  frameDocument,
  frameHeight,
  framePolicy,
  partApiPath,
  partSources,
  withSources,
} from "../../shared/frames/sandboxedFrame";
import { pickedTime, snoozeChoices } from "./snooze";
import { senderMatches, summarizesOnOpen } from "./summary";
import { afterLeaving, emptyTriage, keyCommand, neighbour, toggleAction, triage, type TriageState } from "./triage";

const folder = (name: string, role: string | null) => ({ name, role, unread: 0, total: 0 });

describe("folders", () => {
  it("puts the SPECIAL-USE roles first in their order, then the rest by name", () => {
    const folders = [
      folder("Zeta", null),
      folder("Trash", "trash"),
      folder("Junk", "spam"),
      folder("Snoozed", "snoozed"),
      folder("Alpha", null),
      folder("Archive", "archive"),
      folder("Drafts", "drafts"),
      folder("Sent Items", "sent"),
      folder("INBOX", "inbox"),
    ];
    expect(orderFolders(folders).map(folderLabel)).toEqual([
      "Inbox",
      "Sent",
      "Drafts",
      "Archive",
      "Spam",
      "Trash",
      "Snoozed",
      "Alpha",
      "Zeta",
    ]);
  });

  it("names a nested folder by its last step", () => {
    expect(folderLabel(folder("Projects/Acme", null))).toBe("Acme");
  });

  it("counts unread or total over the inboxes", () => {
    const inboxes = [
      { unread: 2, total: 10 },
      { unread: 1, total: 5 },
    ];
    expect(badgeCount("unread", inboxes)).toBe(3);
    expect(badgeCount("total", inboxes)).toBe(15);
  });

  it("spaces rows by density, tight to roomy, and reads unknown values as defaults", () => {
    const pads = ["tight", "compact", "comfortable", "spacious", "roomy"].map(densityPadding);
    expect([...pads].sort((a, b) => a - b)).toEqual(pads);
    expect(new Set(pads).size).toBe(5);
    expect(densityPadding("huge")).toBe(densityPadding("comfortable"));
    expect(headerLayout("rail")).toBe("rail");
    expect(headerLayout("other")).toBe("current");
  });

  it("shows the sidebar entry for the client or for web mail", () => {
    expect(mailShown({ mailclientEnabled: true })).toBe(true);
    expect(mailShown({ webmailEnabled: true })).toBe(true);
    expect(mailShown({ mailclientEnabled: false, webmailEnabled: false })).toBe(false);
    expect(mailShown(undefined)).toBe(false);
  });

  it("says sizes as a person reads them", () => {
    expect(sizeText(1)).toBe("1 byte");
    expect(sizeText(2048)).toBe("2 KB");
    expect(sizeText(3 * 1024 * 1024)).toBe("3.0 MB");
  });
});

const thread = (id: string, over: Partial<ThreadSummary> = {}): ThreadSummary => ({
  id,
  subject: id,
  participants: [],
  snippet: "",
  count: 1,
  unread: 1,
  starred: false,
  date: "2026-11-28T10:00:00Z",
  ...over,
});

const loaded = (...ids: string[]): TriageState =>
  triage(emptyTriage, { type: "loaded", threads: ids.map((id) => thread(id)), append: false });

describe("triage keys", () => {
  it("maps the keys, any case, and leaves modified keys to the browser", () => {
    expect(keyCommand({ key: "e", ctrlKey: false, altKey: false, metaKey: false })).toBe("archive");
    expect(keyCommand({ key: "E", ctrlKey: false, altKey: false, metaKey: false })).toBe("archive");
    expect(keyCommand({ key: "!", ctrlKey: false, altKey: false, metaKey: false })).toBe("spam");
    expect(keyCommand({ key: "/", ctrlKey: false, altKey: false, metaKey: false })).toBe("search");
    expect(keyCommand({ key: "r", ctrlKey: true, altKey: false, metaKey: false })).toBeNull();
    expect(keyCommand({ key: "q", ctrlKey: false, altKey: false, metaKey: false })).toBeNull();
    expect(keyCommand({ key: "Enter", ctrlKey: false, altKey: false, metaKey: false })).toBeNull();
  });

  it("toggles star and unread", () => {
    expect(toggleAction("star", { starred: false, unread: 1 })).toBe("star");
    expect(toggleAction("star", { starred: true, unread: 1 })).toBe("unstar");
    expect(toggleAction("unread", { starred: false, unread: 2 })).toBe("read");
    expect(toggleAction("unread", { starred: false, unread: 0 })).toBe("unread");
  });

  it("moves J/K inside the list and picks the next thread when one leaves", () => {
    const list = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect(neighbour(list, "b", 1)).toBe("c");
    expect(neighbour(list, "c", 1)).toBe("c");
    expect(neighbour(list, "a", -1)).toBe("a");
    expect(neighbour(list, null, 1)).toBe("a");
    expect(afterLeaving(list, "b")).toBe("c");
    expect(afterLeaving(list, "c")).toBe("b");
    expect(afterLeaving([{ id: "a" }], "a")).toBeNull();
  });
});

describe("triage reducer", () => {
  it("removes an archived thread at once and forgets it once confirmed", () => {
    let state = triage(loaded("a", "b", "c"), { type: "apply", op: 1, id: "b", action: "archive" });
    expect(state.threads.map((t) => t.id)).toEqual(["a", "c"]);
    state = triage(state, { type: "confirmed", op: 1 });
    expect(state.held).toEqual({});
    expect(state.threads.map((t) => t.id)).toEqual(["a", "c"]);
  });

  it("puts a refused archive back where it was, with the server's words", () => {
    let state = triage(loaded("a", "b", "c"), { type: "apply", op: 1, id: "b", action: "archive" });
    state = triage(state, { type: "refused", op: 1, message: "NO [CANNOT] Mailbox is read-only" });
    expect(state.threads.map((t) => t.id)).toEqual(["a", "b", "c"]);
    expect(state.error).toBe("NO [CANNOT] Mailbox is read-only");
    expect(state.held).toEqual({});
  });

  it("rolls back a refused star without undoing a later read", () => {
    let state = triage(loaded("a"), { type: "apply", op: 1, id: "a", action: "star" });
    state = triage(state, { type: "apply", op: 2, id: "a", action: "read" });
    expect(state.threads[0]).toMatchObject({ starred: true, unread: 0 });
    state = triage(state, { type: "confirmed", op: 2 });
    state = triage(state, { type: "refused", op: 1, message: "refused" });
    expect(state.threads[0]).toMatchObject({ starred: false, unread: 0 });
  });

  it("clears the last error on the next action, and ignores an action on a thread not listed", () => {
    let state = triage(loaded("a", "b"), { type: "apply", op: 1, id: "a", action: "spam" });
    state = triage(state, { type: "refused", op: 1, message: "no" });
    state = triage(state, { type: "apply", op: 2, id: "b", action: "unread" });
    expect(state.error).toBeNull();
    expect(triage(state, { type: "apply", op: 3, id: "zz", action: "archive" })).toBe(state);
    state = triage(state, { type: "refused", op: 2, message: "still no" });
    expect(triage(state, { type: "dismissed" }).error).toBeNull();
  });

  it("appends a page without repeating a thread, and reflects a read on open", () => {
    let state = loaded("a", "b");
    state = triage(state, { type: "loaded", threads: [thread("b"), thread("c")], append: true });
    expect(state.threads.map((t) => t.id)).toEqual(["a", "b", "c"]);
    state = triage(state, { type: "opened", id: "a", markRead: true });
    expect(state.threads[0]?.unread).toBe(0);
    expect(triage(state, { type: "opened", id: "b", markRead: false }).threads[1]?.unread).toBe(1);
  });
});

const message = (over: Partial<MailMessage> = {}): MailMessage => ({
  id: "m1",
  folder: "INBOX",
  uid: 7,
  messageId: "lunch@example.com",
  from: "Ada <ada@example.com>",
  to: ["me@example.org", "Bob <bob@example.com>"],
  cc: ["carol@example.com", "ADA@example.com"],
  date: "2026-11-27T09:00:00Z",
  subject: "Lunch",
  unread: false,
  starred: false,
  html: "",
  frameUrl: "/mail/messages/m1/frame",
  text: "Noon?\nOr one.",
  attachments: [],
  remoteImages: 0,
  malformed: null,
  ...over,
});

describe("replies", () => {
  it("reads bare addresses and splits typed lists", () => {
    expect(addressOf("Ada <Ada@Example.com>")).toBe("ada@example.com");
    expect(splitAddresses("a@x.org, b@y.org; ,\nc@z.org")).toEqual(["a@x.org", "b@y.org", "c@z.org"]);
  });

  it("prefixes the subject once", () => {
    expect(prefixedSubject("Re", "Lunch")).toBe("Re: Lunch");
    expect(prefixedSubject("Re", "RE: Lunch")).toBe("RE: Lunch");
    expect(prefixedSubject("Fwd", "Fw: Lunch")).toBe("Fw: Lunch");
  });

  it("replies to the sender, quoting, threaded on the message", () => {
    const draft = draftFor("reply", message(), ["me@example.org"]);
    expect(draft).toMatchObject({ to: "Ada <ada@example.com>", cc: "", subject: "Re: Lunch", inReplyTo: "m1" });
    expect(draft.markdown).toContain(
      "On Fri, 27 Nov 2026 09:00:00 GMT, Ada <ada@example.com> wrote:\n\n> Noon?\n> Or one.",
    );
  });

  it("replies to all without the user and without repeating the sender", () => {
    const draft = draftFor("replyAll", message(), ["me@example.org"]);
    expect(draft.to).toBe("Ada <ada@example.com>");
    expect(draft.cc).toBe("Bob <bob@example.com>, carol@example.com");
  });

  it("answers the user's own message to its recipients", () => {
    const draft = draftFor("reply", message({ from: "Me <me@example.org>" }), ["me@example.org"]);
    expect(draft.to).toBe("Bob <bob@example.com>");
  });

  it("forwards with no recipient and the original quoted", () => {
    const draft = draftFor("forward", message(), ["me@example.org"]);
    expect(draft).toMatchObject({ to: "", subject: "Fwd: Lunch" });
    expect(draft.inReplyTo).toBeUndefined();
    expect(draft.markdown).toContain("From: Ada <ada@example.com>");
  });
});

describe("snooze", () => {
  it("offers later today, tomorrow morning and next Monday from a Wednesday morning", () => {
    const now = new Date(2026, 10, 25, 9, 20);
    const [later, tomorrow, week] = snoozeChoices(now);
    expect(later?.at).toEqual(new Date(2026, 10, 25, 12, 0));
    expect(tomorrow?.at).toEqual(new Date(2026, 10, 26, 8, 0));
    expect(week?.at).toEqual(new Date(2026, 10, 30, 8, 0));
  });

  it("drops later today in the evening, and next week from a Monday is a week on", () => {
    const choices = snoozeChoices(new Date(2026, 10, 30, 20, 0));
    expect(choices.map((c) => c.key)).toEqual(["tomorrow", "nextWeek"]);
    expect(choices[1]?.at).toEqual(new Date(2026, 11, 7, 8, 0));
  });

  it("takes a typed time only when it is ahead", () => {
    const now = new Date(2026, 10, 25, 9, 0);
    expect(pickedTime("2026-11-26T10:30", now)).toEqual(new Date(2026, 10, 26, 10, 30));
    expect(pickedTime("2026-11-24T10:30", now)).toBeNull();
    expect(pickedTime("", now)).toBeNull();
  });
});

describe("catch me up", () => {
  it("matches an address or a whole @domain, case apart", () => {
    expect(senderMatches("Boss <Boss@Acme.com>", ["boss@acme.com"])).toBe(true);
    expect(senderMatches("x@acme.com", ["@ACME.com"])).toBe(true);
    expect(senderMatches("x@notacme.com", ["@acme.com"])).toBe(false);
    expect(senderMatches("x@sub.acme.com", ["@acme.com"])).toBe(false);
    expect(senderMatches("x@acme.com", ["", " "])).toBe(false);
  });

  it("summarizes on open for auto, for chosen senders in selective, never for manual", () => {
    expect(summarizesOnOpen("auto", [], ["a@b.c"])).toBe(true);
    expect(summarizesOnOpen("manual", ["@b.c"], ["a@b.c"])).toBe(false);
    expect(summarizesOnOpen("selective", ["@b.c"], ["x@y.z", "a@b.c"])).toBe(true);
    expect(summarizesOnOpen("selective", ["@b.c"], ["x@y.z"])).toBe(false);
    expect(summarizesOnOpen("selective", "nonsense", ["a@b.c"])).toBe(false);
  });
});

describe("the message frame", () => {
  it("lets no remote image through until asked, and never scripts or forms", () => {
    const blocked = framePolicy("http://127.0.0.1:7777", false);
    expect(blocked).toContain("img-src data: http://127.0.0.1:7777;");
    expect(blocked).not.toContain("https:");
    expect(blocked).toContain("default-src 'none'");
    expect(blocked).toContain("form-action 'none'");
    expect(framePolicy("http://127.0.0.1:7777", true)).toContain("https:");
    expect(FRAME_SANDBOX).not.toMatch(/allow-scripts|allow-forms|allow-same-origin/);
  });

  it("puts the policy before the body and shows plain text escaped", () => {
    const doc = frameDocument({ html: null, text: "a <b> & c" }, "http://h", false);
    expect(doc.indexOf("Content-Security-Policy")).toBeLessThan(doc.indexOf("<body>"));
    expect(doc).toContain("a &lt;b&gt; &amp; c");
    expect(frameDocument({ html: "<p>hi</p>", text: "hi" }, "http://h", false)).toContain("<body><p>hi</p></body>");
  });
});

describe("mail cards and cleanup", () => {
  const row = (category: string, path: string) =>
    ({ category, actions: [{ kind: "open_path", path }] }) as unknown as Parameters<typeof mailCardTarget>[0];

  it("finds the thread a mail card answers, and nothing on another row", () => {
    expect(mailCardTarget(row("mail", "/mail?account=toml%3Ame&thread=t9"))).toEqual({
      accountId: "toml:me",
      threadId: "t9",
    });
    expect(mailCardTarget(row("mail", "/boards/b1"))).toBeNull();
    expect(mailCardTarget(row("alert", "/mail?account=a&thread=t"))).toBeNull();
  });

  it("puts the loudest senders first and says what Unsubscribe does", () => {
    const sender = (address: string, count: number, unread = 0) => ({
      address,
      name: null,
      domain: "x",
      count,
      unread,
      lastDate: 1_790_000_000,
      listId: null,
      unsubscribe: null,
    });
    expect(byVolume([sender("a@x", 3), sender("b@x", 9), sender("c@x", 3, 2)]).map((s) => s.address)).toEqual([
      "b@x",
      "c@x",
      "a@x",
    ]);
    expect(unsubscribeText(null)).toBeNull();
    expect(unsubscribeText({ method: "mailto", to: "leave@list.org", subject: "", body: "" })).toContain(
      "leave@list.org",
    );
    expect(unsubscribeText({ method: "oneClick", url: "https://x/u" })).toContain("one-click");
  });
});

describe("the message's own parts", () => {
  it("finds the parts the HTML shows, once each, and inlines what was read", () => {
    const html =
      '<img src="/mail/messages/m1/parts/2"><img src="/api/mail/messages/m1/parts/3?x=1&amp;y=2"><img src="/mail/messages/m1/parts/2"><img src="https://far.example/x.png">';
    expect(partSources(html)).toEqual(["/mail/messages/m1/parts/2", "/api/mail/messages/m1/parts/3?x=1&amp;y=2"]);
    expect(partApiPath("/api/mail/messages/m1/parts/3?x=1&amp;y=2")).toBe("/mail/messages/m1/parts/3?x=1&y=2");
    const done = withSources(html, new Map([["/mail/messages/m1/parts/2", "data:image/png;base64,AA"]]));
    expect(done.match(/data:image\/png;base64,AA/g)).toHaveLength(2);
    expect(done).toContain('src="/api/mail/messages/m1/parts/3?x=1&amp;y=2"');
    expect(done).toContain('src="https://far.example/x.png"');
  });
});

describe("the frame's height", () => {
  it("grows with the text, between a note's and most of a window", () => {
    expect(frameHeight("Hi")).toBe(140);
    expect(frameHeight("line\n".repeat(12))).toBeGreaterThan(140);
    expect(frameHeight("x".repeat(100_000))).toBe(640);
  });
});

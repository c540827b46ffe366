import { describe, expect, it } from "vitest";
import type { InboxRow, Session } from "../../shared/api/types.generated";
import { inboxRow } from "../../shared/inbox/fixtures";
import { session as anySession } from "./fixtures";
import { postSendSteps, postSendTarget, WAITING_ROOM, type PostSendContext } from "./postSend";

const session = (id: string, overrides: Partial<Session> = {}): Session =>
  anySession(id, { cwd: "/src/app", status: "waiting_for_input", ...overrides });

const sessionRow = (sessionId: string): InboxRow =>
  inboxRow(`row-${sessionId}`, {
    category: "session",
    title: "Needs you",
    createdAt: "2026-01-01T10:00:00Z",
    updatedAt: "2026-01-01T10:00:00Z",
    source: { sessionId },
    actions: [{ kind: "open_session", sessionId }],
  });

const current = session("c");
const context = (over: Partial<PostSendContext> = {}): PostSendContext => ({
  current,
  boardOrder: [session("a"), current, session("b", { cwd: "/other" }), session("d")],
  unreadSessionRows: [sessionRow("c"), sessionRow("x")],
  ...over,
});

describe("postSendTarget", () => {
  it("stays for stay, an empty list, or when nothing applies", () => {
    expect(postSendTarget(["stay", "waiting_room"], context())).toBeNull();
    expect(postSendTarget([], context())).toBeNull();
    expect(postSendTarget(["next_in_inbox"], context({ unreadSessionRows: [sessionRow("c")] }))).toBeNull();
  });

  it("opens the newest unread session row of another session", () => {
    expect(postSendTarget(["next_in_inbox"], context())).toBe("/sessions/x");
  });

  it("opens the next waiting session in the same folder, in board order, wrapping", () => {
    expect(postSendTarget(["next_in_project"], context())).toBe("/sessions/d");
    const wrapped = context({ boardOrder: [session("a"), current, session("d", { status: "running" })] });
    expect(postSendTarget(["next_in_project"], wrapped)).toBe("/sessions/a");
    const none = context({ boardOrder: [current, session("b", { cwd: "/other" }), session("e", { archived: true })] });
    expect(postSendTarget(["next_in_project"], none)).toBeNull();
  });

  it("tries the list in order: the first that applies wins", () => {
    const none = context({ boardOrder: [current], unreadSessionRows: [] });
    expect(postSendTarget(["next_in_project", "next_in_inbox", "waiting_room"], none)).toBe(WAITING_ROOM);
    expect(postSendTarget(["next_in_inbox", "next_in_project"], context())).toBe("/sessions/x");
    expect(postSendTarget(["next_in_project", "next_in_inbox"], context())).toBe("/sessions/d");
  });

  it("reads the setting, keeping only the steps it knows", () => {
    expect(postSendSteps(["waiting_room", "later", "stay"])).toEqual(["waiting_room", "stay"]);
    expect(postSendSteps(undefined)).toEqual(["stay"]);
  });
});

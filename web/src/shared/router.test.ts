import { describe, expect, it, test } from "vitest";
import { isExternal, matchRoute } from "./router";

describe("matchRoute", () => {
  test("maps every section of the shell", () => {
    expect(matchRoute("/")).toEqual({ name: "sessions" });
    expect(matchRoute("/boards")).toEqual({ name: "boards" });
    expect(matchRoute("/boards/b1")).toEqual({ name: "board", id: "b1" });
    expect(matchRoute("/dashboards")).toEqual({ name: "dashboards" });
    expect(matchRoute("/dashboards/d%201")).toEqual({ name: "dashboard", id: "d 1" });
    expect(matchRoute("/p/tok_en-1")).toEqual({ name: "publicDashboard", token: "tok_en-1" });
    expect(matchRoute("/inbox")).toEqual({ name: "inbox" });
    expect(matchRoute("/sessions/")).toEqual({ name: "sessions" });
    expect(matchRoute("/sessions/s_1")).toEqual({ name: "session", id: "s_1" });
    expect(matchRoute("/settings")).toEqual({ name: "settings" });
    expect(matchRoute("/bugs")).toEqual({ name: "bugs" });
    expect(matchRoute("/runners")).toEqual({ name: "runners" });
    expect(matchRoute("/apps")).toEqual({ name: "apps" });
    expect(matchRoute("/ask")).toEqual({ name: "ask" });
    expect(matchRoute("/work")).toEqual({ name: "work" });
    expect(matchRoute("/scheduled-messages")).toEqual({ name: "scheduledMessages" });
    expect(matchRoute("/drips")).toEqual({ name: "drips" });
    expect(matchRoute("/drips/d%201")).toEqual({ name: "drip", id: "d 1" });
    expect(matchRoute("/automations")).toEqual({ name: "automations" });
    expect(matchRoute("/tasks")).toEqual({ name: "tasks" });
    expect(matchRoute("/tasks/caught")).toEqual({ name: "caught" });
    expect(matchRoute("/tasks/other")).toEqual({ name: "notFound", path: "/tasks/other" });
  });

  test("anything else is not found", () => {
    for (const path of [
      "/p",
      "/p/",
      "/boards/a/b",
      "/inbox/x",
      "/runners/local",
      "/apps/web",
      "/work/w1",
      "/automations/x",
      "/nope",
      "/boards/%E0%A4%A",
    ]) {
      expect(matchRoute(path)).toEqual({ name: "notFound", path });
    }
  });
});

describe("isExternal", () => {
  it("tells a bookmarked link from an address of the app", () => {
    expect(isExternal("https://docs.rs")).toBe(true);
    expect(isExternal("HTTP://example.com/x")).toBe(true);
    expect(isExternal("/sessions/abc")).toBe(false);
    expect(isExternal("/settings#https://x")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { conversationName, newestFirst } from "./ask";

describe("a conversation's name", () => {
  it("is its title once it has one", () => {
    expect(conversationName({ title: "Why sessions stop", prompt: "why did my session stop?" })).toBe(
      "Why sessions stop",
    );
  });

  it("is the question on one line until then, cut when long", () => {
    expect(conversationName({ title: null, prompt: "How do I\n  add a runner?" })).toBe("How do I add a runner?");
    const long = conversationName({ title: " ", prompt: "word ".repeat(60) });
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith("…")).toBe(true);
  });

  it("says so when there is no question at all", () => {
    expect(conversationName({ title: null, prompt: "  " })).toBe("Untitled question");
  });
});

describe("the conversations", () => {
  it("come newest first", () => {
    const rows = [
      { id: "a", updatedAt: "2026-11-01T10:00:00Z" },
      { id: "b", updatedAt: "2026-11-03T10:00:00Z" },
      { id: "c", updatedAt: "2026-11-02T10:00:00Z" },
    ];
    expect(newestFirst(rows).map((r) => r.id)).toEqual(["b", "c", "a"]);
  });
});

import { describe, expect, it } from "vitest";
import { MAX_TEXT_CHARS, charCount, failureNote, openedFrom, replyProblem } from "./conversation";

describe("the conversation an address opens", () => {
  it("reads the inbox row's link", () => {
    expect(openedFrom("?number=%2B4930222333", "number")).toBe("+4930222333");
    expect(openedFrom("?room=%21abc%3Alocalhost", "room")).toBe("!abc:localhost");
    expect(openedFrom("", "number")).toBeNull();
    expect(openedFrom("?number=%20", "number")).toBeNull();
  });
});

describe("the reply box", () => {
  it("counts an emoji as one character, as the server does", () => {
    expect(charCount("🎉🎉🙂")).toBe(3);
    expect(replyProblem("🎉".repeat(MAX_TEXT_CHARS), MAX_TEXT_CHARS)).toBeNull();
  });

  it("refuses an empty or too long reply", () => {
    expect(replyProblem("   ", MAX_TEXT_CHARS)).toMatch(/Write something/);
    expect(replyProblem("x".repeat(MAX_TEXT_CHARS + 1), MAX_TEXT_CHARS)).toMatch(/at most 1600/);
  });

  it("says why a text did not go out", () => {
    expect(failureNote("pending", null)).toBeNull();
    expect(failureNote("failed", "the gateway refused the credentials (HTTP 401)")).toBe(
      "Not sent: the gateway refused the credentials (HTTP 401)",
    );
  });
});

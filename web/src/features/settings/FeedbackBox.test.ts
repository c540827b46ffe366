import { describe, expect, it } from "vitest";
import { feedbackState } from "./FeedbackBox";

describe("feedbackState", () => {
  it("says whether a piece of feedback was sent, failed or waits", () => {
    expect(feedbackState({ sentAt: null, lastFailure: null })).toMatch(/^Kept here: sent once/);
    expect(feedbackState({ sentAt: null, lastFailure: "550 no such user" })).toBe("Not sent yet: 550 no such user");
    expect(feedbackState({ sentAt: "2026-11-29T09:00:00.000Z", lastFailure: null })).toMatch(/^Sent /);
  });
});

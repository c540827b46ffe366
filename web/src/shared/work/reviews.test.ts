import { describe, expect, it } from "vitest";
import type { ReviewFinding, WorkEntry, WorkReview } from "../api/types.generated";
import { findingLocation, reviewFindings, reviewSummary, workOfSession } from "./reviews";

const finding = (
  file: string,
  line: number | null,
  severity: ReviewFinding["severity"],
  text = "x",
): ReviewFinding => ({
  file,
  line,
  severity,
  text,
});

const review = (reviewer: string, findings: ReviewFinding[], error: string | null = null): WorkReview => ({
  reviewer,
  head: "0123456789abcdef",
  at: "2026-03-10T10:00:00Z",
  findings,
  error,
});

describe("reviewFindings", () => {
  it("lists every reviewer's findings as one, high first, then by file and line, the whole file first", () => {
    const critic = review("critic", [
      finding("b.rs", 3, "low"),
      finding("b.rs", 9, "high"),
      finding("a.rs", 1, "medium"),
    ]);
    const linter = review("linter", [finding("b.rs", 2, "high"), finding("b.rs", null, "high")]);
    expect(reviewFindings([critic, linter]).map((f) => `${f.severity} ${findingLocation(f)} ${f.reviewer}`)).toEqual([
      "high b.rs linter",
      "high b.rs:2 linter",
      "high b.rs:9 critic",
      "medium a.rs:1 critic",
      "low b.rs:3 critic",
    ]);
  });

  it("orders the same place by reviewer, and keeps a reviewer's own order after that", () => {
    const zed = review("zed", [finding("a.rs", 1, "low", "first")]);
    const amy = review("amy", [finding("a.rs", 1, "low", "second"), finding("a.rs", 1, "low", "third")]);
    expect(reviewFindings([zed, amy]).map((f) => f.text)).toEqual(["second", "third", "first"]);
  });

  it("has nothing from a review that failed", () => {
    expect(reviewFindings([review("critic", [], "the reviewer answered nothing usable")])).toEqual([]);
  });
});

describe("reviewSummary", () => {
  it("is null for work nobody reviewed", () => {
    expect(reviewSummary([])).toBeNull();
  });

  it("counts the findings and each severity found, most severe first, coloured by the worst", () => {
    const reviews = [
      review("critic", [finding("a.rs", 1, "low"), finding("a.rs", 2, "high")]),
      review("linter", [finding("b.rs", 1, "low")]),
    ];
    expect(reviewSummary(reviews)).toEqual({
      text: "Review: 3 findings · 1 high · 2 low",
      severity: "high",
      failed: false,
    });
    expect(reviewSummary([review("critic", [finding("a.rs", null, "medium")])])).toEqual({
      text: "Review: 1 finding · 1 medium",
      severity: "medium",
      failed: false,
    });
  });

  it("says a review found nothing", () => {
    expect(reviewSummary([review("critic", []), review("linter", [])])).toEqual({
      text: "Reviewed: no findings",
      severity: null,
      failed: false,
    });
  });

  it("gives the error when the only review failed, and how many when several did", () => {
    expect(reviewSummary([review("critic", [], "the engine exited with 1")])).toEqual({
      text: "Review failed: the engine exited with 1",
      severity: null,
      failed: true,
    });
    expect(reviewSummary([review("critic", [], "a"), review("linter", [], "b")])?.text).toBe("2 reviews failed");
  });

  it("counts a failed review beside the verdict of the others", () => {
    const failed = review("linter", [], "timed out");
    expect(reviewSummary([review("critic", [finding("a.rs", 1, "high")]), failed])?.text).toBe(
      "Review: 1 finding · 1 high · 1 review failed",
    );
    expect(reviewSummary([review("critic", []), failed])).toEqual({
      text: "Reviewed: no findings · 1 review failed",
      severity: null,
      failed: false,
    });
  });
});

describe("workOfSession", () => {
  const work = (id: string, sessions: string[]) => ({ id, sessions }) as WorkEntry;

  it("finds the work any of whose sessions is the one asked for, not only its newest", () => {
    const entries = [work("w1", ["s3"]), work("w2", ["s2", "s1"])];
    expect(workOfSession(entries, "s1")?.id).toBe("w2");
    expect(workOfSession(entries, "s9")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import type { InputRequest, Reviewed } from "../api/types.generated";
import { inboxRow } from "../inbox/fixtures";
import {
  inputAnswer,
  MAX_VALUE_BYTES,
  nameProblem,
  proposalStateLabel,
  requestStateLabel,
  saveDecision,
  secretCardOf,
  valueProblem,
} from "./secrets";

const source = { sessionId: "s1", requestId: "q1" };

const request = (over: Partial<InputRequest> = {}): InputRequest => ({
  id: "q1",
  sessionId: "s1",
  name: "API_TOKEN",
  prompt: "The staging token",
  file: "/work/p/.env",
  state: "pending",
  createdAt: "2026-01-01T00:00:00Z",
  expiresAt: "2026-01-01T01:00:00Z",
  answeredAt: null,
  ...over,
});

const proposal = (over: Partial<Reviewed> = {}): Reviewed => ({
  id: "k1",
  sessionId: "s1",
  name: "GITHUB_TOKEN",
  value: "ghp_abc",
  state: "pending",
  createdAt: "2026-01-01T00:00:00Z",
  decidedAt: null,
  ...over,
});

describe("secretCardOf", () => {
  it("gives an input request's and a key proposal's cli_pending row their card", () => {
    expect(secretCardOf(inboxRow("r", { category: "cli_pending", reason: "input_request", source }))).toEqual({
      kind: "input_request",
      requestId: "q1",
    });
    expect(secretCardOf(inboxRow("r", { category: "cli_pending", reason: "key_proposal", source }))).toEqual({
      kind: "key_proposal",
      proposalId: "q1",
    });
  });

  it("gives none to a permission row, a row without a request id, or another category", () => {
    expect(secretCardOf(inboxRow("r", { category: "cli_pending", reason: "permission", source }))).toBeNull();
    expect(
      secretCardOf(inboxRow("r", { category: "cli_pending", reason: "input_request", source: { sessionId: "s1" } })),
    ).toBeNull();
    expect(secretCardOf(inboxRow("r", { category: "session", reason: "input_request", source }))).toBeNull();
  });
});

describe("valueProblem", () => {
  it("takes one non-empty line", () => {
    expect(valueProblem("s3cr3t value=with spaces")).toBeNull();
    expect(valueProblem("x".repeat(MAX_VALUE_BYTES))).toBeNull();
  });

  it("refuses an empty value, a line break, a NUL and one over the server's byte limit", () => {
    expect(valueProblem("")).toBe("Type a value.");
    expect(valueProblem("a\nB=2")).toMatch(/one line/);
    expect(valueProblem("a\r")).toMatch(/one line/);
    expect(valueProblem("a\0")).toMatch(/one line/);
    // Counted in UTF-8 bytes, as the server counts: 8193 two-byte characters are too many.
    expect(valueProblem("é".repeat(MAX_VALUE_BYTES / 2 + 1))).toMatch(/bytes/);
  });
});

describe("nameProblem", () => {
  it("takes a variable name and refuses anything else", () => {
    expect(nameProblem("_A1")).toBeNull();
    expect(nameProblem("1A")).not.toBeNull();
    expect(nameProblem("A-B")).not.toBeNull();
    expect(nameProblem("")).not.toBeNull();
    expect(nameProblem("A".repeat(129))).not.toBeNull();
  });
});

describe("inputAnswer", () => {
  it("answers with the typed value and whether to remember it", () => {
    expect(inputAnswer({ value: "tok", remember: true, key: "" })).toEqual({ body: { value: "tok", remember: true } });
    expect(inputAnswer({ value: "tok", remember: false, key: "" })).toEqual({
      body: { value: "tok", remember: false },
    });
  });

  it("answers with a chosen saved key alone, the typed value left unsent", () => {
    expect(inputAnswer({ value: "typed", remember: true, key: "SAVED" })).toEqual({ body: { key: "SAVED" } });
  });

  it("sends nothing while the value is empty or spans lines", () => {
    expect(inputAnswer({ value: "", remember: false, key: "" })).toEqual({ problem: "Type a value." });
    expect(inputAnswer({ value: "a\nb", remember: false, key: "" })).toHaveProperty("problem");
  });
});

describe("saveDecision", () => {
  it("sends only what was edited", () => {
    expect(saveDecision(proposal(), "GITHUB_TOKEN", "ghp_abc")).toEqual({ body: { decision: "save" } });
    expect(saveDecision(proposal(), "GH_TOKEN", "ghp_abc")).toEqual({ body: { decision: "save", name: "GH_TOKEN" } });
    expect(saveDecision(proposal(), "GITHUB_TOKEN", "ghp_new")).toEqual({
      body: { decision: "save", value: "ghp_new" },
    });
  });

  it("sends nothing with a bad name or value", () => {
    expect(saveDecision(proposal(), "bad name", "v")).toHaveProperty("problem");
    expect(saveDecision(proposal(), "OK", "")).toEqual({ problem: "Type a value." });
  });
});

describe("state labels", () => {
  it("say how a request ended, and nothing while it is pending", () => {
    expect(requestStateLabel(request())).toBeNull();
    expect(requestStateLabel(request({ state: "saved" }))).toBe("Saved to /work/p/.env");
    expect(requestStateLabel(request({ state: "declined" }))).toBe("Declined");
    expect(requestStateLabel(request({ state: "expired" }))).toBe("Expired");
  });

  it("say how a proposal ended, and nothing while it is pending", () => {
    expect(proposalStateLabel(proposal())).toBeNull();
    expect(proposalStateLabel(proposal({ state: "saved", value: null }))).toBe("Saved as GITHUB_TOKEN");
    expect(proposalStateLabel(proposal({ state: "discarded", value: null }))).toBe("Discarded");
  });
});

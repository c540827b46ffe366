import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ApiError } from "../api/client";
import type { InputRequest, Reviewed } from "../api/types.generated";
import { InputRequestView } from "./InputRequestCard";
import { KeyProposalView } from "./KeyProposalCard";

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

const drawRequest = (over: Partial<InputRequest> = {}, keys: string[] = [], error?: unknown) =>
  renderToStaticMarkup(
    <InputRequestView
      request={request(over)}
      keys={keys.map((name) => ({ name, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" }))}
      keysError={undefined}
      busy={false}
      error={error}
      onAnswer={() => {}}
    />,
  );

const proposal: Reviewed = {
  id: "k1",
  sessionId: "s1",
  name: "GITHUB_TOKEN",
  value: "ghp_abc",
  state: "pending",
  createdAt: "2026-01-01T00:00:00Z",
  decidedAt: null,
};

test("a pending input request shows its prompt, name and file, and a password field without a name", () => {
  const html = drawRequest();
  expect(html).toContain("The staging token");
  expect(html).toContain(">API_TOKEN<");
  expect(html).toContain(">/work/p/.env<");
  const field = html.match(/<input type="password"[^>]*>/)?.[0] ?? "";
  expect(field).toContain('autoComplete="off"');
  // No name: a native submission could not carry the value anywhere.
  expect(field).not.toContain("name=");
  expect(html).toContain("Remember as a saved key");
  expect(html).toContain(">Save<");
  expect(html).toContain(">Decline<");
  expect(html).not.toContain("<select");
});

test("saved keys are offered instead of a typed value", () => {
  const html = drawRequest({}, ["STAGING", "PROD"]);
  expect(html).toContain("or use a saved key");
  expect(html).toContain('<option value="STAGING">STAGING</option>');
  expect(html).toContain('<option value="PROD">PROD</option>');
});

test("an answered request shows how it ended instead of its form, and a server error inline", () => {
  const saved = drawRequest({ state: "saved" });
  expect(saved).toContain("Saved to /work/p/.env");
  expect(saved).not.toContain("<input");
  expect(drawRequest({ state: "expired" })).toContain(">Expired<");
  const failed = drawRequest({}, [], new ApiError(409, "file_not_written", "cannot write /work/p/.env"));
  expect(failed).toContain('role="alert"');
  expect(failed).toContain("cannot write /work/p/.env");
});

test("a pending proposal shows its name to edit and its value hidden until Show", () => {
  const html = renderToStaticMarkup(
    <KeyProposalView proposal={proposal} busy={false} error={undefined} onDecide={() => {}} />,
  );
  expect(html).toContain('value="GITHUB_TOKEN"');
  expect(html).toMatch(/<input type="password"[^>]*value="ghp_abc"/);
  expect(html).toContain(">Show<");
  expect(html).toContain(">Save<");
  expect(html).toContain(">Discard<");
});

test("a decided proposal shows how it ended instead of its form", () => {
  const html = renderToStaticMarkup(
    <KeyProposalView
      proposal={{ ...proposal, state: "discarded", value: null }}
      busy={false}
      error={undefined}
      onDecide={() => {}}
    />,
  );
  expect(html).toContain(">Discarded<");
  expect(html).not.toContain("<input");
});

/**
 * Input requests and key proposals on the inbox page, apart from their rendering: which card a
 * `cli_pending` row gets, the checks the server makes on a name and a value (made here first so
 * that a value the server would refuse is never sent), the bodies the answers post, and how a
 * request or proposal that is no longer pending is shown.
 */
import type { InboxRow, InputAnswer, InputRequest, KeyDecision, KeyProposal, Reviewed } from "../api/types.generated";

/** The card a row shows in place of approvals: the request or proposal it asks about. */
export type SecretCard = { kind: "input_request"; requestId: string } | { kind: "key_proposal"; proposalId: string };

/** A `cli_pending` row's input request or key proposal card; `null` for any other row. */
export function secretCardOf(row: InboxRow): SecretCard | null {
  const id = row.source.requestId;
  if (row.category !== "cli_pending" || !id) return null;
  if (row.reason === "input_request") return { kind: "input_request", requestId: id };
  if (row.reason === "key_proposal") return { kind: "key_proposal", proposalId: id };
  return null;
}

/** As the server's `MAX_VALUE_BYTES`: a longer value would only come back as invalid_request. */
export const MAX_VALUE_BYTES = 16 * 1024;
/** As the server's `MAX_NAME_CHARS`. */
export const MAX_NAME_CHARS = 128;

/**
 * Why the server would refuse `value`, or `null`: it must be one non-empty line, since a line
 * break would start another variable in the dotenv file.
 */
export function valueProblem(value: string): string | null {
  if (value === "") return "Type a value.";
  if (/[\r\n\0]/.test(value)) return "The value must be on one line: a line break would start another variable.";
  if (new TextEncoder().encode(value).length > MAX_VALUE_BYTES) {
    return `The value must be at most ${MAX_VALUE_BYTES} bytes.`;
  }
  return null;
}

/** Why the server would refuse `name` as a variable name, or `null`. */
export function nameProblem(name: string): string | null {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && name.length <= MAX_NAME_CHARS) return null;
  return `The name must be a variable name: a letter or _, then letters, digits or _, at most ${MAX_NAME_CHARS} characters.`;
}

/** What the input request form holds: a typed value, or the saved key chosen instead ("" for none). */
export interface InputForm {
  value: string;
  remember: boolean;
  key: string;
}

/** A body to post, or why it cannot be sent. */
export type Built<T> = { body: T } | { problem: string };

/**
 * The answer to post for `form`: the chosen saved key by name when there is one (the typed value
 * is then not sent), else the typed value with `remember`, once it passes `valueProblem`.
 */
export function inputAnswer(form: InputForm): Built<InputAnswer> {
  if (form.key !== "") return { body: { key: form.key } };
  const problem = valueProblem(form.value);
  if (problem) return { problem };
  return { body: { value: form.value, remember: form.remember } };
}

export const DECLINE: InputAnswer = { decline: true };

/**
 * The Save decision for a proposal reviewed as `proposed` and edited to `name` and `value`: only
 * what was edited is sent, since the server keeps what the session proposed for the rest.
 */
export function saveDecision(proposed: Reviewed, name: string, value: string): Built<KeyDecision> {
  const problem = nameProblem(name) ?? valueProblem(value);
  if (problem) return { problem };
  const body: KeyDecision = { decision: "save" };
  if (name !== proposed.name) body.name = name;
  if (value !== proposed.value) body.value = value;
  return { body };
}

export const DISCARD: KeyDecision = { decision: "discard" };

/** What an answered request shows instead of its form; `null` while it is pending. */
export function requestStateLabel(request: InputRequest): string | null {
  switch (request.state) {
    case "pending":
      return null;
    case "saved":
      return `Saved to ${request.file}`;
    case "declined":
      return "Declined";
    case "expired":
      return "Expired";
  }
}

/** What a decided proposal shows instead of its form; `null` while it is pending. */
export function proposalStateLabel(proposal: KeyProposal): string | null {
  switch (proposal.state) {
    case "pending":
      return null;
    case "saved":
      return `Saved as ${proposal.name}`;
    case "discarded":
      return "Discarded";
  }
}

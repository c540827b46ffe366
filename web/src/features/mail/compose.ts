/**
 * What a reply, a reply to all and a forward start with: whom they go to, their subject and the
 * quoted text, from the message answered; and the form's lists of addresses as typed.
 */
import type { MailMessage } from "./api";

export type ComposeKind = "new" | "reply" | "replyAll" | "forward";

export interface Draft {
  kind: ComposeKind;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  markdown: string;
  /** The message answered (its id), so the reply threads. */
  inReplyTo?: string;
}

export const emptyDraft: Draft = { kind: "new", to: "", cc: "", bcc: "", subject: "", markdown: "" };

/** The bare address of "Ada <ada@example.com>" or "ada@example.com", lower-cased. */
export function addressOf(mailbox: string): string {
  const angled = /<([^<>]+)>/.exec(mailbox);
  return (angled?.[1] ?? mailbox).trim().toLowerCase();
}

/** The addresses typed in a field, split at commas and semicolons, blanks dropped. */
export function splitAddresses(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/** "Re: " or "Fwd: " once: "Re: Re: Lunch" never happens, whatever case the sender used. */
export function prefixedSubject(prefix: "Re" | "Fwd", subject: string): string {
  const bare = subject.trim();
  const already = prefix === "Re" ? /^re\s*:/i : /^(fwd?|fw)\s*:/i;
  return already.test(bare) ? bare : `${prefix}: ${bare}`;
}

/** The message's text quoted under a line saying who wrote it. */
export function quoted(message: Pick<MailMessage, "from" | "date" | "text">): string {
  const lines = message.text.replace(/\s+$/, "").split("\n");
  const when = message.date ? `On ${dateWords(message.date)}, ` : "";
  return `${when}${message.from} wrote:\n\n${lines.map((line) => `> ${line}`).join("\n")}`;
}

/** A date as a quote's heading says it: the server's RFC 3339 in UTC words, anything else as it came. */
function dateWords(date: string): string {
  const at = new Date(date);
  return Number.isNaN(at.getTime()) ? date : at.toUTCString();
}

/** Each mailbox once, by address, without the user's own: a reply to all never writes back to oneself. */
function others(mailboxes: readonly string[], self: readonly string[]): string[] {
  const mine = new Set(self.map(addressOf));
  const seen = new Set<string>();
  return mailboxes.filter((mailbox) => {
    const address = addressOf(mailbox);
    if (address === "" || mine.has(address) || seen.has(address)) return false;
    seen.add(address);
    return true;
  });
}

/**
 * The draft that answers `message`: a reply to its sender (to its recipients when the user sent
 * it), a reply to all with the other recipients in Cc, or a forward with the text quoted and no
 * recipient yet.
 */
export function draftFor(kind: Exclude<ComposeKind, "new">, message: MailMessage, self: readonly string[]): Draft {
  if (kind === "forward") {
    return {
      ...emptyDraft,
      kind,
      subject: prefixedSubject("Fwd", message.subject),
      markdown: `\n\n---------- Forwarded message ----------\nFrom: ${message.from}\nDate: ${message.date ? dateWords(message.date) : "unknown"}\nSubject: ${message.subject}\nTo: ${message.to.join(", ")}\n\n${message.text}`,
    };
  }
  const fromSelf = self.map(addressOf).includes(addressOf(message.from));
  const to = fromSelf ? others(message.to, self) : others([message.from], self);
  const cc = kind === "replyAll" ? others([...(fromSelf ? [] : message.to), ...message.cc], [...self, ...to]) : [];
  return {
    kind,
    to: to.join(", "),
    cc: cc.join(", "),
    bcc: "",
    subject: prefixedSubject("Re", message.subject),
    markdown: `\n\n${quoted(message)}`,
    inReplyTo: message.id,
  };
}

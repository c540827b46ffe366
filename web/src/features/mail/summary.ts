/**
 * When "Catch me up" writes a thread's summary by itself (`mailclientAiSummaryTrigger`): never
 * (manual: the button), on every open (auto), or when a sender of the thread is one the user
 * chose (selective: `mailclientAiSummaryAutoSenders`, an address or a whole `@domain`).
 */
import { addressOf } from "./compose";

/** Whether `sender` is among `patterns`: an address matches itself, `@example.com` every address there. */
export function senderMatches(sender: string, patterns: readonly string[]): boolean {
  const address = addressOf(sender);
  const domain = address.includes("@") ? address.slice(address.lastIndexOf("@") + 1) : "";
  return patterns.some((raw) => {
    const pattern = raw.trim().toLowerCase();
    if (pattern === "") return false;
    if (pattern.startsWith("@")) return domain !== "" && pattern.slice(1) === domain;
    return pattern === address;
  });
}

/** Whether opening a thread from `senders` summarizes it without the button. */
export function summarizesOnOpen(trigger: unknown, autoSenders: unknown, senders: readonly string[]): boolean {
  if (trigger === "auto") return true;
  if (trigger !== "selective" || !Array.isArray(autoSenders)) return false;
  const patterns = autoSenders.filter((p): p is string => typeof p === "string");
  return senders.some((sender) => senderMatches(sender, patterns));
}

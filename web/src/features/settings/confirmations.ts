/**
 * Changes the settings page asks about before sending: those that cut off something the user may
 * depend on and cannot easily undo from where they are. A list rather than code per key, so adding
 * one is a line here.
 */

export interface Confirmation {
  title: string;
  message: string;
  confirmLabel: string;
}

export interface ConfirmationRule extends Confirmation {
  key: string;
  /** The value whose saving needs the user's yes. */
  value: unknown;
}

export const CONFIRMATIONS: readonly ConfirmationRule[] = [
  {
    key: "cliServerEnabled",
    value: false,
    title: "Turn the control server off?",
    message:
      "After the next start, the switchboard command, scripts and agent sessions can no longer reach Switchboard's control server. You can turn it back on from this page.",
    confirmLabel: "Turn it off",
  },
];

/** What to ask before saving `value` for `key`, or nothing when it may be saved at once. */
export function confirmationFor(
  key: string,
  value: unknown,
  rules: readonly ConfirmationRule[] = CONFIRMATIONS,
): Confirmation | undefined {
  return rules.find((rule) => rule.key === key && Object.is(rule.value, value));
}

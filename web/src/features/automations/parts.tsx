/** Small pieces the automations tabs share: a field's refusal, a state tag, a card's pending call. */
import { useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";

/** The id a field's refusal is drawn under, for `aria-describedby`. */
export const errorId = (form: string, field: string) => `${form}-${field}-error`;

/** A refusal beside the field it is about; nothing when there is none. */
export function FieldNote({ form, field, message }: { form: string; field: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span className="inline-error automation-field-error" id={errorId(form, field)} role="alert">
      {message}
    </span>
  );
}

/** The props that tie a field to its refusal. */
export function invalidProps(form: string, field: string, message: string | undefined) {
  return message ? { "aria-invalid": true as const, "aria-describedby": errorId(form, field) } : {};
}

export function StateTag({ state, label }: { state: string; label: string }) {
  return <span className={`tag automation-state automation-state-${state}`}>{label}</span>;
}

/** One call at a time from a card's buttons: which is running, and what the last one was refused with. */
export function useCardCall(onDone: () => void) {
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const call = async (name: string, run: () => Promise<unknown>) => {
    setRunning(name);
    setError(undefined);
    try {
      await run();
    } catch (e: unknown) {
      setError(e);
    }
    setRunning(null);
    onDone();
  };
  return { running, error, call, message: error === undefined ? undefined : errorMessage(error) };
}

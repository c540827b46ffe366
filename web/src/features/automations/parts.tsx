/**
 * Small pieces the automations tabs share: a field's refusal, a form's buttons, the values for a
 * recipe's placeholders, a state tag, and a schedule's or rule's Approve, Pause, Resume and Delete.
 */
import { useState, type ReactNode } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import type { StateChange } from "./api";
import { FieldNote as SharedFieldNote, invalidProps } from "../../shared/ui/FieldNote";
import { Pill } from "../../shared/ui/Pill";

/** A refusal beside the field it is about, placed as the automations forms place it. */
export function FieldNote({ form, field, message }: { form: string; field: string; message: string | undefined }) {
  return <SharedFieldNote form={form} field={field} message={message} className="automation-field-error" />;
}

export { invalidProps };

/** A form's last lines, as every form's: a refusal about no field it shows, Cancel, then the submit button. */
export { FormActions } from "../../shared/ui/FormActions";

/** A field for each of a recipe's placeholders, labelled `{{name}}`, with the refusal about them under them. */
export function PlaceholderValues({
  legend,
  names,
  values,
  onChange,
  form,
  message,
  placeholder,
  invalid,
  autoFocus,
  children,
}: {
  legend: string;
  names: readonly string[];
  values: Readonly<Record<string, string>>;
  onChange: (values: Record<string, string>) => void;
  form: string;
  /** The refusal about the values. */
  message: string | undefined;
  /** What an empty field says it holds. */
  placeholder?: (name: string) => string | undefined;
  /** Whether the refusal is about this field, which is then marked invalid (none, when not given). */
  invalid?: (name: string) => boolean;
  /** The first field takes the focus. */
  autoFocus?: boolean;
  /** A hint under the fields. */
  children?: ReactNode;
}) {
  return (
    <fieldset className="automation-values">
      <legend>{legend}</legend>
      {names.map((name, i) => (
        <label key={name}>
          <code>{`{{${name}}}`}</code>
          <input
            value={values[name] ?? ""}
            aria-label={name}
            autoFocus={autoFocus && i === 0}
            placeholder={placeholder?.(name)}
            onChange={(e) => onChange({ ...values, [name]: e.target.value })}
            {...invalidProps(form, "values", invalid?.(name) ? message : undefined)}
          />
        </label>
      ))}
      {children}
      <FieldNote form={form} field="values" message={message} />
    </fieldset>
  );
}

export function StateTag({ state, label }: { state: string; label: string }) {
  return <Pill status={state}>{label}</Pill>;
}

type ApprovableState = "active" | "pending" | "paused";

/** The one button that moves each state on. */
const NEXT: Record<ApprovableState, { change: StateChange; label: string }> = {
  pending: { change: "approve", label: "Approve" },
  active: { change: "pause", label: "Pause" },
  paused: { change: "resume", label: "Resume" },
};

/**
 * A schedule's or rule's buttons, one call at a time: Approve (one an agent made), Pause or
 * Resume, and Delete (Reject while it waits) asked first; `children` are more buttons after them,
 * and a refusal is said under them.
 */
export function StateActions({
  what,
  state,
  change,
  remove,
  question,
  onChanged,
  children,
}: {
  what: "schedule" | "rule";
  state: ApprovableState;
  change: (change: StateChange) => Promise<unknown>;
  remove: () => Promise<unknown>;
  /** What Delete asks, after "Delete" or "Reject and delete". */
  question: ReactNode;
  onChanged: () => void;
  children?: ReactNode;
}) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [confirming, setConfirming] = useState(false);
  const pending = state === "pending";
  const call = async (run: () => Promise<unknown>) => {
    setRunning(true);
    setError(undefined);
    try {
      await run();
    } catch (e: unknown) {
      setError(e);
    }
    setRunning(false);
    onChanged();
  };
  const next = NEXT[state];
  return (
    <>
      <div className="automation-actions">
        <button
          type="button"
          className={pending ? "primary" : undefined}
          disabled={running}
          onClick={() => void call(() => change(next.change))}
        >
          {next.label}
        </button>
        <button type="button" disabled={running} onClick={() => setConfirming(true)}>
          {pending ? "Reject" : "Delete"}
        </button>
        {children}
      </div>
      {error !== undefined && (
        <p className="inline-error" role="alert">
          {errorMessage(error)}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`${pending ? "Reject" : "Delete"} this ${what}`}
          confirmLabel={pending ? "Reject" : "Delete"}
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void call(remove);
          }}
        >
          <p>
            {pending ? "Reject and delete" : "Delete"} {question}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/**
 * The one row of a form's actions, in a dialog and inline alike: a refusal about no one field
 * above it, then any other actions, then Cancel, then the primary action last, at the row's end.
 */
import type { ReactNode } from "react";

export function FormActions({
  submitLabel,
  onCancel,
  busy = false,
  disabled = false,
  error,
  cancelLabel = "Cancel",
  autoFocusSubmit,
  children,
}: {
  submitLabel: string;
  /** Absent where there is nothing to cancel (a form that stays, like a search). */
  onCancel?: () => void;
  busy?: boolean;
  disabled?: boolean;
  /** A refusal about no field the form shows. */
  error?: string | null;
  cancelLabel?: string;
  autoFocusSubmit?: boolean;
  /** Other actions (Clear, Delete), drawn before Cancel. */
  children?: ReactNode;
}) {
  return (
    <>
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        {children}
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {cancelLabel}
          </button>
        )}
        <button
          type="submit"
          className="primary"
          disabled={busy || disabled}
          aria-busy={busy || undefined}
          autoFocus={autoFocusSubmit}
        >
          {submitLabel}
        </button>
      </div>
    </>
  );
}

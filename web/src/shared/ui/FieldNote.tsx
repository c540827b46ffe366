/**
 * A form field's refusal, under the field and tied to it for screen readers: the one way every
 * form (recipes, schedules, rules, the schedule picker, scheduled messages, drips) says what is
 * wrong with a field. `className` places it in its form's layout.
 */

/** The id a field's refusal is drawn under, for `aria-describedby`. */
const errorId = (form: string, field: string) => `${form}-${field}-error`;

/** A refusal beside the field it is about; nothing when there is none. */
export function FieldNote({
  form,
  field,
  message,
  className,
}: {
  form: string;
  field: string;
  message: string | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <span className={className ? `inline-error ${className}` : "inline-error"} id={errorId(form, field)} role="alert">
      {message}
    </span>
  );
}

/** The props that tie a field to its refusal. */
export function invalidProps(form: string, field: string, message: string | undefined) {
  return message ? { "aria-invalid": true as const, "aria-describedby": errorId(form, field) } : {};
}

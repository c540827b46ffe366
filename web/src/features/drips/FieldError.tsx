/** A form's refusal beside the field it is about, tied to the field for screen readers. */

/** What a form was refused with, and the field it is about (null: the whole form). */
export interface Refusal {
  field: string | null;
  message: string;
}

const errorId = (form: string, field: string) => `${form}-${field}-error`;

/** The refusal under `field`, when it is about that field. */
export function FieldError({ form, field, error }: { form: string; field: string; error: Refusal | null }) {
  if (error?.field !== field) return null;
  return (
    <span className="inline-error drip-field-error" id={errorId(form, field)} role="alert">
      {error.message}
    </span>
  );
}

/** The props that mark `field`'s input invalid and point it at its refusal. */
export function invalidFor(form: string, field: string, error: Refusal | null) {
  return error?.field === field ? { "aria-invalid": true as const, "aria-describedby": errorId(form, field) } : {};
}

/** A refusal about no field of the form, above its buttons. */
export function FormError({ error }: { error: Refusal | null }) {
  if (!error || error.field !== null) return null;
  return (
    <p className="inline-error" role="alert">
      {error.message}
    </p>
  );
}

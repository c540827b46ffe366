/** A form's refusals under the fields they are about, tied to each field for screen readers. */
import { generalMessage, messageFor, type FormErrors } from "../../shared/api/formErrors";

const errorId = (form: string, field: string) => `${form}-${field}-error`;

/** What is wrong with `field`, under it; nothing when nothing is. */
export function FieldError({ form, field, errors }: { form: string; field: string; errors: FormErrors }) {
  const message = messageFor(errors, field);
  if (message === undefined) return null;
  return (
    <span className="inline-error drip-field-error" id={errorId(form, field)} role="alert">
      {message}
    </span>
  );
}

/** The props that mark `field`'s input invalid and point it at its refusal. */
export function invalidFor(form: string, field: string, errors: FormErrors) {
  return messageFor(errors, field) !== undefined
    ? { "aria-invalid": true as const, "aria-describedby": errorId(form, field) }
    : {};
}

/** What is about no field the form shows (`shown`), above its buttons. */
export function FormError({ errors, shown }: { errors: FormErrors; shown: readonly string[] }) {
  const message = generalMessage(errors, shown);
  if (message === undefined) return null;
  return (
    <p className="inline-error" role="alert">
      {message}
    </p>
  );
}

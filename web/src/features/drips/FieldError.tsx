/** A form's refusals under the fields they are about, tied to each field for screen readers. */
import { generalMessage, messageFor, type FormErrors } from "../../shared/api/formErrors";
import { FieldNote, invalidProps } from "../../shared/ui/FieldNote";

/** What is wrong with `field`, under it; nothing when nothing is. */
export function FieldError({ form, field, errors }: { form: string; field: string; errors: FormErrors }) {
  return <FieldNote form={form} field={field} message={messageFor(errors, field)} className="drip-field-error" />;
}

/** The props that mark `field`'s input invalid and point it at its refusal. */
export function invalidFor(form: string, field: string, errors: FormErrors) {
  return invalidProps(form, field, messageFor(errors, field));
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

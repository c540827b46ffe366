/**
 * A form's refusals, all at once: the sentences about each field (the browser's own checks, or
 * the server's `error.fields`), and what is about no field the form shows. Pure, so every form
 * maps a refusal the same way.
 */
import { ApiError } from "./client";
import type { FieldMessage } from "./types.generated";
import { errorMessage } from "./errorMessage";
import { sentence } from "../humanize";

export interface FormErrors {
  /** The sentences about each field, in the order they were found. */
  readonly byField: Readonly<Record<string, readonly string[]>>;
  /** A refusal about no field (a conflict, a lost connection). */
  readonly general: string | null;
}

export const NO_ERRORS: FormErrors = { byField: {}, general: null };

/** The problems a form's own check found, as `[field, sentence]` pairs. */
export function fieldProblems(list: readonly (readonly [string, string])[]): FormErrors {
  const byField: Record<string, string[]> = {};
  for (const [field, message] of list) (byField[field] ??= []).push(message);
  return { byField, general: null };
}

/** "cwd: must be absolute" → "Must be absolute.": an older terse refusal as a sentence. */
function fieldSentence(field: string, message: string): string {
  const prefix = `${field}: `;
  return sentence(message.startsWith(prefix) ? message.slice(prefix.length) : message);
}

/** A refusal of the server as the form shows it: every field it names, or a sentence about none. */
export function formErrors(error: unknown): FormErrors {
  if (error instanceof ApiError && error.fields.length > 0) {
    return fieldProblems(error.fields.map((f: FieldMessage) => [f.field, fieldSentence(f.field, f.message)] as const));
  }
  if (error instanceof ApiError && error.field) {
    return fieldProblems([[error.field, fieldSentence(error.field, error.message)]]);
  }
  return { byField: {}, general: errorMessage(error) };
}

/** The refusals without those about `fields`: what a form keeps saying once those fields are edited. */
export function withoutFields(errors: FormErrors, fields: readonly string[]): FormErrors {
  const byField = Object.fromEntries(Object.entries(errors.byField).filter(([field]) => !fields.includes(field)));
  return { byField, general: errors.general };
}

/** What is wrong with `field`, said under it; undefined when nothing is. */
export function messageFor(errors: FormErrors, field: string): string | undefined {
  const list = errors.byField[field];
  return list && list.length > 0 ? list.join(" ") : undefined;
}

/** What the form says above its buttons: the refusal about no field, and any about a field it does not show. */
export function generalMessage(errors: FormErrors, shown: readonly string[]): string | undefined {
  const elsewhere = Object.entries(errors.byField)
    .filter(([field]) => !shown.includes(field))
    .flatMap(([, list]) => list);
  const all = errors.general === null ? elsewhere : [errors.general, ...elsewhere];
  return all.length > 0 ? all.join(" ") : undefined;
}

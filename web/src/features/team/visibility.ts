/** `teamTimeEnabled`: the Team time page and its sidebar entry (on by default). */
type Values = Readonly<Record<string, unknown>> | undefined;

export function teamShown(values: Values): boolean {
  return values?.teamTimeEnabled !== false;
}

/**
 * Whether the optional tips show (`helpfulHintsEnabled`, on by default): keyboard shortcut
 * hints, form tips and the like. Real alerts and warnings never ask this.
 */
export function hintsShown(values: Readonly<Record<string, unknown>> | undefined): boolean {
  return values?.helpfulHintsEnabled !== false;
}

// Why the mirror refuses a message, in the window's words
// (client/src/state/reasons.rs), read from src/generated/refusals.json so
// that the two mirrors give the same reasons; the typed reasons as
// templates to fill.

import refusals from "../generated/refusals.json";

export const REASONS = refusals.reasons;

/** A typed reason's template with its `{name}`s filled in. */
export function typedReason(name: keyof typeof refusals.typed, values: Record<string, number> = {}): string {
  return refusals.typed[name].replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
}

// Who else is on this depth (client/src/state/roster.rs): the roster,
// kept sorted with the comings and goings merged into it, and whom the
// round waits for.

import { fail } from "./errors";
import { MAX_ROSTER, checkNames } from "./limits";
import type { ClientState } from "./mirror";
import { REASONS } from "./reasons";
import { compareText } from "./text";

/** Everyone else on this depth, named afresh. */
export function setRoster(s: ClientState, names: string[]): void {
  if (names.length > MAX_ROSTER) fail(REASONS.roster_longer_than_any_depth_holds);
  checkNames(names);
  s.roster = [...new Set(names)].sort(compareText);
}

/** Players who came onto this depth. */
export function join(s: ClientState, names: string[]): void {
  checkNames(names);
  const here = new Set(s.roster);
  const came = new Set(names.filter((n) => !here.has(n)));
  if (s.roster.length + came.size > MAX_ROSTER) fail(REASONS.more_arrivals_than_any_depth_holds);
  s.roster = [...s.roster, ...came].sort(compareText);
}

/** Players who left this depth. */
export function leave(s: ClientState, names: string[]): void {
  const went = new Set(names);
  s.roster = s.roster.filter((n) => !went.has(n));
}

/** Whom the round waits for. */
export function waitFor(s: ClientState, names: string[]): void {
  if (names.length > MAX_ROSTER) fail(REASONS.waiting_for_more_than_any_depth_holds);
  checkNames(names);
  s.waiting = [...names];
}

// Why a message from the server does not fit what the client knows: a
// server bug or a hostile stream, never something to draw from. The
// mirror's checks throw a StateError before anything changes;
// ClientState.apply turns it into the reason it gives back.

import type { Pos } from "../protocol";

export class StateError extends Error {
  override name = "StateError";
}

/** Refuses the message being applied. */
export function fail(reason: string): never {
  throw new StateError(reason);
}

export const NOT_WELCOMED = "a game message arrived before the welcome";

export function offTheMap(p: Pos): never {
  return fail(`cell (${p.x}, ${p.y}) is off the map`);
}

export function outsideDisc(index: number): never {
  return fail(`sight index ${index} is outside the sight disc`);
}

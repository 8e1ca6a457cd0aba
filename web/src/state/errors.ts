// Why a message from the server does not fit what the client knows: a
// server bug or a hostile stream, never something to draw from. The
// mirror's checks throw a StateError before anything changes;
// ClientState.apply turns it into the reason it gives back.

import type { Pos } from "../protocol";
import { typedReason } from "./reasons";

export class StateError extends Error {
  override name = "StateError";
}

/** Refuses the message being applied. */
export function fail(reason: string): never {
  throw new StateError(reason);
}

export const NOT_WELCOMED = typedReason("not_welcomed");

export function offTheMap(p: Pos): never {
  return fail(typedReason("off_the_map", { x: p.x, y: p.y }));
}

export function outsideDisc(index: number): never {
  return fail(typedReason("outside_disc", { index }));
}

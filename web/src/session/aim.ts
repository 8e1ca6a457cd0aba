// Aiming a throw, and the look cursor's moves (client/src/aim.rs): a
// cursor that starts on the nearest monster in sight (by walking distance,
// a diagonal step counting one) or on the player; Tab, Space or `+` go to
// the next monster farther out, `-` back, direction keys move the cursor,
// and Enter, `t` or `f` throw at it.

import type { Action, Dir, Pos } from "../protocol";
import type { ClientState } from "../state";
import type { AimKey } from "./keys";

const DELTA: Record<Dir, [number, number]> = {
  N: [0, -1],
  NE: [1, -1],
  E: [1, 0],
  SE: [1, 1],
  S: [0, 1],
  SW: [-1, 1],
  W: [-1, 0],
  NW: [-1, -1],
};

/** Walking distance: a diagonal step counts as one. */
export function distance(a: Pos, b: Pos): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

/** Where the monsters in sight stand, nearest the player first (then by id). */
export function targets(state: ClientState): Pos[] {
  const me = state.at;
  if (me === null) return [];
  return [...state.monsters.entries()]
    .sort(([ia, a], [ib, b]) => distance(me, a.at) - distance(me, b.at) || ia - ib)
    .map(([, m]) => m.at);
}

/** A cursor over the map, and which monster Tab chose last. */
export interface Cursor {
  at: Pos;
  target: number;
}

/** A cursor on the nearest monster in sight, else on the player. */
export function startCursor(state: ClientState): Cursor {
  return { at: targets(state)[0] ?? state.at ?? { x: 0, y: 0 }, target: 0 };
}

/** Moves a cursor a cell in `dir`, never off the map. */
export function stepCursor(state: ClientState, cursor: Cursor, dir: Dir): void {
  const [dx, dy] = DELTA[dir];
  const x = cursor.at.x + dx;
  const y = cursor.at.y + dy;
  if (x >= 0 && y >= 0 && x < state.width && y < state.height) cursor.at = { x, y };
}

/**
 * Puts a cursor on the next monster farther out (or, `back`, nearer);
 * from the player, the first press goes to the nearest (or the farthest).
 * False, and nothing moved, with no monster in sight.
 */
export function nextTarget(state: ClientState, cursor: Cursor, back: boolean): boolean {
  const all = targets(state);
  const n = all.length;
  if (n === 0) return false;
  const onMe = state.at !== null && cursor.at.x === state.at.x && cursor.at.y === state.at.y;
  if (onMe) cursor.target = back ? n - 1 : 0;
  else cursor.target = back ? (cursor.target + n - 1) % n : (cursor.target + 1) % n;
  cursor.at = all[cursor.target] ?? cursor.at;
  return true;
}

/** A throw (or a zap) being aimed: the missile's (or wand's) pack slot and the cursor. */
export interface Aim extends Cursor {
  slot: number;
  /** A wand is zapped, not a missile thrown. */
  zaps: boolean;
}

export type AimOutcome = { throw: Action } | "Cancel" | "Moved" | { refuse: string };

/** What `key` does to the aim. */
export function aimWith(aim: Aim, state: ClientState, key: AimKey): AimOutcome {
  if (key === "Cancel") return "Cancel";
  if (key === "Throw") {
    if (state.at !== null && state.at.x === aim.at.x && state.at.y === aim.at.y) {
      return { refuse: `Move the cursor onto what to ${aim.zaps ? "zap" : "throw"} at (or Esc).` };
    }
    const at = { x: aim.at.x, y: aim.at.y };
    return { throw: aim.zaps ? { Zap: { slot: aim.slot, at } } : { Throw: { slot: aim.slot, at } } };
  }
  if (typeof key === "object") {
    stepCursor(state, aim, key.step);
    return "Moved";
  }
  return nextTarget(state, aim, key === "Previous") ? "Moved" : { refuse: "No monster in sight: move the cursor." };
}

/** What `key` does to a look: false when the look ends. */
export function lookWith(look: Cursor, state: ClientState, key: AimKey): boolean {
  if (key === "Cancel") return false;
  if (typeof key === "object") stepCursor(state, look, key.step);
  else if (key === "Next" || key === "Previous") nextTarget(state, look, key === "Previous");
  return true;
}

// Aiming a throw or a zap, and the look cursor's moves (client/src/aim.rs):
// a cursor that starts on the first of those it may be aimed at, else on
// the player; Tab, Space or `+` go to the next of them farther out, `-`
// back, direction keys move the cursor, and Enter, `.`, `t`, `f` or `z`
// throw or zap at it. Whom it goes to depends on what is aimed (`Among`):
// a throw (and a look), the monsters in sight; a wand known to be a wand
// of healing, the other players in sight; another wand known by name
// (striking, slow monster: its bolt passes friends by), the monsters; a
// wand not yet known (it may heal), the monsters and then the other
// players. Each lot is taken nearest first (by walking
// distance, a diagonal step counting one; then by id).

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

/** The places of `all` (each with its id), nearest the player first (then by id). */
function nearestFirst(state: ClientState, all: [Pos, number][]): Pos[] {
  const me = state.at;
  if (me === null) return [];
  return all.sort(([a, ia], [b, ib]) => distance(me, a) - distance(me, b) || ia - ib).map(([at]) => at);
}

/** Where the monsters in sight stand, nearest the player first (then by id). */
export function targets(state: ClientState): Pos[] {
  return nearestFirst(state, [...state.monsters.entries()].map(([id, m]) => [m.at, id]));
}

/** Where the other players in sight stand, nearest the player first (then by id). */
export function friends(state: ClientState): Pos[] {
  return nearestFirst(state, [...state.others.entries()].map(([id, o]) => [o.at, id]));
}

/** What a wand of healing is called once the player knows it (its name in assets/items.toml). */
export const HEALING_WAND = "wand of healing";

/** Whom Tab takes an aiming cursor to: a throw's (or a known harmful wand's) monsters, a healing wand's friends, an unknown wand's anyone. */
export type Among = "Monsters" | "Friends" | "Anyone";

/** Whom a wand in the pack's `slot` is aimed at: the other players when known for a wand of healing, the monsters when known for another, else anyone. */
export function amongForWand(state: ClientState, slot: number): Among {
  const carried = state.pack[slot];
  const kind = carried === undefined ? undefined : state.itemKind(carried.kind);
  if (kind?.class !== "Wand") return "Anyone";
  if (kind.name === HEALING_WAND) return "Friends";
  return kind.known ? "Monsters" : "Anyone";
}

/** Where those `among` stand, in the order Tab goes to them. */
export function aimedAt(state: ClientState, among: Among): Pos[] {
  if (among === "Monsters") return targets(state);
  if (among === "Friends") return friends(state);
  return [...targets(state), ...friends(state)];
}

/** Why Tab finds nobody to go to. */
const NOBODY: Record<Among, string> = {
  Monsters: "No monster in sight: move the cursor.",
  Friends: "No other player in sight: move the cursor.",
  Anyone: "Nobody in sight: move the cursor.",
};

/** A cursor over the map, and which of those Tab goes to it chose last. */
export interface Cursor {
  at: Pos;
  target: number;
}

/** A cursor on the first of `all` (the nearest monster in sight, unless told), else on the player. */
export function startCursor(state: ClientState, all: Pos[] = targets(state)): Cursor {
  return { at: all[0] ?? state.at ?? { x: 0, y: 0 }, target: 0 };
}

/** Moves a cursor a cell in `dir`, never off the map. */
export function stepCursor(state: ClientState, cursor: Cursor, dir: Dir): void {
  const [dx, dy] = DELTA[dir];
  const x = cursor.at.x + dx;
  const y = cursor.at.y + dy;
  if (x >= 0 && y >= 0 && x < state.width && y < state.height) cursor.at = { x, y };
}

/**
 * Puts a cursor on the next of `all` (the monsters in sight, unless told)
 * farther out (or, `back`, nearer); from the player, the first press goes
 * to the first (or the last). False, and nothing moved, with none.
 */
export function nextTarget(state: ClientState, cursor: Cursor, back: boolean, all: Pos[] = targets(state)): boolean {
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
  /** Whom Tab goes to. */
  among: Among;
}

/** Aiming the missile (or, `zaps`, the wand) in `slot`, from the first of those it goes to. */
export function startAim(state: ClientState, slot: number, zaps: boolean): Aim {
  const among = zaps ? amongForWand(state, slot) : "Monsters";
  return { ...startCursor(state, aimedAt(state, among)), slot, zaps, among };
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
  return nextTarget(state, aim, key === "Previous", aimedAt(state, aim.among)) ? "Moved" : { refuse: NOBODY[aim.among] };
}

/** What `key` does to a look: false when the look ends. */
export function lookWith(look: Cursor, state: ClientState, key: AimKey): boolean {
  if (key === "Cancel") return false;
  if (typeof key === "object") stepCursor(state, look, key.step);
  else if (key === "Next" || key === "Previous") nextTarget(state, look, key === "Previous");
  return true;
}

// What the look cursor names (client/src/look.rs): who stands on the cell
// (a monster as the list beside the map tells it, a player with its hit
// points when in the party), the top item of a pile, and the ground. A
// cell out of sight is named as remembered, with nobody on it.

import type { Lying, PlayerId, Pos, Terrain, Wound } from "../protocol";
import { isVisible, terrainAt, indexOf, type ClientState } from "../state";

/** What an unknown cell says. */
export const UNKNOWN = "You do not know this place.";

/** How hurt a monster looks, in words. */
export function woundWords(w: Wound): string {
  return { Unhurt: "unhurt", Scratched: "scratched", Wounded: "wounded", AlmostDead: "almost dead" }[w];
}

/** What the player knows of the cell at `pos`, in words. */
export function describe(state: ClientState, pos: Pos): string {
  const terrain = terrainAt(state, pos);
  if (terrain === null) return UNKNOWN;
  const here = state.at !== null && state.at.x === pos.x && state.at.y === pos.y;
  const inSight = isVisible(state, pos) || here;
  const parts: string[] = [];
  if (inSight) {
    const who = whoStands(state, pos, here);
    if (who !== null) parts.push(who);
  }
  const i = indexOf(state, pos);
  const pile = i === null ? undefined : state.floor.get(i);
  if (pile !== undefined) parts.push(pileWords(state, pile.top));
  parts.push(ground(terrain));
  const said = parts.join("; ");
  return inSight ? said : `${said} (out of sight)`;
}

function whoStands(state: ClientState, pos: Pos, here: boolean): string | null {
  if (here) {
    if (state.me === null) return null;
    const watched = state.watched();
    return watched === null ? "you" : withHitPoints(state, state.me, watched);
  }
  const same = (p: Pos) => p.x === pos.x && p.y === pos.y;
  for (const [id, o] of [...state.others.entries()].sort(([a], [b]) => a - b)) {
    if (same(o.at)) return withHitPoints(state, id, o.name);
  }
  for (const [, m] of [...state.monsters.entries()].sort(([a], [b]) => a - b)) {
    if (!same(m.at)) continue;
    const name = state.kindOf(m)?.name ?? "?";
    return `${a(name)}, ${woundWords(m.wound)}${m.asleep ? ", asleep" : ""}`;
  }
  return null;
}

function withHitPoints(state: ClientState, id: PlayerId, name: string): string {
  const m = state.party.find((p) => p.id === id);
  return m !== undefined && state.party.length > 1 ? `${name}, ${m.hp}/${m.max} HP` : name;
}

function pileWords(state: ClientState, top: Lying): string {
  const name = state.itemKind(top.kind)?.name ?? "something";
  const words = top.count === 1 ? a(name) : `${name} (${top.count})`;
  return top.more ? `${words}, with more under it` : words;
}

function ground(t: Terrain): string {
  return { Wall: "a wall", Floor: "the floor", StairsDown: "stairs down", StairsUp: "stairs up" }[t];
}

/** `name` with `the` before it; a unique's (a proper name) as it is. */
export function the(name: string): string {
  return isProper(name) ? name : `the ${name}`;
}

/** Whether `name` is a unique's: the server capitalises those alone ("Old Mother Rot"), and they take no article. */
function isProper(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/** `name` with `a` or `an` before it (a name with its own `the`, or a unique's, as it is). */
export function a(name: string): string {
  if (name.startsWith("the ") || isProper(name)) return name;
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}

// Fixtures for the browser client's tests: a mirror as the server leaves it
// after the handshake and on an unexplored level, and small makers of the
// messages the tests send (client/src/testing.rs in TypeScript).

import type { DeathRecord, KindInfo, MonsterChange, PlayerId, Pos, ServerMsg, SightDiff, Terrain } from "../src/protocol";
import { ClientState, Disc } from "../src/state";
import { Session } from "../src/session/session";

export const DISC = new Disc(8);

/** The disc index of an offset (which must be in the disc). */
export function idx(dx: number, dy: number): number {
  const i = DISC.index(dx, dy);
  if (i === null) throw new Error(`(${dx}, ${dy}) is outside the disc`);
  return i;
}

export function welcome(you: PlayerId, width: number, height: number): ServerMsg {
  return { Welcome: { you, width, height, sight_radius: 8, actions_per_second: 20, token: null, world: "" } };
}

export function enterLevel(depth: number, width: number, height: number, remembered: number[] = [], terrain: Terrain[] = []): ServerMsg {
  return { EnterLevel: { depth, width, height, remembered, terrain } };
}

/** Applies messages that must fit. */
export function applyAll(s: ClientState, ...msgs: ServerMsg[]): ClientState {
  for (const m of msgs) {
    const why = s.apply(m);
    if (why !== null) throw new Error(`${JSON.stringify(m, big)} did not fit: ${why}`);
  }
  return s;
}

/** JSON.stringify's replacer for bigints. */
export function big(_: string, v: unknown): unknown {
  return typeof v === "bigint" ? v.toString() : v;
}

export function welcomed(you: PlayerId = 1, width = 20, height = 10): ClientState {
  return applyAll(new ClientState(), welcome(you, width, height));
}

export function onLevel(you: PlayerId = 1, width = 20, height = 10, depth = 1): ClientState {
  return applyAll(welcomed(you, width, height), enterLevel(depth, width, height));
}

export function sight(at: Pos, parts: Partial<SightDiff> = {}): ServerMsg {
  return { Sight: { at, hidden: [], shown: [], revealed: [], players: [], monsters: [], floor: [], ...parts } };
}

export function kind(name: string, glyph: string, colour: [number, number, number] = [200, 60, 60]): KindInfo {
  return { name, glyph, colour };
}

export function appeared(id: number, kind: number, at: Pos, asleep = false): MonsterChange {
  return { Appeared: { id, kind, at, wound: "Unhurt", asleep } };
}

export function record(name: string, escaped = false, killedBy = "an orc"): DeathRecord {
  return { name, depth: 4, rounds: 300n, kills: 9, killed_by: killedBy, when: 0n, level: 1, escaped, morgue: 0 };
}

/** A 7x5 room, the player in its middle at (3, 2) seeing all of it, stairs down at (5, 3). */
export function inARoom(s: ClientState): ClientState {
  const revealed: [number, Terrain][] = [];
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 7; x++) {
      const border = x === 0 || y === 0 || x === 6 || y === 4;
      const t: Terrain = border ? "Wall" : x === 5 && y === 3 ? "StairsDown" : "Floor";
      revealed.push([idx(x - 3, y - 2), t]);
    }
  }
  return applyAll(s, sight({ x: 3, y: 2 }, { revealed }));
}

/** A copy of the mirror's data, to compare before and after. */
export function snapshot(s: ClientState): unknown {
  return structuredClone({ ...s });
}

/** Where tokens are kept in tests: nowhere. */
export const NO_TOKENS = { keep: () => "No storage: your character's key is not kept." };

/** A session welcomed as player 1 on a 20 x 10 level. */
export function playing(): Session {
  const s = new Session("ws://here/", NO_TOKENS);
  for (const m of [welcome(1, 20, 10), enterLevel(1, 20, 10)]) {
    const why = s.onMessage(m);
    if (why !== null) throw new Error(why);
  }
  return s;
}

/**
 * A session on a `size` x `size` level known whole (the largest a mirror
 * holds at 256): rooms of floor walled every 8 cells, a remembered pile
 * every 5 cells of floor, the player in the middle seeing the cells
 * within 8 of it, and a party of three. What a frame costs most on.
 */
export function knownWhole(size = 256): Session {
  const s = new Session("ws://here/", NO_TOKENS);
  const msgs: ServerMsg[] = [
    welcome(1, size, size),
    enterLevel(1, size, size),
    { ItemKinds: [{ name: "potion", glyph: "!", colour: [200, 80, 220], class: "Potion", known: true }] },
    { Party: [1, 2, 3].map((id) => ({ id, name: `p${id}`, hp: 10, max: 30, level: 2 })) },
  ];
  for (const m of msgs) {
    const why = s.onMessage(m);
    if (why !== null) throw new Error(why);
  }
  const state = s.state;
  const middle = size >> 1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      const wall = x % 8 === 0 || y % 8 === 0;
      state.known[i] = wall ? 1 : 2;
      if (Math.max(Math.abs(x - middle), Math.abs(y - middle)) <= 8) state.visible[i] = 1;
      if (!wall && i % 61 === 0) state.floor.set(i, { at: { x, y }, top: { kind: 0, count: 1, more: false } });
    }
  }
  state.at = { x: middle, y: middle };
  return s;
}

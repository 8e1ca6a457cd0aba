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
  return { Welcome: { you, width, height, sight_radius: 8, actions_per_second: 20, token: null } };
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
  return { name, depth: 4, rounds: 300n, kills: 9, killed_by: killedBy, when: 0n, level: 1, escaped };
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

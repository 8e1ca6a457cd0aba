// Random sequences of server messages, some wholly random (arbitrary.ts),
// most plausible on a small map so that they reach past the first check:
// apply never throws, a message it refuses changes nothing, and the mirror
// always stays within its limits and consistent (every monster of a kind
// named and on the map, every pile and pack entry of a kind named).

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";

import { TERRAINS, WOUNDS, type ChatTo, type DeathRecord, type ServerMsg, type Terrain } from "../src/protocol";
import {
  ClientState,
  LOG_LINES,
  MAX_GRAVEYARD,
  MAX_ITEM_KINDS,
  MAX_KINDS,
  MAX_NOTE_CHARS,
  MAX_ROSTER,
  MAX_WATCHERS,
  PACK_SLOTS,
  charCount,
  compareText,
  indexOf,
  isChat,
} from "../src/state";
import { serverMsg } from "./arbitrary";
import { big, idx, snapshot } from "./fixtures";

const small = (max: number) => fc.integer({ min: 0, max });
const pos = fc.record({ x: small(14), y: small(10) });
const id = small(6);
const name = fc.constantFrom("ann", "bob", "cy", "", "x".repeat(17), "dan");
const names = fc.array(name, { maxLength: 5 });
const terrain = fc.constantFrom(...TERRAINS);
/** Disc indices near the centre (on a 12 x 8 map around its middle), now and then any. */
const near = fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 })).map(([dx, dy]) => idx(dx, dy));
const index = fc.oneof({ weight: 6, arbitrary: near }, { weight: 1, arbitrary: small(255) });
/** A list most often empty, so that a diff's other lists can fit. */
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant<T[]>([]) }, { weight: 1, arbitrary: fc.array(a, { maxLength: 3 }) });
const indices = maybe(index);
const centre = fc.oneof({ weight: 6, arbitrary: fc.record({ x: fc.integer({ min: 3, max: 8 }), y: fc.integer({ min: 3, max: 4 }) }) }, { weight: 1, arbitrary: pos });
const list = <T>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 5 });
const chatTo: fc.Arbitrary<ChatTo> = fc.oneof(fc.constantFrom("Depth" as const, "Everyone" as const), name.map((Player) => ({ Player })));
const death: fc.Arbitrary<DeathRecord> = fc.record({
  name,
  depth: small(10),
  rounds: fc.bigInt({ min: 0n, max: 1000n }),
  kills: small(9),
  killed_by: fc.constantFrom("a rat", "", "the Gloamstone"),
  when: fc.bigInt({ min: 0n, max: 2_000_000_000n }),
  level: small(12),
  escaped: fc.boolean(),
  morgue: small(3),
});

const playerChange = fc.oneof(
  fc.record({ id, name, at: pos }).map((Appeared) => ({ Appeared })),
  fc.record({ id, at: pos }).map((Moved) => ({ Moved })),
  fc.record({ id }).map((Vanished) => ({ Vanished })),
);
const monsterChange = fc.oneof(
  fc.record({ id, kind: small(3), at: pos, wound: fc.constantFrom(...WOUNDS), asleep: fc.boolean() }).map((Appeared) => ({ Appeared })),
  fc.record({ id, at: pos }).map((Moved) => ({ Moved })),
  fc.record({ id, wound: fc.constantFrom(...WOUNDS) }).map((Hurt) => ({ Hurt })),
  fc.record({ id, asleep: fc.boolean() }).map((Slept) => ({ Slept })),
  fc.record({ id }).map((Vanished) => ({ Vanished })),
);
const floorChange = fc.record({ at: pos, top: fc.option(fc.record({ kind: small(3), count: small(3), more: fc.boolean() }), { nil: null }) });
const diff = fc.record({
  at: centre,
  hidden: indices,
  shown: indices,
  revealed: fc.array(fc.tuple(index, terrain), { maxLength: 12 }) as fc.Arbitrary<[number, Terrain][]>,
  players: maybe(playerChange),
  monsters: maybe(monsterChange),
  floor: maybe(floorChange),
});
const kinds = list(fc.record({ name: fc.constantFrom("rat", "orc", ""), glyph: fc.constantFrom("r", "o", "\u0007"), colour: fc.tuple(small(255), small(255), small(255)) }));

/** A bitset of remembered cells, most often with one terrain entry a cell. */
const popcount = (bits: number[]) => bits.reduce((n, b) => n + b.toString(2).replace(/0/g, "").length, 0);
const remembered = fc.array(small(255), { maxLength: 13 }).chain((bits) =>
  fc
    .oneof(
      { weight: 4, arbitrary: fc.array(terrain, { minLength: popcount(bits), maxLength: popcount(bits) }) },
      { weight: 1, arbitrary: fc.array(terrain, { maxLength: 30 }) },
    )
    .map((terrain) => ({ remembered: bits, terrain })),
);

/** Messages that mostly fit a 12 x 8 level, and now and then do not. */
const plausible: fc.Arbitrary<ServerMsg> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ you: small(3), width: small(30), height: small(20), sight_radius: small(9), actions_per_second: small(30), token: fc.constant(null), world: fc.constantFrom("", "Gloamhold", "x".repeat(41)) }).map((Welcome) => ({ Welcome })) },
  { weight: 2, arbitrary: fc.record({ depth: small(5), width: fc.constantFrom(12, 12, 0, 300), height: fc.constantFrom(8, 8, 65535), level: remembered }).map(({ level, ...size }) => ({ EnterLevel: { ...size, ...level } })) },
  { weight: 1, arbitrary: remembered.map((Mapped) => ({ Mapped })) },
  { weight: 8, arbitrary: diff.map((Sight) => ({ Sight })) },
  { weight: 2, arbitrary: diff.map((Displaced) => ({ Displaced })) },
  { weight: 3, arbitrary: list(playerChange).map((Players) => ({ Players })) },
  { weight: 4, arbitrary: list(monsterChange).map((Monsters) => ({ Monsters })) },
  { weight: 2, arbitrary: kinds.map((Kinds) => ({ Kinds })) },
  { weight: 2, arbitrary: list(fc.record({ name: fc.constantFrom("dart", "potion"), glyph: fc.constantFrom("{", "!"), colour: fc.tuple(small(255), small(255), small(255)), class: fc.constantFrom("Potion" as const, "Missile" as const), known: fc.boolean() })).map((ItemKinds) => ({ ItemKinds })) },
  { weight: 2, arbitrary: list(floorChange).map((Floor) => ({ Floor })) },
  { weight: 2, arbitrary: list(fc.record({ kind: small(3), count: small(3), equipped: fc.boolean() })).map((Pack) => ({ Pack })) },
  { weight: 1, arbitrary: names.map((Roster) => ({ Roster })) },
  { weight: 1, arbitrary: names.map((Joined) => ({ Joined })) },
  { weight: 1, arbitrary: names.map((Left) => ({ Left })) },
  { weight: 1, arbitrary: names.map((Waiting) => ({ Waiting })) },
  { weight: 1, arbitrary: names.map((Watchers) => ({ Watchers })) },
  { weight: 1, arbitrary: fc.record({ player: name, you: small(9) }).map((Watching) => ({ Watching })) },
  { weight: 1, arbitrary: fc.record({ hp: small(40), max: small(40) }).map((Vitals) => ({ Vitals })) },
  { weight: 1, arbitrary: list(fc.record({ id: small(3), name, hp: small(40), max: small(40), level: small(5) })).map((Party) => ({ Party })) },
  { weight: 2, arbitrary: fc.constantFrom("You miss the rat.", "Your pack is full.", "", "a".repeat(600)).map((Combat) => ({ Combat })) },
  { weight: 2, arbitrary: fc.record({ from: small(3), name, to: chatTo, text: fc.constantFrom("hi", "", "\u0007", "é".repeat(201)) }).map((Chat) => ({ Chat })) },
  { weight: 1, arbitrary: death.map((Died) => ({ Died })) },
  { weight: 1, arbitrary: death.map((Escaped) => ({ Escaped })) },
  { weight: 1, arbitrary: list(death).map((Graveyard) => ({ Graveyard })) },
  { weight: 1, arbitrary: list(fc.record({ name, watchers: small(3), watchable: fc.boolean() })).map((Who) => ({ Who })) },
  { weight: 1, arbitrary: fc.constant("Stopped" as const) },
  { weight: 2, arbitrary: serverMsg },
);

/** The mirror's limits and its consistency. */
function checkWithin(s: ClientState): void {
  const cells = s.width * s.height;
  assert.ok(s.known.length === 0 || s.known.length === cells, "the map is the size welcomed or entered");
  assert.equal(s.visible.length, s.known.length);
  assert.ok(cells <= 256 * 256);
  assert.ok(s.others.size <= MAX_ROSTER && s.monsters.size <= MAX_ROSTER && s.roster.length <= MAX_ROSTER);
  assert.ok(s.kinds.length <= MAX_KINDS && s.itemKinds.length <= MAX_ITEM_KINDS);
  assert.ok(s.pack.length <= PACK_SLOTS && s.watchers.length <= MAX_WATCHERS);
  assert.ok((s.graveyard?.length ?? 0) <= MAX_GRAVEYARD);
  assert.ok(s.log.length <= LOG_LINES);
  for (const l of s.log) if (!isChat(l)) assert.ok(charCount(l.text) <= MAX_NOTE_CHARS, "a note is cut");
  for (const m of s.monsters.values()) {
    assert.ok(m.kind < s.kinds.length, "a monster's kind is named");
    assert.notEqual(indexOf(s, m.at), null, "a monster is on the map");
  }
  for (const o of s.others.values()) assert.notEqual(indexOf(s, o.at), null, "a player is on the map");
  for (const p of s.floor.values()) assert.ok(p.top.kind < s.itemKinds.length && p.top.count > 0);
  for (const c of s.pack) assert.ok(c.kind < s.itemKinds.length && c.count > 0);
  if (s.at !== null) assert.notEqual(indexOf(s, s.at), null, "the player is on the map");
  if (s.hp !== null) assert.ok(s.hp.hp <= s.hp.max);
  assert.deepEqual(s.roster, [...s.roster].sort(compareText), "the roster is sorted");
}

test("random messages never throw out of apply, a refused one changes nothing, and the mirror stays within its limits", () => {
  const start: ServerMsg[] = [
    { Welcome: { you: 1, width: 12, height: 8, sight_radius: 8, actions_per_second: 20, token: null, world: "" } },
    { EnterLevel: { depth: 1, width: 12, height: 8, remembered: [], terrain: [] } },
  ];
  let accepted = 0;
  let refusedCount = 0;
  const acceptedKinds = new Map<string, number>();
  fc.assert(
    fc.property(fc.array(plausible, { minLength: 10, maxLength: 60 }), (msgs) => {
      const s = new ClientState();
      for (const msg of [...start, ...msgs]) {
        const before = snapshot(s);
        const why = s.apply(msg);
        if (why === null) {
          accepted++;
          const variant = typeof msg === "string" ? msg : Object.keys(msg)[0] ?? "";
          acceptedKinds.set(variant, (acceptedKinds.get(variant) ?? 0) + 1);
        } else {
          refusedCount++;
          assert.deepEqual(snapshot(s), before, `${JSON.stringify(msg, big)} was refused (${why}) but changed the mirror`);
        }
        checkWithin(s);
      }
    }),
    { numRuns: 500 },
  );
  // Both ways are taken often, and every kind of change is taken now and
  // then: the test reaches past the first checks.
  assert.ok(accepted > 3000 && refusedCount > 3000, `${accepted} accepted, ${refusedCount} refused`);
  for (const variant of ["Sight", "Displaced", "Players", "Monsters", "Floor", "Pack", "Kinds", "Party", "Chat", "Died", "Mapped", "EnterLevel"]) {
    assert.ok((acceptedKinds.get(variant) ?? 0) >= 20, `${variant}: ${acceptedKinds.get(variant) ?? 0} accepted`);
  }
});

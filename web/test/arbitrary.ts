// fast-check arbitraries of every message, leaning on the varint widths'
// edges; each message variant has its arbitrary, or this fails to compile.

import fc from "fast-check";

import {
  DIRS,
  ITEM_CLASSES,
  TERRAINS,
  WOUNDS,
  type Action,
  type ChatTo,
  type ClientMsg,
  type DeathRecord,
  type FloorChange,
  type MonsterChange,
  type PlayerChange,
  type Pos,
  type ServerMsg,
  type SightDiff,
  type Terrain,
  type VariantOf,
} from "../src/protocol";

/** Plain objects, as the decoder builds them (fast-check's have no prototype). */
function record<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> {
  return fc.record(model, { noNullPrototype: true }) as fc.Arbitrary<T>;
}

const u8 = fc.integer({ min: 0, max: 0xff });
const i8 = fc.integer({ min: -128, max: 127 });
const u16 = fc.oneof(fc.constantFrom(0, 250, 251, 0xffff), fc.integer({ min: 0, max: 0xffff }));
const u32 = fc.oneof(
  fc.constantFrom(0, 250, 251, 0xffff, 0x1_0000, 0xffff_ffff),
  fc.integer({ min: 0, max: 0xffff_ffff }),
);
const u64 = fc.oneof(
  fc.constantFrom(0n, 250n, 251n, 0xffff_ffffn, 1n << 32n, (1n << 53n) + 1n, (1n << 64n) - 1n),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
);
/** Any Unicode text (no lone surrogates: those are not Rust strings). */
const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });
const name = text(16);
const char = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
const token = fc.option(fc.array(u8, { minLength: 16, maxLength: 16 }), { nil: null });
const colour = fc.tuple(u8, u8, u8);
const pos: fc.Arbitrary<Pos> = record({ x: u16, y: u16 });
const terrain = fc.constantFrom(...TERRAINS);
const wound = fc.constantFrom(...WOUNDS);
const names = fc.array(name, { maxLength: 6 });
const list = <T>(item: fc.Arbitrary<T>) => fc.array(item, { maxLength: 6 });

const chatTo: fc.Arbitrary<ChatTo> = fc.oneof(
  fc.constantFrom("Depth" as const, "Everyone" as const),
  name.map((Player) => ({ Player })),
);

const slot = (make: (slot: number) => Action) => u8.map(make);
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constantFrom(...DIRS).map((Move) => ({ Move })),
  fc.constantFrom("Descend", "Ascend", "Wait", "Quit", "PickUp", "Explore", "Rest" as const),
  slot((Drop) => ({ Drop })),
  slot((Quaff) => ({ Quaff })),
  slot((Read) => ({ Read })),
  slot((Wield) => ({ Wield })),
  slot((Wear) => ({ Wear })),
  slot((TakeOff) => ({ TakeOff })),
  record({ slot: u8, at: pos }).map((Throw) => ({ Throw })),
  pos.map((Travel) => ({ Travel })),
  record({ slot: u8, at: pos }).map((Zap) => ({ Zap })),
);

const client: { [K in VariantOf<ClientMsg>]: fc.Arbitrary<ClientMsg> } = {
  Hello: record({ version: u32, name, token }).map((Hello) => ({ Hello })),
  Act: action.map((Act) => ({ Act })),
  Graveyard: fc.constant("Graveyard"),
  Chat: record({ to: chatTo, text: text(200) }).map((Chat) => ({ Chat })),
  Watch: record({ version: u32, name, token, player: name }).map((Watch) => ({ Watch })),
  Audience: fc.oneof(
    fc.constantFrom("Refuse" as const, "Allow" as const),
    name.map((Kick) => ({ Kick })),
  ).map((Audience) => ({ Audience })),
  Who: fc.constant("Who"),
  Stop: fc.constant("Stop"),
  Backgrounds: fc.constant("Backgrounds"),
  Create: record({ version: u32, name, token, background: name }).map((Create) => ({ Create })),
  Recording: record({
    version: u32,
    ask: fc.oneof(
      record({ name, life: u32, rounds: u32 }).map((Grave) => ({ Grave })),
      record({ name, token: fc.array(u8, { minLength: 16, maxLength: 16 }), depth: u16, from: u64, to: u64 }).map(
        (Mine) => ({ Mine }),
      ),
      record({
        name,
        token: fc.array(u8, { minLength: 16, maxLength: 16 }),
        player: name,
        depth: u16,
        from: u64,
        to: u64,
      }).map((Past) => ({ Past })),
    ),
  }).map((Recording) => ({ Recording })),
};

const playerChange: fc.Arbitrary<PlayerChange> = fc.oneof(
  record({ id: u32, name, at: pos }).map((Appeared) => ({ Appeared })),
  record({ id: u32, at: pos }).map((Moved) => ({ Moved })),
  record({ id: u32 }).map((Vanished) => ({ Vanished })),
);

const monsterChange: fc.Arbitrary<MonsterChange> = fc.oneof(
  record({ id: u32, kind: u16, at: pos, wound, asleep: fc.boolean() }).map((Appeared) => ({ Appeared })),
  record({ id: u32, at: pos }).map((Moved) => ({ Moved })),
  record({ id: u32, wound }).map((Hurt) => ({ Hurt })),
  record({ id: u32, asleep: fc.boolean() }).map((Slept) => ({ Slept })),
  record({ id: u32 }).map((Vanished) => ({ Vanished })),
);

const floorChange: fc.Arbitrary<FloorChange> = record({
  at: pos,
  top: fc.option(record({ kind: u16, count: u16, more: fc.boolean() }), { nil: null }),
});

/** Disc indices as the server sends them (rising) or in any order. */
const indices = fc.oneof(
  fc.uniqueArray(u8, { maxLength: 200 }).map((l) => l.sort((a, b) => a - b)),
  fc.array(u8, { maxLength: 40 }),
);

const diff: fc.Arbitrary<SightDiff> = record({
  at: pos,
  hidden: indices,
  shown: indices,
  revealed: indices.chain((is) =>
    fc
      .array(terrain, { minLength: is.length, maxLength: is.length })
      .map((ts) => is.map((i, k): [number, Terrain] => [i, ts[k]!])),
  ),
  players: list(playerChange),
  monsters: list(monsterChange),
  floor: list(floorChange),
});

const death: fc.Arbitrary<DeathRecord> = record({
  name,
  depth: u16,
  rounds: u64,
  kills: u32,
  killed_by: text(40),
  when: u64,
  level: u8,
  escaped: fc.boolean(),
  morgue: u32,
});

const server: { [K in VariantOf<ServerMsg>]: fc.Arbitrary<ServerMsg> } = {
  Welcome: record({ you: u32, width: u16, height: u16, sight_radius: u8, actions_per_second: u16, token, world: text(40) })
    .map((Welcome) => ({ Welcome })),
  Refused: fc
    .oneof(
      fc.constantFrom("NameTaken" as const, "WrongToken" as const),
      u32.map((server) => ({ WrongVersion: { server } })),
      text(40).map((reason) => ({ NameInvalid: { reason } })),
      text(40).map((reason) => ({ Unavailable: { reason } })),
      text(40).map((reason) => ({ CannotWatch: { reason } })),
      u32.map((players) => ({ Full: { players } })),
      name.map((name) => ({ NoSuchBackground: { name } })),
      text(40).map((reason) => ({ NoRecording: { reason } })),
      fc.option(text(40), { nil: null }).map((elsewhere) => ({ Draining: { elsewhere } })),
    )
    .map((Refused) => ({ Refused })),
  EnterLevel: record({ depth: u16, width: u16, height: u16, remembered: fc.array(u8), terrain: fc.array(terrain) })
    .map((EnterLevel) => ({ EnterLevel })),
  Mapped: record({ remembered: fc.array(u8), terrain: fc.array(terrain) }).map((Mapped) => ({ Mapped })),
  Sight: diff.map((Sight) => ({ Sight })),
  Displaced: diff.map((Displaced) => ({ Displaced })),
  Players: list(playerChange).map((Players) => ({ Players })),
  Roster: names.map((Roster) => ({ Roster })),
  Joined: names.map((Joined) => ({ Joined })),
  Left: names.map((Left) => ({ Left })),
  Note: text(80).map((Note) => ({ Note })),
  Combat: text(80).map((Combat) => ({ Combat })),
  Others: text(80).map((Others) => ({ Others })),
  Kinds: list(record({ name, glyph: char, colour })).map((Kinds) => ({ Kinds })),
  Monsters: list(monsterChange).map((Monsters) => ({ Monsters })),
  ItemKinds: list(
    record({ name, glyph: char, colour, class: fc.constantFrom(...ITEM_CLASSES), known: fc.boolean() }),
  ).map((ItemKinds) => ({ ItemKinds })),
  Floor: list(floorChange).map((Floor) => ({ Floor })),
  Pack: list(record({ kind: u16, count: u16, equipped: fc.boolean() })).map((Pack) => ({ Pack })),
  Vitals: record({ hp: u16, max: u16 }).map((Vitals) => ({ Vitals })),
  Experience: record({ level: u8, xp: u32, next: u32 }).map((Experience) => ({ Experience })),
  Party: list(record({ id: u32, name, hp: u16, max: u16, level: u8 })).map((Party) => ({ Party })),
  Escaped: death.map((Escaped) => ({ Escaped })),
  Waiting: names.map((Waiting) => ({ Waiting })),
  Stopped: fc.constant("Stopped"),
  Restarting: fc.constant("Restarting"),
  Died: death.map((Died) => ({ Died })),
  Graveyard: list(death).map((Graveyard) => ({ Graveyard })),
  Chat: record({ from: u32, name, to: chatTo, text: text(200) }).map((Chat) => ({ Chat })),
  Watching: record({ player: name, you: u32 }).map((Watching) => ({ Watching })),
  Watchers: names.map((Watchers) => ({ Watchers })),
  Who: list(record({ name, watchers: u8, watchable: fc.boolean() })).map((Who) => ({ Who })),
  Backgrounds: list(
    record({ name, about: text(60), hp: u16, to_hit: i8, damage: i8, stealth: u8, throwing: i8, kit: names }),
  ).map((Backgrounds) => ({ Backgrounds })),
  Recording: record({ player: name, you: u32, depth: u16, from: u64, to: u64 }).map((Recording) => ({ Recording })),
  Recorded: record({ round: u64, msg: text(80).map((Note): ServerMsg => ({ Note })) }).map((Recorded) => ({
    Recorded,
  })),
  RecordingEnd: record({ cut: fc.boolean() }).map((RecordingEnd) => ({ RecordingEnd })),
};

export const clientMsg: fc.Arbitrary<ClientMsg> = fc.oneof(...Object.values(client));
export const serverMsg: fc.Arbitrary<ServerMsg> = fc.oneof(...Object.values(server));

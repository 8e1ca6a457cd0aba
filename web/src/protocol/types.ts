// The messages of Gloam's protocol, as protocol/src/message.rs and types.rs
// define them, in the shape serde's JSON gives them (externally tagged):
//
// - a unit variant is its name: "Graveyard";
// - a newtype variant is an object of one key: { Act: "Wait" };
// - a struct variant is an object of one key holding its fields:
//   { Hello: { version, name, token } };
// - Option<T> is null or the value; a newtype struct (PlayerId) its number;
//   a tuple or a fixed array ([u8; 16], [u8; 3], (u8, Terrain)) an array;
// - u8, u16 and u32 are numbers; u64 is a bigint, since a JavaScript number
//   holds integers exactly only up to 2^53 (serde's JSON prints the digits);
// - a SightDiff is the plain struct of its fields, as serde's JSON shows it:
//   the packing of its cell lists is the codec's affair (packed.ts).
//
// The order of each enum's variants is their tag on the wire: the *_VARIANTS
// lists below must follow the Rust declarations. The test vectors
// (web/test/vectors.json, written by the protocol crate) hold a sample of
// every variant, so a difference fails the tests.

export interface Pos {
  x: number;
  y: number;
}

export const TERRAINS = ["Wall", "Floor", "StairsDown", "StairsUp"] as const;
export type Terrain = (typeof TERRAINS)[number];

export const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
export type Dir = (typeof DIRS)[number];

export const WOUNDS = ["Unhurt", "Scratched", "Wounded", "AlmostDead"] as const;
export type Wound = (typeof WOUNDS)[number];

export const ITEM_CLASSES = [
  "Potion",
  "Scroll",
  "Weapon",
  "Armour",
  "Missile",
  "Artifact",
  "Wand",
] as const;
export type ItemClass = (typeof ITEM_CLASSES)[number];

/** A connected player (a u32). */
export type PlayerId = number;
/** A monster on a depth (a u32). */
export type MonsterId = number;
/** A character's secret: 16 bytes, each 0 to 255. */
export type Token = number[];
/** A colour: red, green, blue, each 0 to 255. */
export type Colour = [number, number, number];

// ---- What a client sends ----------------------------------------------------

export const CLIENT_MSG_VARIANTS = [
  "Hello",
  "Act",
  "Graveyard",
  "Chat",
  "Watch",
  "Audience",
  "Who",
  "Stop",
  "Backgrounds",
  "Create",
  "Recording",
] as const;

export type ClientMsg =
  | { Hello: { version: number; name: string; token: Token | null } }
  | { Act: Action }
  | "Graveyard"
  | { Chat: { to: ChatTo; text: string } }
  | { Watch: { version: number; name: string; token: Token | null; player: string } }
  | { Audience: AudienceCmd }
  | "Who"
  | "Stop"
  | "Backgrounds"
  | { Create: { version: number; name: string; token: Token | null; background: string } }
  | { Recording: { version: number; ask: RecordingAsk } };

export const RECORDING_ASK_VARIANTS = ["Grave", "Mine", "Past"] as const;
/** Which recording a client asks for (protocol/src/message.rs). */
export type RecordingAsk =
  | { Grave: { name: string; life: number; rounds: number } }
  | { Mine: { name: string; token: Token; depth: number; from: bigint; to: bigint } }
  | { Past: { name: string; token: Token; player: string; depth: number; from: bigint; to: bigint } };

export const AUDIENCE_CMD_VARIANTS = ["Refuse", "Allow", "Kick"] as const;
export type AudienceCmd = "Refuse" | "Allow" | { Kick: string };

export const CHAT_TO_VARIANTS = ["Depth", "Everyone", "Player"] as const;
export type ChatTo = "Depth" | "Everyone" | { Player: string };

export const ACTION_VARIANTS = [
  "Move",
  "Descend",
  "Ascend",
  "Wait",
  "Quit",
  "PickUp",
  "Drop",
  "Quaff",
  "Read",
  "Wield",
  "Wear",
  "TakeOff",
  "Throw",
  "Explore",
  "Travel",
  "Rest",
  "Zap",
] as const;

/** What a player does in a turn; the numbers are pack slots (u8, 0 is `a`). */
export type Action =
  | { Move: Dir }
  | "Descend"
  | "Ascend"
  | "Wait"
  | "Quit"
  | "PickUp"
  | { Drop: number }
  | { Quaff: number }
  | { Read: number }
  | { Wield: number }
  | { Wear: number }
  | { TakeOff: number }
  | { Throw: { slot: number; at: Pos } }
  | "Explore"
  | { Travel: Pos }
  | "Rest"
  | { Zap: { slot: number; at: Pos } };

// ---- What the server sends --------------------------------------------------

export const SERVER_MSG_VARIANTS = [
  "Welcome",
  "Refused",
  "EnterLevel",
  "Mapped",
  "Sight",
  "Displaced",
  "Players",
  "Roster",
  "Joined",
  "Left",
  "Note",
  "Combat",
  "Others",
  "Kinds",
  "Monsters",
  "ItemKinds",
  "Floor",
  "Pack",
  "Vitals",
  "Experience",
  "Party",
  "Escaped",
  "Waiting",
  "Stopped",
  "Died",
  "Graveyard",
  "Chat",
  "Watching",
  "Watchers",
  "Who",
  "Restarting",
  "Backgrounds",
  "Recording",
  "Recorded",
  "RecordingEnd",
] as const;

export type ServerMsg =
  | {
      Welcome: {
        you: PlayerId;
        width: number;
        height: number;
        sight_radius: number;
        actions_per_second: number;
        token: Token | null;
        /** The world's name (empty: none), for the page's title. */
        world: string;
      };
    }
  | { Refused: Refusal }
  | {
      EnterLevel: {
        depth: number;
        width: number;
        height: number;
        remembered: number[];
        terrain: Terrain[];
      };
    }
  | { Mapped: { remembered: number[]; terrain: Terrain[] } }
  | { Sight: SightDiff }
  | { Displaced: SightDiff }
  | { Players: PlayerChange[] }
  | { Roster: string[] }
  | { Joined: string[] }
  | { Left: string[] }
  | { Note: string }
  | { Combat: string }
  | { Others: string }
  | { Kinds: KindInfo[] }
  | { Monsters: MonsterChange[] }
  | { ItemKinds: ItemInfo[] }
  | { Floor: FloorChange[] }
  | { Pack: Carried[] }
  | { Vitals: { hp: number; max: number } }
  | { Experience: { level: number; xp: number; next: number } }
  | { Party: Member[] }
  | { Escaped: DeathRecord }
  | { Waiting: string[] }
  | "Stopped"
  | { Died: DeathRecord }
  | { Graveyard: DeathRecord[] }
  | { Chat: { from: PlayerId; name: string; to: ChatTo; text: string } }
  | { Watching: { player: string; you: PlayerId } }
  | { Watchers: string[] }
  | { Who: Playing[] }
  | "Restarting"
  | { Backgrounds: BackgroundInfo[] }
  | { Recording: { player: string; you: PlayerId; depth: number; from: bigint; to: bigint } }
  | { Recorded: { round: bigint; msg: ServerMsg } }
  | { RecordingEnd: { cut: boolean } };

/** What a new character may start as (protocol/src/message.rs). */
export interface BackgroundInfo {
  name: string;
  about: string;
  hp: number;
  /** Percent points added to its blows' chance to land (an i8). */
  to_hit: number;
  /** Hit points added to its blows' damage (an i8). */
  damage: number;
  /** Percent points off a sleeper's chance to wake (a u8). */
  stealth: number;
  /** Percent points added to its throws' chance to land (an i8). */
  throwing: number;
  /** What it carries, each as "2 darts" or "a dagger (wielded)". */
  kit: string[];
}

export interface Playing {
  name: string;
  watchers: number;
  watchable: boolean;
}

export interface KindInfo {
  name: string;
  /** One character (one code point, so one or two UTF-16 units). */
  glyph: string;
  colour: Colour;
}

export interface ItemInfo {
  name: string;
  glyph: string;
  colour: Colour;
  class: ItemClass;
  /**
   * Whether `name` is the kind's own: true for a kind with no look and for
   * one the player learnt; false while the kind is told by its look.
   */
  known: boolean;
}

export interface FloorChange {
  at: Pos;
  top: Lying | null;
}

export interface Lying {
  kind: number;
  count: number;
  more: boolean;
}

export interface Carried {
  kind: number;
  count: number;
  equipped: boolean;
}

export interface Member {
  id: PlayerId;
  name: string;
  hp: number;
  max: number;
  level: number;
}

export const MONSTER_CHANGE_VARIANTS = ["Appeared", "Moved", "Hurt", "Slept", "Vanished"] as const;
export type MonsterChange =
  | { Appeared: { id: MonsterId; kind: number; at: Pos; wound: Wound; asleep: boolean } }
  | { Moved: { id: MonsterId; at: Pos } }
  | { Hurt: { id: MonsterId; wound: Wound } }
  | { Slept: { id: MonsterId; asleep: boolean } }
  | { Vanished: { id: MonsterId } };

export interface DeathRecord {
  name: string;
  depth: number;
  rounds: bigint;
  kills: number;
  killed_by: string;
  /** Seconds since 1970 (UTC). */
  when: bigint;
  level: number;
  escaped: boolean;
  /**
   * Which of its name's lives this was, from 1: its morgue file is
   * `/morgue/NAME/MORGUE.txt` on the server's port. 0: it has none.
   */
  morgue: number;
}

/**
 * The change in a player's sight. Disc indices (each 0 to 255) in `shown`
 * and `revealed` are relative to `at`; those in `hidden` to the previous
 * diff's `at` on this level.
 */
export interface SightDiff {
  at: Pos;
  hidden: number[];
  shown: number[];
  revealed: [number, Terrain][];
  players: PlayerChange[];
  monsters: MonsterChange[];
  floor: FloorChange[];
}

export const PLAYER_CHANGE_VARIANTS = ["Appeared", "Moved", "Vanished"] as const;
export type PlayerChange =
  | { Appeared: { id: PlayerId; name: string; at: Pos } }
  | { Moved: { id: PlayerId; at: Pos } }
  | { Vanished: { id: PlayerId } };

export const REFUSAL_VARIANTS = [
  "WrongVersion",
  "NameInvalid",
  "NameTaken",
  "WrongToken",
  "Unavailable",
  "CannotWatch",
  "Full",
  "NoSuchBackground",
  "NoRecording",
  "Draining",
] as const;
export type Refusal =
  | { WrongVersion: { server: number } }
  | { NameInvalid: { reason: string } }
  | "NameTaken"
  | "WrongToken"
  | { Unavailable: { reason: string } }
  | { CannotWatch: { reason: string } }
  | { Full: { players: number } }
  | { NoSuchBackground: { name: string } }
  | { NoRecording: { reason: string } }
  | { Draining: { elsewhere: string | null } };

/** The variant names of an externally tagged union: "Stopped" | "Note" | ... */
export type VariantOf<T> = T extends string ? T : keyof T;

// Each variant list names exactly the variants of its type; a list that
// misses one, or names one too many, fails to compile. (The order is the
// test vectors' to check.)
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type VariantListsAreComplete = [
  Assert<Same<VariantOf<ClientMsg>, (typeof CLIENT_MSG_VARIANTS)[number]>>,
  Assert<Same<VariantOf<ServerMsg>, (typeof SERVER_MSG_VARIANTS)[number]>>,
  Assert<Same<VariantOf<Action>, (typeof ACTION_VARIANTS)[number]>>,
  Assert<Same<VariantOf<ChatTo>, (typeof CHAT_TO_VARIANTS)[number]>>,
  Assert<Same<VariantOf<AudienceCmd>, (typeof AUDIENCE_CMD_VARIANTS)[number]>>,
  Assert<Same<VariantOf<MonsterChange>, (typeof MONSTER_CHANGE_VARIANTS)[number]>>,
  Assert<Same<VariantOf<PlayerChange>, (typeof PLAYER_CHANGE_VARIANTS)[number]>>,
  Assert<Same<VariantOf<Refusal>, (typeof REFUSAL_VARIANTS)[number]>>,
];

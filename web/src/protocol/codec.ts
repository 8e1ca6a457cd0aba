// The messages to and from bytes: one frame, one message, as
// protocol/src/codec.rs encodes them (bincode 2's standard configuration
// through serde; wire.ts has its rules). Decoding refuses a frame over the
// size limit before reading it, any byte left over after the message, and
// anything malformed, always with a DecodeError. Encoding refuses a value
// that is no message (a u8 of 300) with an EncodeError; like the Rust
// codec, it does not check the size limit.

import { packCells, unpackCells } from "./packed";
import {
  ACTION_VARIANTS,
  AUDIENCE_CMD_VARIANTS,
  CHAT_TO_VARIANTS,
  CLIENT_MSG_VARIANTS,
  DIRS,
  ITEM_CLASSES,
  MONSTER_CHANGE_VARIANTS,
  PLAYER_CHANGE_VARIANTS,
  RECORDING_ASK_VARIANTS,
  REFUSAL_VARIANTS,
  SERVER_MSG_VARIANTS,
  TERRAINS,
  WOUNDS,
  type Action,
  type AudienceCmd,
  type Carried,
  type ChatTo,
  type ClientMsg,
  type Colour,
  type DeathRecord,
  type FloorChange,
  type BackgroundInfo,
  type ItemInfo,
  type KindInfo,
  type Member,
  type MonsterChange,
  type PlayerChange,
  type Playing,
  type Pos,
  type RecordingAsk,
  type Refusal,
  type ServerMsg,
  type SightDiff,
  type Terrain,
  type Token,
} from "./types";
import { DecodeError, EncodeError, MAX_CLIENT_MSG, MAX_SERVER_MSG, Reader, Writer, show } from "./wire";

export function encodeClient(msg: ClientMsg): Uint8Array {
  const w = new Writer();
  writeClientMsg(w, msg);
  return w.finish();
}

export function encodeServer(msg: ServerMsg): Uint8Array {
  const w = new Writer();
  writeServerMsg(w, msg);
  return w.finish();
}

export function decodeClient(bytes: Uint8Array): ClientMsg {
  return decodeLimited(bytes, MAX_CLIENT_MSG, readClientMsg);
}

export function decodeServer(bytes: Uint8Array): ServerMsg {
  return decodeLimited(bytes, MAX_SERVER_MSG, readServerMsg);
}

function decodeLimited<M>(bytes: Uint8Array, limit: number, read: (r: Reader) => M): M {
  if (bytes.length > limit) {
    throw new DecodeError("TooLarge", `message of ${bytes.length} bytes is over the ${limit}-byte limit`);
  }
  const r = new Reader(bytes);
  const msg = read(r);
  if (r.left > 0) {
    throw new DecodeError("TrailingBytes", `${r.left} bytes left over after the message`);
  }
  return msg;
}

/** For the `else` after every variant was tried: the value is no message. */
function noVariant(value: never, what: string): never {
  throw new EncodeError(`${show(value)} is not a ${what}`);
}

// ---- Small types ------------------------------------------------------------

function writePos(w: Writer, p: Pos): void {
  w.u16(p.x);
  w.u16(p.y);
}

function readPos(r: Reader): Pos {
  return { x: r.u16(), y: r.u16() };
}

function writeToken(w: Writer, t: Token): void {
  w.array(16, t, (w, b) => w.u8(b), "a token");
}

function readToken(r: Reader): Token {
  return r.array(16, (r) => r.u8());
}

function writeColour(w: Writer, c: Colour): void {
  w.array(3, c, (w, b) => w.u8(b), "a colour");
}

function readColour(r: Reader): Colour {
  return [r.u8(), r.u8(), r.u8()];
}

const writeTerrain = (w: Writer, t: Terrain) => w.variant(TERRAINS, t);
const readTerrain = (r: Reader) => r.variant(TERRAINS, "Terrain");
const writeString = (w: Writer, s: string) => w.string(s);
const readString = (r: Reader) => r.string();
const writeU8 = (w: Writer, b: number) => w.u8(b);
const readU8 = (r: Reader) => r.u8();

// ---- ClientMsg --------------------------------------------------------------

function writeClientMsg(w: Writer, m: ClientMsg): void {
  if (typeof m === "string") {
    w.variant(CLIENT_MSG_VARIANTS, m);
  } else if ("Hello" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Hello");
    w.u32(m.Hello.version);
    w.string(m.Hello.name);
    w.option(m.Hello.token, writeToken);
  } else if ("Act" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Act");
    writeAction(w, m.Act);
  } else if ("Chat" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Chat");
    writeChatTo(w, m.Chat.to);
    w.string(m.Chat.text);
  } else if ("Watch" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Watch");
    w.u32(m.Watch.version);
    w.string(m.Watch.name);
    w.option(m.Watch.token, writeToken);
    w.string(m.Watch.player);
  } else if ("Audience" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Audience");
    writeAudienceCmd(w, m.Audience);
  } else if ("Create" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Create");
    w.u32(m.Create.version);
    w.string(m.Create.name);
    w.option(m.Create.token, writeToken);
    w.string(m.Create.background);
  } else if ("Recording" in m) {
    w.variant(CLIENT_MSG_VARIANTS, "Recording");
    w.u32(m.Recording.version);
    writeRecordingAsk(w, m.Recording.ask);
  } else {
    noVariant(m, "ClientMsg");
  }
}

function writeRecordingAsk(w: Writer, a: RecordingAsk): void {
  if ("Grave" in a) {
    w.variant(RECORDING_ASK_VARIANTS, "Grave");
    w.string(a.Grave.name);
    w.u32(a.Grave.life);
    w.u32(a.Grave.rounds);
  } else if ("Mine" in a) {
    w.variant(RECORDING_ASK_VARIANTS, "Mine");
    w.string(a.Mine.name);
    writeToken(w, a.Mine.token);
    w.u16(a.Mine.depth);
    w.u64(a.Mine.from);
    w.u64(a.Mine.to);
  } else if ("Past" in a) {
    w.variant(RECORDING_ASK_VARIANTS, "Past");
    w.string(a.Past.name);
    writeToken(w, a.Past.token);
    w.string(a.Past.player);
    w.u16(a.Past.depth);
    w.u64(a.Past.from);
    w.u64(a.Past.to);
  } else {
    noVariant(a, "RecordingAsk");
  }
}

function readRecordingAsk(r: Reader): RecordingAsk {
  const variant = r.variant(RECORDING_ASK_VARIANTS, "RecordingAsk");
  switch (variant) {
    case "Grave":
      return { Grave: { name: r.string(), life: r.u32(), rounds: r.u32() } };
    case "Mine":
      return {
        Mine: { name: r.string(), token: readToken(r), depth: r.u16(), from: r.u64(), to: r.u64() },
      };
    case "Past":
      return {
        Past: {
          name: r.string(),
          token: readToken(r),
          player: r.string(),
          depth: r.u16(),
          from: r.u64(),
          to: r.u64(),
        },
      };
  }
}

function readClientMsg(r: Reader): ClientMsg {
  const variant = r.variant(CLIENT_MSG_VARIANTS, "ClientMsg");
  switch (variant) {
    case "Hello":
      return { Hello: { version: r.u32(), name: r.string(), token: r.option(readToken) } };
    case "Act":
      return { Act: readAction(r) };
    case "Chat":
      return { Chat: { to: readChatTo(r), text: r.string() } };
    case "Watch":
      return {
        Watch: { version: r.u32(), name: r.string(), token: r.option(readToken), player: r.string() },
      };
    case "Audience":
      return { Audience: readAudienceCmd(r) };
    case "Create":
      return {
        Create: { version: r.u32(), name: r.string(), token: r.option(readToken), background: r.string() },
      };
    case "Recording":
      return { Recording: { version: r.u32(), ask: readRecordingAsk(r) } };
    case "Graveyard":
    case "Who":
    case "Stop":
    case "Backgrounds":
      return variant;
  }
}

function writeAction(w: Writer, a: Action): void {
  const slot = (name: (typeof ACTION_VARIANTS)[number], slot: number) => {
    w.variant(ACTION_VARIANTS, name);
    w.u8(slot);
  };
  if (typeof a === "string") {
    w.variant(ACTION_VARIANTS, a);
  } else if ("Move" in a) {
    w.variant(ACTION_VARIANTS, "Move");
    w.variant(DIRS, a.Move);
  } else if ("Throw" in a) {
    w.variant(ACTION_VARIANTS, "Throw");
    w.u8(a.Throw.slot);
    writePos(w, a.Throw.at);
  } else if ("Zap" in a) {
    w.variant(ACTION_VARIANTS, "Zap");
    w.u8(a.Zap.slot);
    writePos(w, a.Zap.at);
  } else if ("Travel" in a) {
    w.variant(ACTION_VARIANTS, "Travel");
    writePos(w, a.Travel);
  } else if ("Drop" in a) {
    slot("Drop", a.Drop);
  } else if ("Quaff" in a) {
    slot("Quaff", a.Quaff);
  } else if ("Read" in a) {
    slot("Read", a.Read);
  } else if ("Wield" in a) {
    slot("Wield", a.Wield);
  } else if ("Wear" in a) {
    slot("Wear", a.Wear);
  } else if ("TakeOff" in a) {
    slot("TakeOff", a.TakeOff);
  } else {
    noVariant(a, "Action");
  }
}

function readAction(r: Reader): Action {
  const variant = r.variant(ACTION_VARIANTS, "Action");
  switch (variant) {
    case "Move":
      return { Move: r.variant(DIRS, "Dir") };
    case "Throw":
      return { Throw: { slot: r.u8(), at: readPos(r) } };
    case "Zap":
      return { Zap: { slot: r.u8(), at: readPos(r) } };
    case "Travel":
      return { Travel: readPos(r) };
    case "Drop":
      return { Drop: r.u8() };
    case "Quaff":
      return { Quaff: r.u8() };
    case "Read":
      return { Read: r.u8() };
    case "Wield":
      return { Wield: r.u8() };
    case "Wear":
      return { Wear: r.u8() };
    case "TakeOff":
      return { TakeOff: r.u8() };
    case "Descend":
    case "Ascend":
    case "Wait":
    case "Quit":
    case "PickUp":
    case "Explore":
    case "Rest":
      return variant;
  }
}

function writeChatTo(w: Writer, to: ChatTo): void {
  if (typeof to === "string") {
    w.variant(CHAT_TO_VARIANTS, to);
  } else if ("Player" in to) {
    w.variant(CHAT_TO_VARIANTS, "Player");
    w.string(to.Player);
  } else {
    noVariant(to, "ChatTo");
  }
}

function readChatTo(r: Reader): ChatTo {
  const variant = r.variant(CHAT_TO_VARIANTS, "ChatTo");
  return variant === "Player" ? { Player: r.string() } : variant;
}

function writeAudienceCmd(w: Writer, c: AudienceCmd): void {
  if (typeof c === "string") {
    w.variant(AUDIENCE_CMD_VARIANTS, c);
  } else if ("Kick" in c) {
    w.variant(AUDIENCE_CMD_VARIANTS, "Kick");
    w.string(c.Kick);
  } else {
    noVariant(c, "AudienceCmd");
  }
}

function readAudienceCmd(r: Reader): AudienceCmd {
  const variant = r.variant(AUDIENCE_CMD_VARIANTS, "AudienceCmd");
  return variant === "Kick" ? { Kick: r.string() } : variant;
}

// ---- ServerMsg --------------------------------------------------------------

function writeServerMsg(w: Writer, m: ServerMsg): void {
  const tag = (name: (typeof SERVER_MSG_VARIANTS)[number]) => w.variant(SERVER_MSG_VARIANTS, name);
  if (typeof m === "string") {
    w.variant(SERVER_MSG_VARIANTS, m);
  } else if ("Welcome" in m) {
    const v = m.Welcome;
    tag("Welcome");
    w.u32(v.you);
    w.u16(v.width);
    w.u16(v.height);
    w.u8(v.sight_radius);
    w.u16(v.actions_per_second);
    w.option(v.token, writeToken);
    w.string(v.world);
  } else if ("Refused" in m) {
    tag("Refused");
    writeRefusal(w, m.Refused);
  } else if ("EnterLevel" in m) {
    const v = m.EnterLevel;
    tag("EnterLevel");
    w.u16(v.depth);
    w.u16(v.width);
    w.u16(v.height);
    w.vec(v.remembered, writeU8);
    w.vec(v.terrain, writeTerrain);
  } else if ("Mapped" in m) {
    tag("Mapped");
    w.vec(m.Mapped.remembered, writeU8);
    w.vec(m.Mapped.terrain, writeTerrain);
  } else if ("Sight" in m) {
    tag("Sight");
    writeSightDiff(w, m.Sight);
  } else if ("Displaced" in m) {
    tag("Displaced");
    writeSightDiff(w, m.Displaced);
  } else if ("Players" in m) {
    tag("Players");
    w.vec(m.Players, writePlayerChange);
  } else if ("Roster" in m) {
    tag("Roster");
    w.vec(m.Roster, writeString);
  } else if ("Joined" in m) {
    tag("Joined");
    w.vec(m.Joined, writeString);
  } else if ("Left" in m) {
    tag("Left");
    w.vec(m.Left, writeString);
  } else if ("Note" in m) {
    tag("Note");
    w.string(m.Note);
  } else if ("Combat" in m) {
    tag("Combat");
    w.string(m.Combat);
  } else if ("Others" in m) {
    tag("Others");
    w.string(m.Others);
  } else if ("Kinds" in m) {
    tag("Kinds");
    w.vec(m.Kinds, writeKindInfo);
  } else if ("Monsters" in m) {
    tag("Monsters");
    w.vec(m.Monsters, writeMonsterChange);
  } else if ("ItemKinds" in m) {
    tag("ItemKinds");
    w.vec(m.ItemKinds, writeItemInfo);
  } else if ("Floor" in m) {
    tag("Floor");
    w.vec(m.Floor, writeFloorChange);
  } else if ("Pack" in m) {
    tag("Pack");
    w.vec(m.Pack, writeCarried);
  } else if ("Vitals" in m) {
    tag("Vitals");
    w.u16(m.Vitals.hp);
    w.u16(m.Vitals.max);
  } else if ("Experience" in m) {
    tag("Experience");
    w.u8(m.Experience.level);
    w.u32(m.Experience.xp);
    w.u32(m.Experience.next);
  } else if ("Party" in m) {
    tag("Party");
    w.vec(m.Party, writeMember);
  } else if ("Escaped" in m) {
    tag("Escaped");
    writeDeathRecord(w, m.Escaped);
  } else if ("Waiting" in m) {
    tag("Waiting");
    w.vec(m.Waiting, writeString);
  } else if ("Died" in m) {
    tag("Died");
    writeDeathRecord(w, m.Died);
  } else if ("Graveyard" in m) {
    tag("Graveyard");
    w.vec(m.Graveyard, writeDeathRecord);
  } else if ("Chat" in m) {
    const v = m.Chat;
    tag("Chat");
    w.u32(v.from);
    w.string(v.name);
    writeChatTo(w, v.to);
    w.string(v.text);
  } else if ("Watching" in m) {
    tag("Watching");
    w.string(m.Watching.player);
    w.u32(m.Watching.you);
  } else if ("Watchers" in m) {
    tag("Watchers");
    w.vec(m.Watchers, writeString);
  } else if ("Who" in m) {
    tag("Who");
    w.vec(m.Who, writePlaying);
  } else if ("Backgrounds" in m) {
    tag("Backgrounds");
    w.vec(m.Backgrounds, writeBackgroundInfo);
  } else if ("Recording" in m) {
    const v = m.Recording;
    tag("Recording");
    w.string(v.player);
    w.u32(v.you);
    w.u16(v.depth);
    w.u64(v.from);
    w.u64(v.to);
  } else if ("Recorded" in m) {
    tag("Recorded");
    w.u64(m.Recorded.round);
    writeServerMsg(w, m.Recorded.msg);
  } else if ("RecordingEnd" in m) {
    tag("RecordingEnd");
    w.bool(m.RecordingEnd.cut);
  } else {
    noVariant(m, "ServerMsg");
  }
}

function readServerMsg(r: Reader): ServerMsg {
  const variant = r.variant(SERVER_MSG_VARIANTS, "ServerMsg");
  switch (variant) {
    case "Welcome":
      return {
        Welcome: {
          you: r.u32(),
          width: r.u16(),
          height: r.u16(),
          sight_radius: r.u8(),
          actions_per_second: r.u16(),
          token: r.option(readToken),
          world: r.string(),
        },
      };
    case "Refused":
      return { Refused: readRefusal(r) };
    case "EnterLevel":
      return {
        EnterLevel: {
          depth: r.u16(),
          width: r.u16(),
          height: r.u16(),
          remembered: r.vec(readU8, "remembered cells"),
          terrain: r.vec(readTerrain, "terrain"),
        },
      };
    case "Mapped":
      return {
        Mapped: { remembered: r.vec(readU8, "remembered cells"), terrain: r.vec(readTerrain, "terrain") },
      };
    case "Sight":
      return { Sight: readSightDiff(r) };
    case "Displaced":
      return { Displaced: readSightDiff(r) };
    case "Players":
      return { Players: r.vec(readPlayerChange, "player changes") };
    case "Roster":
      return { Roster: r.vec(readString, "names") };
    case "Joined":
      return { Joined: r.vec(readString, "names") };
    case "Left":
      return { Left: r.vec(readString, "names") };
    case "Note":
      return { Note: r.string() };
    case "Combat":
      return { Combat: r.string() };
    case "Others":
      return { Others: r.string() };
    case "Kinds":
      return { Kinds: r.vec(readKindInfo, "kinds") };
    case "Monsters":
      return { Monsters: r.vec(readMonsterChange, "monster changes") };
    case "ItemKinds":
      return { ItemKinds: r.vec(readItemInfo, "item kinds") };
    case "Floor":
      return { Floor: r.vec(readFloorChange, "floor changes") };
    case "Pack":
      return { Pack: r.vec(readCarried, "pack") };
    case "Vitals":
      return { Vitals: { hp: r.u16(), max: r.u16() } };
    case "Experience":
      return { Experience: { level: r.u8(), xp: r.u32(), next: r.u32() } };
    case "Party":
      return { Party: r.vec(readMember, "party") };
    case "Escaped":
      return { Escaped: readDeathRecord(r) };
    case "Waiting":
      return { Waiting: r.vec(readString, "names") };
    case "Stopped":
    case "Restarting":
      return variant;
    case "Died":
      return { Died: readDeathRecord(r) };
    case "Graveyard":
      return { Graveyard: r.vec(readDeathRecord, "graveyard") };
    case "Chat":
      return { Chat: { from: r.u32(), name: r.string(), to: readChatTo(r), text: r.string() } };
    case "Watching":
      return { Watching: { player: r.string(), you: r.u32() } };
    case "Watchers":
      return { Watchers: r.vec(readString, "names") };
    case "Who":
      return { Who: r.vec(readPlaying, "players") };
    case "Backgrounds":
      return { Backgrounds: r.vec(readBackgroundInfo, "backgrounds") };
    case "Recording":
      return {
        Recording: { player: r.string(), you: r.u32(), depth: r.u16(), from: r.u64(), to: r.u64() },
      };
    case "Recorded":
      return { Recorded: { round: r.u64(), msg: readServerMsg(r) } };
    case "RecordingEnd":
      return { RecordingEnd: { cut: r.bool() } };
  }
}

function writeBackgroundInfo(w: Writer, b: BackgroundInfo): void {
  w.string(b.name);
  w.string(b.about);
  w.u16(b.hp);
  w.i8(b.to_hit);
  w.i8(b.damage);
  w.u8(b.stealth);
  w.i8(b.throwing);
  w.vec(b.kit, writeString);
}

function readBackgroundInfo(r: Reader): BackgroundInfo {
  return {
    name: r.string(),
    about: r.string(),
    hp: r.u16(),
    to_hit: r.i8(),
    damage: r.i8(),
    stealth: r.u8(),
    throwing: r.i8(),
    kit: r.vec(readString, "kit"),
  };
}

function writeRefusal(w: Writer, v: Refusal): void {
  if (typeof v === "string") {
    w.variant(REFUSAL_VARIANTS, v);
  } else if ("WrongVersion" in v) {
    w.variant(REFUSAL_VARIANTS, "WrongVersion");
    w.u32(v.WrongVersion.server);
  } else if ("NameInvalid" in v) {
    w.variant(REFUSAL_VARIANTS, "NameInvalid");
    w.string(v.NameInvalid.reason);
  } else if ("Unavailable" in v) {
    w.variant(REFUSAL_VARIANTS, "Unavailable");
    w.string(v.Unavailable.reason);
  } else if ("CannotWatch" in v) {
    w.variant(REFUSAL_VARIANTS, "CannotWatch");
    w.string(v.CannotWatch.reason);
  } else if ("Full" in v) {
    w.variant(REFUSAL_VARIANTS, "Full");
    w.u32(v.Full.players);
  } else if ("NoSuchBackground" in v) {
    w.variant(REFUSAL_VARIANTS, "NoSuchBackground");
    w.string(v.NoSuchBackground.name);
  } else if ("NoRecording" in v) {
    w.variant(REFUSAL_VARIANTS, "NoRecording");
    w.string(v.NoRecording.reason);
  } else if ("Draining" in v) {
    w.variant(REFUSAL_VARIANTS, "Draining");
    w.option(v.Draining.elsewhere, (w, s) => w.string(s));
  } else {
    noVariant(v, "Refusal");
  }
}

function readRefusal(r: Reader): Refusal {
  const variant = r.variant(REFUSAL_VARIANTS, "Refusal");
  switch (variant) {
    case "WrongVersion":
      return { WrongVersion: { server: r.u32() } };
    case "NameInvalid":
      return { NameInvalid: { reason: r.string() } };
    case "Unavailable":
      return { Unavailable: { reason: r.string() } };
    case "CannotWatch":
      return { CannotWatch: { reason: r.string() } };
    case "Full":
      return { Full: { players: r.u32() } };
    case "NoSuchBackground":
      return { NoSuchBackground: { name: r.string() } };
    case "NoRecording":
      return { NoRecording: { reason: r.string() } };
    case "Draining":
      return { Draining: { elsewhere: r.option(readString) } };
    case "NameTaken":
    case "WrongToken":
      return variant;
  }
}

/** A diff: its position, its cells packed (packed.ts) as a byte string,
 * then the lists of players, monsters and floor changes the bits say follow. */
function writeSightDiff(w: Writer, d: SightDiff): void {
  writePos(w, d.at);
  w.byteString(packCells(d));
  if (d.players.length > 0) w.vec(d.players, writePlayerChange);
  if (d.monsters.length > 0) w.vec(d.monsters, writeMonsterChange);
  if (d.floor.length > 0) w.vec(d.floor, writeFloorChange);
}

function readSightDiff(r: Reader): SightDiff {
  const at = readPos(r);
  const cells = unpackCells(r.byteString("sight diff cells"));
  return {
    at,
    hidden: cells.hidden,
    shown: cells.shown,
    revealed: cells.revealed,
    players: cells.hasPlayers ? r.vec(readPlayerChange, "player changes") : [],
    monsters: cells.hasMonsters ? r.vec(readMonsterChange, "monster changes") : [],
    floor: cells.hasFloor ? r.vec(readFloorChange, "floor changes") : [],
  };
}

function writePlayerChange(w: Writer, c: PlayerChange): void {
  if ("Appeared" in c) {
    w.variant(PLAYER_CHANGE_VARIANTS, "Appeared");
    w.u32(c.Appeared.id);
    w.string(c.Appeared.name);
    writePos(w, c.Appeared.at);
  } else if ("Moved" in c) {
    w.variant(PLAYER_CHANGE_VARIANTS, "Moved");
    w.u32(c.Moved.id);
    writePos(w, c.Moved.at);
  } else if ("Vanished" in c) {
    w.variant(PLAYER_CHANGE_VARIANTS, "Vanished");
    w.u32(c.Vanished.id);
  } else {
    noVariant(c, "PlayerChange");
  }
}

function readPlayerChange(r: Reader): PlayerChange {
  switch (r.variant(PLAYER_CHANGE_VARIANTS, "PlayerChange")) {
    case "Appeared":
      return { Appeared: { id: r.u32(), name: r.string(), at: readPos(r) } };
    case "Moved":
      return { Moved: { id: r.u32(), at: readPos(r) } };
    case "Vanished":
      return { Vanished: { id: r.u32() } };
  }
}

function writeMonsterChange(w: Writer, c: MonsterChange): void {
  if ("Appeared" in c) {
    const v = c.Appeared;
    w.variant(MONSTER_CHANGE_VARIANTS, "Appeared");
    w.u32(v.id);
    w.u16(v.kind);
    writePos(w, v.at);
    w.variant(WOUNDS, v.wound);
    w.bool(v.asleep);
  } else if ("Moved" in c) {
    w.variant(MONSTER_CHANGE_VARIANTS, "Moved");
    w.u32(c.Moved.id);
    writePos(w, c.Moved.at);
  } else if ("Hurt" in c) {
    w.variant(MONSTER_CHANGE_VARIANTS, "Hurt");
    w.u32(c.Hurt.id);
    w.variant(WOUNDS, c.Hurt.wound);
  } else if ("Slept" in c) {
    w.variant(MONSTER_CHANGE_VARIANTS, "Slept");
    w.u32(c.Slept.id);
    w.bool(c.Slept.asleep);
  } else if ("Vanished" in c) {
    w.variant(MONSTER_CHANGE_VARIANTS, "Vanished");
    w.u32(c.Vanished.id);
  } else {
    noVariant(c, "MonsterChange");
  }
}

function readMonsterChange(r: Reader): MonsterChange {
  switch (r.variant(MONSTER_CHANGE_VARIANTS, "MonsterChange")) {
    case "Appeared":
      return {
        Appeared: {
          id: r.u32(),
          kind: r.u16(),
          at: readPos(r),
          wound: r.variant(WOUNDS, "Wound"),
          asleep: r.bool(),
        },
      };
    case "Moved":
      return { Moved: { id: r.u32(), at: readPos(r) } };
    case "Hurt":
      return { Hurt: { id: r.u32(), wound: r.variant(WOUNDS, "Wound") } };
    case "Slept":
      return { Slept: { id: r.u32(), asleep: r.bool() } };
    case "Vanished":
      return { Vanished: { id: r.u32() } };
  }
}

function writeKindInfo(w: Writer, k: KindInfo): void {
  w.string(k.name);
  w.char(k.glyph);
  writeColour(w, k.colour);
}

function readKindInfo(r: Reader): KindInfo {
  return { name: r.string(), glyph: r.char(), colour: readColour(r) };
}

function writeItemInfo(w: Writer, i: ItemInfo): void {
  w.string(i.name);
  w.char(i.glyph);
  writeColour(w, i.colour);
  w.variant(ITEM_CLASSES, i.class);
  w.bool(i.known);
}

function readItemInfo(r: Reader): ItemInfo {
  return {
    name: r.string(),
    glyph: r.char(),
    colour: readColour(r),
    class: r.variant(ITEM_CLASSES, "ItemClass"),
    known: r.bool(),
  };
}

function writeFloorChange(w: Writer, f: FloorChange): void {
  writePos(w, f.at);
  w.option(f.top, (w, top) => {
    w.u16(top.kind);
    w.u16(top.count);
    w.bool(top.more);
  });
}

function readFloorChange(r: Reader): FloorChange {
  return {
    at: readPos(r),
    top: r.option((r) => ({ kind: r.u16(), count: r.u16(), more: r.bool() })),
  };
}

function writeCarried(w: Writer, c: Carried): void {
  w.u16(c.kind);
  w.u16(c.count);
  w.bool(c.equipped);
}

function readCarried(r: Reader): Carried {
  return { kind: r.u16(), count: r.u16(), equipped: r.bool() };
}

function writeMember(w: Writer, m: Member): void {
  w.u32(m.id);
  w.string(m.name);
  w.u16(m.hp);
  w.u16(m.max);
  w.u8(m.level);
}

function readMember(r: Reader): Member {
  return { id: r.u32(), name: r.string(), hp: r.u16(), max: r.u16(), level: r.u8() };
}

function writeDeathRecord(w: Writer, d: DeathRecord): void {
  w.string(d.name);
  w.u16(d.depth);
  w.u64(d.rounds);
  w.u32(d.kills);
  w.string(d.killed_by);
  w.u64(d.when);
  w.u8(d.level);
  w.bool(d.escaped);
  w.u32(d.morgue);
}

function readDeathRecord(r: Reader): DeathRecord {
  return {
    name: r.string(),
    depth: r.u16(),
    rounds: r.u64(),
    kills: r.u32(),
    killed_by: r.string(),
    when: r.u64(),
    level: r.u8(),
    escaped: r.bool(),
    morgue: r.u32(),
  };
}

function writePlaying(w: Writer, p: Playing): void {
  w.string(p.name);
  w.u8(p.watchers);
  w.bool(p.watchable);
}

function readPlaying(r: Reader): Playing {
  return { name: r.string(), watchers: r.u8(), watchable: r.bool() };
}

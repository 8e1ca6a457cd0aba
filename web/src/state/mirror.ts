// The client's mirror of its player's knowledge, built only from what the
// server says (client/src/state/mod.rs): `apply` is the only way it
// changes. Every message is checked whole, against the limits in
// limits.ts, before anything changes or is allocated; a message that does
// not fit changes nothing and gives the reason, which ends the connection.
// Each file keeps its own part of the mirror:
// - map.ts: the level as known, what is in sight now, where the player stands;
// - in_sight.ts: the other players and monsters in sight, the kinds of monster;
// - items.ts: the kinds of item, the piles seen on this level, the pack;
// - roster.ts: who else is on this depth, and whom the round waits for;
// - watching.ts: whom this client watches, who watches its player, /who;
// - party.ts: the player's party; life.ts: hit points, experience, the
//   end of the game and the graveyard; log.ts: the message log, chat too.

import { REASONS } from "./reasons";
import { PAGE_WORDS, type Words } from "./words";
import type {
  BackgroundInfo,
  Carried,
  ChatTo,
  DeathRecord,
  ItemInfo,
  KindInfo,
  Lying,
  Member,
  MonsterId,
  PlayerId,
  Pos,
  Refusal,
  ServerMsg,
  Wound,
} from "../protocol";
import { Disc } from "./disc";
import { StateError, fail } from "./errors";
import { applyMonsters, applyPlayers, nameKinds } from "./in_sight";
import { applyFloor, nameItemKinds, setPack } from "./items";
import { die, escape, keepGraveyard, setVitals } from "./life";
import { answered, checkChat, hear, note, refusalText, told, type LogLine } from "./log";
import { MAX_BACKGROUNDS, MAX_SIGHT_RADIUS, checkSize, checkWorldName } from "./limits";
import { addMapped, applySight, enterLevel } from "./map";
import { setParty } from "./party";
import { join, leave, setRoster, waitFor } from "./roster";
import { listPlayers, setWatchers, watch } from "./watching";

/** Another player, as last seen. */
export interface OtherPlayer {
  name: string;
  at: Pos;
}

/** A monster in sight. */
export interface SeenMonster {
  /** Its place in `kinds`. */
  kind: number;
  at: Pos;
  wound: Wound;
  asleep: boolean;
}

export interface Experience {
  level: number;
  xp: number;
  /** The points the next level takes; 0 at the highest level. */
  next: number;
}

/** The top of a pile seen, and where. */
export interface Pile {
  at: Pos;
  top: Lying;
}

const NOTHING = new Uint8Array(0);

/** What the log says when the server says it is restarting (client/src/state/mod.rs's RESTARTING). */
export const RESTARTING = "The server is restarting.";

export class ClientState {
  /** The words the page puts its own way (words.ts): the session sets them. */
  words: Words = PAGE_WORDS;
  me: PlayerId | null = null;
  /** The pace the server applies this player's actions at. */
  actionsPerSecond = 0;
  width = 0;
  height = 0;
  disc: Disc | null = null;
  /** The depth the player is on; 0 before the first level. */
  depth = 0;
  /** Where the player stands, once its first sight arrived on this level. */
  at: Pos | null = null;
  /** What is known of each cell, row-major: 0 unknown, else 1 + its index in TERRAINS. */
  known: Uint8Array = NOTHING;
  /** Which cells are in sight now, row-major (1 in sight). */
  visible: Uint8Array = NOTHING;
  /** Other players in sight, by id. */
  others = new Map<PlayerId, OtherPlayer>();
  /** The names of the other players on this depth, sorted. */
  roster: string[] = [];
  monsters = new Map<MonsterId, SeenMonster>();
  kinds: KindInfo[] = [];
  itemKinds: ItemInfo[] = [];
  /** The top of every pile the player saw on this level, by map index. */
  floor = new Map<number, Pile>();
  /** What the player carries, `a` first. */
  pack: Carried[] = [];
  hp: { hp: number; max: number } | null = null;
  experience: Experience | null = null;
  /** The player's party, itself first (empty until told). */
  party: Member[] = [];
  /** Whom the round waits for. */
  waiting: string[] = [];
  /** The message log, oldest first. */
  log: LogLine[] = [];
  /** Lines said since the session began (a repeat counts): the next line's `said`. */
  said = 0;
  /** The first line (by `said`) that is news: the player acted since those before it were said (log.ts). */
  newsFrom = 0;
  /** `said` when the last answer to an action ended. */
  lastAnswer = 0;
  refused: Refusal | null = null;
  death: DeathRecord | null = null;
  escape: DeathRecord | null = null;
  graveyard: DeathRecord[] | null = null;
  /** Whom this client watches (rather than plays), and its own id as its chat carries it. */
  watching: { player: string; you: PlayerId } | null = null;
  /** Who watches the player (this one, or the one watched). */
  watchers: string[] = [];
  /** The name this client joined under, as its hello said (a watcher's own, not its player's): a watcher finds itself among its player's watchers by it. */
  name: string | null = null;
  /** The world's name, as the welcome gave it (empty: none). */
  world = "";
  /** The server said it is restarting (its close follows): a client may come back soon. */
  restarting = false;
  /** The backgrounds a new character may take, as the server last listed them (empty until asked for). */
  backgrounds: BackgroundInfo[] = [];

  /**
   * Updates the mirror with one message from the server. Gives null, or
   * the reason the message does not fit (it then changed nothing).
   */
  apply(msg: ServerMsg): string | null {
    try {
      this.applyOrThrow(msg);
      return null;
    } catch (e) {
      if (e instanceof StateError) return e.message;
      throw e;
    }
  }

  /** Checks a line of chat as `apply` would, without keeping it (a muted speaker's). */
  checkChat(name: string, to: ChatTo, text: string): string | null {
    try {
      checkChat(this, name, to, text);
      return null;
    } catch (e) {
      if (e instanceof StateError) return e.message;
      throw e;
    }
  }

  private applyOrThrow(msg: ServerMsg): void {
    if (msg === "Stopped") return;
    if (msg === "Restarting") {
      this.restarting = true;
      return note(this, "Note", RESTARTING);
    }
    if ("Welcome" in msg) return this.welcome(msg.Welcome);
    if ("Backgrounds" in msg) {
      if (msg.Backgrounds.length > MAX_BACKGROUNDS) fail(REASONS.longer_list_of_backgrounds_than_any_sent);
      this.backgrounds = msg.Backgrounds;
      return;
    }
    if ("Refused" in msg) {
      this.refused = msg.Refused;
      return note(this, "Note", `Refused: ${refusalText(msg.Refused)}`);
    }
    if ("EnterLevel" in msg) return enterLevel(this, msg.EnterLevel);
    if ("Mapped" in msg) return addMapped(this, msg.Mapped.remembered, msg.Mapped.terrain);
    if ("Sight" in msg) {
      applySight(this, msg.Sight);
      return answered(this);
    }
    if ("Displaced" in msg) return applySight(this, msg.Displaced);
    if ("Players" in msg) return applyPlayers(this, msg.Players);
    if ("Monsters" in msg) return applyMonsters(this, msg.Monsters);
    if ("Kinds" in msg) return nameKinds(this, msg.Kinds);
    if ("ItemKinds" in msg) return nameItemKinds(this, msg.ItemKinds);
    if ("Floor" in msg) return applyFloor(this, msg.Floor);
    if ("Pack" in msg) return setPack(this, msg.Pack);
    if ("Roster" in msg) return setRoster(this, msg.Roster);
    if ("Joined" in msg) return join(this, msg.Joined);
    if ("Left" in msg) return leave(this, msg.Left);
    if ("Waiting" in msg) return waitFor(this, msg.Waiting);
    if ("Watching" in msg) return watch(this, msg.Watching.player, msg.Watching.you);
    if ("Watchers" in msg) return setWatchers(this, msg.Watchers);
    if ("Who" in msg) return listPlayers(this, msg.Who);
    if ("Vitals" in msg) return setVitals(this, msg.Vitals.hp, msg.Vitals.max);
    if ("Experience" in msg) {
      const { level, xp, next } = msg.Experience;
      this.experience = { level, xp, next };
      return;
    }
    if ("Party" in msg) return setParty(this, msg.Party);
    if ("Died" in msg) return die(this, msg.Died);
    if ("Escaped" in msg) return escape(this, msg.Escaped);
    if ("Graveyard" in msg) return keepGraveyard(this, msg.Graveyard);
    if ("Note" in msg) return told(this, "Note", msg.Note);
    if ("Combat" in msg) return told(this, "Combat", msg.Combat);
    if ("Others" in msg) return told(this, "Others", msg.Others);
    if ("Chat" in msg) {
      const { from, name, to, text } = msg.Chat;
      return hear(this, from, name, to, text);
    }
    // A recording's, sent only to a connection that asked for one: its
    // messages are played in a mirror of their own.
    if ("Recording" in msg || "Recorded" in msg || "RecordingEnd" in msg) return;
    const none: never = msg;
    throw new StateError(`not a server message: ${JSON.stringify(none)}`);
  }

  /** A fresh mirror for player `you`, seeing as far as `sight_radius`, keeping the log and the name. */
  private welcome(w: {
    you: PlayerId;
    width: number;
    height: number;
    sight_radius: number;
    actions_per_second: number;
    world: string;
  }): void {
    if (w.sight_radius > MAX_SIGHT_RADIUS) fail(REASONS.sight_radius_too_large);
    checkSize(w.width, w.height);
    checkWorldName(w.world);
    // What was live is forgotten (the map, who and what is in sight, the
    // pack, the vitals, the party, the watching, the graveyard): after a
    // connection made again the server tells it all afresh. The words, the
    // name and the log are kept, all of the log old news now.
    const said = this.said;
    Object.assign(this, new ClientState(), {
      words: this.words,
      name: this.name,
      log: this.log,
      said,
      newsFrom: said,
      lastAnswer: said,
    });
    this.me = w.you;
    this.width = w.width;
    this.height = w.height;
    this.disc = new Disc(w.sight_radius);
    this.actionsPerSecond = w.actions_per_second;
    this.world = w.world;
  }

  /** How the character's game ended, once it has: its death or its escape. */
  ending(): DeathRecord | null {
    return this.escape ?? this.death;
  }

  /** The player this client watches, when it watches. */
  watched(): string | null {
    return this.watching?.player ?? null;
  }

  /** True when `id` is who this client speaks as: its player, or for a watcher, itself. */
  isMe(id: PlayerId): boolean {
    return this.watching !== null ? this.watching.you === id : this.me === id;
  }

  /** The kind of a monster in sight. */
  kindOf(m: SeenMonster): KindInfo | undefined {
    return this.kinds[m.kind];
  }

  /** The kind of an item, by its index. */
  itemKind(kind: number): ItemInfo | undefined {
    return this.itemKinds[kind];
  }
}

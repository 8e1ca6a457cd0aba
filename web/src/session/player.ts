// The player page: a recording (replay.ts) played in a mirror of its own,
// drawn as the game draws its map and HUD, with the recording's status
// line on top of the game's lines and the player's keys in the keys row.
// The mirror starts from a welcome made up from the recording (its
// player, the size of its first level, the game's sight radius), as a
// watcher's would start, then takes each group of messages as it is due.

import type { ServerMsg } from "../protocol";
import { ClientState, PAGE_WORDS, note } from "../state";
import { ctrlIntent, type Key } from "./keys";
import { PLAYER_KEYS, PLAYER_KEYS_ENDED, Playback, playerKey, type Group, type Recording } from "./replay";
import type { Scene } from "./scene";

/** The sight radius of the game (protocol/src/lib.rs SIGHT_RADIUS): a recording does not say it. */
export const SIGHT_RADIUS = 8;

/** What the player asks of the page: a zoom is Ctrl+ or Ctrl- (the game's own zoom keys). */
export type PlayerOutcome = "Redraw" | "Leave" | "Ignore" | { zoom: number };

/** The welcome a recording's mirror starts from: its player, the size of the first level it enters, `world` named. */
export function welcomeOf(recording: Recording, world: string): ServerMsg {
  let size = { width: 0, height: 0 };
  for (const group of recording.groups) {
    const level = group.msgs.find((m) => typeof m === "object" && "EnterLevel" in m);
    if (level !== undefined && typeof level === "object" && "EnterLevel" in level) {
      size = level.EnterLevel;
      break;
    }
  }
  return {
    Welcome: { you: recording.head.you, width: size.width, height: size.height, sight_radius: SIGHT_RADIUS, actions_per_second: 10, token: null, world },
  };
}

/** Why `recording` cannot be played (it enters no level, so there is no map to play on), or null; in the window's words. */
export function unplayable(recording: Recording): string | null {
  const entered = recording.groups.some((g) => g.msgs.some((m) => typeof m === "object" && "EnterLevel" in m));
  return entered ? null : "the recording holds no level to show";
}

export class Player {
  /** The recording's mirror (a fresh one when it plays again). */
  state = new ClientState();
  readonly playback: Playback;
  /** Why the recording stopped short: a message its mirror refused. */
  broken: string | null = null;

  /** `server`: the address asked, for the scene; `world`: the game's name, when known. */
  constructor(
    private readonly recording: Recording,
    private readonly server: string,
    private readonly world = "",
  ) {
    this.playback = new Playback(recording.head, recording.groups);
    this.welcome();
  }

  /** A mirror afresh, welcomed as the recording's player. */
  private welcome(): void {
    this.state = new ClientState();
    this.state.words = PAGE_WORDS;
    this.state.name = this.recording.head.player;
    this.broken = null;
    this.applyAll([welcomeOf(this.recording, this.world)]);
  }

  /** Time passed (it is `now`, ms): the groups due are applied. Gives whether anything changed. */
  tick(now: number): boolean {
    const due = this.playback.tick(now);
    for (const group of due) this.apply(group);
    return due.length > 0;
  }

  /** How long after `now` the next group is due (null: none without a key). */
  nextDue(now: number): number | null {
    return this.broken === null ? this.playback.nextDue(now) : null;
  }

  /** A key at `now` (`shift` held, as the window reads it). */
  onKey(key: Key, now: number, shift = false): PlayerOutcome {
    if (typeof key === "object" && "ctrl" in key) {
      // Ctrl keys zoom, as in the game; the others (the log too) do nothing here, as in the window.
      const i = ctrlIntent(key.ctrl);
      return i !== null && typeof i === "object" && "zoom" in i ? { zoom: i.zoom } : "Ignore";
    }
    const meant = playerKey(key, shift);
    if (meant === null) return "Ignore";
    if (meant === "Pause" && this.playback.state() === "ended") {
      // At the end, Space plays it again from the start, at the speed it had.
      this.playback.restart();
      this.welcome();
      return "Redraw";
    }
    const applied = this.playback.onKey(meant, now);
    if (applied === "Leave") return "Leave";
    for (const group of applied) this.apply(group);
    return "Redraw";
  }

  private apply(group: Group): void {
    this.applyAll(group.msgs);
  }

  /** Applies `msgs` in order; a message the mirror refuses stops the recording there, its reason in the log. */
  private applyAll(msgs: readonly ServerMsg[]): void {
    for (const msg of msgs) {
      if (this.broken !== null) return;
      const why = this.state.apply(msg);
      if (why !== null) {
        this.broken = why;
        this.playback.stop();
        note(this.state, "Note", `The recording does not play on: ${why}`);
      }
    }
  }

  /** What the page draws: the map, the HUD, the status line. */
  scene(): Scene {
    return {
      state: this.state,
      chat: { line: null, scroll: 0, muted: new Set() },
      link: "Playing",
      page: "Map",
      graveyard: null,
      aim: null,
      look: null,
      askingToQuit: false,
      logScroll: 0,
      pageScroll: 0,
      server: this.server,
      recording: null,
      replay: { status: this.playback.status(), keys: this.playback.state() === "ended" ? PLAYER_KEYS_ENDED : PLAYER_KEYS },
    };
  }
}

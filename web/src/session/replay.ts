// Playing a recording back (docs/recordings.md), apart from any page: the
// recording as it comes over its own connection (`Gathering`: the head,
// each message and its round, the end, or why none came), its messages in
// groups of one round, and the playback (`Playback`: the position, the
// speed, the keys, the status line, and `tick(now)` deciding which groups
// are due). The clock comes in as a parameter, so all of it is tested
// without a page or a timer; player.ts feeds the groups to a mirror.

import type { ClientMsg, ServerMsg } from "../protocol";
import { PROTOCOL_VERSION, refusalText } from "../state";
import type { Key } from "./keys";

/** How many rounds `r` on the end page asks for. */
export const ROUNDS_ASKED = 100;

/** How long one group waits at x1, in ms. */
export const STEP_MS = 250;

/** The speeds, slowest first, as the status line names them, and how many groups each plays in STEP_MS. */
export const SPEEDS: readonly { name: string; factor: number }[] = [
  { name: "x1/4", factor: 0.25 },
  { name: "x1/2", factor: 0.5 },
  { name: "x1", factor: 1 },
  { name: "x2", factor: 2 },
  { name: "x4", factor: 4 },
  { name: "x8", factor: 8 },
  { name: "x16", factor: 16 },
];

/** The speed playback starts at: x1. */
export const FIRST_SPEED = 2;

/** The keys row of the player page. */
export const PLAYER_KEYS = "Space: pause    +/-: faster, slower    .: one round    Esc: back";

/** PLAYER_KEYS once the recording has ended: Space plays it again. */
export const PLAYER_KEYS_ENDED = "Space: play again    +/-: faster, slower    Esc: back";

/** The end page's line while a recording is asked for. */
export const ASKING = "asking the server...";

/**
 * The most messages a recording is taken with: the server sends at most
 * 4 MiB of them, and no message is smaller than a few bytes, so a stream
 * longer than this is no recording the server makes.
 */
export const MOST_RECORDED = 500_000;

/** The last rounds of a life, as asked from its grave: `name`'s life number `life`. */
export interface Grave {
  name: string;
  life: number;
}

/** The first message of a connection that asks for `grave`'s last rounds. */
export function askFor(grave: Grave): ClientMsg {
  return { Recording: { version: PROTOCOL_VERSION, ask: { Grave: { name: grave.name, life: grave.life, rounds: ROUNDS_ASKED } } } };
}

/**
 * The grave a page's path asks to play (`/replay/NAME/LIFE`, the name as
 * a browser percent-encodes it, LIFE a number from 1), or null.
 */
export function replayPath(path: string): Grave | null {
  const m = /^\/replay\/([^/]+)\/([1-9][0-9]{0,9})\/?$/.exec(path);
  if (m === null) return null;
  let name: string;
  try {
    name = decodeURIComponent(m[1] ?? "");
  } catch {
    return null;
  }
  const life = Number(m[2]);
  return name === "" || life > 0xffff_ffff ? null : { name, life };
}

/**
 * Where a friend opens `grave`'s last rounds, on the host of the server
 * at `server` (`ws://host:port/`): `http://host:port/replay/NAME/LIFE`.
 * Null when `server` is no such address.
 */
export function replayUrl(server: string, grave: Grave): string | null {
  const m = /^(wss?):\/\/([^/?#]+)/.exec(server);
  if (m === null) return null;
  const scheme = m[1] === "wss" ? "https" : "http";
  return `${scheme}://${m[2] ?? ""}/replay/${encodeURIComponent(grave.name)}/${grave.life}`;
}

/** What a recording says of itself before its messages. */
export interface Head {
  player: string;
  you: number;
  depth: number;
  from: bigint;
  to: bigint;
}

/** The messages of one round, in the order sent. */
export interface Group {
  round: bigint;
  msgs: ServerMsg[];
}

/** A recording come whole. */
export interface Recording {
  head: Head;
  groups: Group[];
  cut: boolean;
}

/** `recorded` in groups of consecutive messages of one round. */
export function groupByRound(recorded: readonly { round: bigint; msg: ServerMsg }[]): Group[] {
  const groups: Group[] = [];
  for (const { round, msg } of recorded) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last.round === round) last.msgs.push(msg);
    else groups.push({ round, msgs: [msg] });
  }
  return groups;
}

/** How asking for a recording stands: under way, come whole, or failed with the reason. */
export type Asked = "Asking" | { came: Recording } | { failed: string };

/**
 * A recording as its connection brings it: the head, then each message,
 * then the end. Anything out of that order, or a refusal, fails it with
 * the reason; so does a connection that closes before the end.
 */
export class Gathering {
  private head: Head | null = null;
  private readonly recorded: { round: bigint; msg: ServerMsg }[] = [];
  state: Asked = "Asking";

  /** A message of the connection; gives the reason when it breaks the order (the connection is then closed). */
  onMessage(msg: ServerMsg): string | null {
    if (this.state !== "Asking") return null;
    const why = this.take(msg);
    if (why !== null) this.state = { failed: `the server is broken or hostile: ${why}` };
    return why;
  }

  private take(msg: ServerMsg): string | null {
    if (typeof msg !== "object") return "a recording holds no such message";
    if ("Refused" in msg) {
      this.state = { failed: refusalText(msg.Refused) };
      return null;
    }
    if ("Recording" in msg) {
      if (this.head !== null) return "a second head of a recording";
      this.head = { ...msg.Recording };
      return null;
    }
    if (this.head === null) return "a recording's message before its head";
    if ("Recorded" in msg) {
      if (this.recorded.length >= MOST_RECORDED) return `a recording of more than ${MOST_RECORDED} messages`;
      this.recorded.push(msg.Recorded);
      return null;
    }
    if ("RecordingEnd" in msg) {
      this.state = { came: { head: this.head, groups: groupByRound(this.recorded), cut: msg.RecordingEnd.cut } };
      return null;
    }
    return "a recording holds no such message";
  }

  /** The connection ended, `reason` being why: a recording not come whole has failed. */
  onClosed(reason: string): void {
    if (this.state === "Asking") this.state = { failed: reason };
  }
}

/** Whether playback goes on, waits, or has played every group. */
export type PlayState = "playing" | "paused" | "ended";

/** What a key asks of the player. */
export type PlayerKey = "Pause" | "Faster" | "Slower" | "Step" | "Leave";

/**
 * What a key on the player page means, or null; `shift` held (a keyboard
 * that reports the unshifted key gives `>` as Shift+`.` and `<` as
 * Shift+`,`), as the window's `replay::control` reads it.
 */
export function playerKey(key: Key, shift = false): PlayerKey | null {
  if (key === "Escape") return "Leave";
  if (typeof key !== "object" || !("char" in key)) return null;
  if (shift && key.char === ".") return "Faster";
  if (shift && key.char === ",") return "Slower";
  const meaning: Record<string, PlayerKey> = { " ": "Pause", "+": "Faster", "=": "Faster", ">": "Faster", "-": "Slower", "<": "Slower", ".": "Step" };
  return meaning[key.char] ?? null;
}

/** The most groups one tick plays when the clock fell behind (a page in the background): the rest is forgiven, not rushed through. */
export const MOST_A_TICK = 8;

/**
 * Where playback stands in a recording's groups: how many are applied,
 * at what speed, paused or not, and when the next is due. The first
 * group is due at once, then one each STEP_MS divided by the speed (as
 * client/src/replay.rs plays them).
 */
export class Playback {
  /** How many groups have been applied. */
  applied = 0;
  speed = FIRST_SPEED;
  paused = false;
  /** When the next group is due, in ms; null: at once. */
  private due: number | null = null;
  /** Stopped short (a message that would not apply): ended where it is. */
  private stopped = false;

  constructor(
    readonly head: Head,
    readonly groups: readonly Group[],
  ) {}

  state(): PlayState {
    if (this.stopped || this.applied >= this.groups.length) return "ended";
    return this.paused ? "paused" : "playing";
  }

  /** How long one group waits at the speed now, in ms. */
  interval(): number {
    return STEP_MS / (SPEEDS[this.speed]?.factor ?? 1);
  }

  /** The groups due at `now` (ms), in order, at most MOST_A_TICK: each is taken as applied. */
  tick(now: number): Group[] {
    if (this.state() !== "playing") return [];
    let due = this.due ?? now;
    let count = 0;
    while (due <= now && this.applied + count < this.groups.length) {
      if (count === MOST_A_TICK) {
        due = now;
        break;
      }
      count++;
      due += this.interval();
    }
    this.due = due;
    return this.take(count);
  }

  /** How long after `now` the next group is due; null when none will be without a key. */
  nextDue(now: number): number | null {
    if (this.state() !== "playing") return null;
    return Math.max(0, (this.due ?? now) - now);
  }

  /** The next `count` groups (fewer at the end), taken as applied. */
  private take(count: number): Group[] {
    const taken = this.groups.slice(this.applied, this.applied + Math.max(0, count));
    this.applied += taken.length;
    return taken;
  }

  /** A key at `now`: gives the groups it applies (a step's), or "Leave". */
  onKey(key: PlayerKey, now: number): Group[] | "Leave" {
    switch (key) {
      case "Leave":
        return "Leave";
      case "Pause":
        if (this.state() === "ended") return [];
        this.paused = !this.paused;
        // Resumed: the next group waits a whole interval from now.
        if (!this.paused) this.due = now + this.interval();
        return [];
      case "Faster":
      case "Slower":
        this.speed = Math.min(Math.max(this.speed + (key === "Faster" ? 1 : -1), 0), SPEEDS.length - 1);
        // A faster speed brings the next group nearer; a slower one does not put it off.
        if (this.state() === "playing" && this.due !== null) this.due = Math.min(this.due, now + this.interval());
        return [];
      case "Step":
        if (this.state() === "ended") return [];
        this.paused = true;
        return this.take(1);
    }
  }

  /** Ends playback where it is. */
  stop(): void {
    this.stopped = true;
  }

  /** Back to the start, to play again at the speed it had: the next tick plays the first group (whoever applied the groups starts their mirror afresh). */
  restart(): void {
    this.applied = 0;
    this.paused = false;
    this.due = null;
    this.stopped = false;
  }

  /** The round of the last group applied; the head's first before any. */
  round(): bigint {
    return this.groups[this.applied - 1]?.round ?? this.head.from;
  }

  /** The status line: `Recording: NAME on depth D, round R (FROM to TO), SPEED, STATE`. */
  status(): string {
    const { player, depth, from, to } = this.head;
    const speed = SPEEDS[this.speed]?.name ?? "x1";
    return `Recording: ${player} on depth ${depth}, round ${this.round()} (${from} to ${to}), ${speed}, ${this.state()}`;
  }
}

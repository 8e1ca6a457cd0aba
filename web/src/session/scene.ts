// What one frame is drawn from (client/src/scene.rs): the mirror, and the
// session's own part of the page (the line being typed, the scroll of the
// messages, the page shown, a cursor, the state of the link).

import type { DeathRecord, Pos } from "../protocol";
import type { ClientState } from "../state";
import type { Aim } from "./aim";
import type { Line } from "./chat";
import type { ItemUse } from "./prompt";

/** What the connection is doing, as the HUD reports it. */
export type Link =
  | { connecting: string }
  | "Playing"
  /** Lost, and tried again by itself: why, and the whole seconds left before the next try (null while a try is under way). */
  | { retrying: string; left: number | null }
  /** Lost for good: why. */
  | { lost: string };

/** What the area above the HUD shows. */
/** What the area above the HUD shows ("Backgrounds": a new character's first screen). */
export type Page = "Map" | "Graveyard" | "Pack" | { choose: ItemUse } | "End" | "Log" | "Help" | "Discoveries" | "Backgrounds";

/** The player's side of talking: the line typed, the scroll back, the names muted. */
export interface Chat {
  line: Line | null;
  /** How many of the game's lines the message rows are scrolled back from the newest. */
  scroll: number;
  muted: Set<string>;
}

/** Everything one frame is drawn from. */
export interface Scene {
  state: ClientState;
  chat: Chat;
  link: Link;
  page: Page;
  /** The graveyard as it may be shown: none while a fresh one is awaited. */
  graveyard: DeathRecord[] | null;
  aim: Aim | null;
  /** The look cursor's cell, while looking. */
  look: Pos | null;
  /** Esc was pressed in play: the HUD asks whether to quit. */
  askingToQuit: boolean;
  /** How many rows the log page is scrolled back from the newest. */
  logScroll: number;
  /** How many lines the graveyard, pack, help or end page is scrolled down (when it does not fit). */
  pageScroll: number;
  /** The address the session connects to (`ws://host:port`): the end page names the morgue file on the same host. Empty: not known. */
  server: string;
  /** The end page's line about the recording asked for (`r`): what the server was asked, or why none came; null when none was asked. */
  recording: string | null;
  /** On the player page (or while its recording is asked for), the recording's status line, on top of the game's lines, and its keys, in the keys row (replay.ts); null elsewhere. */
  replay: { status: string; keys: string } | null;
}

/**
 * Where the morgue file of `record` is served, on the host of the server
 * at `server` (`ws://host:port/...`, or `wss://`):
 * `http://host:port/morgue/NAME/N.txt` (client/src/scene.rs morgue_url).
 * Null when the record has none or `server` is no such address.
 */
export function morgueUrl(server: string, record: DeathRecord): string | null {
  if (record.morgue === 0) return null;
  const cut = server.indexOf("://");
  if (cut < 0) return null;
  const scheme = { ws: "http", wss: "https" }[server.slice(0, cut)];
  if (scheme === undefined) return null;
  const host = server.slice(cut + 3).split(/[/?#]/)[0] ?? "";
  if (host === "") return null;
  return `${scheme}://${host}/morgue/${encodeURIComponent(record.name)}/${record.morgue}.txt`;
}

/** A scene of `state` on `page`, nothing typed, aimed or scrolled (for tests and the name prompt). */
export function sceneOf(state: ClientState, link: Link, page: Page): Scene {
  return {
    state,
    chat: { line: null, scroll: 0, muted: new Set() },
    link,
    page,
    graveyard: state.graveyard,
    aim: null,
    look: null,
    askingToQuit: false,
    logScroll: 0,
    pageScroll: 0,
    server: "",
    recording: null,
    replay: null,
  };
}

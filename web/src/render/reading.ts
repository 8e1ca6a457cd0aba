// The pages to read that take the map's place (client/src/reading.rs): the
// whole message log (Ctrl+P), scrolled back from the newest, chat and the
// game's lines together; and the help (`?`).

import { shown, type ClientState, type LogLine } from "../state";
import { fit, wrap } from "./fit";
import type { PageLine } from "./glyph";
import { DEFAULT, TEXT, TEXT_MIDDLE, type Palette } from "./palette";

const LOG_TITLE = "  Messages   PgUp PgDn, Up Down (or k j) scroll   Home End   Esc closes";

/** The full-screen log in `rows` rows of `cols` letters, `scroll` rows back from the newest. */
export function logLines(state: ClientState, palette: Palette, cols: number, rows: number, scroll: number): PageLine[] {
  const all = logRows(state, palette, Math.max(cols - 4, 0));
  const room = Math.max(rows - 3, 1);
  scroll = Math.min(scroll, Math.max(0, all.length - room));
  const end = all.length - scroll;
  const lines: PageLine[] = [[fit(LOG_TITLE, cols, "   "), TEXT], ["", TEXT]];
  lines.push(...all.slice(Math.max(0, end - room), end));
  if (scroll > 0) lines.push([`  (${scroll} newer rows below: PgDn, End)`, palette.warn]);
  return lines;
}

/** How far back the log can be scrolled in `rows` rows of `cols` letters. */
export function logScrollMost(state: ClientState, cols: number, rows: number): number {
  return Math.max(0, logRows(state, DEFAULT, Math.max(cols - 4, 0)).length - Math.max(rows - 3, 1));
}

function logRows(state: ClientState, palette: Palette, cols: number): PageLine[] {
  const colour = (line: LogLine) =>
    line.topic === "Combat" ? palette.combat : line.topic === "Others" ? palette.others : line.topic === "Chat" ? TEXT : TEXT_MIDDLE;
  return state.log.flatMap((line) => wrap(shown(line), Math.max(cols, 1)).map(([, t]): PageLine => [`  ${t}`, colour(line)]));
}

/**
 * The help page: the keys, then the rules of the clock (docs/turns.md in
 * short). The window's, less its zoom and screenshot keys: the browser
 * zooms with its own Ctrl+ and Ctrl-.
 */
const HELP: readonly string[] = [
  "Keys",
  "  move or attack          arrows (4 ways), h j k l y u b n or the numpad (8 ways)",
  "  wait a round            5 or numpad 5",
  "  stairs down / up        > (or .) / <; away from stairs, walks to the nearest known",
  "  explore                 o: walks on until something happens (Esc stops it)",
  "  travel                  click a cell you remember: walks there",
  "  rest until healed       R",
  "  look                    x, then move the cursor (Tab: next monster); Esc or x leaves",
  "  pick up / drop          g or ,  /  d",
  "  your pack               i",
  "  quaff / read            q / r",
  "  wield, wear, take off   w / W / T",
  "  throw / fire            t (choose, then aim) / f (the first missile)",
  "  talk                    Enter (/shout, /w NAME, /mute NAME, /who)",
  "  messages                PgUp PgDn scroll; Ctrl+P reads back all of them",
  "  graveyard               G",
  "  zoom (kept in this browser)   Ctrl + / Ctrl -",
  "  watch a player          add ?watch=NAME to the page's address",
  "  quit                    Esc (then y)",
  "",
  "The clock",
  "  Alone on a depth, the game waits for you: nothing moves until you act.",
  "  Players who share a danger (an awake monster that sees them) share rounds:",
  "    each acts once a round, then the monsters act; pressing faster buys nothing.",
  "  A round waits for the others at most the host's deadline (2 seconds unless",
  "    the host chose another); who has not acted by then is counted away and not",
  "    waited for, until they act again. The HUD says whom a round waits for.",
  "  Players who share no danger never wait for each other.",
  "  Talking costs no time and waits for nobody.",
  "",
  "Any key returns to the map.",
];

export function helpLines(): PageLine[] {
  return HELP.map((line): PageLine => [`  ${line}`, line.startsWith(" ") ? TEXT : TEXT_MIDDLE]);
}

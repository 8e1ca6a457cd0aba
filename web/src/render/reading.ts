// The pages to read that take the map's place (client/src/reading.rs): the
// whole message log (Ctrl+P), scrolled back from the newest, chat and the
// game's lines together; and the help (`?`).

import { shown, type Words, type ClientState, type LogLine } from "../state";
import { fit, wrap } from "./fit";
import type { PageLine } from "./glyph";
import { DEFAULT, TEXT, TEXT_MIDDLE, type Palette } from "./palette";

const LOG_TITLE = "  Messages   PgUp PgDn, Up Down (or k j) scroll   Home End   Esc closes";

/** How many of the log's rows a page of `rows` lines shows (the rest: the title, a blank line, how many are below): what PgUp and PgDn scroll by. */
export function logRoom(rows: number): number {
  return Math.max(rows - 3, 1);
}

/** The full-screen log in `rows` rows of `cols` letters, `scroll` rows back from the newest. */
export function logLines(state: ClientState, palette: Palette, cols: number, rows: number, scroll: number): PageLine[] {
  const all = logRows(state, palette, Math.max(cols - 4, 0));
  const room = logRoom(rows);
  scroll = Math.min(scroll, Math.max(0, all.length - room));
  const end = all.length - scroll;
  const lines: PageLine[] = [[fit(LOG_TITLE, cols, "   "), TEXT], ["", TEXT]];
  lines.push(...all.slice(Math.max(0, end - room), end));
  if (scroll > 0) lines.push([`  (${scroll} newer rows below: PgDn, End)`, palette.warn]);
  return lines;
}

/** How far back the log can be scrolled in `rows` rows of `cols` letters. */
export function logScrollMost(state: ClientState, cols: number, rows: number): number {
  return Math.max(0, logRows(state, DEFAULT, Math.max(cols - 4, 0)).length - logRoom(rows));
}

function logRows(state: ClientState, palette: Palette, cols: number): PageLine[] {
  const colour = (line: LogLine) =>
    line.topic === "Combat" ? palette.combat : line.topic === "Others" ? palette.others : line.topic === "Chat" ? TEXT : TEXT_MIDDLE;
  return state.log.flatMap((line) => wrap(shown(line), Math.max(cols, 1)).map(([, t]): PageLine => [`  ${t}`, colour(line)]));
}

/**
 * The help page: the keys, then the rules of the clock (docs/turns.md in
 * short): the window's (client/src/reading.rs), with the lines the one list
 * of intended differences replaces (a page has no screenshot key, the
 * browser keeps the zoom, an address names whom to watch), as keys.json
 * gives it.
 */
export function helpLines(words: Words): PageLine[] {
  return words.help.map((line): PageLine => [`  ${line}`, line.startsWith(" ") ? TEXT : TEXT_MIDDLE]);
}

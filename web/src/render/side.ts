// The list of the monsters in sight beside the map (client/src/in_sight.rs):
// each one's letter in its colour, its name, how hurt it looks and
// whether it seems asleep, nearest first.

import type { Wound } from "../protocol";
import { charCount, takeChars, type ClientState, type SeenMonster } from "../state";
import { distance } from "../session/aim";
import type { Glyph } from "./glyph";
import { woundWords } from "./look";
import { TEXT, TEXT_DIM, TEXT_MIDDLE, creature, fromColour, type Palette, type Rgb } from "./palette";

/** A monster in sight as the list tells it. */
export interface Seen {
  glyph: string;
  colour: Rgb;
  name: string;
  wound: Wound;
  asleep: boolean;
}

export function seenOf(state: ClientState, m: SeenMonster, palette: Palette): Seen {
  const kind = state.kindOf(m);
  return kind === undefined
    ? { glyph: "?", colour: palette.alert, name: "?", wound: m.wound, asleep: m.asleep }
    : { glyph: kind.glyph, colour: creature(palette, fromColour(kind.colour)), name: kind.name, wound: m.wound, asleep: m.asleep };
}

/** `wounded`, `asleep` (an unhurt sleeper), or `wounded, asleep`. */
export function status(s: Seen): string {
  const wound = woundWords(s.wound);
  if (!s.asleep) return wound;
  return s.wound === "Unhurt" ? "asleep" : `${wound}, asleep`;
}

/** The monsters in sight, nearest the player first. */
export function seen(state: ClientState, palette: Palette): Seen[] {
  const me = state.at ?? { x: 0, y: 0 };
  return [...state.monsters.entries()]
    .sort(([ia, a], [ib, b]) => distance(me, a.at) - distance(me, b.at) || ia - ib)
    .map(([, m]) => seenOf(state, m, palette));
}

/** A monster's rows in the list: one, or the name then how it looks, indented. */
function entryRows(s: Seen, width: number): string[] {
  const whole = `${s.glyph} ${s.name} ${status(s)}`;
  return charCount(whole) <= width ? [whole] : [...wrapped(`${s.glyph} ${s.name}`, width), `  ${status(s)}`];
}

/** `text` in rows of at most `width` letters, broken between words, the rows after the first indented by two (a word longer than a row is cut where the row ends). */
function wrapped(text: string, width: number): string[] {
  const rows: string[] = [];
  let row = "";
  for (const word of text.split(" ")) {
    const started = row.trimStart() !== "";
    if (started && charCount(row) + 1 + charCount(word) > width) {
      rows.push(row);
      row = "  ";
    } else if (started) row += " ";
    row += word;
  }
  rows.push(row);
  return rows;
}

/** The list's glyphs, `cols` letters wide and `rows` high; those that do not fit are counted. */
export function sideGlyphs(state: ClientState, palette: Palette, cols: number, rows: number): Glyph[] {
  const all = seen(state, palette);
  const width = Math.max(cols - 1, 0);
  const lines: [string, Rgb, Rgb | null][] = [["In sight", TEXT_MIDDLE, null]];
  if (all.length === 0) lines.push(["no monsters", TEXT_DIM, null]);
  const room = Math.max(rows - 1, 0);
  for (let i = 0; i < all.length; i++) {
    const s = all[i];
    if (s === undefined) break;
    const entry = entryRows(s, width);
    const left = all.length - i;
    if (lines.length - 1 + entry.length + (left > 1 ? 1 : 0) > room) {
      lines.push([`+${left} more`, TEXT_DIM, null]);
      break;
    }
    const tone = s.asleep ? TEXT_MIDDLE : TEXT;
    entry.forEach((text, row) => lines.push([text, tone, row === 0 ? s.colour : null]));
  }
  const glyphs: Glyph[] = [];
  lines.slice(0, rows).forEach(([text, colour, letter], row) => {
    let col = 0;
    for (const ch of takeChars(text, width)) {
      if (ch !== " ") glyphs.push({ col: col + 1, row, ch, color: col === 0 && letter !== null ? letter : colour });
      col++;
    }
  });
  return glyphs;
}

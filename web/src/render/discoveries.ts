// The discoveries page (`\`, as in NetHack and DCSS; client/src/discoveries.rs):
// what the player knows of the kinds that wear looks until learnt. For
// each of potions, scrolls and wands present in the world, a heading with
// how many of its kinds are known, the known kinds' names, then the looks
// not yet known on a wrapped line. A watcher sees its player's.

import type { ItemClass, ItemInfo } from "../protocol";
import type { ClientState } from "../state";
import { wrap } from "./fit";
import type { PageLine } from "./glyph";
import { TEXT, TEXT_DIM, TEXT_MIDDLE, fromColour } from "./palette";

/** The classes whose kinds have looks, in the page's order, with their headings. */
const CLASSES: readonly [ItemClass, string][] = [
  ["Potion", "Potions"],
  ["Scroll", "Scrolls"],
  ["Wand", "Wands"],
];

/** What the line of looks not yet known starts with. */
const NOT_YET = "Not yet known: ";

/** The margin of a class's lines under its heading, and of the later rows of its looks not yet known. */
const MARGIN = "    ";
const HANG = "      ";

const blank = (): PageLine => ["", TEXT];

/** The page's lines in rows of `cols` letters: a title, then each class present in the world, a blank line before each. */
export function discoveriesLines(state: ClientState, cols: number): PageLine[] {
  const watched = state.watched();
  const lines: PageLine[] = [[watched === null ? "  Your discoveries" : `  ${watched}'s discoveries`, TEXT]];
  for (const [cls, heading] of CLASSES) {
    const kinds = state.itemKinds.filter((k) => k.class === cls);
    if (kinds.length > 0) lines.push(blank(), ...classLines(heading, kinds, cols));
  }
  if (lines.length === 1) lines.push(blank(), ["  This world has no potions, scrolls or wands.", TEXT_DIM]);
  return lines;
}

/** One class's lines: "Potions: 2 of 9 known", the known kinds' names in their colours, then the looks not yet known, wrapped to `cols`. */
function classLines(heading: string, kinds: ItemInfo[], cols: number): PageLine[] {
  const known = kinds.filter((k) => k.known);
  const unknown = kinds.filter((k) => !k.known);
  const lines: PageLine[] = [[`  ${heading}: ${known.length} of ${kinds.length} known`, TEXT_MIDDLE]];
  for (const k of known) lines.push([`${MARGIN}${k.name}`, fromColour(k.colour)]);
  if (unknown.length > 0) lines.push(...hanging(NOT_YET + unknown.map((k) => k.name).join(", "), cols));
  return lines;
}

/** `text` wrapped to `cols` letters, dim: its first row under the margin, the others a little further in. */
function hanging(text: string, cols: number): PageLine[] {
  return wrap(text, Math.max(cols - HANG.length, 0)).map(([, row], i) => [`${i === 0 ? MARGIN : HANG}${row}`, TEXT_DIM]);
}

// The first screen of a new character (client/src/first_screen.rs): which
// background it starts as. A name the page keeps no token for is a new
// character, so its connection opens with Backgrounds instead of the
// hello (`opening`); the server lists them, the screen shows each under a
// letter (its name, hit points, the skills it has, a line about it and
// its kit), and the letter pressed makes the character (a Create, see
// `choose`) on the same connection. Esc leaves: the page goes back to its
// name form (the window quits). A returning character (a token kept) and
// a watcher say their hello as before. After a death (or an escape), the
// new life opens with the same screen, and the choice is sent with the
// token kept: the name stays the player's.

import type { BackgroundInfo, ClientMsg, Token } from "../protocol";
import type { PageLine } from "../render/glyph";
import { GOOD, TEXT, TEXT_DIM } from "../render/palette";
import { PROTOCOL_VERSION } from "../state";
import type { Key } from "./keys";
import { letter } from "./prompt";

/** The first screen's last line: its keys. */
export const FIRST_KEYS = "Press a letter to choose; Esc leaves.";

/** The first message of a connection as `name`: a watcher's watch, a returning character's hello (a token kept, and no `newLife` after a death), or else the question that opens the first screen. */
export function opening(name: string, token: Token | null, watch: string | null, newLife = false): ClientMsg {
  if (watch !== null) return { Watch: { version: PROTOCOL_VERSION, name, token, player: watch } };
  if (token !== null && !newLife) return { Hello: { version: PROTOCOL_VERSION, name, token } };
  return "Backgrounds";
}

/** What a key on the first screen does: make the character (send this), leave, or nothing. */
export type Choice = { create: ClientMsg } | "Leave" | "Nothing";

/** What `key` does on the first screen of `name` (with its `token`, if kept: a new life after a death), listing `list`: a letter of the list creates that background, Esc leaves. */
export function choose(name: string, token: Token | null, list: BackgroundInfo[], key: Key): Choice {
  if (key === "Escape") return "Leave";
  if (typeof key !== "object" || !("char" in key)) return "Nothing";
  const background = list.find((_, i) => letter(i) === key.char);
  if (background === undefined) return "Nothing";
  return { create: { Create: { version: PROTOCOL_VERSION, name, token, background: background.name } } };
}

/** A bonus as the screen says it: "+5" or "-5". */
const signed = (n: number) => (n < 0 ? String(n) : `+${n}`);

/** The skills a background has, the others left out: "to-hit +5, damage +2"; "no skills" when none. */
export function skills(b: BackgroundInfo): string {
  const said: string[] = [];
  if (b.to_hit !== 0) said.push(`to-hit ${signed(b.to_hit)}`);
  if (b.damage !== 0) said.push(`damage ${signed(b.damage)}`);
  if (b.stealth !== 0) said.push(`stealth ${b.stealth}`);
  if (b.throwing !== 0) said.push(`throwing ${signed(b.throwing)}`);
  return said.length === 0 ? "no skills" : said.join(", ");
}

/** The first screen of `name` in `rows` lines: a question, each background (a letter, its name, hit points and skills; a line about it; its kit), then the keys, always the last line. */
export function firstLines(name: string, list: BackgroundInfo[], rows: number): PageLine[] {
  if (rows === 0) return [];
  const body: PageLine[] = [
    [`  Welcome, ${name}. Who will you be? Choose a background:`, TEXT],
    ["", TEXT],
  ];
  list.forEach((b, i) => {
    body.push([`  ${letter(i)}) ${b.name.padEnd(12)} ${String(b.hp).padStart(3)} hp   ${skills(b)}`, GOOD]);
    body.push([`       ${b.about}`, TEXT]);
    body.push([`       Carries: ${b.kit.join(", ")}`, TEXT_DIM]);
    body.push(["", TEXT]);
  });
  const lines = body.slice(0, Math.max(rows - 1, 0));
  lines.push([`  ${FIRST_KEYS}`, TEXT]);
  return lines;
}

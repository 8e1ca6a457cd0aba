// The pages of text that take the map's place (client/src/pages.rs), as
// lines with their colours: the graveyard (the hall of the living above
// the dead), the pack, the end of a game (a death or an escape, with the
// graveyard), the item prompts, the log and the help.

import type { DeathRecord, ItemClass } from "../protocol";
import { charCount, type ClientState } from "../state";
import { ITEM_KEYS } from "../session/keys";
import { letter, question, suitable, type ItemUse } from "../session/prompt";
import type { Scene } from "../session/scene";
import type { PageLine } from "./glyph";
import { ALERT, GOOD, TEXT, TEXT_DIM, TEXT_MIDDLE, fromColour, type Palette } from "./palette";
import { helpLines, logLines } from "./reading";

/** The most lines a page has: the rows above the HUD, but the first. */
const PAGE_LINES = 39;
/** The most of the hall of the living a page lists. */
const MOST_LIVING = 6;

const blank = (): PageLine => ["", TEXT];

/** The lines of the scene's page (none on the map), in `rows` rows of `cols` letters. */
export function pageLines(scene: Scene, palette: Palette, cols: number, rows: number): PageLine[] {
  const page = scene.page;
  let lines: PageLine[];
  if (page === "Log") return logLines(scene.state, palette, cols, rows, scene.logScroll);
  else if (page === "Map") lines = [];
  else if (page === "Graveyard") lines = graveyardLines(scene.graveyard);
  else if (page === "Help") lines = helpLines(scene.state.words);
  else if (page === "Pack") lines = packLines(scene.state);
  else if (page === "End") lines = endLines(scene.state, scene.graveyard, Math.min(rows, PAGE_LINES));
  else lines = chooseLines(scene.state, page.choose);
  return lines.slice(0, PAGE_LINES);
}

function graveyardLines(graveyard: DeathRecord[] | null): PageLine[] {
  return [...graveyardTables(graveyard, PAGE_LINES - 2), blank(), ["  Any key returns to the map.", TEXT_DIM]];
}

/** The pack's page: what the player carries, by letter, the wielded weapon and the armour worn marked. */
export function packLines(state: ClientState): PageLine[] {
  const watched = state.watched();
  const lines: PageLine[] = [[watched === null ? "  Your pack" : `  ${watched}'s pack`, TEXT], blank()];
  state.pack.forEach((_, slot) => lines.push(itemLine(state, slot)));
  if (state.pack.length === 0) {
    const nothing =
      watched === null ? "  You carry nothing. 'g' or ',' picks up what lies underfoot." : `  ${watched} carries nothing.`;
    lines.push([nothing, TEXT_DIM]);
  }
  lines.push(blank());
  if (watched === null) lines.push([`  On the map: ${ITEM_KEYS}`, TEXT_MIDDLE]);
  lines.push(["  Any key returns to the map.", TEXT_DIM]);
  return lines;
}

function chooseLines(state: ClientState, use: ItemUse): PageLine[] {
  return [[`  ${question(use, state)}`, TEXT], blank(), ...suitable(use, state).map((slot) => itemLine(state, slot))];
}

/** The pack's entry in `slot`: `  c) dagger (in hand)`, in its kind's colour. */
function itemLine(state: ClientState, slot: number): PageLine {
  const carried = state.pack[slot];
  if (carried === undefined) return blank();
  const kind = state.itemKind(carried.kind);
  const name = kind?.name ?? "?";
  const colour = kind === undefined ? ALERT : fromColour(kind.colour);
  const count = carried.count === 1 ? "" : ` (${carried.count})`;
  const worn: Partial<Record<ItemClass, string>> = { Weapon: " (in hand)", Armour: " (worn)" };
  const equipped = !carried.equipped ? "" : kind === undefined ? " (in use)" : (worn[kind.class] ?? " (in use)");
  return [`  ${letter(slot)}) ${name}${count}${equipped}`, colour];
}

/**
 * The end of a game: how it ended, the character's record, then the hall of
 * the living and the graveyard, in at most `rows` lines. The keys to go on
 * are the last line and are never cut: on a short page the graveyard, then
 * the record, give way to them.
 */
function endLines(state: ClientState, graveyard: DeathRecord[] | null, rows: number): PageLine[] {
  const d = state.ending();
  if (d === null) return [];
  const who = state.watched() !== null ? d.name : "You";
  const headline: PageLine = d.escaped
    ? [`  ${who} escaped with ${d.killed_by}!`, GOOD]
    : [`  ${d.name} died on depth ${d.depth}, killed by ${d.killed_by}.`, ALERT];
  const when = d.escaped ? "Escaped:" : "Died:";
  const lines: PageLine[] = [
    headline,
    blank(),
    [`  Deepest depth reached: ${d.depth}`, TEXT],
    [`  Experience level:      ${d.level}`, TEXT],
    [`  Rounds survived:       ${d.rounds}`, TEXT],
    [`  Monsters killed:       ${d.kills}`, TEXT],
    [`  ${when.padEnd(22)} ${whenUtc(d.when)}`, TEXT],
    blank(),
  ];
  lines.push(...graveyardTables(graveyard, Math.max(0, rows - (lines.length + 2))));
  lines.length = Math.min(lines.length, Math.max(0, rows - 2));
  if (rows >= 2) lines.push(blank());
  // A page cannot close itself: a watcher's way on is to watch again (the
  // player may have started anew under the same name).
  const watched = state.watched();
  lines.push([watched !== null ? `  ${state.words.watcherEnd.replace("{player}", watched)}` : `  Enter: a new character named ${d.name}    Esc: quit`, TEXT]);
  return lines;
}

/** Seconds since 1970 as `1970-01-01 00:00 UTC` (DeathRecord::when_utc). */
export function whenUtc(when: bigint): string {
  // Howard Hinnant's civil_from_days, in bigints as the window's
  // DeathRecord::when_utc: a Date ends in the year 275760, a u64 of
  // seconds goes far past it.
  const [days, secs] = [when / 86_400n, Number(when % 86_400n)];
  const z = days + 719_468n;
  const [era, doe] = [z / 146_097n, z % 146_097n];
  const yoe = (doe - doe / 1460n + doe / 36_524n - doe / 146_096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const two = (n: bigint | number) => String(n).padStart(2, "0");
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)} ${two(Math.floor(secs / 3600))}:${two(Math.floor((secs % 3600) / 60))} UTC`;
}

/** The hall of the living (at most MOST_LIVING), then the dead, in at most `rows` lines. */
function graveyardTables(graveyard: DeathRecord[] | null, rows: number): PageLine[] {
  if (graveyard === null) return [["  The graveyard is not known yet.", TEXT_DIM]];
  const living = graveyard.filter((r) => r.escaped);
  const dead = graveyard.filter((r) => !r.escaped);
  const lines: PageLine[] = [["  The hall of the living", GOOD]];
  lines.push(...recordTable(living, "escaped with", MOST_LIVING, "Nobody has escaped yet."));
  lines.push(blank(), ["  The graveyard", TEXT]);
  const room = Math.max(rows - (lines.length + 1), 1);
  lines.push(...recordTable(dead, "killed by", room, "Nobody has died in this world yet."));
  return lines;
}

/** Rust's `{:<16}` and `{:>5}`: padded by characters. */
const left = (s: string, n: number) => s + " ".repeat(Math.max(0, n - charCount(s)));
const right = (s: string | number | bigint, n: number) => String(s).padStart(n);

function recordTable(records: DeathRecord[], lastColumn: string, most: number, none: string): PageLine[] {
  if (records.length === 0) return [[`  ${none}`, TEXT_DIM]];
  const row = (name: string, depth: string | number, level: string | number, rounds: string | bigint, kills: string | number, last: string) =>
    `  ${left(name, 16)} ${right(depth, 5)} ${right(level, 5)} ${right(rounds, 7)} ${right(kills, 5)}  ${last}`;
  return [
    [row("name", "depth", "level", "rounds", "kills", lastColumn), TEXT_MIDDLE],
    ...records.slice(0, most).map((r): PageLine => [row(r.name, r.depth, r.level, r.rounds, r.kills, r.killed_by), TEXT]),
  ];
}

// The pages of text that take the map's place (client/src/pages.rs), as
// lines with their colours: the graveyard (the hall of the living above
// the dead), the pack, the discoveries, the end of a game (a death or an
// escape, with the graveyard), the item prompts, the log and the help.
// Each is laid out for the rows it has; the graveyard, the pack, the help,
// the discoveries and the end of a game scroll when they do not fit, their
// keys always the last line.

import type { DeathRecord, ItemClass } from "../protocol";
import { charCount, type ClientState } from "../state";
import { firstLines } from "../session/first";
import { ITEM_KEYS } from "../session/keys";
import { letter, question, suitable, type ItemUse } from "../session/prompt";
import { morgueUrl, type Scene } from "../session/scene";
import type { PageLine } from "./glyph";
import { ALERT, GOOD, TEXT, TEXT_DIM, TEXT_MIDDLE, fromColour, type Palette } from "./palette";
import { discoveriesLines } from "./discoveries";
import { helpLines, logLines } from "./reading";

const blank = (): PageLine => ["", TEXT];

/** What the last line of a page says when the page fits. */
const LEAVE_KEYS = "  Any key returns to the map.";

/** The lines a page has in its place above the HUD, `rows` rows: the first row is left blank. */
export function pageSize(rows: number): number {
  return Math.max(rows - 1, 0);
}

/** The lines of the scene's page (none on the map), in `rows` rows of `cols` letters. */
export function pageLines(scene: Scene, palette: Palette, cols: number, rows: number): PageLine[] {
  const page = scene.page;
  if (page === "Log") return logLines(scene.state, palette, cols, rows, scene.logScroll);
  if (page === "Map") return [];
  if (page === "Backgrounds") return firstLines(scene.state.name ?? "", scene.state.backgrounds, rows);
  if (page === "End") return scrolled(bodyLines(scene, cols), rows, scene.pageScroll, endKeys(scene.state));
  if (page === "Graveyard") return scrolled(bodyLines(scene, cols), rows, scene.pageScroll, graveyardKeys(scene));
  if (page === "Pack" || page === "Help" || page === "Discoveries") {
    return scrolled(bodyLines(scene, cols), rows, scene.pageScroll, null);
  }
  return chooseLines(scene.state, page.choose).slice(0, rows);
}

/** The body of a page that scrolls when it does not fit, in rows of `cols` letters: the graveyard, the pack, the help, the discoveries, the end of a game. */
function bodyLines(scene: Scene, cols: number): PageLine[] {
  if (scene.page === "Graveyard") return graveyardTables(scene.graveyard, true);
  if (scene.page === "End") return endBody(scene.state, scene.graveyard, scene.server, scene.recording);
  if (scene.page === "Pack") return packLines(scene.state);
  if (scene.page === "Help") return helpLines(scene.state.words);
  if (scene.page === "Discoveries") return discoveriesLines(scene.state, cols);
  return [];
}

/** How many of a page's `rows` lines its body has: all but a blank line and the keys under it. */
const bodyRows = (rows: number) => Math.max(rows - 2, 0);

/** How far the scene's page scrolls in `rows` lines of `cols` letters: 0 when its body fits (or it is no page that scrolls). */
export function scrollMost(scene: Scene, cols: number, rows: number): number {
  const room = bodyRows(rows);
  return room === 0 ? 0 : Math.max(bodyLines(scene, cols).length - room, 0);
}

/** How far PgUp and PgDn scroll a page of `rows` lines. */
export function scrollStep(rows: number): number {
  return Math.max(bodyRows(rows), 1);
}

/**
 * `body` in `rows` lines, `scroll` lines down, then a blank line and the
 * keys: which leave (`keys`, or any key when null) and, when the body does
 * not fit, which scroll it and which of its lines show. The keys are
 * always the last line.
 */
function scrolled(body: PageLine[], rows: number, scroll: number, keys: string | null): PageLine[] {
  if (rows === 0) return [];
  const room = bodyRows(rows);
  const total = body.length;
  scroll = Math.min(scroll, Math.max(total - room, 0));
  // Which lines show comes last: a narrow page cuts that first.
  const shown = `(lines ${scroll + 1}-${scroll + room} of ${total})`;
  const scrolls = total > room && room > 0;
  let last: PageLine;
  if (keys === null) last = [scrolls ? `  PgUp PgDn scroll, any other key returns to the map ${shown}.` : LEAVE_KEYS, TEXT_DIM];
  else last = [scrolls ? `  ${keys}    PgUp PgDn scroll ${shown}` : `  ${keys}`, TEXT];
  const lines = body.slice(scroll, scroll + room);
  if (rows >= 2) lines.push(blank());
  lines.push(last);
  return lines;
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
  if (watched === null) lines.push(blank(), [`  On the map: ${ITEM_KEYS}`, TEXT_MIDDLE]);
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
 * The end of a game: how it ended (to the player, "You died...", to a
 * watcher, "ann died..."), the character's record, then the hall of the
 * living and the graveyard.
 */
function endBody(state: ClientState, graveyard: DeathRecord[] | null, server: string, recording: string | null): PageLine[] {
  const d = state.ending();
  if (d === null) return [];
  const who = state.watched() !== null ? d.name : "You";
  const headline: PageLine = d.escaped
    ? [`  ${who} escaped with ${d.killed_by}!`, GOOD]
    : [`  ${who} died on depth ${d.depth}, killed by ${d.killed_by}.`, ALERT];
  const when = d.escaped ? "Escaped:" : "Died:";
  return [
    headline,
    blank(),
    [`  Deepest depth reached: ${d.depth}`, TEXT],
    [`  Experience level:      ${d.level}`, TEXT],
    [`  Rounds survived:       ${d.rounds}`, TEXT],
    [`  Monsters killed:       ${d.kills}`, TEXT],
    [`  ${when.padEnd(22)} ${whenUtc(d.when)}`, TEXT],
    ...morgueLine(server, d),
    ...(recording === null ? [] : [[`  ${"Recording:".padEnd(22)} ${recording}`, TEXT] as PageLine]),
    blank(),
    ...graveyardTables(graveyard, false),
  ];
}

/** The line naming the morgue file of `d`, if it has one. */
function morgueLine(server: string, d: DeathRecord): PageLine[] {
  const url = morgueUrl(server, d);
  return url === null ? [] : [[`  Morgue file:           ${url}`, TEXT]];
}

/**
 * The keys that go on from the end of a game: a new character, and the
 * last rounds watched when the life has a grave; for a watcher, whose
 * page cannot close itself, watching again (the player may have started
 * anew under the same name).
 */
function endKeys(state: ClientState): string {
  const watched = state.watched();
  if (watched !== null) return state.words.watcherEnd.replace("{player}", watched);
  const ending = state.ending();
  const watch = ending !== null && ending.morgue > 0 ? `    ${WATCH_KEYS}` : "";
  return `Enter: a new character named ${ending?.name ?? ""}${watch}    G: the graveyard    Esc: quit`;
}

/** The end page's key for a life's last rounds (with a grave: `morgue` > 0). */
export const WATCH_KEYS = "r: watch your last rounds";

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

/** The most graves the graveyard page gives a letter: `a` to `z`. */
const MOST_LETTERED = 26;

/**
 * The graves the graveyard page gives a letter, in the order it lists
 * them (the hall of the living, then the dead): those whose last rounds
 * can be asked for (a morgue number), the first MOST_LETTERED. The first
 * is `a`.
 */
export function lettered(records: readonly DeathRecord[]): DeathRecord[] {
  const inOrder = [...records.filter((r) => r.escaped), ...records.filter((r) => !r.escaped)];
  return inOrder.filter((r) => r.morgue > 0).slice(0, MOST_LETTERED);
}

/** The letter of the `n`th grave lettered. */
const graveLetter = (n: number) => String.fromCharCode(97 + n);

/**
 * The graveyard page's last line: the recording asked for, if any (under
 * way, or why it failed), the letters that watch a fall, and the keys
 * that go back (to the map, or to the end of a game).
 */
function graveyardKeys(scene: Scene): string {
  const said = scene.recording === null ? "" : `Recording: ${scene.recording}    `;
  const graves = scene.graveyard === null ? 0 : lettered(scene.graveyard).length;
  if (graves === 0) return `${said}Any key: back`;
  const letters = graves === 1 ? "a" : `a-${graveLetter(graves - 1)}`;
  return `${said}${letters}: watch a fall    any other key: back`;
}

/** The hall of the living (those who escaped), then the dead, as tables; `letters`: each grave `lettered` has its letter before its name. */
function graveyardTables(graveyard: DeathRecord[] | null, letters: boolean): PageLine[] {
  if (graveyard === null) return [["  The graveyard is not known yet.", TEXT_DIM]];
  const living = graveyard.filter((r) => r.escaped);
  const dead = graveyard.filter((r) => !r.escaped);
  // Counts the graves lettered so far, when they are.
  const next = letters ? { n: 0 } : null;
  return [
    ["  The hall of the living", GOOD],
    ...recordTable(living, "escaped with", "Nobody has escaped yet.", next),
    blank(),
    ["  The graveyard", TEXT],
    ...recordTable(dead, "killed by", "Nobody has died in this world yet.", next),
  ];
}

/** Rust's `{:<16}` and `{:>5}`: padded by characters. */
const left = (s: string, n: number) => s + " ".repeat(Math.max(0, n - charCount(s)));
const right = (s: string | number | bigint, n: number) => String(s).padStart(n);

/** Records as a table under a header; `none` when there are none. With `next` (the count of graves lettered before), each grave whose last rounds can be asked for has the next letter (`  c) ann ...`). */
function recordTable(records: DeathRecord[], lastColumn: string, none: string, next: { n: number } | null): PageLine[] {
  if (records.length === 0) return [[`  ${none}`, TEXT_DIM]];
  const margin = next === null ? "  " : "     ";
  const row = (lead: string, name: string, depth: string | number, level: string | number, rounds: string | bigint, kills: string | number, last: string) =>
    `${lead}${left(name, 16)} ${right(depth, 5)} ${right(level, 5)} ${right(rounds, 7)} ${right(kills, 5)}  ${last}`;
  const lead = (r: DeathRecord): string => {
    if (next === null || r.morgue === 0 || next.n >= MOST_LETTERED) return margin;
    next.n++;
    return `  ${graveLetter(next.n - 1)}) `;
  };
  return [
    [row(margin, "name", "depth", "level", "rounds", "kills", lastColumn), TEXT_MIDDLE],
    ...records.map((r): PageLine => [row(lead(r), r.name, r.depth, r.level, r.rounds, r.kills, r.killed_by), TEXT]),
  ];
}

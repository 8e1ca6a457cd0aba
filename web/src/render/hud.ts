// The rows under the map, as data (client/src/hud.rs): where the player
// is, its hit points and who else is on this depth; the keys (or whom the
// round waits for, or a prompt); the game's last lines (those said since
// the player last acted bright, fights and others' doings in their own
// colours, older ones dim: state/log.ts says when a line grows old) and
// the last lines of chat (newest brightest). Each row is
// made to fit the width: nothing is cut off at the edge.

import type { PlayerId, Pos } from "../protocol";
import { GAME_ROWS, CHAT_ROWS, HUD_ROWS } from "./layout";
import { charCount, chars, isChat, isNews, shown, takeChars, type ClientState, type Experience, type LogLine } from "../state";
import { FIRST_KEYS } from "../session/first";
import { KEYS_HELP } from "../session/keys";
import type { Aim } from "../session/aim";
import type { Line } from "../session/chat";
import { letter } from "../session/prompt";
import type { Link, Scene } from "../session/scene";
import { fit, wrap } from "./fit";
import { describe, the } from "./look";

export { HUD_ROWS };
/** How many rows of messages. */
export const MESSAGE_ROWS = GAME_ROWS + CHAT_ROWS;
/** How many rows of the game's lines (which PgUp and PgDn scroll). */
export const GAME_LINES = GAME_ROWS;
const CHAT_LINES = CHAT_ROWS;
/** What the chat rows say before anyone spoke. */
export const NO_CHAT_YET = "Chat shows here: Enter talks. Ctrl+P reads back every message.";
/** What Esc in play asks. */
export const QUIT_QUESTION = "Really quit? (y/n)";
/** The keys line after a death or an escape. */
export const END_KEYS = "a new character: Enter   graveyard: G   quit: Esc";
/** END_KEYS of a life whose last rounds can be watched again (it has a morgue number). */
export const END_KEYS_REPLAY = "a new character: Enter   last rounds: r   graveyard: G   quit: Esc";
/** The keys line of a watcher, who never acts. */
export const WATCHER_KEYS = "watching: you cannot act   Enter talk  PgUp PgDn messages  G graveyard  Esc leave";
/** The keys while looking, after what the cursor is on. */
export const LOOK_KEYS = "direction keys move   Tab next monster   Esc or x leaves";
/** What a lost link says it takes (the page's own: the window's Esc closes it). */

/** How bright a line is drawn. */
export type Tone = "Bright" | "Middle" | "Dim" | "Alert" | "Good" | "Warn" | "Combat" | "Others" | { player: PlayerId };

export interface HudLine {
  text: string;
  tone: Tone;
  /** Stretches in a tone of their own: first character, length, tone. */
  accents: [number, number, Tone][];
}

export function hudLine(text: string, tone: Tone): HudLine {
  return { text, tone, accents: [] };
}

/** The width of the hit point bar, in characters. */
const HP_BAR = 10;

/** How hit points look: good above half, a warning above a quarter, an alert below. */
export function hpTone(hp: number, max: number): Tone {
  const q = hp * 4;
  return q > 2 * max ? "Good" : q > max ? "Warn" : "Alert";
}

/** The hit points as `HP 24/30 [########--]`, and the bar's tone. */
function hpBar(hp: number, max: number): [string, Tone] {
  max = Math.max(max, 1);
  const filled = Math.min(Math.ceil((hp * HP_BAR) / max), HP_BAR);
  return [`HP ${hp}/${max} [${"#".repeat(filled)}${"-".repeat(HP_BAR - filled)}]`, hpTone(hp, max)];
}

/** The line being typed: "Say: ..." with the cursor in the warning colour. */
function typingRow(line: Line, cols: number): HudLine {
  const head = "Say: ";
  const room = Math.max(cols - (head.length + 1), 1);
  const skip = Math.max(line.cursor - room, 0);
  let text = chars(line.text).slice(skip).join("");
  if (line.cursor === line.length) text += "_";
  const row = hudLine(head + takeChars(text, room + 1), "Bright");
  row.accents.push([head.length + line.cursor - skip, 1, "Warn"]);
  return row;
}

/** The HUD's rows, top to bottom, in rows of `cols` letters, the messages in `messageCols` of them. */
export function hud(scene: Scene, cols: number, messageCols: number): HudLine[] {
  const state = scene.state;
  const scroll = Math.min(scene.chat.scroll, Math.max(0, gameLines(state) - GAME_LINES));
  const typing = scene.chat.line;
  let second: HudLine;
  if (scene.replay !== null) second = hudLine(fit(scene.replay.keys, cols, "    "), "Dim");
  else if (scene.askingToQuit) second = hudLine(QUIT_QUESTION, "Warn");
  else if (typing !== null) second = typingRow(typing, cols);
  else if (scene.aim !== null) second = aimRow(state, scene.aim, cols);
  else if (scene.look !== null) second = lookRow(state, scene.look, cols);
  else second = secondRow(state, scroll, cols);
  const rows = [statusRow(state, scene.link, cols), second];
  // On the player page the recording's status tops the game's lines.
  const banner = scene.replay === null ? [] : [hudLine(fit(scene.replay.status, messageCols, ", "), "Warn")];
  const gameRows = GAME_LINES - banner.length;
  const game = messageRows(state.log.filter((l) => !isChat(l)), scroll, messageCols, gameRows, (l) => gameTone(state, l));
  rows.push(...banner, ...pad(game, gameRows));
  // A recording holds no chat: the player page leaves the chat rows blank, as the window's does.
  if (scene.replay !== null) return pad(rows, HUD_ROWS);
  const chat = messageRows(state.log.filter(isChat), 0, messageCols, CHAT_LINES, (_, age) => chatTone(age));
  if (chat.length === 0) rows.push(hudLine(fit(NO_CHAT_YET, messageCols, ": "), "Dim"));
  rows.push(...chat);
  return pad(rows, HUD_ROWS);
}

/** The first row on the first screen, the server having answered with its list of backgrounds. */
export const FIRST_STATUS = "A new character";

/** Whether a new character is being made: the server listed the backgrounds and has not welcomed the player yet. */
function firstScreen(state: ClientState): boolean {
  return state.me === null && state.backgrounds.length > 0;
}

/** The first row: the connection (on the first screen, that a new character is being made), or the depth, hit points, experience and who else is here. */
function statusRow(state: ClientState, link: Link, cols: number): HudLine {
  const end = state.ending();
  if (end !== null) {
    // The server closes the connection after a death: that is the end of a
    // game, not a fault. Said to the player as the end page says it, of it
    // to a watcher.
    const who = state.watched() !== null ? end.name : "You";
    return hudLine(`${who} ${end.escaped ? "escaped" : "died"}. The game is over.`, "Middle");
  }
  if (typeof link === "object" && "connecting" in link) {
    // On the first screen the server answered: no line says it is being reached.
    if (firstScreen(state)) return hudLine(FIRST_STATUS, "Middle");
    return hudLine(`Connecting to ${link.connecting}...`, "Middle");
  }
  if (typeof link === "object" && "retrying" in link) {
    const when = link.left === null ? "Trying again now..." : `Trying again in ${link.left} s...`;
    return hudLine(fit(`Connection lost. ${when}  ${link.retrying}  ${state.words.retryKeys}`, cols, "  "), "Alert");
  }
  if (typeof link === "object") return hudLine(fit(`Disconnected: ${link.lost}  ${state.words.lostKeys}`, cols, "  "), "Alert");
  if (state.depth === 0) return hudLine("Joining...", "Middle");
  return playingRow(state, cols);
}

/** The first row in play; a roster too long for the row is counted instead, at worst without the experience. */
function playingRow(state: ClientState, cols: number): HudLine {
  let row = playingRowWith(state, othersHere(state), true);
  if (charCount(row.text) > cols) row = playingRowWith(state, `also here: ${state.roster.length} others`, true);
  if (charCount(row.text) > cols) row = playingRowWith(state, `${state.roster.length + 1} here`, false);
  row.text = takeChars(row.text, cols);
  return row;
}

function othersHere(state: ClientState): string {
  if (state.roster.length > 0) return `also here: ${state.roster.join(", ")}`;
  const watched = state.watched();
  return watched === null ? "you are alone here" : `${watched} is alone here`;
}

function playingRowWith(state: ClientState, others: string, withExperience: boolean): HudLine {
  const watched = state.watched();
  const head = watched === null ? `Depth ${state.depth}   ` : `Watching ${watched}   Depth ${state.depth}   `;
  const watchers = state.watchers.length === 0 ? "" : `   ${state.watchers.length} watching`;
  const experience = withExperience && state.experience !== null ? experienceText(state.experience) : "";
  if (state.hp === null) return hudLine(`${head}${experience}${others}${watchers}`, "Bright");
  const [vitals, tone] = hpBar(state.hp.hp, state.hp.max);
  const line = hudLine(`${head}${vitals}   ${experience}${others}${watchers}`, "Bright");
  line.accents.push([charCount(head) + vitals.indexOf("[") + 1, HP_BAR, tone]);
  return line;
}

/** The experience as `Lv 3  140/280xp   ` (`Lv 12  5000xp   ` at the highest level). */
function experienceText(e: Experience): string {
  return e.next === 0 ? `Lv ${e.level}  ${e.xp}xp   ` : `Lv ${e.level}  ${e.xp}/${e.next}xp   `;
}

/** The second row: whom the round waits for, else how far the messages are scrolled back, else the keys. */
export function secondRow(state: ClientState, scroll: number, cols: number): HudLine {
  let text: string;
  let tone: Tone;
  const watched = state.watched();
  const ending = state.ending();
  if (ending !== null) {
    const own = ending.morgue > 0 ? END_KEYS_REPLAY : END_KEYS;
    [text, tone] = [watched === null ? own : state.words.watcherEndKeys.replace("{player}", watched), "Dim"];
  }
  else if (state.waiting.length > 0) [text, tone] = [waitingText(state.waiting, cols), "Warn"];
  else if (scroll > 0) [text, tone] = [`${scroll} newer ${scroll === 1 ? "line" : "lines"} below (PgDn)`, "Warn"];
  else if (state.watching !== null) [text, tone] = [WATCHER_KEYS, "Dim"];
  // The first screen: the map's keys do nothing yet.
  else if (firstScreen(state)) [text, tone] = [FIRST_KEYS, "Dim"];
  else [text, tone] = [KEYS_HELP, "Dim"];
  return hudLine(fit(text, cols, "  "), tone);
}

/** "Waiting for bob, cy...", or as many names as fit and how many more. */
export function waitingText(names: string[], cols: number): string {
  const all = `Waiting for ${names.join(", ")}...`;
  if (charCount(all) <= cols) return all;
  // The most names that fit with how many more: the text grows with each
  // name, so the names are counted once, forward (a roster may hold
  // thousands, and this is drawn every frame).
  const head = "Waiting for ".length;
  let listed = 0;
  let fits: number | null = null;
  for (const [n, name] of names.entries()) {
    const more = ` and ${names.length - n} more...`;
    if (head + listed + more.length > cols) break;
    fits = n;
    listed += charCount(name) + (n > 0 ? 2 : 0);
  }
  if (fits === null) return `Waiting for ${names.length} players...`;
  return `Waiting for ${names.slice(0, fits).join(", ")} and ${names.length - fits} more...`;
}

/** The second row while a throw or a zap is aimed: what at, and the keys. */
function aimRow(state: ClientState, aim: Aim, cols: number): HudLine {
  const carried = state.pack[aim.slot];
  const kind = carried === undefined ? undefined : state.itemKind(carried.kind);
  const missile = kind === undefined ? `${letter(aim.slot)})` : `${letter(aim.slot)}) ${kind.name}`;
  const target = whatIsAt(state, aim.at) ?? "here";
  const me = state.at;
  const away = me === null ? 0 : Math.max(Math.abs(me.x - aim.at.x), Math.abs(me.y - aim.at.y));
  // Nothing is thrown or zapped at oneself: the row says where to go.
  const onMe = me !== null && me.x === aim.at.x && me.y === aim.at.y;
  const aimed = onMe ? ": move the cursor onto a target" : ` at ${target} (${away} away)`;
  const text = aim.zaps
    ? `Zap ${missile}${aimed}   Tab Space + - next target   direction keys move   Enter . z zap   Esc cancel`
    : `Throw ${missile}${aimed}   Tab Space + - next target   direction keys move   Enter t f throw   Esc cancel`;
  return hudLine(fit(text, cols, "   "), "Warn");
}

/** The second row while looking: what is under the cursor, then the keys that fit after it. */
function lookRow(state: ClientState, at: Pos, cols: number): HudLine {
  const what = `Look: ${describe(state, at)}`;
  const said = charCount(what);
  const keys = fit(LOOK_KEYS, Math.max(cols - (said + 3), 0), "   ");
  if (said >= cols || charCount(keys) < "Esc or x leaves".length) return hudLine(takeChars(what, cols), "Bright");
  const row = hudLine(`${what}   ${keys}`, "Bright");
  row.accents.push([said + 3, charCount(keys), "Dim"]);
  return row;
}

/** Who stands at `pos`, as the aiming row names it. */
function whatIsAt(state: ClientState, pos: Pos): string | null {
  const same = (p: Pos) => p.x === pos.x && p.y === pos.y;
  if (state.at !== null && same(state.at)) return "yourself";
  for (const m of state.monsters.values()) if (same(m.at)) return the(state.kindOf(m)?.name ?? "monster");
  for (const o of state.others.values()) if (same(o.at)) return o.name;
  return null;
}

/** How many of the game's lines (not chat) the log holds. */
export function gameLines(state: ClientState): number {
  return state.log.reduce((n, l) => n + (isChat(l) ? 0 : 1), 0);
}

function pad(rows: HudLine[], count: number): HudLine[] {
  while (rows.length < count) rows.push(hudLine("", "Dim"));
  return rows;
}

/** The last `count` rows of `lines`, `scroll` lines back from the newest, wrapped to `cols`, each in the tone `tone` gives it (and its age, 0 the newest). */
function messageRows(lines: LogLine[], scroll: number, cols: number, count: number, tone: (line: LogLine, age: number) => Tone): HudLine[] {
  let rows: HudLine[] = [];
  for (let age = 0, i = lines.length - 1 - scroll; i >= 0 && rows.length < count; age++, i--) {
    const line = lines[i];
    if (line !== undefined) rows = [...lineRows(line, tone(line, age), cols), ...rows];
  }
  return rows.slice(Math.max(0, rows.length - count));
}

/** A game's line: dim once the player acted since it was said, else bright, a fight's or another player's in its own colour. */
function gameTone(state: ClientState, line: LogLine): Tone {
  if (!isNews(state, line)) return "Dim";
  return line.topic === "Combat" ? "Combat" : line.topic === "Others" ? "Others" : "Bright";
}

/** A line of chat `age` lines back: the newest brightest. */
function chatTone(age: number): Tone {
  return age === 0 ? "Bright" : age === 1 ? "Middle" : "Dim";
}

/** One line of the log as rows of at most `cols` letters, in `tone`. */
function lineRows(line: LogLine, tone: Tone, cols: number): HudLine[] {
  return wrap(shown(line), cols).map(([start, text]) => {
    const row = hudLine(text, tone);
    if (line.speaker !== null && start === 0) row.accents.push([line.speaker.from, line.speaker.len, { player: line.speaker.id }]);
    return row;
  });
}

/** The most entries the party panel shows (two columns beside the messages). */
export const PANEL_ENTRIES = 2 * MESSAGE_ROWS;

/**
 * The party panel, beside the messages once the player shares its round
 * with someone: `bob  12/30 Lv 3`, the name in its player's colour and the
 * hit points in the tone of the hit point bar.
 */
export function partyPanel(state: ClientState): HudLine[] {
  const party = state.party;
  if (party.length < 2) return [];
  const widest = Math.max(...party.map((m) => charCount(m.name)));
  const shownCount = party.length > PANEL_ENTRIES ? PANEL_ENTRIES - 1 : party.length;
  const entries = party.slice(0, shownCount).map((m) => {
    const name = charCount(m.name);
    const hp = `${m.hp}/${m.max}`;
    const hpField = hp.padStart(7);
    const entry = hudLine(`${m.name}${" ".repeat(widest - name)} ${hpField} Lv ${m.level}`, "Middle");
    entry.accents.push([0, name, { player: m.id }]);
    entry.accents.push([widest + 1 + hpField.length - hp.length, hp.length, hpTone(m.hp, m.max)]);
    return entry;
  });
  if (shownCount < party.length) entries.push(hudLine(`+${party.length - shownCount} more`, "Dim"));
  return entries;
}

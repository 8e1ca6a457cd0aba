// One player's session, apart from any page (client/src/session/mod.rs):
// what a key press sends, what a message from the network changes (the
// mirror, the link shown in the HUD, the character's kept token), and
// when a held key may repeat. The mirror changes only by what the server
// says; the page's own state lives here: the line being typed, the
// scroll, the names muted, the page shown, and an item prompt, a throw
// being aimed or a look (the item keys are in items.ts).

import type { Action, ClientMsg, MonsterChange, Pos, ServerMsg, Token } from "../protocol";
import { GAME_LINES, gameLines } from "../render/hud";
import { DEFAULT_PAGE } from "../render/layout";
import { lettered, pageSize, scrollMost, scrollStep } from "../render/pages";
import { logRoom, logScrollMost } from "../render/reading";
import { ClientState, PAGE_WORDS, PROTOCOL_VERSION, ageLog, note, refusalText, terrainAt, type Words } from "../state";
import { lookWith, startCursor, type Aim, type Cursor } from "./aim";
import { Line, parse, type Command } from "./chat";
import { choose, opening } from "./first";
import { onAimKey, onPromptKey, openPrompt, fire } from "./items";
import { ctrlIntent, intent, lookKey, shouldSend, type Intent, type Key } from "./keys";
import type { ItemUse } from "./prompt";
import { Jitter, next, waitMs, type Ending } from "./retry";
import { ASKING, type Grave, type Recording } from "./replay";
import type { Chat, Link, Page, Scene } from "./scene";

/** Why the link was lost when the server said it is restarting before its close (client/src/session/mod.rs's RESTARTING_LINK). */
export const RESTARTING_LINK = "the server is restarting: come back in a moment";

/** What a key press asks of the page. */
export type KeyOutcome =
  /** Send this to the server (then call `sent`). */
  | { send: ClientMsg }
  /** Connect again: for a new character after a death, or after the link was lost. */
  | "Again"
  /** Ask for the last rounds of this grave, on a connection of their own (replay.ts), and play them. */
  | { record: Grave }
  /** Play this recording, asked for before and kept (the window's Redraw: it shows the player page itself). */
  | { play: Recording }
  | "Redraw"
  | { zoom: number }
  | "Quit"
  /** Nothing: an unbound key, no connection, or a repeat too soon. */
  | "Ignore";

/** What the keys drive besides the map. */
export type Mode =
  | "Map"
  | { choosing: ItemUse }
  | { aiming: Aim }
  | { looking: Cursor }
  /** Esc was pressed in play: `y` quits, any other key goes back. */
  | "AskingToQuit";

/** What the passing of time asks of the page (see `Session.tick`). */
export type Tick =
  /** Nothing is planned. */
  | "Idle"
  /** Call again within this many ms (the countdown changes, or the next try is due). */
  | { within: number }
  /** Connect again now; the session shows the try under way. */
  | "Connect";

/** The seed of the jitter's draws unless the page gives another (the window's JITTER_SEED). */
export const JITTER_SEED = 38;

/** The seconds a countdown shows for `ms`: whole seconds, rounded up. */
function wholeSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** Where a new token is kept; says where (or why not) for the log. */
export interface TokenKeeper {
  keep(token: Token): string;
}

export class Session {
  readonly state = new ClientState();
  link: Link;
  /** The address it connects to, for the morgue file's. */
  readonly server: string;
  readonly chat: Chat = { line: null, scroll: 0, muted: new Set() };
  graveyard: "Away" | "Awaited" | "Shown" = "Away";
  packShown = false;
  helpShown = false;
  discoveriesShown = false;
  mode: Mode = "Map";
  /** Actions sent and not yet answered: a held key's repeats wait for the answer. */
  inFlight = 0;
  lastSent: number | null = null;
  /** A monster came into view since the last fresh press of an action key: its repeats are ignored until pressed again. */
  monsterCame = false;
  /** The full-screen log, when open: how many rows it is scrolled back. */
  log: number | null = null;
  /** A standing order sent (explore, travel, rest) may be under way until Stopped: Esc stops it. */
  ordering = false;
  /** The place of a page above the HUD, [letters a row, rows], as the app last told it (`resize`). */
  pageArea: [number, number] = [DEFAULT_PAGE[0], DEFAULT_PAGE[1]];
  /** How many lines the graveyard, pack, help or end page is scrolled down, when it does not fit. */
  pageScroll = 0;
  /** Tries to connect again since the link was last good, and of those how many waited their turn. */
  tries = 0;
  waits = 0;
  /** The next try while the link is tried again and none is under way: ms after the next tick, or the time it is due. */
  nextTry: { after: number } | { at: number } | null = null;
  /** The draws of the waits' jitter. */
  jitter = new Jitter(JITTER_SEED);
  /** The background chosen on the first screen: the screen is put away while the welcome comes, and a connection made again before it (without a token kept) asks for this one again. */
  chosen: string | null = null;
  /** The first screen's connection ended while the player read it (the server waits for a choice only as long as for a hello): the list stays, and the choice opens a new connection. */
  firstClosed = false;
  /** The character died (or escaped) and this session plays its next life: until welcomed, its connections open with the first screen and the choice goes with the token kept. */
  newLife = false;
  /** The line of the recording asked for (with `r` on the end page, or a grave's letter on the graveyard page): "asking the server...", or why none came; null before. */
  recording: string | null = null;
  /** The grave last asked for, and its recording once it came whole: kept, so it plays again without asking (as the window does). */
  asked: Grave | null = null;
  lastRounds: Recording | null = null;
  /** The token the last connection opened with (kept for the name): a new life's choice goes with it. */
  private kept: Token | null = null;

  /** `words`: the page's own (PAGE_WORDS), or the window's for the behaviour vectors' replay; `name`: the name the hello gives. */
  constructor(
    url: string,
    private readonly tokens: TokenKeeper,
    words: Words = PAGE_WORDS,
    name: string | null = null,
  ) {
    this.link = { connecting: url };
    this.server = url;
    this.state.words = words;
    this.state.name = name;
  }

  get playing(): boolean {
    return this.link === "Playing";
  }

  /** What the area above the HUD shows now. */
  page(): Page {
    if (this.log !== null) return "Log";
    if (this.choosingABackground()) return "Backgrounds";
    // Shown over the end page with `G`.
    if (this.state.ending() !== null) return this.graveyard === "Shown" ? "Graveyard" : "End";
    if (typeof this.mode === "object" && "choosing" in this.mode) return { choose: this.mode.choosing };
    if (typeof this.mode === "object") return "Map";
    if (this.graveyard === "Shown") return "Graveyard";
    if (this.packShown) return "Pack";
    if (this.helpShown) return "Help";
    if (this.discoveriesShown) return "Discoveries";
    return "Map";
  }

  /** The first message of a connection (see first.ts) with `token` kept: with none (or a new life not yet welcomed), the background already chosen is asked for again. */
  opening(token: Token | null, watch: string | null): ClientMsg {
    const name = this.state.name ?? "";
    this.kept = token;
    if (watch === null && (token === null || this.newLife) && this.chosen !== null) {
      return { Create: { version: PROTOCOL_VERSION, name, token, background: this.chosen } };
    }
    return opening(name, token, watch, this.newLife);
  }

  /** Whether the first screen shows: the server listed the backgrounds, and none was chosen or welcomed yet. */
  private choosingABackground(): boolean {
    const lost = typeof this.link === "object" && "lost" in this.link;
    return this.state.backgrounds.length > 0 && this.chosen === null && this.state.me === null && !lost;
  }

  /** A key on the first screen: a letter creates that background (on this connection, or on a new one when it ended), Esc leaves. */
  private onFirstKey(key: Key): KeyOutcome {
    const choice = choose(this.state.name ?? "", this.kept, this.state.backgrounds, key);
    if (choice === "Leave") return "Quit";
    if (choice === "Nothing") return "Ignore";
    const msg = choice.create;
    if (typeof msg !== "object" || !("Create" in msg)) return "Ignore";
    this.chosen = msg.Create.background;
    if (this.firstClosed) {
      // The next tick connects, with this choice first.
      this.nextTry = { after: 0 };
      return "Redraw";
    }
    return { send: msg };
  }

  /** The page's title (the window's too): the world's name, when its host gave one, then who plays, or who watches whom. */
  title(): string {
    const me = this.state.name ?? "";
    const who = this.state.watching === null ? me : `${me} watching ${this.state.watching.player}`;
    return this.state.world === "" ? `Gloam - ${who}` : `${this.state.world} - Gloam - ${who}`;
  }

  /** What the page draws now. */
  scene(): Scene {
    const mode = this.mode;
    const page = this.page();
    return {
      state: this.state,
      chat: this.chat,
      link: this.link,
      page,
      // The one last heard is not shown while a fresh one comes.
      graveyard: this.graveyard === "Awaited" ? null : this.state.graveyard,
      aim: typeof mode === "object" && "aiming" in mode ? mode.aiming : null,
      look: typeof mode === "object" && "looking" in mode ? mode.looking.at : null,
      askingToQuit: mode === "AskingToQuit",
      logScroll: this.log ?? 0,
      pageScroll: this.pageScroll,
      server: this.server,
      recording: this.recordingLine(page),
      replay: null,
    };
  }

  /** The line about the recording on `page`: being asked for, or why it could not be had; on the end page, only the character's own. */
  private recordingLine(page: Page): string | null {
    return page === "Graveyard" || (page === "End" && this.askedOwn()) ? this.recording : null;
  }

  /** Whether the grave asked for is this player's own, as its end page offers it. */
  private askedOwn(): boolean {
    const own = this.grave();
    return own !== null && this.asked !== null && own.name === this.asked.name && own.life === this.asked.life;
  }

  /**
   * The place of a page above the HUD is now `cols` letters by `rows`
   * rows (the app tells on every resize): the log and the pages that do
   * not fit scroll by it.
   */
  resize(cols: number, rows: number): void {
    this.pageArea = [cols, rows];
    if (this.log !== null) this.log = Math.min(this.log, this.logMost());
    this.pageScroll = Math.min(this.pageScroll, scrollMost(this.scene(), this.pageArea[0], this.pageLines()));
  }

  /** How many lines a page has. */
  private pageLines(): number {
    return pageSize(this.pageArea[1]);
  }

  /** How far back the log page scrolls. */
  private logMost(): number {
    return logScrollMost(this.state, this.pageArea[0], this.pageLines());
  }

  /** True while a line to talk is open (typed text goes to it). */
  typing(): boolean {
    return this.chat.line !== null;
  }

  /** A key pressed (`repeat` when held down) at `now` (milliseconds). */
  onKey(key: Key, shift: boolean, repeat: boolean, now: number): KeyOutcome {
    if (typeof key === "object" && "ctrl" in key) {
      // Whatever is open: Ctrl keys are the page's.
      const i = ctrlIntent(key.ctrl);
      if (i === "Log") {
        this.log = this.log === null ? 0 : null;
        return "Redraw";
      }
      return i !== null && typeof i === "object" && "zoom" in i ? { zoom: i.zoom } : "Ignore";
    }
    if (this.log !== null) return this.onLogKey(this.log, key);
    if (this.chat.line !== null) return this.edit(key);
    // A shifted letter is a capital, which names no background.
    if (this.page() === "Backgrounds") return shift ? "Ignore" : this.onFirstKey(key);
    const meant = intent(key, shift);
    if (this.page() === "End") return this.onEndKey(key, meant);
    const mode = this.mode;
    if (mode === "AskingToQuit") {
      this.mode = "Map";
      return typeof key === "object" && "char" in key && key.char === "y" ? "Quit" : "Redraw";
    }
    if (typeof mode === "object") {
      if ("choosing" in mode) return onPromptKey(this, mode.choosing, key, shift, now);
      if ("aiming" in mode) return onAimKey(this, mode.aiming, key, shift, now);
      return this.onLookKey(mode.looking, key, shift);
    }
    const page = this.page();
    const paged = page === "Graveyard" || page === "Pack" || page === "Help" || page === "Discoveries";
    if (page === "Graveyard" && !shift && typeof key === "object" && "char" in key && /^[a-z]$/.test(key.char)) {
      const watched = this.watchAFall(key.char);
      if (watched !== null) return watched;
    }
    if (paged && (meant === "ScrollBack" || meant === "ScrollForward") && scrollMost(this.scene(), this.pageArea[0], this.pageLines()) > 0) {
      return this.scrollPage(meant === "ScrollBack");
    }
    if (meant === "ScrollBack") return this.scroll(true);
    if (meant === "ScrollForward") return this.scroll(false);
    if (meant === "Enter" && this.page() === "Map" && this.playing) {
      this.chat.line = new Line();
      return "Redraw";
    }
    // Waiting to try again: Enter tries now.
    if (meant === "Enter" && this.nextTry !== null) {
      this.nextTry = { after: 0 };
      return "Redraw";
    }
    if (paged) {
      // Any key puts the page away, Esc too (it does not quit from here).
      if (this.graveyard === "Shown") this.giveUpAsking();
      this.graveyard = "Away";
      this.packShown = false;
      this.helpShown = false;
      this.discoveriesShown = false;
      this.pageScroll = 0;
      return "Redraw";
    }
    // The page's own: a lost link is joined again with Enter.
    if (meant === "Enter" && typeof this.link === "object" && "lost" in this.link) return "Again";
    return this.onMapIntent(meant, repeat, now);
  }

  /** A key on the end page: it scrolls, quits, starts again, shows the graveyard (`G`), or (`r`) plays the character's last rounds. */
  private onEndKey(key: Key, meant: Intent | null): KeyOutcome {
    if ((meant === "ScrollBack" || meant === "ScrollForward") && scrollMost(this.scene(), this.pageArea[0], this.pageLines()) > 0) {
      return this.scrollPage(meant === "ScrollBack");
    }
    if (meant === "Quit") return "Quit";
    // A player starts a new character; a watcher, whose player died,
    // watches again (the page cannot close itself as the window does).
    if (meant === "Enter") return "Again";
    // The graveyard known at the end, over the end page.
    if (meant === "Graveyard" && this.state.watching === null) {
      this.graveyard = "Shown";
      this.pageScroll = 0;
      return "Redraw";
    }
    return this.askToWatch(key);
  }

  /** `r` on a player's own end page, when its life has a grave: its last rounds (see `watch`). */
  private askToWatch(key: Key): KeyOutcome {
    const grave = this.grave();
    if (grave === null || typeof key !== "object" || !("char" in key) || key.char !== "r") return "Ignore";
    return this.watch(grave);
  }

  /** A letter on the graveyard page: that grave's last rounds (see `watch`); null when no grave has the letter. */
  private watchAFall(letter: string): KeyOutcome | null {
    const record = lettered(this.state.graveyard ?? [])[letter.charCodeAt(0) - 97];
    return record === undefined ? null : this.watch({ name: record.name, life: record.morgue });
  }

  /**
   * Plays `grave`'s last rounds: the recording kept, when it is that
   * grave's, else asked for (the app opens a connection of their own);
   * nothing while an ask is under way.
   */
  private watch(grave: Grave): KeyOutcome {
    if (this.asking()) return "Ignore";
    const same = this.asked !== null && this.asked.name === grave.name && this.asked.life === grave.life;
    if (same && this.lastRounds !== null) return { play: this.lastRounds };
    this.asked = grave;
    this.lastRounds = null;
    this.recording = ASKING;
    return { record: grave };
  }

  /** Whether a recording asked for is still wanted: the app lets its connection go once not. */
  asking(): boolean {
    return this.recording === ASKING;
  }

  /**
   * The graveyard page was put away: a fall asked for from it is given up
   * (it would start playing over the game later), and why the last one
   * failed is forgotten. The character's own, asked for with `r`, goes
   * on: the end page shows it.
   */
  private giveUpAsking(): void {
    if (this.lastRounds === null && !this.askedOwn()) this.recording = null;
  }

  /** The grave of the life this player's end page shows (not a watcher's), if it has one. */
  grave(): Grave | null {
    const ending = this.state.ending();
    if (ending === null || this.state.watching !== null || ending.morgue === 0) return null;
    return { name: ending.name, life: ending.morgue };
  }

  /** The recording asked for came whole: the page's line goes, and the recording is kept to play again. False when it is no longer wanted (not to be played). */
  recordingCame(recording: Recording): boolean {
    if (!this.asking()) return false;
    this.recording = null;
    this.lastRounds = recording;
    return true;
  }

  /** The recording asked for did not come: `why` shows on the page it was asked from (when it is still wanted). */
  recordingFailed(why: string): void {
    if (this.asking()) this.recording = why;
  }

  /** A key on the map. */
  private onMapIntent(meant: Intent | null, repeat: boolean, now: number): KeyOutcome {
    if (meant === "Quit") {
      // Esc first stops a standing order under way, spending nothing.
      if (this.ordering && this.playing) {
        this.ordering = false;
        this.note("You stop.");
        return { send: "Stop" };
      }
      // A character in play is not left on one key: Esc asks first.
      if (this.playing && this.state.watched() === null) {
        this.mode = "AskingToQuit";
        return "Redraw";
      }
      return "Quit";
    }
    if (!this.playing || meant === null) return "Ignore";
    switch (meant) {
      case "Pack":
        this.packShown = true;
        return "Redraw";
      case "Help":
        this.helpShown = true;
        return "Redraw";
      case "Discoveries":
        this.discoveriesShown = true;
        return "Redraw";
      case "Look":
        if (this.state.at === null) return "Ignore";
        this.mode = { looking: startCursor(this.state) };
        return "Redraw";
      case "Graveyard":
        this.graveyard = "Awaited";
        return { send: "Graveyard" };
      case "Fire":
        return fire(this);
    }
    if (typeof meant === "object" && "act" in meant) return this.act(meant.act, repeat, now);
    if (typeof meant === "object" && "use" in meant) return openPrompt(this, meant.use);
    return "Ignore";
  }

  /** An action to send, if this client plays (a watcher is reminded it cannot) and a repeat is due. */
  act(action: Action, repeat: boolean, now: number): KeyOutcome {
    if (!this.playing) return "Ignore";
    if (this.refuseAWatcher()) return "Redraw";
    if (!repeat) this.monsterCame = false;
    const since = this.lastSent === null ? Infinity : now - this.lastSent;
    const pace = this.state.actionsPerSecond;
    return shouldSend(repeat, this.monsterCame, this.inFlight, since, pace) ? { send: { Act: action } } : "Ignore";
  }

  /** A key while looking: the cursor moves, or the look ends. */
  private onLookKey(look: Cursor, key: Key, shift: boolean): KeyOutcome {
    const k = lookKey(key, shift);
    if (k === null) return "Ignore";
    if (!lookWith(look, this.state, k)) this.mode = "Map";
    return "Redraw";
  }

  /**
   * A click on the map's cell `cell` (null: outside the map): a look
   * moves there; on the map, a remembered cell is travelled to.
   */
  onClick(cell: Pos | null, now: number): KeyOutcome {
    if (cell === null) return "Ignore";
    const mode = this.mode;
    if (typeof mode === "object" && "looking" in mode) {
      mode.looking.at = cell;
      return "Redraw";
    }
    const onTheMap = mode === "Map" && this.page() === "Map" && !this.typing();
    const here = this.state.at !== null && this.state.at.x === cell.x && this.state.at.y === cell.y;
    if (!onTheMap || !this.playing || here) return "Ignore";
    if (terrainAt(this.state, cell) === null) {
      this.note("You do not know that place.");
      return "Redraw";
    }
    return this.act({ Travel: cell }, false, now);
  }

  /** For a watcher: says in the log that it cannot act, and gives true. */
  refuseAWatcher(): boolean {
    const w = this.state.watching;
    if (w === null) return false;
    this.note(`You are watching ${w.player}: you cannot act (Esc leaves).`);
    return true;
  }

  /** Text typed (or pasted) while a line to talk is open. */
  onText(text: string): KeyOutcome {
    if (this.chat.line === null) return "Ignore";
    this.chat.line.insert(text);
    return "Redraw";
  }

  /** A key while a line to talk is open: it edits the line, never moves the player. */
  private edit(key: Key): KeyOutcome {
    const line = this.chat.line;
    if (line === null) return "Ignore";
    switch (key) {
      case "Enter":
        this.chat.line = null;
        return this.command(parse(line.text));
      case "Escape":
        this.chat.line = null;
        return "Redraw";
      case "Backspace":
        line.backspace();
        return "Redraw";
      case "Delete":
        line.delete();
        return "Redraw";
      case "Left":
        line.left();
        return "Redraw";
      case "Right":
        line.right();
        return "Redraw";
      case "Home":
        line.home();
        return "Redraw";
      case "End":
        line.end();
        return "Redraw";
      case "PageUp":
        return this.scroll(true);
      case "PageDown":
        return this.scroll(false);
    }
    return "Ignore";
  }

  /** Does what a typed line asks. */
  private command(command: Command): KeyOutcome {
    let said: string;
    if (command === "Nothing") return "Redraw";
    if (command === "Who") {
      if (!this.playing) said = "Not connected.";
      else return { send: "Who" };
    } else if ("say" in command) {
      if (this.playing) return { send: { Chat: { to: command.say, text: command.text } } };
      said = "Not connected: nobody hears you.";
    } else if ("audience" in command) {
      if (this.state.watching !== null) said = "Only a player has watchers to refuse or send away.";
      else if (!this.playing) said = "Not connected.";
      else return { send: { Audience: command.audience } };
    } else if ("mute" in command) {
      this.chat.muted.add(command.mute);
      said = `You no longer hear ${command.mute}.`;
    } else if ("unmute" in command) {
      said = this.chat.muted.delete(command.unmute)
        ? `You hear ${command.unmute} again.`
        : `${command.unmute} was not muted.`;
    } else {
      said = command.unknown;
    }
    this.note(said);
    return "Redraw";
  }

  /** Moves the game's message rows a page back (towards older lines) or forward. */
  private scroll(back: boolean): KeyOutcome {
    const most = Math.max(0, gameLines(this.state) - GAME_LINES);
    const s = this.chat.scroll;
    this.chat.scroll = back ? Math.min(s + GAME_LINES, most) : Math.max(0, s - GAME_LINES);
    return "Redraw";
  }

  /** PgUp (`back`) or PgDn on a page that does not fit: a page of it up or down. */
  private scrollPage(back: boolean): KeyOutcome {
    const rows = this.pageLines();
    const step = scrollStep(rows);
    const most = scrollMost(this.scene(), this.pageArea[0], rows);
    this.pageScroll = back ? Math.max(0, this.pageScroll - step) : Math.min(this.pageScroll + step, most);
    return "Redraw";
  }

  /** A key while the full-screen log is open: it scrolls (a page of the page's size, or a row), and Esc closes it. */
  private onLogKey(scroll: number, key: Key): KeyOutcome {
    const most = this.logMost();
    const page = logRoom(this.pageLines());
    const ch = typeof key === "object" && "char" in key ? key.char : null;
    if (key === "Escape" || key === "Enter") this.log = null;
    else if (key === "PageUp") this.log = Math.min(scroll + page, most);
    else if (key === "Up" || ch === "k") this.log = Math.min(scroll + 1, most);
    else if (key === "PageDown") this.log = Math.max(0, scroll - page);
    else if (key === "Down" || ch === "j") this.log = Math.max(0, scroll - 1);
    else if (key === "Home") this.log = most;
    else if (key === "End") this.log = 0;
    else return "Ignore";
    return "Redraw";
  }

  /** The message `onKey` asked for went out at `now`. */
  sent(msg: ClientMsg, now: number): void {
    if (typeof msg === "object" && "Act" in msg) {
      // What was said before this action is old news now.
      ageLog(this.state);
      this.inFlight++;
      this.lastSent = now;
      // The orders the server always says the end of.
      const a = msg.Act;
      this.ordering = a === "Explore" || a === "Rest" || (typeof a === "object" && "Travel" in a);
    }
  }

  /** The connection ended, why and how: shown, and tried again by itself when what ended it may pass (retry.ts). */
  onClosed(reason: string, ending: Ending): void {
    if (typeof this.link === "object" && "lost" in this.link) return;
    if (this.choosingABackground()) {
      // The server waits for the choice only as long as for a hello: the
      // screen stays, and the choice connects again.
      this.firstClosed = true;
      this.link = { connecting: this.server };
      return;
    }
    const refused = this.state.refused;
    const why = refused !== null ? `refused: ${refusalText(refused)}` : this.state.restarting ? RESTARTING_LINK : reason;
    // A game that ended shows its end page; a try again would start a new character behind it.
    const then = this.state.ending() !== null ? "Stop" : next(refused, ending, this.tries);
    if (this.link === "Playing" && then !== "Stop") this.note(`Connection lost: ${why}.`);
    if (then === "Stop") {
      this.link = { lost: why };
      return;
    }
    let wait = 0;
    if (then === "Backoff") {
      this.waits++;
      wait = waitMs(this.waits - 1, this.jitter.draw());
    }
    this.nextTry = { after: wait };
    this.link = { retrying: why, left: wholeSeconds(wait) };
  }

  /** Time passed (it is `now`, ms): a try that is due is started, and the countdown kept up to date. */
  tick(now: number): Tick {
    const planned = this.nextTry;
    if (planned === null) return "Idle";
    const link = this.link;
    if (typeof link !== "object" || !("retrying" in link)) {
      this.nextTry = null;
      if (this.firstClosed && typeof link === "object" && "connecting" in link) {
        // A choice made on the first screen after its connection ended.
        this.firstClosed = false;
        return "Connect";
      }
      return "Idle";
    }
    const due = "after" in planned ? now + planned.after : planned.at;
    if (now >= due) {
      this.nextTry = null;
      link.left = null;
      this.tries++;
      // What refused the last try is not the answer to this one.
      this.state.refused = null;
      return "Connect";
    }
    this.nextTry = { at: due };
    const seconds = wholeSeconds(due - now);
    link.left = seconds;
    return { within: Math.max(0, due - now - Math.max(0, seconds - 1) * 1000) };
  }

  /** Stops trying to connect again (Esc, as the page cannot close itself): the link is lost for good. */
  giveUp(): void {
    const link = this.link;
    if (typeof link === "object" && "retrying" in link) {
      this.link = { lost: link.retrying };
      this.nextTry = null;
    }
  }

  /** A message from the server. Gives the reason when it broke the protocol (the link is then lost). */
  onMessage(msg: ServerMsg): string | null {
    // A server that broke the protocol is not listened to again.
    if (typeof this.link === "object" && "lost" in this.link) return null;
    let why: string | null;
    try {
      why = this.mirror(msg);
    } catch (e) {
      why = `the client failed on it: ${String(e)}`;
    }
    if (why !== null) {
      this.link = { lost: `the server is broken or hostile: ${why}` };
      return why;
    }
    this.afterMessage(msg);
    return null;
  }

  private afterMessage(msg: ServerMsg): void {
    if (aMonsterAppears(msg)) this.monsterCame = true;
    if (msg === "Stopped") {
      this.ordering = false;
    } else if (typeof msg === "string") {
      // Restarting: the mirror keeps it; the close follows.
    } else if ("Welcome" in msg) {
      this.link = "Playing";
      // Made: a connection made again resumes this life.
      this.newLife = false;
      this.tries = 0;
      this.waits = 0;
      this.nextTry = null;
      // A fresh world: nothing typed, scrolled back, aimed or awaited from before; nothing in flight.
      this.chat.line = null;
      this.chat.scroll = 0;
      this.mode = "Map";
      this.inFlight = 0;
      this.ordering = false;
      this.monsterCame = false;
      if (this.graveyard === "Awaited") this.graveyard = "Away";
      if (msg.Welcome.token !== null) this.note(this.tokens.keep(msg.Welcome.token));
    } else if ("Sight" in msg) {
      this.inFlight = Math.max(0, this.inFlight - 1);
    } else if ("EnterLevel" in msg) {
      // The cursor was on the level left.
      if (typeof this.mode === "object" && ("aiming" in this.mode || "looking" in this.mode)) this.mode = "Map";
    } else if ("Graveyard" in msg && this.graveyard === "Awaited") {
      this.graveyard = "Shown";
      this.pageScroll = 0;
    } else if ("Died" in msg || "Escaped" in msg) {
      // The end page opens at its top.
      this.pageScroll = 0;
    }
  }

  /** Applies `msg`, but for a muted name's line of chat: that is checked as any other, and not kept. */
  private mirror(msg: ServerMsg): string | null {
    if (typeof msg === "object" && "Chat" in msg) {
      const { from, name, to, text } = msg.Chat;
      if (this.chat.muted.has(name) && !this.state.isMe(from)) {
        return this.state.checkChat(name, to, text);
      }
    }
    return this.state.apply(msg);
  }

  /** A line of the client's own for the message log. */
  note(text: string): void {
    note(this.state, "Note", text);
  }
}

/** Whether `msg` brings a monster into view (one newly in sight, or seen again after it was out of sight). */
function aMonsterAppears(msg: ServerMsg): boolean {
  if (typeof msg !== "object") return false;
  let changes: MonsterChange[] = [];
  if ("Sight" in msg) changes = msg.Sight.monsters;
  else if ("Displaced" in msg) changes = msg.Displaced.monsters;
  else if ("Monsters" in msg) changes = msg.Monsters;
  return changes.some((c) => "Appeared" in c);
}

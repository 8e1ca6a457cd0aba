// The page's loop (client/src/app.rs in the browser): key presses go to
// the Session and what it asks for to the server; server messages update
// it; a change asks for one frame, drawn on the next animation frame. The
// name is asked on a first visit (a plain form in the page), kept with the
// character's token per server, and sent in the hello (a name with no
// token opens the first screen instead, to choose a background:
// session/first.ts); `?name=NAME` in
// the address answers the form on a first visit (a host hands out links),
// and `?watch=NAME` watches that player instead of playing. `r` on the
// end page of a life with a grave, a grave's letter on the graveyard page
// (`G`), or an address `/replay/NAME/LIFE`, asks for its last rounds on a connection of their own and plays them
// (the player page: session/player.ts, replay.ts).
//
// One key, from press to pixels: keydown -> keyboard.ts's keyOf ->
// Session.onKey (session/) -> a ClientMsg sent by net.ts -> the server's
// answer decoded -> Session.onMessage -> ClientState.apply (state/) ->
// requestFrame -> drawFrame (render/canvas.ts) from the scene's glyphs
// (render/view.ts, hud.ts).

import { Connection, OPEN_WITHIN_MS, type Socket } from "./net";
import type { ServerMsg } from "./protocol";
import { atlasFor, clear, drawFrame, type Atlas } from "./render/canvas";
import { loadFont, metricsFor } from "./render/font";
import { layoutFit, zoomFor, ZOOM_STEPS, type Layout } from "./render/layout";
import { named, type Palette } from "./render/palette";
import { cellUnder, screenText } from "./render/view";
import { keyOf, typedChar, type KeyEvent } from "./session/keyboard";
import type { Key } from "./session/keys";
import { Jitter, type Ending } from "./session/retry";
import { Session, type KeyOutcome } from "./session/session";
import { morgueUrl } from "./session/scene";
import { TokenStore } from "./session/tokens";
import { Player, unplayable } from "./session/player";
import { ASKING, Gathering, askFor, replayUrl, type Grave, type Recording } from "./session/replay";
import { sceneOf, type Scene } from "./session/scene";
import { ClientState, MAX_NAME_CHARS, PAGE_WORDS, charCount, refusalText } from "./state";

/** The parts of the page the app drives. */
export interface PageParts {
  canvas: HTMLCanvasElement;
  form: HTMLFormElement;
  nameInput: HTMLInputElement;
  why: HTMLElement;
  /** Gives the page (the browser's tab) a title: the session's, once the welcome names the world. */
  retitle?: (title: string) => void;
  /** The link to the morgue file, shown on the end page of a life that has one (the canvas names it too). */
  morgue?: HTMLAnchorElement;
  /** The link to the last rounds of that life (`/replay/NAME/LIFE`), for a friend to open. */
  replay?: HTMLAnchorElement;
}

/** A recording asked for: what came of it so far, and whether the page's address asked for it (`/replay/...`). */
interface Asking {
  gathering: Gathering;
  connection: Connection;
  fromLink: boolean;
  /** While a link's recording comes: what the page shows (nobody plays yet). */
  scene: Scene | null;
}

/** Where the zoom the player chose is kept (as the window keeps it in a file). */
const ZOOM_KEY = "gloam.zoom";

/** The zoom kept in `storage`, if it is one of the steps. */
function keptZoom(storage: Storage | null): number | null {
  let kept: string | null = null;
  try {
    kept = storage?.getItem(ZOOM_KEY) ?? null;
  } catch {
    return null;
  }
  const cell = Number(kept);
  return kept !== null && ZOOM_STEPS.includes(cell) ? cell : null;
}

/** Why the page will not join as `name` (the form's own rules), or null. */
function nameFault(name: string): string | null {
  return name === "" || charCount(name) > MAX_NAME_CHARS ? `A name is 1 to ${MAX_NAME_CHARS} characters.` : null;
}

/** Refusals that a new name answers. */
const ASK_AGAIN = new Set(["NameTaken", "WrongToken", "NameInvalid"]);

export class App {
  private session: Session | null = null;
  private connection: Connection | null = null;
  private name: string | null = null;
  private atlas: Atlas | null = null;
  private layout: Layout | null = null;
  /** The cell size the player chose with Ctrl+ and Ctrl-; null fits the map to the page. */
  private zoom: number | null = null;
  private frameAsked = false;
  /** The session's next tick, while it counts down to trying again. */
  private ticking: ReturnType<typeof setTimeout> | null = null;
  private drawnOnce = false;
  /** The recording being asked for, until it came or failed. */
  private asking: Asking | null = null;
  /** The player page, while a recording plays; and whether it was opened by the page's address. */
  private player: { player: Player; fromLink: boolean } | null = null;
  /** The player's next tick, while it plays. */
  private playing: ReturnType<typeof setTimeout> | null = null;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly tokens: TokenStore;
  private readonly storage: Storage | null;
  private readonly watch: string | null;
  /** The name the address gives (`?name=`), trimmed as the form trims; null when none. */
  private readonly addressName: string | null;
  private readonly palette: Palette;

  constructor(
    private readonly page: PageParts,
    private readonly url: string,
    params: URLSearchParams,
    storage: Storage | null,
    origin: string,
    private readonly openSocket?: (url: string) => Socket,
    /** The grave the page's address asks to play (`/replay/NAME/LIFE`), if any. */
    private readonly linked: Grave | null = null,
  ) {
    const ctx = page.canvas.getContext("2d", { alpha: false });
    if (ctx === null) throw new Error("this browser draws no 2D canvas");
    this.ctx = ctx;
    this.tokens = new TokenStore(storage, origin);
    this.storage = storage;
    this.zoom = keptZoom(storage);
    this.watch = params.get("watch");
    this.addressName = params.get("name")?.trim() || null;
    this.palette = named(params.get("palette"));
  }

  /**
   * Joins with the name kept for this server, else the address's, else
   * asks for one. The kept name wins: it holds the character's key, and a
   * link handed out must not take a player away from their own character.
   */
  start(): void {
    const kept = this.tokens.load();
    if (this.linked !== null) this.watchGrave(this.linked, true);
    else if (kept !== null) this.connect(kept.name);
    else if (this.addressName !== null) this.join(this.addressName);
    else this.askName(null);
    void loadFont().then(() => this.requestFrame());
    this.requestFrame();
  }

  /** Shows the name form, filled with `name`, with why a name is asked again. */
  private askName(why: string | null, name = this.name ?? this.tokens.load()?.name ?? ""): void {
    const { form, nameInput } = this.page;
    // At ?watch=NAME the name is the watcher's own: say whom it will watch.
    const said = why ?? (this.watch !== null ? `You will watch ${this.watch}, under a name of your own.` : null);
    this.page.why.textContent = said ?? "";
    this.page.why.hidden = said === null;
    form.hidden = false;
    nameInput.value = name;
    nameInput.focus();
  }

  /** The name form was sent. */
  submitName(): void {
    this.join(this.page.nameInput.value.trim());
  }

  /** Joins as `name` when the form's rules take it; else asks again, the name left to mend. */
  private join(name: string): void {
    const fault = nameFault(name);
    if (fault !== null) {
      this.askName(fault, name);
      return;
    }
    this.page.form.hidden = true;
    this.tokens.keepName(name);
    this.connect(name);
  }

  /** A new connection (and session) as `name`; `newLife` after its character died or escaped, to choose a background again. */
  private connect(name: string, newLife = false): void {
    this.name = name;
    this.connection?.close("closed");
    const session = new Session(this.url, this.tokens, PAGE_WORDS, name);
    session.newLife = newLife;
    // Pages cut off together come back apart.
    session.jitter = new Jitter(Math.floor(Math.random() * 2 ** 32));
    this.session = session;
    this.open(session, name);
    this.requestFrame();
  }

  /** Opens a connection for `session` as `name`, with the token kept now (a first welcome may have given one). */
  private open(session: Session, name: string): void {
    const kept = this.tokens.load();
    // A name with no token kept is a new character: the first screen (session/first.ts).
    const first = session.opening(kept?.name === name ? kept.token : null, this.watch);
    const connection: Connection = new Connection(
      this.url,
      first,
      {
        message: (msg) => this.onMessage(session, connection, msg),
        closed: (reason, ending) => this.onClosed(session, reason, ending),
      },
      this.openSocket,
    );
    this.connection = connection;
    setTimeout(() => connection.giveUpOpening(), OPEN_WITHIN_MS);
  }

  /**
   * Ticks the session (the decisions are its own, session/retry.ts): a try
   * to connect again that is due is made, and while it counts down the
   * page ticks again when the countdown shown changes.
   */
  private tick(): void {
    if (this.ticking !== null) clearTimeout(this.ticking);
    this.ticking = null;
    const session = this.session;
    if (session === null || this.name === null) return;
    const tick = session.tick(performance.now());
    if (tick === "Connect") this.open(session, this.name);
    else if (typeof tick === "object") this.ticking = setTimeout(() => this.tick(), tick.within);
    if (tick !== "Idle") this.requestFrame();
  }

  private onMessage(session: Session, connection: Connection, msg: ServerMsg): void {
    if (session !== this.session) return;
    const why = session.onMessage(msg);
    // A message that does not fit ends the connection: its reason is shown.
    if (why !== null) connection.close(`the server is broken or hostile: ${why}`);
    if (typeof msg === "object" && ("Welcome" in msg || "Watching" in msg)) this.page.retitle?.(session.title());
    this.requestFrame();
  }

  private onClosed(session: Session, reason: string, ending: Ending): void {
    if (session !== this.session) return;
    session.onClosed(reason, ending);
    const refused = session.state.refused;
    if (refused !== null && ASK_AGAIN.has(typeof refused === "string" ? refused : (Object.keys(refused)[0] ?? ""))) {
      this.askName(`Refused: ${refusalText(refused)}. Choose another name.`);
    }
    this.tick();
    this.requestFrame();
  }

  /**
   * Asks the server for `grave`'s last rounds on a connection of their own
   * (`fromLink`: the page's address asked); they play once come whole.
   */
  private watchGrave(grave: Grave, fromLink: boolean): void {
    // An ask under way is given up first, unheard: its end is not this one's.
    const before = this.asking;
    this.asking = null;
    before?.connection.close("closed");
    const gathering = new Gathering();
    const connection: Connection = new Connection(
      this.url,
      askFor(grave),
      {
        message: (msg) => {
          const why = gathering.onMessage(msg);
          if (why !== null) connection.close(`the server is broken or hostile: ${why}`);
          this.afterAsking();
        },
        closed: (reason) => {
          gathering.onClosed(reason);
          this.afterAsking();
        },
      },
      this.openSocket,
    );
    this.asking = { gathering, connection, fromLink, scene: fromLink ? askingScene(this.url) : null };
    setTimeout(() => connection.giveUpOpening(), OPEN_WITHIN_MS);
    this.requestFrame();
  }

  /** What the recording asked for came to, if anything: it plays, or the reason shows (on the end page, or over the name form). */
  private afterAsking(): void {
    const asking = this.asking;
    const state = asking?.gathering.state;
    if (asking === null || state === undefined || state === "Asking") return;
    this.asking = null;
    // One with no level to play on has failed, as in the window.
    const why = "came" in state ? unplayable(state.came) : null;
    const asked = why === null ? state : { failed: why };
    if ("came" in asked) {
      // A link's recording is nobody's end page's to keep; a page's is played only while still wanted.
      if (asking.fromLink || this.session?.recordingCame(asked.came) === true) this.play(asked.came, asking.fromLink);
    } else if (asking.fromLink) {
      this.askName(`Recording: ${asked.failed}`);
    } else {
      this.session?.recordingFailed(asked.failed);
    }
    this.requestFrame();
  }

  /** Shows `recording` on the player page, from its start. */
  private play(recording: Recording, fromLink: boolean): void {
    const player = new Player(recording, this.url, this.session?.state.world ?? "");
    this.player = { player, fromLink };
    this.playTick();
  }

  /** Plays the groups due now, and sets the next tick when one will be due. */
  private playTick(): void {
    if (this.playing !== null) clearTimeout(this.playing);
    this.playing = null;
    const player = this.player?.player;
    if (player === undefined) return;
    const now = performance.now();
    if (player.tick(now)) this.requestFrame();
    const due = player.nextDue(now);
    if (due !== null) this.playing = setTimeout(() => this.playTick(), Math.max(due, 1));
  }

  /** A key on the player page: Esc leaves it, to the end page it came from, or to the name form when the address asked. */
  private onPlayerKey(player: Player, fromLink: boolean, key: Key): boolean {
    const outcome = player.onKey(key, performance.now());
    if (outcome === "Leave") {
      this.player = null;
      if (this.playing !== null) clearTimeout(this.playing);
      this.playing = null;
      if (fromLink) this.askName(null);
    } else if (outcome === "Redraw") {
      this.playTick();
    } else if (typeof outcome === "object") {
      this.zoomBy(outcome.zoom);
    }
    this.requestFrame();
    // A Ctrl key the player does not read stays the browser's.
    return !(typeof key === "object" && "ctrl" in key) || outcome !== "Ignore";
  }

  /** A key pressed on the page; true when the game took it (the browser should not). */
  onKeyDown(e: KeyEvent & { repeat: boolean }): boolean {
    const shown = this.player;
    const asking = this.asking;
    if (asking !== null && asking.fromLink && keyOf(e) === "Escape") {
      // Esc while a link's recording is asked for: the page's start.
      this.asking = null;
      asking.connection.close("closed");
      this.askName(null);
      this.requestFrame();
      return true;
    }
    if (shown !== null) {
      const key = keyOf(e);
      return key !== null && this.onPlayerKey(shown.player, shown.fromLink, key);
    }
    const session = this.session;
    if (session === null || !this.page.form.hidden) return false;
    const typed = typedChar(e);
    if (session.typing() && typed !== null) return this.carryOut(session.onText(typed));
    const key = keyOf(e);
    if (key === null) return false;
    const first = session.page() === "Backgrounds";
    const outcome = session.onKey(key, false, e.repeat, performance.now());
    // A Ctrl key the game does not read stays the browser's.
    const ctrl = typeof key === "object" && "ctrl" in key;
    if (first && outcome === "Quit") this.backToTheForm();
    else this.carryOut(outcome);
    return !ctrl || outcome !== "Ignore";
  }

  /** Esc on the first screen: the connection closes (no character was made) and the name form shows again, to choose another. */
  private backToTheForm(): void {
    // No goodbye: before a hello there is no character to leave.
    this.connection?.close("you left the game");
    this.connection = null;
    this.session = null;
    this.askName(null);
    this.requestFrame();
  }

  /** Text pasted into the page: into the line being typed, if one is open. */
  onPaste(text: string): boolean {
    return this.session?.typing() === true && this.carryOut(this.session.onText(text));
  }

  /** A click at (x, y) of the canvas, in CSS pixels. */
  onClick(x: number, y: number): void {
    const session = this.session;
    if (session === null || this.layout === null) return;
    this.carryOut(session.onClick(cellUnder(session.scene(), this.layout, x, y), performance.now()));
  }

  /** Does what a key asked for; true always (the key was the game's). */
  private carryOut(outcome: KeyOutcome): boolean {
    const session = this.session;
    if (session === null) return true;
    if (outcome === "Quit") {
      // The page cannot close itself: it stops trying to connect again.
      session.giveUp();
      this.connection?.quit();
    } else if (typeof outcome === "object" && "record" in outcome) {
      this.watchGrave(outcome.record, false);
    } else if (typeof outcome === "object" && "play" in outcome) {
      this.play(outcome.play, false);
    } else if (outcome === "Again" && this.name !== null) {
      // Enter on a player's end page starts the name's next life.
      this.connect(this.name, session.page() === "End" && session.state.watching === null);
    } else if (typeof outcome === "object" && "send" in outcome) {
      if (this.connection?.send(outcome.send) === true) session.sent(outcome.send, performance.now());
    } else if (typeof outcome === "object" && "zoom" in outcome) this.zoomBy(outcome.zoom);
    // The graveyard put away gives up a fall asked for from it: its connection goes.
    const asking = this.asking;
    if (asking !== null && !asking.fromLink && !session.asking()) {
      this.asking = null;
      asking.connection.close("closed");
    }
    // Enter may have asked to try again now.
    if (outcome === "Redraw") this.tick();
    if (outcome !== "Ignore") this.requestFrame();
    return true;
  }

  /** Ctrl+ or Ctrl-: the next cell size in or out, from the one shown. */
  private zoomBy(by: number): void {
    const now = this.layout?.cellPx ?? ZOOM_STEPS[3] ?? 14;
    const at = ZOOM_STEPS.findIndex((s) => s >= now);
    const i = Math.min(Math.max((at < 0 ? ZOOM_STEPS.length - 1 : at) + by, 0), ZOOM_STEPS.length - 1);
    this.zoom = ZOOM_STEPS[i] ?? null;
    try {
      if (this.zoom !== null) this.storage?.setItem(ZOOM_KEY, String(this.zoom));
    } catch {
      // Storage full or refused: the zoom lasts this visit only.
    }
  }

  /** Asks for a frame on the next animation frame (once, however many ask). */
  requestFrame(): void {
    if (this.frameAsked) return;
    this.frameAsked = true;
    requestAnimationFrame(() => {
      this.frameAsked = false;
      this.draw();
    });
  }

  /** What the connection received: binary frames and their bytes. */
  received(): { frames: number; bytes: number } {
    return { ...(this.connection?.received ?? { frames: 0, bytes: 0 }) };
  }

  /** Draws `n` whole frames at once; gives the mean milliseconds a frame. */
  timeRedraws(n: number): number {
    const start = performance.now();
    for (let i = 0; i < n; i++) this.draw();
    return (performance.now() - start) / Math.max(1, n);
  }

  /** The text of the frame as last drawn (see `screenText`); empty before one. */
  screenText(): string {
    const scene = this.scene();
    if (scene === null || this.layout === null) return "";
    return screenText(scene, this.palette, this.layout);
  }

  /** What is shown: the player page, a link's recording being asked for, or the session's page. */
  private scene(): Scene | null {
    return this.player?.player.scene() ?? this.asking?.scene ?? this.session?.scene() ?? null;
  }

  /** Shows the link to the morgue file on the end page of a life that has one, and hides it elsewhere. */
  private linkMorgue(): void {
    const link = this.page.morgue;
    if (link === undefined) return;
    const session = this.player === null ? this.session : null;
    const ending = session?.page() === "End" ? session.state.ending() : null;
    const url = session !== null && ending !== null ? morgueUrl(session.server, ending) : null;
    if (url !== null && link.href !== url) link.href = url;
    // A watcher's link is to its player's file.
    const whose = session?.state.watching === null || ending === null ? "Your" : `${ending.name}'s`;
    if (link.textContent !== `${whose} morgue file`) link.textContent = `${whose} morgue file`;
    link.hidden = url === null;
  }

  /** Shows the link to the last rounds beside the morgue file's, on a player's end page of a life with a grave. */
  private linkReplay(): void {
    const link = this.page.replay;
    if (link === undefined) return;
    const session = this.player === null ? this.session : null;
    const grave = session !== null && session.page() === "End" ? session.grave() : null;
    const url = session !== null && grave !== null ? replayUrl(session.server, grave) : null;
    if (url !== null && link.href !== url) link.href = url;
    const text = `Watch the last rounds: ${url ?? ""}`;
    if (url !== null && link.textContent !== text) link.textContent = text;
    link.hidden = url === null;
  }

  /** Draws the whole page afresh, at the page's size. */
  private draw(): void {
    const session = this.session;
    const scene = this.scene();
    const { canvas } = this.page;
    const scale = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * scale) || canvas.height !== Math.round(height * scale)) {
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
    }
    performance.mark("gloam:draw-start");
    this.ctx.setTransform(scale, 0, 0, scale, 0, 0);
    const letters = (cell: number) => metricsFor(this.ctx, cell).textPx;
    const map: [number, number] = scene !== null && scene.state.width > 0 ? [scene.state.width, scene.state.height] : [80, 40];
    const layout = layoutFit(width, height, this.zoom ?? zoomFor(width, height, map, letters), letters);
    this.layout = layout;
    // Every resize asks for a frame: the session learns the page's size here.
    session?.resize(layout.pageCols, layout.mapRows);
    this.atlas = atlasFor(this.ctx, this.atlas, layout.cellPx, scale);
    if (scene !== null) drawFrame(this.ctx, this.atlas, scene, this.palette, layout);
    else clear(this.ctx, layout);
    this.linkMorgue();
    this.linkReplay();
    // Only the last frame's time is kept (a measure a frame would pile up).
    performance.clearMeasures("gloam:draw");
    performance.measure("gloam:draw", "gloam:draw-start");
    if (!this.drawnOnce && scene !== null) {
      this.drawnOnce = true;
      performance.mark("gloam:first-frame");
    }
  }
}

/** What the page shows while a recording its address asked for comes: nobody plays yet. */
function askingScene(url: string): Scene {
  return { ...sceneOf(new ClientState(), { connecting: url }, "Map"), replay: { status: `Recording: ${ASKING}`, keys: "Esc: back" } };
}

// The built page itself (dist/app.js, as committed) run over a fake
// browser: on a first visit it asks a name; the name sent, it connects to
// the page's own host, says hello with it, keeps the token the welcome
// gives under the page's origin, draws frames as messages come, takes
// keys, and shows a message that does not fit as the reason, closing the
// socket. A reload then says hello with the kept token. An address with
// `?name=` joins at once on a first visit, unless a name is kept or the
// form's rules refuse it.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { decodeClient, encodeServer, type ClientMsg, type ServerMsg } from "../src/protocol";
import { enterLevel, idx, record, sight } from "./fixtures";
import { PROTOCOL_VERSION } from "../src/state";

type Handler = (e: Record<string, unknown>) => void;

class FakeElement {
  hidden = false;
  textContent = "";
  value = "";
  focused = false;
  focus(): void {
    this.focused = true;
  }
  readonly handlers = new Map<string, Handler>();
  addEventListener(type: string, h: Handler): void {
    this.handlers.set(type, h);
  }
}

/** A 2D context that counts what is drawn. */
class FakeContext {
  font = "";
  fillStyle = "";
  strokeStyle = "";
  lineWidth = 1;
  textAlign = "";
  textBaseline = "";
  copies = 0;
  texts: string[] = [];
  fillText(t: string): void {
    this.texts.push(t);
  }
  drawImage(): void {
    this.copies++;
  }
  fillRect(): void {}
  clearRect(): void {}
  strokeRect(): void {}
  setTransform(): void {}
  measureText(): { width: number; fontBoundingBoxAscent: number; fontBoundingBoxDescent: number } {
    return { width: 8, fontBoundingBoxAscent: 12, fontBoundingBoxDescent: 3 };
  }
}

class FakeCanvas extends FakeElement {
  width = 0;
  height = 0;
  clientWidth = 1280;
  clientHeight = 720;
  readonly ctx = new FakeContext();
  getContext(): FakeContext {
    return this.ctx;
  }
}

class FakeSocket {
  static all: FakeSocket[] = [];
  binaryType = "blob";
  readyState = 0;
  sent: ClientMsg[] = [];
  closed: unknown[] | null = null;
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: Uint8Array): void {
    this.sent.push(decodeClient(data));
  }
  close(...args: unknown[]): void {
    this.closed = args;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: ServerMsg): void {
    const bytes = encodeServer(msg);
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  }
}

/** A fake browser's globals at an address whose query is `search`, and what the page does with them. */
function browser(storage: Map<string, string>, search = "", pathname = "/") {
  const canvas = new FakeCanvas();
  // The form starts hidden, as index.html has it.
  const form = Object.assign(new FakeElement(), { hidden: true });
  const parts: Record<string, FakeElement> = {
    screen: canvas,
    join: form,
    name: new FakeElement(),
    "join-why": new FakeElement(),
    morgue: new FakeElement(),
    replay: new FakeElement(),
  };
  const frames: (() => void)[] = [];
  const documentHandlers = new Map<string, Handler>();
  FakeSocket.all = [];
  const globals: Record<string, unknown> = {
    HTMLElement: FakeElement,
    HTMLCanvasElement: FakeCanvas,
    HTMLFormElement: FakeElement,
    HTMLInputElement: FakeElement,
    HTMLAnchorElement: FakeElement,
    document: {
      getElementById: (id: string) => parts[id] ?? null,
      createElement: () => new FakeCanvas(),
      addEventListener: (type: string, h: Handler) => documentHandlers.set(type, h),
      fonts: { add: () => {} },
    },
    window: { devicePixelRatio: 1, localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v) }, addEventListener: () => {} },
    location: { protocol: "http:", host: "game.test:8080", origin: "http://game.test:8080", search, pathname },
    WebSocket: FakeSocket,
    FontFace: class {
      load(): Promise<never> {
        return Promise.reject(new Error("no font in a test"));
      }
    },
    requestAnimationFrame: (f: () => void) => frames.push(f),
  };
  Object.assign(globalThis, globals);
  const drawFrames = () => frames.splice(0).forEach((f) => f());
  const key = (k: string, code = "") => {
    let prevented = false;
    documentHandlers.get("keydown")?.({ key: k, code, ctrlKey: false, metaKey: false, altKey: false, repeat: false, preventDefault: () => (prevented = true) });
    drawFrames();
    return prevented;
  };
  return { canvas, parts, drawFrames, key };
}

/** The backgrounds a server lists. */
const BACKGROUNDS = [
  { name: "fighter", about: "Sword and leather.", hp: 36, to_hit: 5, damage: 2, stealth: 0, throwing: 0, kit: ["a short sword (wielded)"] },
  { name: "scout", about: "Quiet.", hp: 26, to_hit: 0, damage: 0, stealth: 40, throwing: 5, kit: ["6 darts"] },
];

/** The server lists the backgrounds: the first screen shows them, and `a` makes a fighter. */
function chooseTheFighter(page: ReturnType<typeof browser>, socket: FakeSocket): void {
  socket.receive({ Backgrounds: BACKGROUNDS });
  page.drawFrames();
  const shown = (globalThis as unknown as { window: { gloam: { screenText(): string } } }).window.gloam.screenText();
  assert.match(shown, /a\) fighter +36 hp +to-hit \+5, damage \+2/, "the first screen lists the fighter");
  assert.match(shown, /b\) scout +26 hp +stealth 40, throwing \+5/);
  assert.equal(page.key("a", "KeyA"), true);
  assert.deepEqual(socket.sent.at(-1), { Create: { version: PROTOCOL_VERSION, name: "ann", token: null, background: "fighter" } });
}

let loads = 0;
/** Runs the committed bundle afresh, as a page load does. */
async function load(): Promise<void> {
  const url = pathToFileURL(join(process.cwd(), "dist", "app.js"));
  url.search = `?load=${loads++}`;
  await import(url.href);
}

test("the built page asks a name, says hello with it, keeps the token, draws, takes keys, and shows a hostile message's reason", async () => {
  const storage = new Map<string, string>();
  const page = browser(storage);
  await load();
  assert.equal(page.parts["join"]?.hidden, false, "a name is asked on a first visit");
  assert.equal(page.parts["name"]?.focused, true);
  assert.equal(FakeSocket.all.length, 0, "nothing is sent before");
  page.parts["name"]!.value = "ann";
  page.parts["join"]!.handlers.get("submit")?.({ preventDefault: () => {} });
  assert.equal(page.parts["join"]?.hidden, true);
  const socket = FakeSocket.all[0]!;
  assert.equal(socket.url, "ws://game.test:8080/");
  socket.open();
  assert.deepEqual(socket.sent, ["Backgrounds"], "a new name opens the first screen");
  page.drawFrames();
  const connecting = page.canvas.ctx.copies;
  assert.ok(connecting > 0, "the HUD is drawn while connecting");
  chooseTheFighter(page, socket);
  const token = Array.from({ length: 16 }, (_, i) => i);
  socket.receive({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 8, actions_per_second: 20, token, world: "" } });
  socket.receive(enterLevel(1, 20, 10));
  socket.receive(sight({ x: 5, y: 5 }, { revealed: [[idx(0, 0), "Floor"], [idx(1, 0), "Floor"]] }));
  page.drawFrames();
  assert.ok(page.canvas.ctx.copies > connecting);
  assert.match(storage.get("http://game.test:8080") ?? "", /"token":"000102030405060708090a0b0c0d0e0f"/);
  assert.equal(page.key("l", "KeyL"), true);
  assert.equal(page.key("8", "Numpad8"), true);
  assert.equal(page.key("F5", "F5"), false, "a key the game does not read stays the browser's");
  assert.deepEqual(socket.sent.slice(2), [{ Act: { Move: "E" } }, { Act: { Move: "N" } }]);
  socket.receive(enterLevel(2, 0xffff, 0xffff));
  assert.notEqual(socket.closed, null, "the socket is closed");
  page.drawFrames();
  const shown = (globalThis as unknown as { window: { gloam: { screenText(): string } } }).window.gloam.screenText();
  assert.match(shown, /the server is broken or hostile: a map of 65535 x 65535 cells/, "the reason is on the screen");
  assert.equal(page.key("k", "KeyK"), true);
  assert.equal(socket.sent.length, 4, "nothing more is sent");
});

test("a reload resumes the character: the hello carries the kept name and token", async () => {
  const storage = new Map([["http://game.test:8080", JSON.stringify({ name: "ann", token: "000102030405060708090a0b0c0d0e0f" })]]);
  const page = browser(storage);
  await load();
  assert.equal(page.parts["join"]?.hidden, true, "no name is asked");
  const socket = FakeSocket.all[0]!;
  socket.open();
  assert.deepEqual(socket.sent, [{ Hello: { version: PROTOCOL_VERSION, name: "ann", token: Array.from({ length: 16 }, (_, i) => i) } }]);
});

test("after a death, Enter opens the first screen again and the choice goes with the kept token", async () => {
  const hex = "000102030405060708090a0b0c0d0e0f";
  const storage = new Map([["http://game.test:8080", JSON.stringify({ name: "ann", token: hex })]]);
  const page = browser(storage);
  await load();
  const first = FakeSocket.all[0]!;
  first.open();
  const token = Array.from({ length: 16 }, (_, i) => i);
  assert.deepEqual(first.sent, [{ Hello: { version: PROTOCOL_VERSION, name: "ann", token } }]);
  first.receive({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 8, actions_per_second: 20, token: null, world: "" } });
  first.receive(enterLevel(1, 20, 10));
  first.receive({ Died: record("ann") });
  page.drawFrames();
  assert.equal(page.key("Enter", "Enter"), true);
  const again = FakeSocket.all[1]!;
  again.open();
  assert.deepEqual(again.sent, ["Backgrounds"], "the next life chooses again");
  again.receive({ Backgrounds: BACKGROUNDS });
  page.drawFrames();
  assert.equal(page.key("b", "KeyB"), true);
  assert.deepEqual(again.sent.at(-1), { Create: { version: PROTOCOL_VERSION, name: "ann", token, background: "scout" } });
});

test("an address with ?name= joins at once on a first visit, as the form would, and keeps the name", async () => {
  const storage = new Map<string, string>();
  const page = browser(storage, "?name=%20ann%20");
  await load();
  assert.equal(page.parts["join"]?.hidden, true, "no name is asked");
  const socket = FakeSocket.all[0]!;
  socket.open();
  assert.deepEqual(socket.sent, ["Backgrounds"], "a new name opens the first screen");
  chooseTheFighter(page, socket);
  assert.deepEqual(socket.sent[1], { Create: { version: PROTOCOL_VERSION, name: "ann", token: null, background: "fighter" } }, "trimmed as the form trims");
  assert.match(storage.get("http://game.test:8080") ?? "", /"name":"ann"/);
});

test("a name kept in the browser wins over the address's", async () => {
  const storage = new Map([["http://game.test:8080", JSON.stringify({ name: "bob", token: "000102030405060708090a0b0c0d0e0f" })]]);
  const page = browser(storage, "?name=ann");
  await load();
  assert.equal(page.parts["join"]?.hidden, true);
  const socket = FakeSocket.all[0]!;
  socket.open();
  assert.deepEqual(socket.sent, [{ Hello: { version: PROTOCOL_VERSION, name: "bob", token: Array.from({ length: 16 }, (_, i) => i) } }]);
});

test("an address's name the form refuses shows the form filled with it and the reason, and joins nobody", async () => {
  const long = "a".repeat(17);
  const page = browser(new Map(), `?name=${long}`);
  await load();
  assert.equal(page.parts["join"]?.hidden, false, "the form is shown");
  assert.equal(page.parts["name"]?.value, long, "filled with the address's name, to mend");
  assert.equal(page.parts["join-why"]?.textContent, "A name is 1 to 16 characters.");
  assert.equal(page.parts["join-why"]?.hidden, false);
  assert.equal(FakeSocket.all.length, 0, "nothing is sent");
  // An empty name in the address is no name: the plain form of a first visit.
  const plain = browser(new Map(), "?name=%20");
  await load();
  assert.equal(plain.parts["join"]?.hidden, false);
  assert.equal(plain.parts["join-why"]?.hidden, true, "no reason: nothing was refused");
  assert.equal(FakeSocket.all.length, 0);
});

test("Esc on the first screen closes the connection, makes nobody, and shows the name form again", async () => {
  const page = browser(new Map());
  await load();
  page.parts["name"]!.value = "ann";
  page.parts["join"]!.handlers.get("submit")?.({ preventDefault: () => {} });
  const socket = FakeSocket.all[0]!;
  socket.open();
  socket.receive({ Backgrounds: BACKGROUNDS });
  assert.equal(page.key("Escape", "Escape"), true);
  assert.deepEqual(socket.sent, ["Backgrounds"], "no Create, and no goodbye before a hello");
  assert.notEqual(socket.closed, null, "the socket is closed");
  assert.equal(page.parts["join"]?.hidden, false, "the name form is back");
  assert.equal(page.parts["name"]?.value, "ann");
  page.parts["name"]!.value = "bea";
  page.parts["join"]!.handlers.get("submit")?.({ preventDefault: () => {} });
  const again = FakeSocket.all[1]!;
  again.open();
  assert.deepEqual(again.sent, ["Backgrounds"], "another name, another first screen");
});

test("?watch= with ?name= watches at once under the address's name", async () => {
  const page = browser(new Map(), "?watch=ann&name=cat");
  await load();
  assert.equal(page.parts["join"]?.hidden, true);
  const socket = FakeSocket.all[0]!;
  socket.open();
  assert.deepEqual(socket.sent, [{ Watch: { version: PROTOCOL_VERSION, name: "cat", token: null, player: "ann" } }]);
  // ann dies: the link beside the end page is to her file, not the watcher's.
  socket.receive({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 8, actions_per_second: 20, token: null, world: "" } });
  socket.receive({ Watching: { player: "ann", you: 9 } });
  socket.receive(enterLevel(1, 20, 10));
  socket.receive({ Died: { ...record("ann"), morgue: 1 } });
  page.drawFrames();
  assert.equal(page.parts["morgue"]?.hidden, false);
  assert.equal(page.parts["morgue"]?.textContent, "ann's morgue file");
});

/** The page's screen as text (what the window's F12 writes). */
function screen(): string {
  return (globalThis as unknown as { window: { gloam: { screenText(): string } } }).window.gloam.screenText();
}

/** A recording of ann's last rounds on depth 1: the kinds, the level, then two rounds of lines. */
function sendRecording(socket: FakeSocket): void {
  socket.receive({ Recording: { player: "ann", you: 1, depth: 1, from: 40n, to: 52n } });
  const recorded: [bigint, ServerMsg][] = [
    [40n, { Kinds: [] }],
    [40n, { ItemKinds: [] }],
    [40n, enterLevel(1, 20, 10)],
    [40n, sight({ x: 5, y: 5 }, { revealed: [[idx(0, 0), "Floor"]] })],
    [45n, { Note: "The giant hits you." }],
    [52n, { Note: "You die..." }],
  ];
  for (const [round, msg] of recorded) socket.receive({ Recorded: { round, msg } });
  socket.receive({ RecordingEnd: { cut: false } });
}

/** A page where ann, kept, plays on depth 1 of a 20 x 10 level. */
async function annPlays(): Promise<{ page: ReturnType<typeof browser>; game: FakeSocket }> {
  const storage = new Map([["http://game.test:8080", JSON.stringify({ name: "ann", token: "000102030405060708090a0b0c0d0e0f" })]]);
  const page = browser(storage);
  await load();
  const game = FakeSocket.all[0]!;
  game.open();
  game.receive({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 8, actions_per_second: 20, token: null, world: "" } });
  game.receive(enterLevel(1, 20, 10));
  return { page, game };
}

/** A page where ann, kept, has just died with her grave numbered 3. */
async function annDied(): Promise<{ page: ReturnType<typeof browser>; game: FakeSocket }> {
  const { page, game } = await annPlays();
  game.receive({ Died: { ...record("ann"), morgue: 3 } });
  page.drawFrames();
  return { page, game };
}

const ASK_ANN_3 = { Recording: { version: PROTOCOL_VERSION, ask: { Grave: { name: "ann", life: 3, rounds: 100 } } } };

test("r on the end page asks for the last rounds on a new connection; a refusal is shown on the end page, which stays", async () => {
  const { page } = await annDied();
  assert.match(screen(), /Enter: a new character named ann {4}r: watch your last rounds {4}G: the graveyard {4}Esc: quit/);
  assert.equal(page.parts["replay"]?.hidden, false, "a friend's link shows beside the morgue file's");
  assert.equal(page.parts["replay"]?.textContent, "Watch the last rounds: http://game.test:8080/replay/ann/3");
  assert.equal(page.key("r", "KeyR"), true);
  const asked = FakeSocket.all[1]!;
  assert.equal(asked.url, "ws://game.test:8080/");
  asked.open();
  assert.deepEqual(asked.sent, [ASK_ANN_3]);
  page.drawFrames();
  assert.match(screen(), / {2}Morgue file: {11}http:\/\/game\.test:8080\/morgue\/ann\/3\.txt\n {2}Recording: {13}asking the server\.\.\./);
  // `r` again while asking is ignored, as the window ignores it: one ask at a time.
  page.key("r", "KeyR");
  assert.equal(asked.closed, null);
  assert.equal(FakeSocket.all.length, 2, "no second connection");
  page.drawFrames();
  assert.match(screen(), / {2}Recording: {13}asking the server\.\.\./);
  asked.receive({ Refused: { NoRecording: { reason: "ann's last depth is no longer kept" } } });
  asked.onclose?.({ code: 1000, reason: "", wasClean: true });
  page.drawFrames();
  assert.match(screen(), / {2}Recording: {13}no recording: ann's last depth is no longer kept/);
  assert.match(screen(), /You died on depth 4/, "the end page stays");
});

test("a recording that came plays on the player page; Esc comes back to the end page as it was", async () => {
  const { page } = await annDied();
  page.key("r", "KeyR");
  const asked = FakeSocket.all[1]!;
  asked.open();
  sendRecording(asked);
  // The first group plays at once; Space pauses before any timer runs.
  assert.equal(page.key(" ", "Space"), true);
  assert.match(screen(), /Recording: ann on depth 1, round 40 \(40 to 52\), x1, paused/);
  assert.match(screen(), /Space: pause {4}\+\/-: faster, slower {4}\.: one round {4}Esc: back/);
  assert.equal(page.parts["replay"]?.hidden, true, "no link over the player");
  page.key("+", "Equal");
  page.key(".", "Period");
  assert.match(screen(), /Recording: ann on depth 1, round 45 \(40 to 52\), x2, paused/);
  assert.match(screen(), /The giant hits you\./);
  page.key(".", "Period");
  assert.match(screen(), /round 52 \(40 to 52\), x2, ended/);
  assert.equal(page.key("Escape", "Escape"), true);
  assert.match(screen(), /You died on depth 4/);
  assert.doesNotMatch(screen(), /Recording:/, "the line of the recording asked is gone once it came");
  assert.equal(FakeSocket.all.length, 2, "nothing else connected");
});

test("in play, a graveyard letter plays that fall; the game's keys stay off the game, its messages still come, and Esc goes back to the graveyard", async () => {
  const { page, game } = await annPlays();
  page.key("G", "KeyG");
  assert.deepEqual(game.sent.at(-1), "Graveyard");
  game.receive({ Graveyard: [{ ...record("bob"), morgue: 4 }, record("old")] });
  page.drawFrames();
  assert.match(screen(), / {2}a\) bob /);
  assert.match(screen(), / {2}a: watch a fall {4}any other key: back/);
  // Asked, then given up: the page put away closes its connection.
  page.key("a", "KeyA");
  const given = FakeSocket.all[1]!;
  given.open();
  page.key("Escape", "Escape");
  assert.notEqual(given.closed, null, "the ask given up");
  page.key("G", "KeyG");
  game.receive({ Graveyard: [{ ...record("bob"), morgue: 4 }, record("old")] });
  page.key("a", "KeyA");
  const asked = FakeSocket.all[2]!;
  asked.open();
  assert.deepEqual(asked.sent, [{ Recording: { version: PROTOCOL_VERSION, ask: { Grave: { name: "bob", life: 4, rounds: 100 } } } }]);
  sendRecording(asked);
  page.key(" ", "Space");
  assert.match(screen(), /Recording: ann on depth 1, round 40 \(40 to 52\), x1, paused/);
  const sent = game.sent.length;
  page.key("h", "KeyH");
  page.key("Enter", "Enter");
  assert.equal(game.sent.length, sent, "no game key reaches the game");
  game.receive({ Note: "A bat flutters by." });
  page.drawFrames();
  assert.doesNotMatch(screen(), /A bat flutters by\./, "the recording's mirror is its own");
  page.key("Escape", "Escape");
  page.drawFrames();
  assert.match(screen(), / {2}a\) bob /, "back to the graveyard");
  page.key("Escape", "Escape");
  page.drawFrames();
  assert.match(screen(), /A bat flutters by\./, "the game's mirror kept up meanwhile");
});

test("an address /replay/NAME/LIFE asks for that recording at once, with no name form, and Esc leaves to the form", async () => {
  const page = browser(new Map(), "", "/replay/ann/3");
  await load();
  assert.equal(page.parts["join"]?.hidden, true, "no name is asked");
  const asked = FakeSocket.all[0]!;
  asked.open();
  assert.deepEqual(asked.sent, [ASK_ANN_3]);
  page.drawFrames();
  assert.match(screen(), /\nEsc: back\nRecording: asking the server\.\.\.\n/, "while it comes");
  sendRecording(asked);
  page.key(" ", "Space");
  assert.match(screen(), /Recording: ann on depth 1, round 40 \(40 to 52\), x1, paused/);
  page.key("Escape", "Escape");
  assert.equal(page.parts["join"]?.hidden, false, "the page's start: the name form");
  // Refused: the form says why.
  const refused = browser(new Map(), "", "/replay/ann/9");
  await load();
  const again = FakeSocket.all[0]!;
  again.open();
  again.receive({ Refused: { NoRecording: { reason: "ann has no life 9" } } });
  assert.equal(refused.parts["join"]?.hidden, false);
  assert.equal(refused.parts["join-why"]?.textContent, "Recording: no recording: ann has no life 9");
  // Esc while it is asked for: the name form, the ask given up.
  const leaving = browser(new Map(), "", "/replay/ann/4");
  await load();
  const third = FakeSocket.all[0]!;
  third.open();
  assert.equal(leaving.key("Escape", "Escape"), true);
  assert.notEqual(third.closed, null, "the ask's connection is closed");
  assert.equal(leaving.parts["join"]?.hidden, false);
});

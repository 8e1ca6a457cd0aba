// The connection over a fake WebSocket: the hello first, one message a
// binary frame, a text frame or an unreadable frame shown as the reason
// and the socket closed, the close code and reason worded as the window
// words them, and quitting with the quit action then a closing handshake.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Connection, closeEnding, closeReason, serverUrl, type Socket } from "../src/net";
import type { Ending } from "../src/session/retry";
import { decodeClient, encodeServer, type ClientMsg, type ServerMsg } from "../src/protocol";
import { keyOf, typedChar } from "../src/session/keyboard";
import { TokenStore } from "../src/session/tokens";
import { welcome } from "./fixtures";

class FakeSocket implements Socket {
  binaryType = "blob";
  readyState = 0;
  sent: ClientMsg[] = [];
  closedWith: [number | undefined, string | undefined] | null = null;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;

  send(data: Uint8Array): void {
    assert.equal(this.readyState, 1, "sent only once open");
    this.sent.push(decodeClient(data));
  }
  close(code?: number, reason?: string): void {
    this.closedWith = [code, reason];
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  frame(data: unknown): void {
    this.onmessage?.({ data });
  }
}

function connected(): { socket: FakeSocket; heard: ServerMsg[]; ends: string[]; endings: Ending[]; c: Connection } {
  const socket = new FakeSocket();
  const heard: ServerMsg[] = [];
  const ends: string[] = [];
  const endings: Ending[] = [];
  const hello: ClientMsg = { Hello: { version: 12, name: "ann", token: null } };
  const c = new Connection("ws://here/", hello, { message: (m) => heard.push(m), closed: (r, e) => { ends.push(r); endings.push(e); } }, () => socket);
  return { socket, heard, ends, endings, c };
}

const frame = (msg: ServerMsg) => {
  const bytes = encodeServer(msg);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
};

test("the hello goes first once the socket opens, then what was queued, then each message as sent", () => {
  const { socket, heard, c } = connected();
  assert.equal(socket.binaryType, "arraybuffer");
  c.send({ Act: "Wait" });
  socket.open();
  c.send("Who");
  assert.deepEqual(socket.sent, [{ Hello: { version: 12, name: "ann", token: null } }, { Act: "Wait" }, "Who"]);
  socket.frame(frame(welcome(1, 20, 10)));
  assert.deepEqual(heard, [welcome(1, 20, 10)]);
});

test("a text frame or an unreadable frame is the reason shown, and the socket is closed", () => {
  const text = connected();
  text.socket.open();
  text.socket.frame("hello");
  assert.deepEqual(text.ends, ["the server sent a text frame, not a binary message"]);
  assert.deepEqual(text.socket.closedWith, [1000, ""]);
  assert.equal(text.c.send("Who"), false, "gone");
  const bad = connected();
  bad.socket.open();
  bad.socket.frame(new Uint8Array([0xff, 0xff]).buffer);
  assert.match(bad.ends[0] ?? "", /^the server sent something unreadable: /);
  assert.notEqual(bad.socket.closedWith, null);
  assert.deepEqual(bad.heard, []);
  // The close that follows is not told again.
  bad.socket.onclose?.({ code: 1000, reason: "", wasClean: true });
  assert.equal(bad.ends.length, 1);
});

test("a close from the server is told with its reason, and its code when it is no normal one", () => {
  const { socket, ends } = connected();
  socket.open();
  socket.onclose?.({ code: 1000, reason: "your character died", wasClean: true });
  assert.deepEqual(ends, ["the server closed the connection: your character died"]);
  assert.equal(closeReason(1005, "", true, "ws://x/"), "the server closed the connection");
  assert.equal(closeReason(1008, "too many messages", true, "ws://x/"), "the server closed the connection: too many messages (code 1008)");
  assert.equal(closeReason(1006, "", true, "ws://x/"), "the connection broke");
  assert.equal(closeReason(1006, "", false, "ws://x/"), "cannot connect to ws://x/");
});

test("quitting sends the quit action, then closes with the handshake", () => {
  const { socket, ends, endings, c } = connected();
  socket.open();
  c.quit();
  assert.deepEqual(socket.sent.slice(1), [{ Act: "Quit" }]);
  assert.deepEqual(socket.closedWith, [1000, ""]);
  assert.deepEqual(ends, ["you left the game"]);
  assert.deepEqual(endings, [{ Code: 1000 }], "the page's own end: not tried again");
});

test("how a connection ended is told: a drop, the server's code, or an unreadable frame", () => {
  const restart = connected();
  restart.socket.open();
  restart.socket.onclose?.({ code: 1012, reason: "The server is restarting", wasClean: true });
  assert.deepEqual(restart.endings, [{ Code: 1012 }]);
  assert.deepEqual(restart.ends, ["the server closed the connection: The server is restarting"]);
  assert.deepEqual(closeEnding(1006, true), "Dropped", "cut without a close frame");
  assert.deepEqual(closeEnding(1000, false), "Dropped", "never opened");
  assert.deepEqual(closeEnding(1008, true), { Code: 1008 });
  const bad = connected();
  bad.socket.open();
  bad.socket.frame("text");
  assert.deepEqual(bad.endings, ["Unreadable"]);
  const slow = connected();
  slow.c.giveUpOpening();
  assert.deepEqual(slow.endings, ["Dropped"]);
  assert.match(slow.ends[0] ?? "", /^cannot connect to ws:\/\/here\/: no answer in 10 s$/);
  const opened = connected();
  opened.socket.open();
  opened.c.giveUpOpening();
  assert.deepEqual(opened.endings, [], "an open connection is kept");
});

test("the server is the page's own host, over wss from an https page", () => {
  assert.equal(serverUrl({ protocol: "http:", host: "example.org:8080" }), "ws://example.org:8080/");
  assert.equal(serverUrl({ protocol: "https:", host: "example.org" }), "wss://example.org/");
});

test("keyboard events are the game's keys, typed characters as typed", () => {
  const ev = (key: string, code = "", mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
    key,
    code,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    ...mods,
  });
  assert.deepEqual(keyOf(ev("ArrowUp")), "Up");
  assert.deepEqual(keyOf(ev("W", "KeyW")), { char: "W" });
  assert.deepEqual(keyOf(ev(">", "Period")), { char: ">" });
  assert.deepEqual(keyOf(ev("8", "Numpad8")), { numpad: 8 });
  assert.deepEqual(keyOf(ev("ArrowUp", "Numpad8")), { numpad: 8 }, "whatever Num Lock says");
  assert.deepEqual(keyOf(ev("Enter", "NumpadEnter")), "Enter");
  assert.deepEqual(keyOf(ev("p", "KeyP", { ctrlKey: true })), { ctrl: "p" });
  assert.deepEqual(keyOf(ev("=", "Equal", { ctrlKey: true })), { ctrl: "+" });
  assert.equal(keyOf(ev("k", "KeyK", { altKey: true })), null);
  assert.equal(keyOf(ev("Shift", "ShiftLeft")), null);
  assert.equal(typedChar(ev("é")), "é");
  assert.equal(typedChar(ev("🐉")), "🐉");
  assert.equal(typedChar(ev("c", "KeyC", { ctrlKey: true })), null);
});

test("the name and the token are kept per server, and a damaged record reads as none", () => {
  const items = new Map<string, string>();
  const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
  const here = new TokenStore(storage, "http://here:8080");
  assert.equal(here.load(), null);
  here.keepName("ann");
  const token = Array.from({ length: 16 }, (_, i) => i * 17);
  assert.match(here.keep(token), /kept in this browser, for http:\/\/here:8080/);
  assert.deepEqual(here.load(), { name: "ann", token });
  assert.equal(new TokenStore(storage, "http://there:8080").load(), null, "another server's");
  here.keepName("ann");
  assert.deepEqual(here.load()?.token, token, "the same name keeps its token");
  here.keepName("bob");
  assert.deepEqual(here.load(), { name: "bob", token: null }, "a new name has none yet");
  items.set("http://here:8080", "{not json");
  assert.equal(here.load(), null);
  items.set("http://here:8080", JSON.stringify({ name: "ann", token: "zz" }));
  assert.deepEqual(here.load(), { name: "ann", token: null });
});

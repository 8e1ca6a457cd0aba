// The key table: each key gives the ClientMsg the window's input.rs and
// session give it, read through the session as the page drives it.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { Action, ChatTo, ClientMsg, MonsterChange, ServerMsg } from "../src/protocol";
import { readIntent, table, type Key } from "../src/session/keys";
import { Session, type KeyOutcome } from "../src/session/session";
import { NO_TOKENS, appeared, enterLevel, idx, kind, playing, record, sight } from "./fixtures";

const ch = (c: string): Key => ({ char: c });
const pad = (n: number): Key => ({ numpad: n });
const act = (a: Action): KeyOutcome => ({ send: { Act: a } });

/** Presses `key` on a fresh press. */
function press(s: Session, key: Key): KeyOutcome {
  return s.onKey(key, false, false, 0);
}

function feed(s: Session, ...msgs: ServerMsg[]): Session {
  for (const m of msgs) {
    const why = s.onMessage(m);
    if (why !== null) throw new Error(why);
  }
  return s;
}

/**
 * Playing at (5, 5) with a potion (a), darts (b), a wielded dagger (c),
 * leather (d), a scroll (e) and a sword (f), and a kobold at (7, 5).
 */
function armed(): Session {
  const item = (name: string, cls: "Potion" | "Missile" | "Weapon" | "Armour" | "Scroll" | "Wand") => ({ name, glyph: "!", colour: [1, 2, 3] as [number, number, number], class: cls, known: true });
  return feed(
    playing(),
    { ItemKinds: [item("potion of healing", "Potion"), item("dart", "Missile"), item("dagger", "Weapon"), item("leather armour", "Armour"), item("scroll", "Scroll"), item("sword", "Weapon"), item("oak wand", "Wand")] },
    { Pack: [{ kind: 0, count: 1, equipped: false }, { kind: 1, count: 6, equipped: false }, { kind: 2, count: 1, equipped: true }, { kind: 3, count: 1, equipped: false }, { kind: 4, count: 1, equipped: false }, { kind: 5, count: 1, equipped: false }, { kind: 6, count: 1, equipped: false }] },
    { Kinds: [kind("kobold", "k")] },
    sight({ x: 5, y: 5 }, { revealed: [[idx(0, 0), "Floor"], [idx(1, 0), "Floor"]] }),
    { Monsters: [appeared(4, 0, { x: 7, y: 5 })] },
  );
}

test("moves: vi-keys and the numpad in eight directions, arrows in four, 5 and numpad 5 wait", () => {
  const table: [Key, KeyOutcome][] = [
    [ch("k"), act({ Move: "N" })],
    [ch("u"), act({ Move: "NE" })],
    [ch("l"), act({ Move: "E" })],
    [ch("n"), act({ Move: "SE" })],
    [ch("j"), act({ Move: "S" })],
    [ch("b"), act({ Move: "SW" })],
    [ch("h"), act({ Move: "W" })],
    [ch("y"), act({ Move: "NW" })],
    [pad(8), act({ Move: "N" })],
    [pad(9), act({ Move: "NE" })],
    [pad(6), act({ Move: "E" })],
    [pad(3), act({ Move: "SE" })],
    [pad(2), act({ Move: "S" })],
    [pad(1), act({ Move: "SW" })],
    [pad(4), act({ Move: "W" })],
    [pad(7), act({ Move: "NW" })],
    ["Up", act({ Move: "N" })],
    ["Down", act({ Move: "S" })],
    ["Left", act({ Move: "W" })],
    ["Right", act({ Move: "E" })],
    [pad(5), act("Wait")],
    [ch("5"), act("Wait")],
    [pad(0), "Ignore"],
    [ch("w"), "Redraw"],
    [ch("a"), "Ignore"],
    [ch("s"), "Ignore"],
  ];
  for (const [key, outcome] of table) assert.deepEqual(press(playing(), key), outcome, JSON.stringify(key));
});

test("stairs, explore, rest, pick up and the graveyard", () => {
  const table: [Key, KeyOutcome][] = [
    [ch("."), act("Descend")],
    [ch(">"), act("Descend")],
    [ch("<"), act("Ascend")],
    [ch("o"), act("Explore")],
    [ch("R"), act("Rest")],
    [ch("g"), act("PickUp")],
    [ch(","), act("PickUp")],
    [ch("G"), { send: "Graveyard" }],
    ["Tab", "Ignore"],
  ];
  for (const [key, outcome] of table) assert.deepEqual(press(playing(), key), outcome, JSON.stringify(key));
  // Shift with the unshifted key, as some keyboards report it.
  assert.deepEqual(playing().onKey(ch("."), true, false, 0), act("Descend"));
  assert.deepEqual(playing().onKey(ch(","), true, false, 0), act("Ascend"));
  assert.deepEqual(playing().onKey(ch("r"), true, false, 0), act("Rest"));
});

test("each item key asks for a slot, and the slot's letter sends the action", () => {
  const table: [string, string, Action][] = [
    ["d", "c", { Drop: 2 }],
    ["q", "a", { Quaff: 0 }],
    ["r", "e", { Read: 4 }],
    ["w", "f", { Wield: 5 }],
    ["W", "d", { Wear: 3 }],
    ["T", "c", { TakeOff: 2 }],
  ];
  for (const [key, slot, action] of table) {
    const s = armed();
    assert.equal(press(s, ch(key)), "Redraw", key);
    assert.equal(typeof s.page() === "object" ? "choose" : s.page(), "choose", `${key} opens a prompt`);
    assert.deepEqual(press(s, ch(slot)), act(action), `${key} ${slot}`);
    assert.equal(s.page(), "Map", "the prompt closed");
  }
  // A letter that does not suit is refused in the log and closes the prompt.
  const s = armed();
  press(s, ch("w"));
  assert.equal(press(s, ch("c")), "Redraw");
  assert.equal(s.state.log.at(-1)?.text, "You already wield that.");
  assert.equal(s.page(), "Map");
  press(s, ch("q"));
  assert.equal(press(s, "Escape"), "Redraw", "Esc cancels, not quits");
  assert.equal(s.page(), "Map");
});

test("t chooses a missile then aims at the nearest monster; f fires the first at once", () => {
  const s = armed();
  press(s, ch("t"));
  assert.equal(press(s, ch("b")), "Redraw");
  assert.deepEqual(s.scene().aim?.at, { x: 7, y: 5 });
  press(s, ch("k"));
  assert.deepEqual(press(s, "Enter"), act({ Throw: { slot: 1, at: { x: 7, y: 4 } } }));
  assert.equal(s.scene().aim, null);
  press(s, ch("f"));
  assert.deepEqual(press(s, ch("f")), act({ Throw: { slot: 1, at: { x: 7, y: 5 } } }));
  feed(s, { Pack: [] });
  press(s, ch("f"));
  assert.equal(s.state.log.at(-1)?.text, "You have nothing to fire.");
});

test("z chooses a wand then aims with the same cursor; Enter or . zaps, Esc cancels", () => {
  const s = armed();
  press(s, ch("z"));
  assert.deepEqual(s.page(), { choose: "Zap" });
  assert.equal(press(s, ch("b")), "Redraw");
  assert.equal(s.state.log.at(-1)?.text, "You cannot zap that.", "darts are no wand");
  press(s, ch("z"));
  assert.equal(press(s, ch("g")), "Redraw");
  assert.deepEqual([s.scene().aim?.slot, s.scene().aim?.zaps, s.scene().aim?.at], [6, true, { x: 7, y: 5 }]);
  assert.equal(press(s, "Escape"), "Redraw", "Esc cancels");
  assert.equal(s.scene().aim, null);
  press(s, ch("z"));
  press(s, ch("g"));
  press(s, ch("l"));
  assert.deepEqual(press(s, ch(".")), act({ Zap: { slot: 6, at: { x: 8, y: 5 } } }));
  assert.equal(s.scene().aim, null, "the aim is over");
  press(s, ch("z"));
  press(s, ch("g"));
  assert.deepEqual(press(s, "Enter"), act({ Zap: { slot: 6, at: { x: 7, y: 5 } } }));
});

test("Enter opens a line: its keys never move the player, and Enter says it as chat.rs reads it", () => {
  const said = (typed: string): KeyOutcome => {
    const s = playing();
    assert.equal(press(s, "Enter"), "Redraw");
    for (const key of [ch("k"), "Up", pad(8), ch(".")] as Key[]) assert.ok(!(typeof press(s, key) === "object"), "no action while typing");
    s.chat.line?.home();
    s.chat.line?.end();
    s.onText(typed.slice(4));
    s.chat.line?.home();
    s.onText(typed.slice(0, 4));
    return press(s, "Enter");
  };
  const chat = (to: ChatTo, text: string): KeyOutcome => ({ send: { Chat: { to, text } } });
  assert.deepEqual(said("kkk found the stairs "), chat("Depth", "kkk found the stairs"));
  assert.deepEqual(said("/shout anyone?"), chat("Everyone", "anyone?"));
  assert.deepEqual(said("/w bob  meet at the stairs"), chat({ Player: "bob" }, "meet at the stairs"));
  assert.deepEqual(said("/who"), { send: "Who" });
  assert.deepEqual(said("/kick  bob "), { send: { Audience: { Kick: "bob" } } });
  assert.deepEqual(said("/nowatch"), { send: { Audience: "Refuse" } });
  assert.deepEqual(said("/w bob"), "Redraw");
  assert.deepEqual(said("/shout"), "Redraw");
});

test("muting keeps a name's lines out of the log, still checked", () => {
  const s = playing();
  press(s, "Enter");
  s.onText("/mute bob");
  press(s, "Enter");
  assert.equal(s.state.log.at(-1)?.text, "You no longer hear bob.");
  const lines = s.state.log.length;
  assert.equal(s.onMessage({ Chat: { from: 2, name: "bob", to: "Depth", text: "hello" } }), null);
  assert.equal(s.state.log.length, lines);
  assert.match(s.onMessage({ Chat: { from: 2, name: "bob", to: "Depth", text: "a bell\u0007" } }) ?? "", /chat no server sends/);
});

test("Esc stops an order under way, else asks before quitting; y quits", () => {
  const s = playing();
  const explore = press(s, ch("o"));
  assert.deepEqual(explore, act("Explore"));
  s.sent({ Act: "Explore" }, 0);
  assert.deepEqual(press(s, "Escape"), { send: "Stop" });
  assert.equal(s.state.log.at(-1)?.text, "You stop.");
  assert.equal(press(s, "Escape"), "Redraw", "asks");
  assert.equal(s.scene().askingToQuit, true);
  assert.equal(press(s, ch("n")), "Redraw", "any other key goes back");
  press(s, "Escape");
  assert.equal(press(s, ch("y")), "Quit");
  // Once the server says it stopped, Esc asks again.
  const t = playing();
  t.sent({ Act: "Rest" }, 0);
  t.onMessage("Stopped");
  assert.equal(press(t, "Escape"), "Redraw");
  // A stairs key is no order the server always ends.
  const u = playing();
  u.sent({ Act: "Descend" }, 0);
  assert.equal(press(u, "Escape"), "Redraw");
});

test("i, ? and a graveyard asked for show pages that any key puts away", () => {
  const s = playing();
  assert.equal(press(s, ch("i")), "Redraw");
  assert.equal(s.page(), "Pack");
  assert.equal(press(s, "Up"), "Redraw", "not a step");
  assert.equal(s.page(), "Map");
  press(s, ch("?"));
  assert.equal(s.page(), "Help");
  assert.equal(press(s, "Escape"), "Redraw", "Esc puts it away");
  assert.deepEqual(press(s, ch("G")), { send: "Graveyard" });
  assert.equal(s.page(), "Map", "not yet come");
  feed(s, { Graveyard: [record("bob")] });
  assert.equal(s.page(), "Graveyard");
  press(s, ch("x"));
  assert.deepEqual(press(s, "Up"), act({ Move: "N" }), "walking again");
});

test("a held key repeats only once answered and at the server's pace", () => {
  const s = playing();
  const step: ClientMsg = { Act: { Move: "N" } };
  assert.deepEqual(s.onKey("Up", false, false, 0), { send: step });
  s.sent(step, 0);
  assert.equal(s.onKey("Up", false, true, 1000), "Ignore", "unanswered");
  assert.deepEqual(s.onKey("Up", false, false, 1000), { send: step }, "a fresh press");
  feed(s, sight({ x: 1, y: 1 }));
  assert.equal(s.onKey("Up", false, true, 10), "Ignore", "faster than 20 a second");
  assert.deepEqual(s.onKey("Up", false, true, 1000), { send: step });
});

test("a held key stops repeating when a monster comes into view, until pressed again", () => {
  const s = feed(playing(), { Kinds: [kind("kobold", "k")] });
  const step: ClientMsg = { Act: { Move: "N" } };
  const answer = (...monsters: MonsterChange[]) => feed(s, sight({ x: 5, y: 5 }, { monsters }));
  assert.deepEqual(s.onKey("Up", false, false, 0), { send: step });
  s.sent(step, 0);
  answer();
  assert.deepEqual(s.onKey("Up", false, true, 100), { send: step }, "held");
  s.sent(step, 100);
  answer(appeared(4, 0, { x: 7, y: 5 }, true));
  assert.equal(s.onKey("Up", false, true, 300), "Ignore", "a kobold came");
  // Gone again, it still stopped the key that was held when it came.
  feed(s, { Monsters: [{ Vanished: { id: 4 } }] });
  assert.equal(s.onKey("Up", false, true, 300), "Ignore", "still stopped");
  assert.deepEqual(s.onKey("Up", false, false, 300), { send: step }, "pressed again");
  s.sent(step, 300);
  answer();
  assert.deepEqual(s.onKey("Up", false, true, 400), { send: step }, "held again");
});

test("after a death Enter starts again and nothing else is sent; a watcher never acts", () => {
  const s = playing();
  feed(s, { Died: record("ann") });
  s.onClosed("the server closed the connection: your character died", { Code: 1000 });
  assert.equal(s.page(), "End");
  assert.equal(press(s, "Up"), "Ignore");
  assert.equal(press(s, "Enter"), "Again");
  assert.equal(press(s, "Escape"), "Quit");
  const w = feed(playing(), { Watching: { player: "ann", you: 7 } });
  assert.equal(press(w, "Up"), "Redraw");
  assert.equal(w.state.log.at(-1)?.text, "You are watching ann: you cannot act (Esc leaves).");
  assert.equal(press(w, "Escape"), "Quit", "a watcher leaves at once");
  // The watched player died: Enter watches again (a page cannot close itself).
  feed(w, { Died: record("ann") });
  w.onClosed("the server closed the connection: ann left the game", { Code: 1000 });
  assert.equal(w.page(), "End");
  assert.equal(press(w, "Enter"), "Again");
});

test("nothing is sent before the welcome; a link lost for good is joined again with Enter", () => {
  const before = new Session("ws://here/", NO_TOKENS);
  for (const key of ["l", "o", "5", ">"] as const) assert.equal(press(before, { char: key }), "Ignore", `${key} before the welcome`);
  const s = feed(playing(), enterLevel(2, 20, 10));
  s.onClosed("another connection took over this character", { Code: 1008 });
  assert.deepEqual(s.link, { lost: "another connection took over this character" });
  assert.equal(press(s, "Up"), "Ignore");
  assert.equal(press(s, "Enter"), "Again");
  assert.equal(press(s, "Escape"), "Quit", "nothing to lose");
});

test("a click on a remembered cell travels there; an unknown one is said to be unknown", () => {
  const s = armed();
  assert.deepEqual(s.onClick({ x: 6, y: 5 }, 0), act({ Travel: { x: 6, y: 5 } }));
  assert.equal(s.onClick({ x: 1, y: 1 }, 0), "Redraw");
  assert.equal(s.state.log.at(-1)?.text, "You do not know that place.");
  assert.equal(s.onClick({ x: 5, y: 5 }, 0), "Ignore", "where the player stands");
});

test("a key bound in the window's tables to a meaning the page does not know fails as the tables load", () => {
  assert.throws(
    () => table("map", [[{ char: "p" }, false, "Who"]], readIntent),
    /keys.json binds \{"char":"p"\} in map to "Who", which the page does not know/,
  );
  const known = table("map", [[{ char: "p" }, true, { Act: "Wait" }]], readIntent);
  assert.deepEqual(known.get(`${JSON.stringify({ char: "p" })}+shift`), { act: "Wait" });
});

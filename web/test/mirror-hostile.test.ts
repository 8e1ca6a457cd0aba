// A hostile server: sizes and indices that do not fit become the reason the
// connection ends, never an exception, never an allocation sized by the
// server, and the mirror is left as it was.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { MonsterChange, ServerMsg } from "../src/protocol";
import { LOG_LINES, MAX_NOTE_CHARS, MAX_ROSTER } from "../src/state";
import { appeared, applyAll, enterLevel, kind, onLevel, playing, record, sight, snapshot, welcome, welcomed } from "./fixtures";

/** Applies `msg`, which must be refused with a reason matching `why`, changing nothing. */
function refused(msg: ServerMsg, why: RegExp, s = onLevel()): void {
  const before = snapshot(s);
  const said = s.apply(msg);
  assert.match(said ?? "(accepted)", why);
  assert.deepEqual(snapshot(s), before, "the mirror changed");
}

test("a level of 65535 x 65535 is refused before anything is allocated", () => {
  const s = onLevel();
  const started = performance.now();
  refused(enterLevel(2, 0xffff, 0xffff), /65535 x 65535 cells is larger than the protocol allows/, s);
  assert.equal(s.known.length, 20 * 10, "the old map kept, no new one made");
  assert.ok(performance.now() - started < 50, "refused at once");
  refused(welcome(1, 0xffff, 10), /larger than the protocol allows/, s);
  refused(welcome(1, 0, 10), /a map with no cells/, s);
  refused({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 9, actions_per_second: 20, token: null, world: "" } }, /sight radius/, s);
  refused({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 8, actions_per_second: 20, token: null, world: "x".repeat(41) } }, /a world name the server would never allow/, s);
  refused({ Welcome: { you: 1, width: 20, height: 10, sight_radius: 8, actions_per_second: 20, token: null, world: "a\u001b[2Jb" } }, /a world name the server would never allow/, s);
  refused(enterLevel(2, 257, 10), /larger than the protocol allows/, s);
});

test("an index past the sight disc is refused, whichever list names it", () => {
  const s = onLevel();
  applyAll(s, sight({ x: 5, y: 5 }));
  for (const index of [197, 200, 255]) {
    refused(sight({ x: 5, y: 5 }, { revealed: [[index, "Floor"]] }), new RegExp(`sight index ${index} is outside`), s);
    refused(sight({ x: 5, y: 5 }, { shown: [index] }), /outside the sight disc/, s);
    refused(sight({ x: 6, y: 5 }, { hidden: [index] }), /outside the sight disc/, s);
  }
  // In the disc, but off the map's edge.
  refused(sight({ x: 0, y: 0 }, { revealed: [[0, "Wall"]] }), /outside the sight disc|off the map/, s);
  refused(sight({ x: 19, y: 9 }, { revealed: [[196, "Wall"]] }), /off the map/, s);
});

test("a flood of monster ids is refused past what any depth holds", () => {
  const s = onLevel(1, 256, 256);
  applyAll(s, { Kinds: [kind("rat", "r")] });
  const flood: MonsterChange[] = [];
  for (let id = 0; id <= MAX_ROSTER; id++) flood.push(appeared(id, 0, { x: id % 256, y: Math.floor(id / 256) }));
  refused({ Monsters: flood }, /more in sight than any depth holds/, s);
  applyAll(s, { Monsters: flood.slice(0, MAX_ROSTER) });
  assert.equal(s.monsters.size, MAX_ROSTER);
  refused({ Monsters: [appeared(1_000_000, 0, { x: 1, y: 1 })] }, /more in sight/, s);
  // The same id over and over is one monster.
  const again = onLevel();
  applyAll(again, { Kinds: [kind("rat", "r")] }, { Monsters: new Array(10_000).fill(appeared(3, 0, { x: 1, y: 1 })) });
  assert.equal(again.monsters.size, 1);
  refused({ Players: new Array(MAX_ROSTER + 1).fill(0).map((_, id) => ({ Appeared: { id, name: "bob", at: { x: 0, y: 0 } } })) }, /more in sight/);
});

test("strings over the limits are refused, or cut where the window cuts them", () => {
  const s = onLevel();
  refused({ Kinds: [kind("x".repeat(41), "x")] }, /longer than the protocol allows/, s);
  refused({ Kinds: [kind("rat", "\u0007")] }, /control character/, s);
  refused({ ItemKinds: [{ name: "dart", glyph: "\u0085", colour: [1, 2, 3], class: "Missile", known: true }] }, /control character/, s);
  refused({ Chat: { from: 2, name: "bob", to: "Depth", text: "next line\u0085" } }, /chat no server sends/, s);
  refused({ Kinds: new Array(1025).fill(kind("rat", "r")) }, /more kinds of monster/, s);
  refused({ ItemKinds: [{ name: "", glyph: "!", colour: [1, 2, 3], class: "Potion", known: true }] }, /empty or longer/, s);
  refused({ Chat: { from: 2, name: "bob", to: "Depth", text: "é".repeat(201) } }, /chat no server sends/, s);
  refused({ Chat: { from: 2, name: "a-name-far-too-long", to: "Depth", text: "hi" } }, /player name/, s);
  refused({ Roster: ["x".repeat(17)] }, /player name/, s);
  refused({ Watchers: new Array(257).fill("bob") }, /more watchers/, s);
  refused({ Graveyard: new Array(2001).fill(record("ann")) }, /graveyard longer/, s);
  refused({ Died: record("ann", false, "k".repeat(41)) }, /longer than the protocol allows/, s);
  refused({ Vitals: { hp: 31, max: 30 } }, /hit points over their most/, s);
  // Forty dragons are forty characters, however many bytes.
  applyAll(s, { Kinds: [kind("🐉".repeat(40), "🐉")] });
  applyAll(s, { Note: "n".repeat(100_000) });
  assert.equal(s.log.at(-1)?.text.length, MAX_NOTE_CHARS, "a long note is cut");
  for (let i = 0; i < 3 * LOG_LINES; i++) applyAll(s, { Others: `line ${i}` });
  assert.equal(s.log.length, LOG_LINES);
});

test("a game message before the welcome is refused", () => {
  const s = welcomed();
  const fresh = new (s.constructor as new () => typeof s)();
  for (const m of [sight({ x: 0, y: 0 }), { Players: [] }, { Party: [] }, { Watchers: [] }, { Mapped: { remembered: [], terrain: [] } }] as ServerMsg[]) {
    assert.notEqual(fresh.apply(m), null, JSON.stringify(m));
  }
});

test("a session shows the reason, loses the link, and hears nothing more", () => {
  const s = playing();
  const why = s.onMessage(enterLevel(1, 0xffff, 0xffff));
  assert.match(why ?? "", /larger than the protocol allows/);
  assert.deepEqual(s.link, { lost: `the server is broken or hostile: ${why}` });
  const before = snapshot(s.state);
  assert.equal(s.onMessage({ Note: "and more" }), null);
  s.onClosed("closed", { Code: 1000 });
  assert.deepEqual(snapshot(s.state), before, "nothing more is taken from it");
  assert.match(JSON.stringify(s.link), /hostile/);
  assert.equal(s.onKey("Up", false, false, 0), "Ignore");
});

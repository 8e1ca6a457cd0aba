// The mirror applied to message sequences, as the Rust ClientState's tests
// apply them: a level entered, sights moving the player, monsters coming
// and going, chat, a death; and that a message that does not fit changes
// nothing.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { ItemInfo, ServerMsg, Terrain } from "../src/protocol";
import { ClientState, isVisible, shown, terrainAt } from "../src/state";
import { thirdPerson } from "../src/state/person";
import {
  appeared,
  applyAll,
  enterLevel,
  idx,
  kind,
  onLevel,
  record,
  sight,
  snapshot,
  welcome,
  welcomed,
} from "./fixtures";

test("a welcome sets who the player is and the map's size", () => {
  const s = welcomed(1, 20, 10);
  assert.equal(s.me, 1);
  assert.deepEqual([s.width, s.height], [20, 10]);
});

test("a game message before the welcome is refused", () => {
  const s = new ClientState();
  assert.equal(s.apply(sight({ x: 0, y: 0 })), "a game message arrived before the welcome");
});

test("entering a level restores what was remembered, and forgets the last level's players", () => {
  const s = onLevel();
  applyAll(s, { Players: [{ Appeared: { id: 2, name: "bob", at: { x: 3, y: 3 } } }] }, { Roster: ["bob"] }, { Waiting: ["bob"] });
  // Cells 0 and 2 of the first row.
  applyAll(s, enterLevel(2, 20, 10, [0b101], ["Wall", "Floor"]));
  assert.equal(terrainAt(s, { x: 0, y: 0 }), "Wall");
  assert.equal(terrainAt(s, { x: 1, y: 0 }), null);
  assert.equal(terrainAt(s, { x: 2, y: 0 }), "Floor");
  assert.equal(s.visible.reduce((n, v) => n + v, 0), 0);
  assert.equal(s.depth, 2);
  assert.equal(s.others.size + s.roster.length + s.waiting.length, 0);
});

test("a bitset and a terrain list that disagree are refused, and change nothing", () => {
  const s = onLevel();
  applyAll(s, enterLevel(1, 20, 10, [0b1], ["Wall"]));
  const before = snapshot(s);
  const cases: [number[], Terrain[]][] = [
    [[0b11], ["Floor"]],
    [[0b1], ["Floor", "Floor"]],
    [new Array<number>(26).fill(0), []],
    [[], ["Floor"]],
  ];
  for (const [remembered, terrain] of cases) {
    assert.notEqual(s.apply({ Mapped: { remembered, terrain } }), null, JSON.stringify(remembered));
    assert.notEqual(s.apply(enterLevel(3, 20, 10, remembered, terrain)), null);
    assert.deepEqual(snapshot(s), before);
  }
});

test("sight reveals, shows and hides cells relative to the right centre", () => {
  const s = onLevel();
  applyAll(s, sight({ x: 5, y: 5 }, { revealed: [[idx(0, 0), "Floor"], [idx(1, 0), "StairsDown"]] }));
  assert.deepEqual(s.at, { x: 5, y: 5 });
  assert.ok(isVisible(s, { x: 6, y: 5 }));
  // Step east: (5, 5) leaves sight, named from the old centre; (6, 5) stays.
  applyAll(s, sight({ x: 6, y: 5 }, { hidden: [idx(0, 0)], revealed: [[idx(1, 0), "Wall"]] }));
  assert.ok(!isVisible(s, { x: 5, y: 5 }));
  assert.equal(terrainAt(s, { x: 5, y: 5 }), "Floor", "remembered");
  assert.ok(isVisible(s, { x: 7, y: 5 }));
  // Step back: (5, 5) is shown again without its terrain.
  applyAll(s, { Displaced: { at: { x: 5, y: 5 }, hidden: [], shown: [idx(0, 0)], revealed: [], players: [], monsters: [], floor: [] } });
  assert.ok(isVisible(s, { x: 5, y: 5 }));
});

test("a map read adds to what is remembered and forgets nothing", () => {
  const s = onLevel();
  applyAll(s, enterLevel(1, 20, 10, [0b1], ["Wall"]), sight({ x: 1, y: 1 }, { revealed: [[idx(0, 0), "Floor"]] }));
  const bits = new Array<number>(25).fill(0);
  bits[0] = 0b1100;
  bits[24] = 0b1000_0000;
  applyAll(s, { Mapped: { remembered: bits, terrain: ["Floor", "StairsDown", "Wall"] } });
  assert.equal(terrainAt(s, { x: 0, y: 0 }), "Wall", "still remembered");
  assert.equal(terrainAt(s, { x: 3, y: 0 }), "StairsDown");
  assert.equal(terrainAt(s, { x: 19, y: 9 }), "Wall");
  assert.ok(isVisible(s, { x: 1, y: 1 }) && !isVisible(s, { x: 2, y: 0 }), "sight as it was");
  assert.equal(s.known.reduce((n, k) => n + (k > 0 ? 1 : 0), 0), 5);
});

test("showing a cell never revealed, or a cell off the map, is refused", () => {
  const s = onLevel();
  assert.equal(s.apply(sight({ x: 5, y: 5 }, { shown: [idx(0, 0)] })), "a cell shown again was never revealed");
  assert.match(s.apply(sight({ x: 0, y: 0 }, { revealed: [[idx(-1, 0), "Wall"]] })) ?? "", /outside the sight disc|off the map/);
  assert.equal(s.apply(sight({ x: 50, y: 0 })), "cell (50, 0) is off the map");
  assert.equal(s.apply(sight({ x: 5, y: 5 }, { hidden: [idx(0, 0)] })), "cells hidden before any sight");
});

test("players appear, move and vanish; one vanishing twice is refused", () => {
  const s = onLevel();
  applyAll(s, { Players: [{ Appeared: { id: 2, name: "bob", at: { x: 3, y: 3 } } }] });
  applyAll(s, { Players: [{ Moved: { id: 2, at: { x: 4, y: 3 } } }] });
  assert.deepEqual(s.others.get(2), { name: "bob", at: { x: 4, y: 3 } });
  applyAll(s, { Players: [{ Vanished: { id: 2 } }] });
  assert.equal(s.others.size, 0);
  assert.equal(s.apply({ Players: [{ Vanished: { id: 2 } }] }), "a change to something not in sight");
});

test("monsters appear, move, are hurt, fall asleep and vanish, each of a kind named", () => {
  const s = onLevel();
  assert.equal(s.apply({ Monsters: [appeared(7, 0, { x: 4, y: 4 })] }), "a monster of a kind never named");
  applyAll(s, { Kinds: [kind("rat", "r"), kind("orc", "o")] }, sight({ x: 3, y: 3 }, { monsters: [appeared(7, 1, { x: 4, y: 4 })] }));
  applyAll(s, { Monsters: [{ Moved: { id: 7, at: { x: 5, y: 4 } } }, { Hurt: { id: 7, wound: "Wounded" } }, { Slept: { id: 7, asleep: true } }] });
  assert.deepEqual(s.monsters.get(7), { kind: 1, at: { x: 5, y: 4 }, wound: "Wounded", asleep: true });
  assert.equal(s.apply({ Kinds: [kind("rat", "r")] }), "a monster in sight lost its kind");
  applyAll(s, { Monsters: [{ Vanished: { id: 7 } }] });
  assert.equal(s.monsters.size, 0);
  assert.equal(s.apply({ Monsters: [{ Moved: { id: 7, at: { x: 1, y: 1 } } }] }), "a change to something not in sight");
  // One that comes and goes within a message is followed in order.
  applyAll(s, { Monsters: [appeared(8, 0, { x: 1, y: 1 }), { Vanished: { id: 8 } }, appeared(8, 0, { x: 2, y: 1 })] });
  assert.deepEqual(s.monsters.get(8)?.at, { x: 2, y: 1 });
});

test("kinds told again (one learnt) rename what is carried, and keep it", () => {
  const s = onLevel();
  const murky: ItemInfo = { name: "murky potion", glyph: "!", colour: [1, 2, 3], class: "Potion", known: false };
  applyAll(s, { ItemKinds: [murky] }, { Pack: [{ kind: 0, count: 2, equipped: false }] });
  assert.equal(s.itemKind(0)?.name, "murky potion");
  applyAll(s, { ItemKinds: [{ ...murky, name: "potion of healing", colour: [9, 0, 0], known: true }] });
  assert.equal(s.itemKind(0)?.name, "potion of healing");
  assert.deepEqual(s.pack, [{ kind: 0, count: 2, equipped: false }]);
});

test("piles are remembered until seen gone, and forgotten on a new level", () => {
  const s = onLevel();
  applyAll(s, { ItemKinds: [{ name: "dart", glyph: "{", colour: [9, 9, 9], class: "Missile", known: true }] });
  const at = { x: 3, y: 3 };
  applyAll(s, { Floor: [{ at, top: { kind: 0, count: 12, more: false } }] });
  assert.equal([...s.floor.values()][0]?.top.count, 12);
  applyAll(s, { Floor: [{ at, top: null }] });
  assert.equal(s.floor.size, 0);
  applyAll(s, { Floor: [{ at, top: { kind: 0, count: 1, more: true } }] }, enterLevel(2, 20, 10));
  assert.equal(s.floor.size, 0, "another level's piles are not this one's");
  const before = snapshot(s);
  const bad: ServerMsg[] = [
    { Floor: [{ at: { x: 1, y: 1 }, top: { kind: 5, count: 1, more: false } }] },
    { Floor: [{ at: { x: 30, y: 3 }, top: null }] },
    { Pack: new Array(27).fill({ kind: 0, count: 1, equipped: false }) },
    { Pack: [{ kind: 3, count: 1, equipped: false }] },
    { Pack: [{ kind: 0, count: 0, equipped: false }] },
  ];
  for (const m of bad) {
    assert.notEqual(s.apply(m), null, JSON.stringify(m));
    assert.deepEqual(snapshot(s), before, JSON.stringify(m));
  }
});

test("chat is told apart from the game's lines, and a line said again is counted", () => {
  const s = onLevel();
  for (let i = 0; i < 3; i++) applyAll(s, { Combat: "You miss the jackal." });
  const chat: ServerMsg = { Chat: { from: 2, name: "bob", to: "Depth", text: "careful" } };
  applyAll(s, chat, { Combat: "You miss the jackal." });
  assert.deepEqual(s.log.map(shown), ["You miss the jackal. (x4)", "bob: careful"]);
  assert.deepEqual(s.log[1]?.speaker, { id: 2, from: 0, len: 3 });
  applyAll(s, { Chat: { from: 2, name: "bob", to: "Everyone", text: "run" } });
  applyAll(s, { Chat: { from: 2, name: "bob", to: { Player: "ann" }, text: "psst" } });
  applyAll(s, { Chat: { from: 1, name: "ann", to: { Player: "bob" }, text: "ok" } });
  assert.deepEqual(s.log.slice(-3).map(shown), ["bob shouts: run", "bob whispers: psst", "You whisper to bob: ok"]);
  assert.equal(s.apply({ Chat: { from: 2, name: "bob", to: "Depth", text: "a bell\u0007" } }), "a line of chat no server sends");
});

test("the log keeps its last lines only", () => {
  const s = onLevel();
  for (let i = 0; i < 205; i++) applyAll(s, { Note: `line ${i}` });
  assert.equal(s.log.length, 200);
  assert.equal(s.log[0]?.text, "line 5");
});

test("a death ends the game: no hit points, nobody waited for; an escape keeps them", () => {
  const s = onLevel();
  applyAll(s, { Vitals: { hp: 20, max: 30 } }, { Waiting: ["bob"] });
  assert.notEqual(s.apply({ Died: record("ann", true) }), null, "a death whose record says it escaped");
  applyAll(s, { Died: record("ann") });
  assert.deepEqual(s.hp, { hp: 0, max: 30 });
  assert.equal(s.ending()?.name, "ann");
  assert.deepEqual(s.waiting, []);
  const won = onLevel();
  applyAll(won, { Vitals: { hp: 20, max: 30 } }, { Escaped: record("ann", true, "the Gloamstone") });
  assert.deepEqual([won.death, won.hp, won.ending()?.escaped], [null, { hp: 20, max: 30 }, true]);
});

test("the roster follows arrivals and departures, sorted", () => {
  const s = onLevel();
  applyAll(s, { Roster: ["cat", "ann"] }, { Joined: ["bob"] });
  assert.deepEqual(s.roster, ["ann", "bob", "cat"]);
  applyAll(s, { Joined: ["eve", "dan", "bob"] }, { Left: ["ann"] }, { Left: ["zed", "dan", "eve"] });
  assert.deepEqual(s.roster, ["bob", "cat"]);
});

test("the party starts with the player, each member once", () => {
  const s = onLevel();
  const m = (id: number, name: string, hp = 10) => ({ id, name, hp, max: 30, level: 2 });
  applyAll(s, { Party: [m(1, "ann"), m(3, "cat"), m(2, "bob")] });
  assert.deepEqual(s.party.map((p) => p.name), ["ann", "cat", "bob"]);
  const before = snapshot(s);
  for (const party of [[m(2, "bob"), m(1, "ann")], [m(1, "ann"), m(2, "bob"), m(2, "bob")], [m(1, "ann"), m(2, "bob", 31)], [m(1, "ann"), m(2, "")]]) {
    assert.notEqual(s.apply({ Party: party }), null, JSON.stringify(party));
    assert.deepEqual(snapshot(s), before);
  }
});

test("a watcher reads the server's lines of its player by name, and hears who comes to watch", () => {
  const s = onLevel();
  applyAll(s, { Watching: { player: "ann", you: 9 } }, { Combat: "You miss the jackal." }, { Note: "Your pack is full." });
  assert.deepEqual(s.log.map((l) => l.text), ["You are watching ann.", "ann misses the jackal.", "ann's pack is full."]);
  // Another's deed done to the player is the player's too.
  applyAll(s, { Others: "bob swaps places with you." });
  assert.equal(s.log.at(-1)?.text, "bob swaps places with ann.");
  applyAll(s, { Watchers: ["bob", "cy"] }, { Watchers: ["cy"] });
  assert.deepEqual(s.log.slice(-3).map((l) => l.text), ["bob is watching ann.", "cy is watching ann.", "bob stopped watching ann."]);
  const player = onLevel();
  applyAll(player, { Combat: "You miss the jackal." });
  assert.equal(player.log[0]?.text, "You miss the jackal.", "the player's own");
});

test("a watcher reads the server's words to it about its watching as its own", () => {
  const s = onLevel();
  applyAll(s, { Watching: { player: "ann", you: 9 } });
  for (const line of ["You are watching ann: you cannot act.", "You pick up a dagger (b).", "You stop watching ann."]) applyAll(s, { Note: line });
  assert.deepEqual(s.log.map((l) => l.text), ["You are watching ann.", "You are watching ann: you cannot act.", "ann picks up a dagger (b).", "You stop watching ann."]);
});

test("a watcher reads of the others who watch, never of itself; its player reads of it", () => {
  const dan = new ClientState();
  dan.name = "dan";
  applyAll(dan, welcome(1, 20, 10), { Watching: { player: "ann", you: 9 } }, { Watchers: ["cy", "dan"] }, { Watchers: ["dan", "eve"] });
  assert.deepEqual(dan.log.map((l) => l.text), ["You are watching ann.", "cy is watching ann.", "eve is watching ann.", "cy stopped watching ann."]);
  const ann = new ClientState();
  ann.name = "ann";
  applyAll(ann, welcome(1, 20, 10), { Watchers: ["dan"] });
  assert.equal(ann.log.at(-1)?.text, "dan is watching you.");
  assert.equal(ann.name, "ann", "a welcome keeps the name");
});

test("/who is listed in lines a row holds", () => {
  const s = onLevel();
  const one = (name: string, watchers: number, watchable: boolean) => ({ name, watchers, watchable });
  const all = [one("ann", 2, true), one("bob", 0, false), one("cy", 0, true)];
  for (let i = 0; i < 8; i++) all.push(one(`player0${i}`, 0, true));
  applyAll(s, { Who: all });
  const lines = s.log.map((l) => l.text);
  assert.ok(lines[0]?.startsWith("Playing now (11), watch with ?watch=NAME: ann (2 watching)"), lines[0]);
  assert.ok(lines.every((l) => [...l].length <= 78), JSON.stringify(lines));
  assert.ok(lines.join("").includes("bob (not to be watched)") && lines.length >= 2);
});

test("a refusal is kept and said", () => {
  const s = new ClientState();
  applyAll(s, { Refused: "WrongToken" });
  assert.equal(s.refused, "WrongToken");
  assert.equal(s.log[0]?.text, "Refused: that name belongs to another player (its secret token did not match)");
});

test("a watcher's lines name the player, and its verbs agree", () => {
  const cases: [string, string][] = [
    ["You miss the jackal.", "ann misses the jackal."],
    ["You hit the orc (5).", "ann hits the orc (5)."],
    ["The jackal bites you (2).", "The jackal bites ann (2)."],
    ["You are at full health.", "ann is at full health."],
    ["You feel your wounds close.", "ann feels their wounds close."],
    ["You cannot read that.", "ann cannot read that."],
    ["You were counted away: the round went on without you.", "ann was counted away: the round went on without ann."],
    ["You pick up a dagger (b).", "ann picks up a dagger (b)."],
    ["Your pack is full.", "ann's pack is full."],
    ["You reach yourself.", "ann reaches themself."],
    ["You have 3 darts.", "ann has 3 darts."],
    ["A jackal comes into view.", "A jackal comes into view."],
  ];
  for (const [line, said] of cases) assert.equal(thirdPerson(line, "ann"), said, line);
});

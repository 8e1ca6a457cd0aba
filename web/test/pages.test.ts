// The pages that take the map's place: the graveyard, the pack, the end of
// a game, an item prompt, the log, the help and the discoveries, as
// pages.rs, reading.rs and discoveries.rs write them.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { DeathRecord } from "../src/protocol";
import { morgueUrl, sceneOf, type Page } from "../src/session/scene";
import type { ClientState } from "../src/state";
import { GAME_LINES, hud } from "../src/render/hud";
import { discoveriesLines } from "../src/render/discoveries";
import { lettered, pageLines, pageSize, scrollMost, whenUtc } from "../src/render/pages";
import { logScrollMost } from "../src/render/reading";
import { DEFAULT, TEXT_DIM, fromColour } from "../src/render/palette";
import { applyAll, onLevel, playing, record } from "./fixtures";

function text(s: ClientState, page: Page): string[] {
  return pageLines(sceneOf(s, "Playing", page), DEFAULT, 120, 40).map(([t]) => t);
}

function position(lines: string[], part: string): number {
  const i = lines.findIndex((l) => l.includes(part));
  assert.ok(i >= 0, `${part}: ${lines.join("\n")}`);
  return i;
}

const rec = (name: string, depth: number, level: number, by: string, escaped: boolean): DeathRecord => ({
  ...record(name, escaped, by),
  depth,
  level,
  rounds: 321n,
  kills: 12,
});

/** A pack of a potion, darts, a wielded dagger, a dagger, worn leather, a scroll and the artifact. */
function packed(): ClientState {
  const kind = (name: string, cls: "Potion" | "Missile" | "Weapon" | "Armour" | "Scroll" | "Artifact") => ({ name, glyph: "!", colour: [1, 2, 3] as [number, number, number], class: cls, known: true });
  const item = (k: number, count: number, equipped: boolean) => ({ kind: k, count, equipped });
  return applyAll(
    onLevel(),
    { ItemKinds: [kind("potion of healing", "Potion"), kind("dart", "Missile"), kind("dagger", "Weapon"), kind("leather armour", "Armour"), kind("scroll of mapping", "Scroll"), kind("Gloamstone", "Artifact")] },
    { Pack: [item(0, 2, false), item(1, 9, false), item(2, 1, true), item(2, 1, false), item(3, 1, true), item(4, 1, false), item(5, 1, false)] },
  );
}

test("the graveyard lists the living above the dead, with their levels", () => {
  const s = applyAll(onLevel(), { Graveyard: [rec("eve", 9, 11, "the Gloamstone", true), rec("bob", 7, 5, "an ogre", false)] });
  const lines = text(s, "Graveyard");
  const hall = position(lines, "The hall of the living");
  const eve = position(lines, "eve                  9    11     321    12  the Gloamstone");
  const yard = position(lines, "The graveyard");
  const bob = position(lines, "bob                  7     5     321    12  an ogre");
  assert.ok(hall < eve && eve < yard && yard < bob);
  assert.ok(lines[hall + 1]?.endsWith("escaped with") && lines[yard + 1]?.endsWith("by"));
  applyAll(s, { Graveyard: [rec("bob", 7, 5, "an ogre", false)] });
  position(text(s, "Graveyard"), "Nobody has escaped yet.");
});

/** The text of `page` in `rows` lines, scrolled `scroll` lines down. */
function scrolledTo(s: ClientState, page: Page, rows: number, scroll: number): string[] {
  const scene = sceneOf(s, "Playing", page);
  scene.pageScroll = scroll;
  return pageLines(scene, DEFAULT, 120, rows).map(([t]) => t);
}

function longGraveyard(): ClientState {
  const records = [...new Array(20).fill(rec("zed", 9, 11, "it", true)), ...Array.from({ length: 200 }, (_, i) => rec(`bob${i}`, 7, 5, "an ogre", false))];
  return applyAll(onLevel(), { Graveyard: records });
}

test("a long graveyard page scrolls under its keys", () => {
  const s = longGraveyard();
  for (const rows of [1, 2, 3, 5, 12, 20, 39]) {
    const lines = scrolledTo(s, "Graveyard", rows, 0);
    assert.ok(lines.length <= rows, `${rows} rows: ${lines.join("\n")}`);
    assert.match(lines.at(-1) ?? "", /Any key: back/, `${rows} rows`);
  }
  const lines = scrolledTo(s, "Graveyard", 12, 0);
  assert.equal(lines[0], "  The hall of the living");
  const total = 5 + 20 + 200;
  assert.deepEqual(lines.slice(10), ["", `  Any key: back    PgUp PgDn scroll (lines 1-10 of ${total})`]);
  const end = scrolledTo(s, "Graveyard", 12, Number.MAX_SAFE_INTEGER);
  assert.equal(end[9], "     bob199               7     5     321    12  an ogre");
  assert.ok(end[11]?.includes(`lines ${total - 9}-${total} of ${total}`));
  const all: string[] = [];
  for (let at = 0; at < total; at += 10) all.push(...scrolledTo(s, "Graveyard", 12, at));
  assert.equal(all.filter((l) => l.includes("zed")).length, 20, "every one of the living");
});

test("the graveyard page letters the falls that can be watched, the living first, a to z; the end page's tables have none", () => {
  const numbered = (name: string, escaped: boolean, morgue: number) => ({ ...rec(name, 3, 2, escaped ? "the Gloamstone" : "a rat", escaped), morgue });
  const records = [numbered("bob", false, 4), numbered("old", false, 0), numbered("eve", true, 2), ...Array.from({ length: 30 }, (_, i) => numbered("cat", false, i + 1))];
  const s = applyAll(onLevel(), { Graveyard: records });
  const lines = scrolledTo(s, "Graveyard", 80, 0);
  const graves = lettered(records);
  assert.equal(graves.length, 26);
  assert.deepEqual([graves[0]?.name, graves[1]?.name], ["eve", "bob"]);
  for (const line of [
    "     name             depth level  rounds kills  escaped with",
    "  a) eve                  3     2     321    12  the Gloamstone",
    "  b) bob                  3     2     321    12  a rat",
    "     old                  3     2     321    12  a rat",
    "  z) cat                  3     2     321    12  a rat",
  ]) {
    assert.ok(lines.includes(line), line);
  }
  assert.equal(lines.filter((l) => l.startsWith("     cat")).length, 30 - 24);
  assert.equal(lines.at(-1), "  a-z: watch a fall    any other key: back");
  const one = applyAll(onLevel(), { Graveyard: [numbered("bob", false, 4)] });
  assert.equal(text(one, "Graveyard").at(-1), "  a: watch a fall    any other key: back");
  const dead = applyAll(one, { Died: rec("ann", 3, 2, "a rat", false) });
  assert.ok(text(dead, "End").includes("  bob                  3     2     321    12  a rat"));
});

test("a short end page scrolls under the keys to go on", () => {
  const s = applyAll(longGraveyard(), { Died: rec("ann", 3, 2, "a rat", false) });
  const keys = "Enter: a new character named ann    G: the graveyard    Esc: quit";
  const tall = text(s, "End");
  assert.ok(tall.length <= 40, `${tall.length}`);
  const total = 8 + 5 + 20 + 200;
  assert.equal(tall.at(-1), `  ${keys}    PgUp PgDn scroll (lines 1-38 of ${total})`);
  const short = scrolledTo(s, "End", 12, 0);
  assert.equal(short[0], "  You died on depth 3, killed by a rat.");
  assert.equal(short[8], "  The hall of the living");
  const end = scrolledTo(s, "End", 12, Number.MAX_SAFE_INTEGER);
  assert.equal(end[9], "  bob199               7     5     321    12  an ogre");
  assert.ok(end[11]?.startsWith(`  ${keys}    PgUp PgDn`));
  applyAll(s, { Graveyard: [] });
  assert.equal(text(s, "End").at(-1), `  ${keys}`, "it fits");
});

test("a short help page scrolls and keeps its keys on the last line", () => {
  const s = onLevel();
  const help = s.words.help.length;
  const tall = text(s, "Help");
  assert.equal(tall.length, help + 2);
  assert.deepEqual(tall.slice(help), ["", "  Any key returns to the map."]);
  const short = scrolledTo(s, "Help", 11, 0);
  assert.equal(short[0], "  Keys");
  assert.deepEqual(short.slice(9), ["", `  PgUp PgDn scroll, any other key returns to the map (lines 1-9 of ${help}).`]);
  assert.equal(scrolledTo(s, "Help", 11, 100)[8], "    Talking costs no time and waits for nobody.");
});

test("a full pack on a short page scrolls", () => {
  const s = applyAll(
    onLevel(),
    { ItemKinds: [{ name: "dart", glyph: "(", colour: [1, 2, 3], class: "Missile", known: true }] },
    { Pack: Array.from({ length: 26 }, () => ({ kind: 0, count: 2, equipped: false })) },
  );
  const lines = scrolledTo(s, "Pack", 12, 0);
  assert.equal(lines.length, 12);
  assert.deepEqual([lines[0], lines[2]], ["  Your pack", "  a) dart (2)"]);
  assert.ok(lines[11]?.endsWith("map (lines 1-10 of 30)."), lines.join("\n"));
  const end = scrolledTo(s, "Pack", 12, 100);
  assert.equal(end[7], "  z) dart (2)");
  assert.ok(end[9]?.startsWith("  On the map: d drop"));
});

test("the end page after a death gives the record, then the graveyard; after an escape what it escaped with", () => {
  const s = applyAll(onLevel(), { Died: rec("ann", 5, 3, "an ogre", false) }, { Graveyard: [rec("ann", 5, 3, "an ogre", false)] });
  const lines = text(s, "End");
  assert.equal(lines[0], "  You died on depth 5, killed by an ogre.");
  position(lines, "Experience level:      3");
  position(lines, "Monsters killed:       12");
  position(lines, "Died:                  1970-01-01 00:00 UTC");
  position(lines, "ann                  5     3     321    12  an ogre");
  position(lines, "Enter: a new character named ann");
  const won = applyAll(onLevel(), { Escaped: rec("ann", 9, 8, "the Gloamstone", true) });
  assert.equal(text(won, "End")[0], "  You escaped with the Gloamstone!");
  position(text(won, "End"), "The graveyard is not known yet.");
  const watched = applyAll(onLevel(), { Watching: { player: "ann", you: 9 } }, { Escaped: rec("ann", 9, 8, "the Gloamstone", true) });
  assert.equal(text(watched, "End")[0], "  ann escaped with the Gloamstone!");
  assert.equal(text(watched, "End").at(-1), "  Enter: watch ann again");
});

test("the end page names the morgue file on the server's host, as the window does", () => {
  const died = applyAll(onLevel(), { Died: { ...rec("ann", 5, 3, "an ogre", false), morgue: 3 } });
  const scene = { ...sceneOf(died, "Playing", "End"), server: "ws://here" };
  const lines = pageLines(scene, DEFAULT, 120, 40).map(([t]) => t);
  assert.ok(lines.includes("  Morgue file:           http://here/morgue/ann/3.txt"), lines.join("\n"));
  const none = pageLines({ ...sceneOf(applyAll(onLevel(), { Died: rec("ann", 5, 3, "an ogre", false) }), "Playing", "End"), server: "ws://here" }, DEFAULT, 120, 40);
  assert.ok(!none.some(([t]) => t.includes("Morgue")), "a record without a file names none");
});

test("a morgue url is on the server's host with the name encoded (scene.rs morgue_url)", () => {
  const r = (name: string, morgue: number): DeathRecord => ({ ...record(name), morgue });
  assert.equal(morgueUrl("ws://127.0.0.1:7878", r("ann", 3)), "http://127.0.0.1:7878/morgue/ann/3.txt");
  assert.equal(morgueUrl("wss://example.org/gloam?x", r("ann", 3)), "https://example.org/morgue/ann/3.txt");
  assert.equal(morgueUrl("ws://[::1]:9/", r("ann", 3)), "http://[::1]:9/morgue/ann/3.txt");
  assert.equal(morgueUrl("ws://h:1", r("Zoë_9-x", 12)), "http://h:1/morgue/Zo%C3%AB_9-x/12.txt");
  assert.equal(morgueUrl("ws://h:1", r("ann", 0)), null);
  assert.equal(morgueUrl("http://h:1", r("ann", 3)), null);
  assert.equal(morgueUrl("ws://", r("ann", 3)), null);
  assert.equal(morgueUrl("", r("ann", 3)), null);
});

test("a short end page keeps its keys on the last line", () => {
  const ann = rec("ann", 5, 3, "an ogre", false);
  const s = applyAll(onLevel(), { Died: ann }, { Graveyard: Array.from({ length: 30 }, () => ann) });
  for (const rows of [1, 2, 5, 12, 20, 30, 39]) {
    const lines = pageLines(sceneOf(s, "Playing", "End"), DEFAULT, 120, rows).map(([t]) => t);
    assert.ok(lines.length <= rows, `${rows} rows: ${lines.join("\n")}`);
    assert.match(lines.at(-1) ?? "", /Enter: a new character named ann/, `${rows} rows`);
  }
});

test("dates are told in UTC as the window tells them", () => {
  assert.equal(whenUtc(0n), "1970-01-01 00:00 UTC");
  assert.equal(whenUtc(1_700_000_000n), "2023-11-14 22:13 UTC");
  assert.match(whenUtc((1n << 64n) - 1n), /UTC$/, "a hostile date is no exception");
});

test("the pack page marks the weapon in hand and the armour worn; a prompt lists only what suits", () => {
  const s = packed();
  const lines = text(s, "Pack");
  position(lines, "On the map: d drop  q quaff");
  assert.deepEqual(lines.slice(2, 9), [
    "  a) potion of healing (2)",
    "  b) dart (9)",
    "  c) dagger (in hand)",
    "  d) dagger",
    "  e) leather armour (worn)",
    "  f) scroll of mapping",
    "  g) Gloamstone",
  ]);
  assert.deepEqual(text(s, { choose: "TakeOff" }), ["  Take off which? [c, e] (Esc to cancel)", "", "  c) dagger (in hand)", "  e) leather armour (worn)"]);
  const empty = text(onLevel(), "Pack");
  position(empty, "You carry nothing");
});

test("the log page shows chat and the game's lines together, and scrolls back to the first", () => {
  const s = onLevel();
  for (let i = 0; i < 30; i++) applyAll(s, { Combat: `blow ${i}` }, { Chat: { from: 2, name: "bob", to: "Depth", text: `hi ${i}` } });
  const scene = sceneOf(s, "Playing", "Log");
  const lines = pageLines(scene, DEFAULT, 80, 13);
  assert.ok(lines[0]?.[0].includes("Messages"));
  assert.deepEqual(lines.slice(2, 4).map(([t]) => t), ["  blow 25", "  bob: hi 25"]);
  assert.deepEqual(lines[2]?.[1], DEFAULT.combat);
  const most = logScrollMost(s, 80, 13);
  assert.equal(most, 50);
  scene.logScroll = most + 100;
  const oldest = pageLines(scene, DEFAULT, 80, 13);
  assert.equal(oldest[2]?.[0], "  blow 0");
  assert.ok(oldest.at(-1)?.[0].includes("50 newer rows below"));
});

test("the help names every key the page reads", () => {
  const help = text(onLevel(), "Help").join("\n");
  for (const key of ["h j k l y u b n", "> (or .)", "  o:", "click a cell", "g or ,", "q / r", "w / W / T", "t (choose", "f (the first", "Enter", "PgUp PgDn", "Ctrl+P", "Esc (then y)", "?watch=NAME"]) {
    assert.ok(help.includes(key), key);
  }
});

test("the log page scrolls by the page the session was told, and its end shows the newest", () => {
  const s = playing();
  for (let i = 0; i < 40; i++) s.onMessage({ Note: `line ${i}` });
  const shown = () => pageLines(s.scene(), DEFAULT, s.pageArea[0], pageSize(s.pageArea[1])).map(([t]) => t);
  s.resize(120, 12);
  s.onKey({ ctrl: "p" }, false, false, 0);
  assert.deepEqual(shown().slice(2), Array.from({ length: 8 }, (_, i) => `  line ${32 + i}`));
  s.onKey("PageUp", false, false, 0);
  assert.equal(s.scene().logScroll, 8, "a page of the log's 8 rows");
  assert.equal(shown()[2], "  line 24");
  s.onKey("Home", false, false, 0);
  assert.deepEqual([s.scene().logScroll, shown()[2]], [32, "  line 0"]);
  s.onKey("PageDown", false, false, 0);
  assert.equal(s.scene().logScroll, 24);
  s.resize(120, 40);
  assert.equal(s.scene().logScroll, 4, "as far back as the taller page goes");
  s.onKey("End", false, false, 0);
  assert.equal(shown().at(-1), "  line 39", "the newest last");
});

test("a page that does not fit scrolls with PgUp and PgDn; any other key puts it away", () => {
  const s = playing();
  for (let i = 0; i < 30; i++) s.onMessage({ Note: `line ${i}` });
  s.onKey({ char: "?" }, false, false, 0);
  s.onKey("PageUp", false, false, 0);
  assert.deepEqual([s.page(), s.scene().pageScroll, s.chat.scroll], ["Help", 0, GAME_LINES], "it fits: PgUp scrolls the HUD");
  s.onKey("PageDown", false, false, 0);
  s.resize(120, 12);
  const step = 11 - 2;
  s.onKey("PageDown", false, false, 0);
  assert.deepEqual([s.page(), s.scene().pageScroll], ["Help", step]);
  for (let i = 0; i < 10; i++) s.onKey("PageDown", false, false, 0);
  const most = s.state.words.help.length - step;
  assert.equal(s.scene().pageScroll, most, "no further than its last line");
  s.onKey("PageUp", false, false, 0);
  assert.equal(s.scene().pageScroll, most - step);
  s.resize(120, 40);
  assert.equal(s.scene().pageScroll, 0, "it fits now");
  s.resize(120, 12);
  s.onKey("PageDown", false, false, 0);
  assert.equal(s.onKey({ char: "x" }, false, false, 0), "Redraw");
  assert.equal(s.page(), "Map");
  s.onKey({ char: "?" }, false, false, 0);
  assert.deepEqual([s.page(), s.scene().pageScroll], ["Help", 0]);
});

test("the death page speaks to the dead, and to a watcher of its player", () => {
  const ann = rec("ann", 5, 3, "an ogre", false);
  const read = [onLevel(), applyAll(onLevel(), { Watching: { player: "ann", you: 9 } })].map((s) => {
    applyAll(s, { Died: ann }, { Note: "You die..." });
    const scene = sceneOf(s, { lost: "your character died" }, "End");
    return [pageLines(scene, DEFAULT, 120, 40)[0]?.[0], hud(scene, 120, 120)[0]?.text, s.log.at(-1)?.text];
  });
  assert.deepEqual(read, [
    ["  You died on depth 5, killed by an ogre.", "You died. The game is over.", "You die..."],
    ["  ann died on depth 5, killed by an ogre.", "ann died. The game is over.", "ann dies..."],
  ]);
});

test("a short end page scrolls with PgDn, and Enter still starts again", () => {
  const s = playing();
  s.resize(120, 12);
  s.onMessage({ Died: record("ann") });
  s.onMessage({ Graveyard: Array.from({ length: 30 }, () => record("ann")) });
  s.onClosed("your character died", { Code: 1000 });
  assert.equal(s.onKey("PageDown", false, false, 0), "Redraw");
  assert.deepEqual([s.page(), s.scene().pageScroll], ["End", 11 - 2]);
  assert.equal(s.onKey("Up", false, false, 0), "Ignore");
  assert.equal(s.onKey("Enter", false, false, 0), "Again");
});

/** A world of three potions (healing known), a dagger, two scrolls (none known) and a known wand. */
function learning(): ClientState {
  const kind = (name: string, cls: "Potion" | "Weapon" | "Scroll" | "Wand", known: boolean) => ({ name, glyph: "!", colour: [1, 2, 3] as [number, number, number], class: cls, known });
  return applyAll(onLevel(), {
    ItemKinds: [
      kind("potion of healing", "Potion", true),
      kind("murky potion", "Potion", false),
      kind("dagger", "Weapon", true),
      kind("fizzy potion", "Potion", false),
      kind("scroll labelled ZUN KAH", "Scroll", false),
      kind("scroll labelled FOO", "Scroll", false),
      kind("wand of healing", "Wand", true),
    ],
  });
}

test("the discoveries list each class's known kinds, then the looks not yet known", () => {
  assert.deepEqual(discoveriesLines(learning(), 80).map(([t]) => t), [
    "  Your discoveries",
    "",
    "  Potions: 1 of 3 known",
    "    potion of healing",
    "    Not yet known: murky potion, fizzy potion",
    "",
    "  Scrolls: 0 of 2 known",
    "    Not yet known: scroll labelled ZUN KAH, scroll labelled FOO",
    "",
    "  Wands: 1 of 1 known",
    "    wand of healing",
  ]);
  const lines = discoveriesLines(learning(), 80);
  assert.deepEqual([lines[3]?.[1], lines[4]?.[1]], [fromColour([1, 2, 3]), TEXT_DIM], "a known kind in its colour, the looks dim");
});

test("the looks not yet known wrap to the page, the later rows further in", () => {
  const lines = discoveriesLines(learning(), 40).map(([t]) => t);
  const scrolls = position(lines, "  Scrolls");
  assert.deepEqual(lines.slice(scrolls + 1, scrolls + 4), ["    Not yet known: scroll labelled ZUN", "      KAH, scroll labelled FOO", ""]);
  assert.ok(lines.every((l) => [...l].length <= 40), lines.join("\n"));
});

test("a watcher sees its player's discoveries", () => {
  const lines = discoveriesLines(applyAll(learning(), { Watching: { player: "ann", you: 9 } }), 80).map(([t]) => t);
  assert.deepEqual([lines[0], lines[3]], ["  ann's discoveries", "    potion of healing"]);
});

test("a world without potions, scrolls or wands says so", () => {
  const s = applyAll(onLevel(), { ItemKinds: [{ name: "dagger", glyph: ")", colour: [1, 2, 3], class: "Weapon", known: true }] });
  assert.deepEqual(text(s, "Discoveries"), ["  Your discoveries", "", "  This world has no potions, scrolls or wands.", "", "  Any key returns to the map."]);
});

test("the discoveries page wraps to its width and scrolls as far as its rows", () => {
  const potion = (i: number) => ({ name: `potion ${i}`, glyph: "!", colour: [1, 2, 3] as [number, number, number], class: "Potion" as const, known: i < 6 });
  const s = applyAll(onLevel(), { ItemKinds: Array.from({ length: 30 }, (_, i) => potion(i)) });
  const scene = sceneOf(s, "Playing", "Discoveries");
  assert.equal(scrollMost(scene, 120, 12), 9 + 3 - 10, "3 rows of looks at 120");
  assert.equal(scrollMost(scene, 40, 12), 9 + 9 - 10, "9 rows of looks at 40");
  const lines = scrolledTo(s, "Discoveries", 12, 0);
  assert.equal(lines[2], "  Potions: 6 of 30 known");
  assert.ok(lines[11]?.includes("PgUp PgDn"), lines.join("\n"));
});

test("backslash shows the discoveries; any key puts them away, sending nothing, and Esc does not ask to quit", () => {
  const s = playing();
  for (const away of [{ char: "j" }, "Escape"] as const) {
    assert.equal(s.onKey({ char: "\\" }, false, false, 0), "Redraw");
    assert.equal(s.page(), "Discoveries");
    assert.equal(s.onKey(away, false, false, 0), "Redraw", JSON.stringify(away));
    assert.deepEqual([s.page(), s.scene().askingToQuit], ["Map", false]);
  }
});

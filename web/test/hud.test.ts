// The HUD model's text and tones for a few states, as the window's hud.rs
// tests read them, and the map's glyphs as view.rs draws them.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { ServerMsg } from "../src/protocol";
import { KEYS_HELP } from "../src/session/keys";
import { sceneOf, type Link } from "../src/session/scene";
import { ageLog, type ClientState } from "../src/state";
import { GAME_LINES, HUD_ROWS, NO_CHAT_YET, WATCHER_KEYS, hud, partyPanel, secondRow, waitingText, type HudLine } from "../src/render/hud";
import { layoutAt, READABLE_CELL_PX, zoomFor } from "../src/render/layout";
import { DEFAULT, PlayerColours } from "../src/render/palette";
import { sideGlyphs } from "../src/render/side";
import { hudGlyphs, mapGlyphs, screenText } from "../src/render/view";
import { applyAll, idx, inARoom, kind, onLevel, playing, record, sight } from "./fixtures";

function rows(s: ClientState, link: Link = "Playing", cols = 160): HudLine[] {
  return hud(sceneOf(s, link, "Map"), cols, cols);
}

function state(depth: number, roster: string[], ...msgs: ServerMsg[]): ClientState {
  return applyAll(onLevel(1, 10, 5, depth), { Roster: roster }, ...msgs);
}

test("the first row names the depth and who else is here; the second the keys", () => {
  const r = rows(state(3, ["cat", "bob"]));
  assert.deepEqual(r[0], { text: "Depth 3   also here: bob, cat", tone: "Bright", accents: [] });
  assert.equal(rows(state(1, []))[0]?.text, "Depth 1   you are alone here");
  assert.equal(rows(state(1, []))[1]?.text, KEYS_HELP);
  assert.equal(r.length, HUD_ROWS);
});

test("hit points show with a bar that turns colour when low, then the level", () => {
  const s = state(3, [], { Vitals: { hp: 24, max: 30 } }, { Experience: { level: 3, xp: 140, next: 280 } });
  const row = rows(s)[0];
  assert.equal(row?.text, "Depth 3   HP 24/30 [########--]   Lv 3  140/280xp   you are alone here");
  assert.deepEqual(row?.accents, [[20, 10, "Good"]]);
  applyAll(s, { Vitals: { hp: 12, max: 30 } });
  assert.deepEqual(rows(s)[0]?.accents[0]?.[2], "Warn");
  applyAll(s, { Vitals: { hp: 3, max: 30 } });
  assert.deepEqual(rows(s)[0]?.accents[0]?.[2], "Alert");
  // At the edges: half is hurt, a quarter is in danger.
  for (const [hp, tone] of [[16, "Good"], [15, "Warn"], [8, "Warn"], [7, "Alert"], [0, "Alert"]] as const) {
    applyAll(s, { Vitals: { hp, max: 30 } });
    assert.deepEqual(rows(s)[0]?.accents[0]?.[2], tone, `${hp}/30`);
  }
});

test("the last game lines show newest lowest, fights in their colour, chat in rows of its own", () => {
  const s = state(1, ["bob"]);
  for (let i = 0; i < 20; i++) applyAll(s, { Note: `note ${i}` });
  let r = rows(s);
  const last = 2 + GAME_LINES - 1;
  assert.deepEqual([r[last - 1]?.text, r[last - 1]?.tone], ["note 18", "Bright"], "news, all of it");
  assert.deepEqual([r[last]?.text, r[last]?.tone], ["note 19", "Bright"]);
  assert.equal(r[HUD_ROWS - 2]?.text, NO_CHAT_YET);
  applyAll(s, { Chat: { from: 2, name: "bob", to: "Depth", text: "troll coming, run" } }, { Combat: "The troll hits you (4)." });
  r = rows(s);
  assert.deepEqual(r[last], { text: "The troll hits you (4).", tone: "Combat", accents: [] });
  assert.deepEqual(r[2 + GAME_LINES], { text: "bob: troll coming, run", tone: "Bright", accents: [[0, 3, { player: 2 }]] });
});

/** The game's rows as [text, tone], oldest first, blank ones left out. */
function gameRows(s: ClientState): [string, unknown][] {
  return rows(s)
    .slice(2, 2 + GAME_LINES)
    .filter((r) => r.text !== "")
    .map((r) => [r.text, r.tone]);
}

const answer: ServerMsg = sight({ x: 2, y: 2 });

test("the game's lines said before the player's last action are dimmed; a line said again is news again", () => {
  const s = state(1, []);
  applyAll(s, { Note: "You see a dagger here." }, answer);
  assert.deepEqual(gameRows(s), [["You see a dagger here.", "Bright"]]);
  ageLog(s);
  assert.deepEqual(gameRows(s), [["You see a dagger here.", "Dim"]], "it walked on");
  applyAll(s, answer, { Combat: "The jackal bites you (2)." }, { Combat: "You miss the jackal." }, { Combat: "You miss the jackal." }, answer);
  assert.deepEqual(gameRows(s).slice(1), [
    ["The jackal bites you (2).", "Combat"],
    ["You miss the jackal. (x2)", "Combat"],
  ]);
  ageLog(s);
  applyAll(s, { Combat: "You miss the jackal." });
  assert.deepEqual(gameRows(s), [
    ["You see a dagger here.", "Dim"],
    ["The jackal bites you (2).", "Dim"],
    ["You miss the jackal. (x3)", "Combat"],
  ]);
});

test("a watcher reads its player's lines as old once the player's next action is answered", () => {
  const s = state(1, [], { Watching: { player: "ann", you: 9 } }, { Note: "You see a dagger here." }, answer);
  assert.deepEqual(gameRows(s)[1], ["ann sees a dagger here.", "Bright"]);
  applyAll(s, { Others: "bob goes down the stairs." }, answer);
  assert.deepEqual(gameRows(s).slice(1), [
    ["ann sees a dagger here.", "Dim"],
    ["bob goes down the stairs.", "Others"],
  ]);
});

test("sending an action makes what was said before it old; a line of chat is no action", () => {
  const s = playing();
  s.onMessage({ Note: "You see a dagger here." });
  const dagger = () => rows(s.state).find((r) => r.text === "You see a dagger here.")?.tone;
  s.sent({ Chat: { to: "Depth", text: "a dagger" } }, 0);
  assert.equal(dagger(), "Bright", "talking is no action");
  s.sent({ Act: { Move: "N" } }, 0);
  assert.equal(dagger(), "Dim");
});

test("whom the round waits for replaces the keys; a watcher is told whom it watches", () => {
  const s = state(1, ["bob", "cy"], { Waiting: ["bob", "cy"] });
  assert.deepEqual(rows(s)[1], { text: "Waiting for bob, cy...", tone: "Warn", accents: [] });
  const w = state(3, [], { Watching: { player: "ann", you: 9 } });
  assert.equal(rows(w)[0]?.text, "Watching ann   Depth 3   ann is alone here");
  assert.equal(rows(w)[1]?.text, WATCHER_KEYS);
});

test("a lost link says why, and the end of a game is no network fault", () => {
  const lost = rows(state(2, []), { lost: "server shutting down" });
  assert.equal(lost[0]?.tone, "Alert");
  assert.equal(lost[0]?.text, "Disconnected: server shutting down  (Enter joins again)");
  const dead = state(2, [], { Died: record("ann", false, "a rat") });
  const r = rows(dead, { lost: "the server closed the connection: your character died" });
  assert.deepEqual([r[0]?.text, r[0]?.tone], ["You died. The game is over.", "Middle"]);
  assert.equal(r[1]?.text, "a new character: Enter   graveyard: G   quit: Esc");
  const watcher = state(2, [], { Watching: { player: "ann", you: 9 } }, { Died: record("ann", false, "a rat") });
  assert.equal(rows(watcher, { lost: "ann left the game" })[1]?.text, "watch ann again: Enter", "nothing a watcher at the end cannot do (G, talk)");
  assert.equal(rows(watcher, { lost: "ann left the game" })[0]?.text, "ann died. The game is over.", "of its player, to a watcher");
  assert.equal(rows(new (dead.constructor as new () => ClientState)(), { connecting: "ws://here/" })[0]?.text, "Connecting to ws://here/...");
});

test("every row fits a narrow page: a long roster is counted, a long message wraps", () => {
  const names = Array.from({ length: 40 }, (_, i) => `player${String(i).padStart(2, "0")}`);
  const long = "The wraith of the deep halls strikes you with a chill that goes to the bone.";
  const s = state(4, names, { Note: long }, { Vitals: { hp: 20, max: 30 } });
  for (const cols of [40, 60, 96, 120]) {
    const r = rows(s, "Playing", cols);
    for (const row of r) assert.ok([...row.text].length <= cols, `${cols}: ${row.text}`);
    assert.ok(r[1]?.text.endsWith("? help"), r[1]?.text);
    assert.ok(r.slice(2).map((x) => x.text).join(" ").includes(long));
  }
  assert.ok(rows(s, "Playing", 96)[0]?.text.includes("also here: 40 others"));
});

test("the party panel names each member in its colour with its hit points", () => {
  const m = (id: number, name: string, hp: number, level: number) => ({ id, name, hp, max: 30, level });
  const s = state(1, [], { Party: [m(1, "ann", 30, 2)] });
  assert.deepEqual(partyPanel(s), [], "alone: no panel");
  applyAll(s, { Party: [m(1, "ann", 30, 2), m(5, "bobby", 12, 10), m(3, "cy", 3, 1)] });
  const panel = partyPanel(s);
  assert.deepEqual(panel.map((e) => e.text), ["ann     30/30 Lv 2", "bobby   12/30 Lv 10", "cy       3/30 Lv 1"]);
  assert.deepEqual(panel[1]?.accents, [[0, 5, { player: 5 }], [8, 5, "Warn"]]);
});

test("the map: terrain bright in sight and dim remembered, rock left out, each player in its colour on top", () => {
  const s = inARoom(onLevel());
  applyAll(s, { Players: [{ Appeared: { id: 4, name: "bob", at: { x: 1, y: 1 } } }] });
  let g = mapGlyphs(s, DEFAULT);
  const at = (x: number, y: number) => g.filter((q) => q.col === x && q.row === y);
  assert.deepEqual(at(0, 0)[0], { col: 0, row: 0, ch: "#", color: DEFAULT.wall });
  assert.deepEqual([at(5, 3)[0]?.ch, at(5, 3)[0]?.color], [">", DEFAULT.stairs]);
  const colours = new PlayerColours(DEFAULT, []);
  assert.deepEqual(at(3, 2).at(-1), { col: 3, row: 2, ch: "@", color: colours.of(1) });
  assert.deepEqual(at(1, 1).at(-1)?.color, colours.of(4));
  assert.notDeepEqual(colours.of(4), colours.of(1));
  assert.equal(g.length, 35, "the room's cells, two of them a player's: one glyph a cell");
  assert.equal(at(3, 2).length, 1, "the floor is not drawn through the @");
  // Step east: the west wall leaves sight, and is drawn dim.
  const hidden = [0, 1, 2, 3, 4].map((y) => idx(-3, y - 2));
  applyAll(s, sight({ x: 4, y: 2 }, { hidden }));
  g = mapGlyphs(s, DEFAULT);
  assert.deepEqual(at(0, 2)[0]?.color, DEFAULT.wall_remembered);
  // A wall known with no open ground known beside it is rock.
  // Two such walls side by side are rock too: a wall is no open ground.
  applyAll(s, sight({ x: 4, y: 2 }, { revealed: [[idx(7, 0), "Wall"], [idx(8, 0), "Wall"]] }));
  assert.deepEqual(mapGlyphs(s, DEFAULT).filter((q) => q.col >= 11 && q.row === 2), []);
});

test("monsters are drawn in their kind's glyph and colour, made to stand out", () => {
  const s = inARoom(onLevel());
  applyAll(s, { Kinds: [kind("orc", "o", [210, 180, 60])] }, { Monsters: [{ Appeared: { id: 3, kind: 0, at: { x: 4, y: 3 }, wound: "Unhurt", asleep: false } }] });
  const here = mapGlyphs(s, DEFAULT).filter((q) => q.col === 4 && q.row === 3);
  assert.equal(here.length, 1, "the floor beneath is not drawn through it");
  const top = here[0];
  assert.equal(top?.ch, "o");
  assert.notDeepEqual(top?.color, [210, 180, 60], "too like the sand walls: adjusted");
});

test("the screen's text is the map with the list beside it, then the HUD's rows", () => {
  const s = playing();
  inARoom(s.state);
  applyAll(s.state, { Note: "You see stairs." });
  const scene = s.scene();
  scene.look = { x: 5, y: 3 };
  const layout = layoutAt(1280, 720, 16, 8);
  const lines = screenText(scene, DEFAULT, layout).split("\n");
  // The 20 x 10 map is centred in the viewport, the list past it.
  const [left, top] = [Math.floor((layout.mapCols - 20) / 2), Math.floor((layout.mapRows - 10) / 2)];
  const list = layout.mapCols + 1;
  assert.equal(lines[0]?.slice(list), " In sight");
  assert.equal(lines[1]?.slice(list), " no monsters");
  assert.equal(lines[top + 2], `${" ".repeat(left)}#..@..#`);
  assert.ok(lines[layout.mapRows + 1]?.startsWith("Look: stairs down   direction keys"), lines[layout.mapRows + 1]);
  assert.ok(lines.includes("You see stairs."));
  scene.page = "Pack";
  assert.ok(!screenText(scene, DEFAULT, layout).includes("@"), "no map under a page");
  const hudRow = hudGlyphs(scene, DEFAULT, 40, 80).filter((q) => q.row === 40).map((q) => q.ch).join("");
  assert.equal(hudRow, "Depth1youarealonehere");
  assert.ok(hudGlyphs(scene, DEFAULT, 40, 80).every((q) => q.row >= 40 && q.row < 40 + HUD_ROWS));
});

test("in the list, a name too long for a row is broken between words", () => {
  const s = inARoom(onLevel());
  applyAll(s, { Kinds: [kind("Grishnakh the Kobold Chief", "k", [9, 9, 9])] }, { Monsters: [{ Appeared: { id: 3, kind: 0, at: { x: 4, y: 3 }, wound: "Unhurt", asleep: false } }] });
  const glyphs = sideGlyphs(s, DEFAULT, 19, 20);
  const rows = [0, 1, 2, 3].map((r) => glyphs.filter((q) => q.row === r).map((q) => q.ch).join(""));
  assert.deepEqual(rows, ["Insight", "kGrishnakhthe", "KoboldChief", "unhurt"], "the whole name, not 'Grishnakh the Kobol'");
});

test("the page's own zoom fits the map, but never below a readable cell (the map scrolls instead)", () => {
  const letters = (cell: number) => Math.floor(cell * 0.6);
  assert.equal(zoomFor(1920, 1080, [80, 40], letters) >= 20, true, "a large page shows the map large");
  assert.equal(zoomFor(800, 500, [80, 40], letters), READABLE_CELL_PX, "a small page keeps letters readable");
});

test("scrolled back, the second row counts the newer lines below, one line or more", () => {
  const state = applyAll(onLevel());
  assert.equal(secondRow(state, 1, 80).text, "1 newer line below (PgDn)");
  assert.equal(secondRow(state, 2, 80).text, "2 newer lines below (PgDn)");
});

test("the waiting row lists the names that fit and counts the rest, in one pass over thousands", () => {
  const names = ["bobby", "cyrus", "deedee"];
  assert.equal(waitingText(names, 80), "Waiting for bobby, cyrus, deedee...");
  assert.equal(waitingText(names, 34), "Waiting for bobby and 2 more...");
  assert.equal(waitingText(names, 30), "Waiting for  and 3 more...");
  assert.equal(waitingText(names, 25), "Waiting for 3 players...");
  const longer = Array.from({ length: 12 }, (_, i) => `p${i}`);
  assert.equal(waitingText(longer, 40), "Waiting for p0, p1, p2, p3 and 8 more...");
  const many = Array.from({ length: 4096 }, (_, i) => `p${i}`);
  const row = waitingText(many, 80);
  assert.ok(row.length <= 80 && row.endsWith(" more..."), row);
});

// A value no message can hold is refused with an EncodeError, not written
// as bytes the other side would misread.

import assert from "node:assert/strict";
import { test } from "node:test";

import { EncodeError, encodeClient, encodeServer, type ClientMsg, type ServerMsg } from "../src/protocol";

const death = {
  name: "ann",
  depth: 1,
  rounds: 1n,
  kills: 0,
  killed_by: "a jackal",
  when: 0n,
  level: 1,
  escaped: false,
  morgue: 0,
};

test("values out of their type's range are refused", () => {
  const client: unknown[] = [
    { Act: { Drop: 256 } },
    { Act: { Drop: 1.5 } },
    { Act: { Travel: { x: -1, y: 0 } } },
    { Act: { Travel: { x: 65536, y: 0 } } },
    { Act: { Move: "UP" } },
    { Act: "Fly" },
    { Hello: { version: 2 ** 32, name: "ann", token: null } },
    { Hello: { version: 11, name: "ann", token: new Array(15).fill(0) } },
    { Hello: { version: 11, name: "\ud800", token: null } },
    { Hello: { version: 11, name: "ann" } },
    { Chat: { to: { Player: 7 }, text: "hi" } },
    "Dance",
    { Dance: {} },
  ];
  for (const msg of client) {
    assert.throws(() => encodeClient(msg as ClientMsg), EncodeError, JSON.stringify(msg));
  }
  const server: unknown[] = [
    { Died: { ...death, rounds: 1 } },
    { Died: { ...death, when: -1n } },
    { Died: { ...death, when: 1n << 64n } },
    { Kinds: [{ name: "orc", glyph: "oo", colour: [1, 2, 3] }] },
    { Kinds: [{ name: "orc", glyph: "", colour: [1, 2, 3] }] },
    { Kinds: [{ name: "orc", glyph: "o", colour: [1, 2] }] },
    { Sight: { at: { x: 0, y: 0 }, hidden: [256], shown: [], revealed: [], players: [], monsters: [], floor: [] } },
    { Sight: { at: { x: 0, y: 0 }, hidden: [], shown: [], revealed: [[1, "Lava"]], players: [], monsters: [], floor: [] } },
    { Stopped: 1n },
  ];
  for (const msg of server) {
    assert.throws(() => encodeServer(msg as ServerMsg), EncodeError, String(Object.keys(msg as object)));
  }
});

test("a character outside the basic plane is one glyph", () => {
  const msg: ServerMsg = { Kinds: [{ name: "dragon", glyph: "🐉", colour: [1, 2, 3] }] };
  assert.deepEqual([...encodeServer(msg)].slice(9, 13), [0xf0, 0x9f, 0x90, 0x89]);
});

// Frames a hostile or broken peer might send: each is refused with a
// DecodeError that says why, never another exception, a hang or a large
// allocation (every length is checked against the bytes left first).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";

import {
  CLIENT_MSG_VARIANTS,
  DecodeError,
  MAX_CLIENT_MSG,
  MAX_SERVER_MSG,
  SERVER_MSG_VARIANTS,
  decodeClient,
  decodeServer,
  encodeClient,
  encodeServer,
  type DecodeFault,
} from "../src/protocol";
import { clientMsg, serverMsg } from "./arbitrary";
import { fromHex, parseJson } from "./json";

type Dir = "client" | "server";
const decoders = { client: decodeClient, server: decodeServer };

/** The frame is refused with `fault`, and the reason mentions `reason`. */
function refused(dir: Dir, bytes: Uint8Array | number[], fault: DecodeFault, reason?: RegExp): void {
  const frame = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
  assert.throws(
    () => decoders[dir](frame),
    (e: unknown) => {
      assert.ok(e instanceof DecodeError, `a DecodeError, not ${String(e)}`);
      assert.equal(e.fault, fault, e.message);
      if (reason) assert.match(e.message, reason);
      return true;
    },
  );
}

/** Decodes, or throws a DecodeError; anything else fails the test. */
function decodesOrRefuses(dir: Dir, bytes: Uint8Array): void {
  try {
    decoders[dir](bytes);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw new Error(`not a DecodeError: ${String(e)}`);
  }
}

const samples = (
  parseJson(readFileSync(new URL("../../test/vectors.json", import.meta.url), "utf8")) as unknown as {
    samples: { dir: Dir; hex: string }[];
  }
).samples.map((v) => ({ dir: v.dir, bytes: fromHex(v.hex) }));

const varint = (n: bigint): number[] => {
  const le = (width: number) => Array.from({ length: width }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
  if (n <= 250n) return [Number(n)];
  if (n <= 0xffffn) return [251, ...le(2)];
  if (n <= 0xffff_ffffn) return [252, ...le(4)];
  return [253, ...le(8)];
};
const utf8 = (s: string) => [...new TextEncoder().encode(s)];
const NOTE = SERVER_MSG_VARIANTS.indexOf("Note");
const HELLO = CLIENT_MSG_VARIANTS.indexOf("Hello");

test("every frame cut short is refused", { timeout: 10_000 }, () => {
  refused("client", [], "Malformed", /cut short/);
  refused("server", [], "Malformed", /cut short/);
  for (const { dir, bytes } of samples) {
    for (let end = 0; end < bytes.length; end++) {
      refused(dir, bytes.subarray(0, end), "Malformed");
    }
  }
});

test("a byte after the message is refused", () => {
  for (const { dir, bytes } of samples) {
    refused(dir, [...bytes, 0], "TrailingBytes", /1 bytes left over/);
  }
});

test("an unknown variant is refused", () => {
  refused("client", varint(BigInt(CLIENT_MSG_VARIANTS.length)), "Malformed", /unknown ClientMsg variant 11/);
  refused("server", varint(BigInt(SERVER_MSG_VARIANTS.length)), "Malformed", /unknown ServerMsg variant 35/);
  refused("server", varint(0xffff_ffffn), "Malformed", /unknown ServerMsg variant 4294967295/);
  // Act, then an Action past Rest, or a Move to a ninth direction.
  refused("client", [1, 17], "Malformed", /unknown Action variant 17/);
  refused("client", [1, 0, 8], "Malformed", /unknown Dir variant 8/);
});

test("a length past the bytes left is refused before anything is made of it", () => {
  for (const len of [4n, 1n << 32n, (1n << 64n) - 1n]) {
    // A hello's name, and a note, of that length over three bytes.
    refused("client", [HELLO, 11, ...varint(len), 0x61, 0x62, 0x63], "Malformed", /of length \d+ in 3 bytes left/);
    refused("server", [NOTE, ...varint(len), 0x61, 0x62, 0x63], "Malformed", /of length/);
  }
  // A roster of 2^32 names, and the cells of a sight diff.
  refused("server", [SERVER_MSG_VARIANTS.indexOf("Roster"), ...varint(1n << 32n)], "Malformed", /of length/);
  const sight = SERVER_MSG_VARIANTS.indexOf("Sight");
  refused("server", [sight, 0, 0, ...varint(1n << 32n), 0], "Malformed", /of length/);
});

test("a packed list longer than any disc is refused", () => {
  const sight = SERVER_MSG_VARIANTS.indexOf("Sight");
  // No lists after the bits, then hidden's length plus one in gamma code:
  // 1025 + 1 (refused: over 1024), or a run of 17 zeros (past any length).
  const cells = (bits: string) => {
    const padded = bits.padEnd(Math.ceil(bits.length / 8) * 8, "0");
    const bytes = padded.match(/.{8}/g)!.map((b) => parseInt([...b].reverse().join(""), 2));
    return [sight, 0, 0, bytes.length, ...bytes];
  };
  const gamma = (v: number) => {
    const binary = v.toString(2);
    return "0".repeat(binary.length - 1) + "1" + [...binary.slice(1)].reverse().join("");
  };
  const byte = (b: number) => [...b.toString(2).padStart(8, "0")].reverse().join("");
  // These bits are what the encoder writes: hidden [200], rising, and two
  // empty lists.
  const one = cells("0" + gamma(2) + "1" + byte(200) + gamma(1) + gamma(1));
  const diff = { at: { x: 0, y: 0 }, hidden: [200], shown: [], revealed: [], players: [], monsters: [], floor: [] };
  assert.deepEqual([...encodeServer({ Sight: diff })], one);
  refused("server", cells("0" + gamma(1026) + "1"), "Malformed", /1025 cells is over 1024/);
  refused("server", cells("0" + "0".repeat(17) + "1"), "Malformed", /run of bits/);
  // Three empty lists, then a stray bit.
  refused("server", cells("0111" + "1"), "Malformed", /left over/);
});

test("text that is not UTF-8 is refused", () => {
  const bad = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x61, 0x80]];
  for (const bytes of bad) {
    refused("server", [NOTE, bytes.length, ...bytes], "Malformed", /not UTF-8/);
    refused("client", [HELLO, 11, bytes.length, ...bytes, 0], "Malformed", /not UTF-8/);
  }
  // A kind's glyph: a char of a bad lead byte, cut short, or a surrogate.
  const kinds = SERVER_MSG_VARIANTS.indexOf("Kinds");
  for (const glyph of [[0xf8], [0xc3], [0xed, 0xa0, 0x80], [0x80]]) {
    refused("server", [kinds, 1, 1, 0x6f, ...glyph, 1, 2, 3], "Malformed");
  }
});

test("a number too wide for its type is refused", () => {
  const vitals = SERVER_MSG_VARIANTS.indexOf("Vitals");
  refused("server", [vitals, 252, 0, 0, 1, 0, 1], "Malformed", /marker 252 where a u16 belongs/);
  refused("server", [vitals, 255, 1], "Malformed", /reserved marker 255/);
  refused("client", [HELLO, 253, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0], "Malformed", /marker 253 where a u32 belongs/);
  const died = SERVER_MSG_VARIANTS.indexOf("Died");
  refused("server", [died, 0, 1, 254, ...new Array(16).fill(0)], "Malformed", /marker 254 where a u64 belongs/);
  // A bool of 2 (a Who entry's watchable) and an option tagged 2 (a token).
  refused("server", [SERVER_MSG_VARIANTS.indexOf("Who"), 1, 0, 0, 2], "Malformed", /bool of 2/);
  refused("client", [HELLO, 11, 0, 2], "Malformed", /option tagged 2/);
});

test("a frame over the size limit is refused unread, one at the limit is read", () => {
  const note = (bytes: number) => {
    const text = "a".repeat(bytes - 4); // a tag and a three-byte length
    return encodeServer({ Note: text });
  };
  assert.equal(note(MAX_SERVER_MSG).length, MAX_SERVER_MSG);
  assert.deepEqual(decodeServer(note(MAX_SERVER_MSG)), { Note: "a".repeat(MAX_SERVER_MSG - 4) });
  refused("server", note(MAX_SERVER_MSG + 1), "TooLarge", /65537 bytes is over the 65536-byte limit/);
  const chat = (bytes: number) => encodeClient({ Chat: { to: "Depth", text: "a".repeat(bytes - 5) } });
  assert.equal(chat(MAX_CLIENT_MSG).length, MAX_CLIENT_MSG);
  assert.ok(decodeClient(chat(MAX_CLIENT_MSG)));
  refused("client", chat(MAX_CLIENT_MSG + 1), "TooLarge");
  // Refused for its size before a byte is read: this one is all zeros.
  refused("server", new Uint8Array(10_000_000), "TooLarge");
});

test("random bytes decode or are refused with a DecodeError", { timeout: 30_000 }, () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      decodesOrRefuses("client", bytes);
      decodesOrRefuses("server", bytes);
    }),
    { numRuns: 5000 },
  );
});

test("random messages with bytes changed decode or are refused with a DecodeError", { timeout: 30_000 }, () => {
  const bent = (msg: fc.Arbitrary<Uint8Array>) =>
    fc.tuple(msg, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }));
  const bend = ([bytes, changes]: [Uint8Array, [number, number][]]) => {
    const copy = bytes.slice();
    for (const [at, value] of changes) copy[at % copy.length] = value;
    return copy;
  };
  fc.assert(
    fc.property(bent(clientMsg.map(encodeClient)), (b) => decodesOrRefuses("client", bend(b))),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(bent(serverMsg.map(encodeServer)), (b) => decodesOrRefuses("server", bend(b))),
    { numRuns: 3000 },
  );
});

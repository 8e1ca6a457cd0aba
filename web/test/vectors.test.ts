// The Rust codec's own vectors (written by protocol/src/vectors.rs): every
// frame decodes to serde's JSON of its message and encodes back to the same
// bytes, and every bent frame is refused here exactly when Rust refuses it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  CLIENT_MSG_VARIANTS,
  DecodeError,
  SERVER_MSG_VARIANTS,
  decodeClient,
  decodeServer,
  encodeClient,
  encodeServer,
  type ClientMsg,
  type ServerMsg,
} from "../src/protocol";
import { asJson, fromHex, parseJson, toHex, type Json } from "./json";

interface Vector {
  dir: "client" | "server";
  variant: string;
  json: Json;
  hex: string;
}

interface Mutant {
  dir: "client" | "server";
  json: Json;
  hex: string;
}

// Tests run bundled from build/test/, two folders below web/.
const file = parseJson(readFileSync(new URL("../../test/vectors.json", import.meta.url), "utf8")) as unknown as {
  samples: Vector[];
  random: Vector[];
  mutants: Mutant[];
};

function decode(dir: "client" | "server", bytes: Uint8Array): ClientMsg | ServerMsg {
  return dir === "client" ? decodeClient(bytes) : decodeServer(bytes);
}

function encode(dir: "client" | "server", msg: ClientMsg | ServerMsg): Uint8Array {
  return dir === "client" ? encodeClient(msg as ClientMsg) : encodeServer(msg as ServerMsg);
}

function variantOf(msg: ClientMsg | ServerMsg): string {
  return typeof msg === "string" ? msg : Object.keys(msg)[0]!;
}

function checkVectors(vectors: Vector[]): void {
  assert.ok(vectors.length > 0, "no vectors");
  vectors.forEach((v, i) => {
    const where = `${v.dir} vector ${i} (${v.variant}, ${v.hex.slice(0, 40)})`;
    const msg = decode(v.dir, fromHex(v.hex));
    assert.deepEqual(asJson(msg), v.json, `${where} decodes to its JSON`);
    assert.equal(variantOf(msg), v.variant, where);
    assert.equal(toHex(encode(v.dir, msg)), v.hex, `${where} encodes to its bytes`);
  });
}

test("every sample decodes to its JSON and encodes to its bytes", () => {
  checkVectors(file.samples);
});

test("every random message decodes to its JSON and encodes to its bytes", () => {
  checkVectors(file.random);
});

test("the samples hold every variant of both messages", () => {
  for (const [dir, names] of [
    ["client", CLIENT_MSG_VARIANTS],
    ["server", SERVER_MSG_VARIANTS],
  ] as const) {
    const seen = new Set(file.samples.filter((v) => v.dir === dir).map((v) => v.variant));
    assert.deepEqual([...names].filter((n) => !seen.has(n)), [], `${dir} variants without a sample`);
  }
});

test("a bent frame is refused exactly when the Rust codec refuses it", () => {
  let refused = 0;
  file.mutants.forEach((m, i) => {
    const where = `${m.dir} mutant ${i} (${m.hex.slice(0, 40)})`;
    const bytes = fromHex(m.hex);
    if (m.json === null) {
      assert.throws(() => decode(m.dir, bytes), DecodeError, `${where} is refused`);
      refused++;
    } else {
      assert.deepEqual(asJson(decode(m.dir, bytes)), m.json, `${where} decodes as in Rust`);
    }
  });
  assert.ok(refused > 0 && refused < file.mutants.length, "the mutants hold both verdicts");
});

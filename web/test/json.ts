// Reading vectors.json without losing digits: JSON.parse turns every number
// into a double, and the vectors hold u64 values up to 2^64 - 1. (Node 18's
// JSON.parse cannot hand a reviver the source text.)

export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

/** JSON.parse, but an integer past 2^53 becomes a bigint. */
export function parseJson(text: string): Json {
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`vectors JSON: ${what} at offset ${at}`);
  };
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const found = pattern.exec(text);
    if (found === null) return undefined;
    at = pattern.lastIndex;
    return found[0];
  };
  const space = /[ \t\n\r]*/y;
  const stringLiteral = /"(?:[^"\\]|\\.)*"/y;
  const numberLiteral = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const literal = /true|false|null/y;

  function value(): Json {
    match(space);
    const c = text[at];
    if (c === "{") {
      at++;
      const object: { [key: string]: Json } = {};
      match(space);
      if (text[at] === "}") return at++, object;
      for (;;) {
        match(space);
        const key = match(stringLiteral) ?? fail("a key");
        match(space);
        if (text[at++] !== ":") fail("a colon");
        object[JSON.parse(key) as string] = value();
        match(space);
        const next = text[at++];
        if (next === "}") return object;
        if (next !== ",") fail("a comma or }");
      }
    }
    if (c === "[") {
      at++;
      const array: Json[] = [];
      match(space);
      if (text[at] === "]") return at++, array;
      for (;;) {
        array.push(value());
        match(space);
        const next = text[at++];
        if (next === "]") return array;
        if (next !== ",") fail("a comma or ]");
      }
    }
    const string = match(stringLiteral);
    if (string !== undefined) return JSON.parse(string) as string;
    const word = match(literal);
    if (word !== undefined) return JSON.parse(word) as boolean | null;
    const number = match(numberLiteral) ?? fail("a value");
    const n = Number(number);
    return /^-?\d+$/.test(number) && !Number.isSafeInteger(n) ? BigInt(number) : n;
  }

  const result = value();
  match(space);
  if (at !== text.length) fail("the end");
  return result;
}

/**
 * A decoded message in the vectors' terms: a bigint that a JSON number
 * holds exactly becomes that number (the agreed mapping: u64 is a bigint in
 * TypeScript, digits in serde's JSON).
 */
export function asJson(value: unknown): unknown {
  if (typeof value === "bigint") {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  }
  if (Array.isArray(value)) return value.map(asJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asJson(v)]));
  }
  return value;
}

export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new Error(`not hex: ${hex}`);
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The byte format of bincode 2's standard configuration, as the Rust codec
// (protocol/src/codec.rs) uses it through serde:
//
// - u8 is one byte; bool one byte, 0 or 1 (anything else is refused);
// - u16, u32, u64 and every length are varints, little-endian: a value up
//   to 250 is one byte; else a marker, 251 then 2 bytes, 252 then 4, 253
//   then 8. A marker wider than the type is refused (252 for a u16); a
//   narrower one is taken (251 for a u32), as bincode takes it;
// - an enum's variant is its index in declaration order, as a u32 varint;
// - Option is a byte, 0 (none) or 1 then the value;
// - a string or a Vec is its length then its items (a string's UTF-8
//   bytes); a fixed array or a tuple is its items alone;
// - a char is its UTF-8 bytes, one to four.
//
// No signed integer crosses the wire, so bincode's zigzag is not here.

/** The largest client message the server reads (codec.rs, MAX_CLIENT_MSG). */
export const MAX_CLIENT_MSG = 1024;
/** The largest server message a client reads (codec.rs, MAX_SERVER_MSG). */
export const MAX_SERVER_MSG = 64 * 1024;

/** The three ways a frame fails, as the Rust codec's DecodeError names them. */
export type DecodeFault = "TooLarge" | "Malformed" | "TrailingBytes";

/** Why a frame did not decode to a message. Decoding throws nothing else. */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  constructor(
    readonly fault: DecodeFault,
    message: string,
  ) {
    super(message);
  }
}

/** A value that cannot be a message (a u16 of 70000, a token of 3 bytes). */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
}

/** A value as an error message shows it (JSON.stringify throws on a bigint). */
export function show(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)) ?? String(value);
}

const SINGLE_BYTE_MAX = 250;
const U16_MARKER = 251;
const U32_MARKER = 252;
const U64_MARKER = 253;

const utf8 = new TextEncoder();
// fatal: invalid UTF-8 is refused, as Rust's String refuses it; ignoreBOM:
// a leading U+FEFF is kept as the character it is, not dropped.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes a char's first byte says it takes (Rust's utf8_char_width). */
function charWidth(first: number): number {
  if (first < 0x80) return 1;
  if (first >= 0xc2 && first <= 0xdf) return 2;
  if (first >= 0xe0 && first <= 0xef) return 3;
  if (first >= 0xf0 && first <= 0xf4) return 4;
  return 0;
}

function malformed(message: string): DecodeError {
  return new DecodeError("Malformed", message);
}

/** Reads one frame front to back; every read checks the bytes left first. */
export class Reader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get left(): number {
    return this.bytes.length - this.at;
  }

  /** Moves past `n` bytes and says where they start. */
  private take(n: number, what: string): number {
    if (n > this.left) {
      throw malformed(`cut short: ${what} needs ${n} bytes, ${this.left} left`);
    }
    const start = this.at;
    this.at += n;
    return start;
  }

  u8(): number {
    return this.view.getUint8(this.take(1, "a byte"));
  }

  /** An i8: one byte, two's complement. */
  i8(): number {
    return this.view.getInt8(this.take(1, "a byte"));
  }

  bool(): boolean {
    const b = this.u8();
    if (b > 1) throw malformed(`a bool of ${b}`);
    return b === 1;
  }

  /** A varint's marker and the width it allows: `widest` is 251, 252 or 253. */
  private varint(widest: number, type: string): number | bigint {
    const first = this.u8();
    if (first <= SINGLE_BYTE_MAX) return first;
    if (first > widest) {
      const found = first === 255 ? "the reserved marker 255" : `marker ${first}`;
      throw malformed(`${found} where a ${type} belongs`);
    }
    if (first === U16_MARKER) return this.view.getUint16(this.take(2, type), true);
    if (first === U32_MARKER) return this.view.getUint32(this.take(4, type), true);
    return this.view.getBigUint64(this.take(8, type), true);
  }

  u16(): number {
    return this.varint(U16_MARKER, "u16") as number;
  }

  u32(): number {
    return this.varint(U32_MARKER, "u32") as number;
  }

  u64(): bigint {
    return BigInt(this.varint(U64_MARKER, "u64"));
  }

  /**
   * A length, refused when it is more than the bytes left: every item takes
   * at least a byte, so a longer list cannot be there, and nothing is ever
   * allocated for it. The frame itself is under the size limit already.
   */
  len(what: string): number {
    const n = this.varint(U64_MARKER, `length of ${what}`);
    if (n > this.left) {
      throw malformed(`${what} of length ${n} in ${this.left} bytes left`);
    }
    return Number(n);
  }

  /** A length then that many bytes (a view into the frame, not a copy). */
  byteString(what: string): Uint8Array {
    const n = this.len(what);
    const start = this.take(n, what);
    return this.bytes.subarray(start, start + n);
  }

  string(): string {
    const bytes = this.byteString("a string");
    try {
      return strictUtf8.decode(bytes);
    } catch {
      throw malformed("a string that is not UTF-8");
    }
  }

  char(): string {
    const first = this.u8();
    const width = charWidth(first);
    if (width === 0) throw malformed(`a char cannot start with byte ${first}`);
    if (width === 1) return String.fromCharCode(first);
    const start = this.take(width - 1, "a char");
    try {
      return strictUtf8.decode(this.bytes.subarray(start - 1, start + width - 1));
    } catch {
      throw malformed("a char that is not UTF-8");
    }
  }

  option<T>(read: (r: Reader) => T): T | null {
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag === 1) return read(this);
    throw malformed(`an option tagged ${tag}`);
  }

  vec<T>(read: (r: Reader) => T, what: string): T[] {
    const n = this.len(what);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }

  /** `n` items with no length before them: a fixed array or a tuple. */
  array<T>(n: number, read: (r: Reader) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }

  /** An enum's variant, by its index in `names` (declaration order). */
  variant<const N extends readonly string[]>(names: N, what: string): N[number] {
    const index = this.u32();
    const name = names[index];
    if (name === undefined) {
      throw malformed(`unknown ${what} variant ${index} (there are ${names.length})`);
    }
    return name;
  }
}

/** Builds one frame; every write checks its value fits its type. */
export class Writer {
  private buf = new Uint8Array(64);
  private view = new DataView(this.buf.buffer);
  private at = 0;

  /** Room for `n` more bytes, and where they start. */
  private reserve(n: number): number {
    if (this.at + n > this.buf.length) {
      const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
      grown.set(this.buf.subarray(0, this.at));
      this.buf = grown;
      this.view = new DataView(grown.buffer);
    }
    const start = this.at;
    this.at += n;
    return start;
  }

  private raw(bytes: Uint8Array): void {
    // Room first: reserving may swap the buffer for a larger one.
    const start = this.reserve(bytes.length);
    this.buf.set(bytes, start);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.at);
  }

  u8(v: number): void {
    checkUint(v, 0xff, "u8");
    const start = this.reserve(1);
    this.buf[start] = v;
  }

  /** An i8: one byte, two's complement. */
  i8(v: number): void {
    if (!Number.isInteger(v) || v < -128 || v > 127) throw new EncodeError(`${String(v)} is not an i8`);
    const start = this.reserve(1);
    this.buf[start] = v & 0xff;
  }

  bool(v: boolean): void {
    if (typeof v !== "boolean") throw new EncodeError(`${String(v)} is not a bool`);
    this.u8(v ? 1 : 0);
  }

  /** The shortest varint of `v`, as bincode writes it. */
  private varint(v: number): void {
    if (v <= SINGLE_BYTE_MAX) {
      this.u8(v);
    } else if (v <= 0xffff) {
      this.u8(U16_MARKER);
      const start = this.reserve(2);
      this.view.setUint16(start, v, true);
    } else if (v <= 0xffff_ffff) {
      this.u8(U32_MARKER);
      const start = this.reserve(4);
      this.view.setUint32(start, v, true);
    } else {
      this.u8(U64_MARKER);
      const start = this.reserve(8);
      this.view.setBigUint64(start, BigInt(v), true);
    }
  }

  u16(v: number): void {
    checkUint(v, 0xffff, "u16");
    this.varint(v);
  }

  u32(v: number): void {
    checkUint(v, 0xffff_ffff, "u32");
    this.varint(v);
  }

  u64(v: bigint): void {
    if (typeof v !== "bigint" || v < 0n || v >= 1n << 64n) {
      throw new EncodeError(`${String(v)} is not a u64 (a bigint from 0 to 2^64 - 1)`);
    }
    if (v <= 0xffff_ffffn) {
      this.varint(Number(v));
    } else {
      this.u8(U64_MARKER);
      const start = this.reserve(8);
      this.view.setBigUint64(start, v, true);
    }
  }

  len(n: number): void {
    this.varint(n);
  }

  /** A length then the bytes. */
  byteString(bytes: Uint8Array): void {
    this.len(bytes.length);
    this.raw(bytes);
  }

  string(s: string): void {
    if (typeof s !== "string" || LONE_SURROGATE.test(s)) {
      throw new EncodeError(`${show(s)} is not a string of Unicode characters`);
    }
    this.byteString(utf8.encode(s));
  }

  char(c: string): void {
    if (typeof c !== "string" || [...c].length !== 1 || LONE_SURROGATE.test(c)) {
      throw new EncodeError(`${show(c)} is not one character`);
    }
    this.raw(utf8.encode(c));
  }

  option<T>(v: T | null, write: (w: Writer, v: T) => void): void {
    if (v === null) {
      this.u8(0);
    } else {
      this.u8(1);
      write(this, v);
    }
  }

  vec<T>(items: readonly T[], write: (w: Writer, v: T) => void): void {
    this.len(items.length);
    for (const item of items) write(this, item);
  }

  /** Exactly `n` items with no length before them. */
  array<T>(n: number, items: readonly T[], write: (w: Writer, v: T) => void, what: string): void {
    if (!Array.isArray(items) || items.length !== n) {
      throw new EncodeError(`${what} must hold ${n} items`);
    }
    for (const item of items) write(this, item);
  }

  variant<const N extends readonly string[]>(names: N, name: N[number]): void {
    const index = names.indexOf(name);
    if (index < 0) throw new EncodeError(`${show(name)} is not a variant`);
    this.varint(index);
  }
}

// With the u flag a regular expression walks code points, so a surrogate
// pair is one character and only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u;

function checkUint(v: number, max: number, type: string): void {
  if (!Number.isInteger(v) || v < 0 || v > max) {
    throw new EncodeError(`${String(v)} is not a ${type}`);
  }
}

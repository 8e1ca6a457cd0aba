// The cell lists of a SightDiff packed as bits, as protocol/src/packed.rs
// packs them (its module doc tells the format in full). Least significant
// bit first:
//
// - one bit 0 when no list of players, monsters or floor changes follows
//   the bit string, else a 1 and one bit for each of the three;
// - hidden, shown and the indices of revealed, each as its length plus one
//   in Elias gamma code, then (when not empty) a bit saying whether it rises
//   strictly: if not, a byte an index; if so, the first index in a byte and
//   (for two or more) a 3-bit Rice parameter k and each gap (index less the
//   one before less one) as gap >> k ones, a zero, then its low k bits;
// - two bits of terrain for each revealed cell.
//
// The decoder refuses what packed.rs refuses: a list over 1024 cells, a
// gamma code or a Rice run past its bounds, an index past 255, bits left
// over that are not the zero padding of the last byte.

import { TERRAINS, type SightDiff, type Terrain } from "./types";
import { DecodeError, EncodeError } from "./wire";

/** packed.rs MAX_LIST: the longest list a diff can hold. */
const MAX_LIST = 1024;

function cellsMalformed(message: string): DecodeError {
  return new DecodeError("Malformed", `sight diff: ${message}`);
}

class BitWriter {
  private readonly bytes: number[] = [];
  private pending = 0;
  private count = 0;

  /** The low `n` bits of `value`, lowest first (n ≤ 32). */
  push(value: number, n: number): void {
    for (let i = 0; i < n; i++) {
      this.pending |= ((value >>> i) & 1) << this.count;
      if (++this.count === 8) {
        this.bytes.push(this.pending);
        this.pending = 0;
        this.count = 0;
      }
    }
  }

  /** `value` ≥ 1: as many zeros as it has bits after its highest, then it. */
  pushGamma(value: number): void {
    const extra = 31 - Math.clz32(value);
    this.push(0, extra);
    this.push(1, 1);
    this.push(value & ((1 << extra) - 1), extra);
  }

  finish(): Uint8Array {
    if (this.count > 0) this.bytes.push(this.pending);
    return Uint8Array.from(this.bytes);
  }
}

class BitReader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  private bit(): number {
    if (this.at >= this.bytes.length * 8) throw cellsMalformed("cells cut short");
    const b = ((this.bytes[this.at >> 3] ?? 0) >> (this.at & 7)) & 1;
    this.at++;
    return b;
  }

  /** The next `n` bits (n ≤ 32). */
  read(n: number): number {
    if (n > this.bytes.length * 8 - this.at) throw cellsMalformed("cells cut short");
    let value = 0;
    for (let i = 0; i < n; i++) value += this.bit() * 2 ** i;
    return value;
  }

  /** How many `bit`s come before the next other bit (consumed too), if fewer than `limit`. */
  countRun(bit: number, limit: number): number {
    let count = 0;
    while (this.bit() === bit) {
      if (++count >= limit) throw cellsMalformed("a run of bits past any list or disc");
    }
    return count;
  }

  readGamma(): number {
    const extra = this.countRun(0, 17);
    return 2 ** extra + this.read(extra);
  }

  /** True when only the zero bits that fill the last byte remain. */
  restIsPadding(): boolean {
    const last = this.bytes[this.bytes.length - 1];
    return (
      this.bytes.length === Math.ceil(this.at / 8) &&
      (last === undefined || this.at % 8 === 0 || last >> this.at % 8 === 0)
    );
  }
}

function checkIndex(i: number): void {
  if (!Number.isInteger(i) || i < 0 || i > 255) {
    throw new EncodeError(`${String(i)} is not a disc index (0 to 255)`);
  }
}

function putList(bits: BitWriter, indices: readonly number[]): void {
  indices.forEach(checkIndex);
  bits.pushGamma(indices.length + 1);
  const first = indices[0];
  if (first === undefined) return;
  const gaps: number[] = [];
  for (let i = 1; i < indices.length; i++) gaps.push(indices[i]! - indices[i - 1]! - 1);
  const rising = gaps.every((g) => g >= 0);
  bits.push(rising ? 1 : 0, 1);
  if (!rising) {
    for (const i of indices) bits.push(i, 8);
    return;
  }
  bits.push(first, 8);
  if (gaps.length === 0) return;
  // The cheapest parameter; the first of equals, as Rust's min_by_key.
  const cost = (k: number) => gaps.reduce((sum, g) => sum + (g >> k) + 1 + k, 0);
  let k = 0;
  for (let c = 1; c < 8; c++) if (cost(c) < cost(k)) k = c;
  bits.push(k, 3);
  for (const gap of gaps) {
    for (let run = gap >> k; run > 0; run--) bits.push(1, 1);
    bits.push(0, 1);
    bits.push(gap & ((1 << k) - 1), k);
  }
}

function readList(bits: BitReader): number[] {
  const len = bits.readGamma() - 1;
  if (len > MAX_LIST) throw cellsMalformed(`a list of ${len} cells is over ${MAX_LIST}`);
  if (len === 0) return [];
  const out: number[] = [];
  if (bits.read(1) === 0) {
    for (let i = 0; i < len; i++) out.push(bits.read(8));
    return out;
  }
  const first = bits.read(8);
  out.push(first);
  if (len === 1) return out;
  const k = bits.read(3);
  let next = first + 1;
  for (let i = 1; i < len; i++) {
    const high = bits.countRun(1, 256);
    const index = next + high * 2 ** k + bits.read(k);
    if (index > 255) throw cellsMalformed("a cell index past 255");
    out.push(index);
    next = index + 1;
  }
  return out;
}

/** Which lists follow the bit string, and what it says of the cells. */
export interface Cells {
  hasPlayers: boolean;
  hasMonsters: boolean;
  hasFloor: boolean;
  hidden: number[];
  shown: number[];
  revealed: [number, Terrain][];
}

export function packCells(diff: SightDiff): Uint8Array {
  const bits = new BitWriter();
  const lists = [diff.players, diff.monsters, diff.floor].map((l) => l.length > 0);
  if (lists.some((has) => has)) {
    bits.push(1, 1);
    for (const has of lists) bits.push(has ? 1 : 0, 1);
  } else {
    bits.push(0, 1);
  }
  putList(bits, diff.hidden);
  putList(bits, diff.shown);
  putList(
    bits,
    diff.revealed.map(([i]) => i),
  );
  for (const [, terrain] of diff.revealed) {
    const code = TERRAINS.indexOf(terrain);
    if (code < 0) throw new EncodeError(`${JSON.stringify(terrain)} is not a terrain`);
    bits.push(code, 2);
  }
  return bits.finish();
}

export function unpackCells(bytes: Uint8Array): Cells {
  const bits = new BitReader(bytes);
  const lists = bits.read(1) === 1;
  const hasPlayers = lists && bits.read(1) === 1;
  const hasMonsters = lists && bits.read(1) === 1;
  const hasFloor = lists && bits.read(1) === 1;
  const hidden = readList(bits);
  const shown = readList(bits);
  const revealed = readList(bits).map((i): [number, Terrain] => [i, TERRAINS[bits.read(2)]!]);
  if (!bits.restIsPadding()) throw cellsMalformed("bits left over after its cells");
  return { hasPlayers, hasMonsters, hasFloor, hidden, shown, revealed };
}

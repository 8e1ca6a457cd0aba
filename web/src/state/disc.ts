// The sight disc (protocol/src/disc.rs): every offset within the sight
// radius, row by row from the top, each named on the wire by its index.
// Both sides derive it from the radius the welcome gives.

import { MAX_SIGHT_RADIUS } from "./limits";

/** The largest radius whose disc still fits one-byte indices (disc.rs's). */
export const MAX_RADIUS = MAX_SIGHT_RADIUS;

export class Disc {
  readonly radius: number;
  /** dx, dy of each index, interleaved. */
  private readonly offsets: Int8Array;

  constructor(radius: number) {
    if (!Number.isInteger(radius) || radius < 0 || radius > MAX_RADIUS) {
      throw new RangeError(`sight radius ${radius} is over ${MAX_RADIUS}`);
    }
    this.radius = radius;
    const found: number[] = [];
    for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        if (dx * dx + dy * dy <= radius * radius) found.push(dx, dy);
      }
    }
    this.offsets = Int8Array.from(found);
  }

  get length(): number {
    return this.offsets.length / 2;
  }

  /** The offset an index names, or null for an index past the disc. */
  offset(index: number): [number, number] | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return null;
    return [this.offsets[2 * index] ?? 0, this.offsets[2 * index + 1] ?? 0];
  }

  /** The index of an offset, or null when it lies outside the disc. */
  index(dx: number, dy: number): number | null {
    const r = this.radius;
    if (Math.abs(dx) > r || Math.abs(dy) > r || dx * dx + dy * dy > r * r) return null;
    for (let i = 0; i < this.length; i++) {
      if (this.offsets[2 * i] === dx && this.offsets[2 * i + 1] === dy) return i;
    }
    return null;
  }
}

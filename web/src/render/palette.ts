// The colours (client/src/palette.rs). The values come from the Rust
// client through generated/palette.json; the adjustments of the server's
// colours (`creature`, `remembered`) and the choice of players' colours
// are ported here, and the JSON's samples of them check this port.

// Named imports, so the bundle leaves out the file's samples (`checks`).
import {
  alert,
  background,
  cursor,
  good,
  min_contrast,
  palettes,
  text,
  text_dim,
  text_middle,
  too_close,
} from "../generated/palette.json";
import type { Colour, KindInfo, PlayerId, Terrain } from "../protocol";

export type Rgb = readonly [number, number, number];

export interface Palette {
  name: string;
  wall: Rgb;
  floor: Rgb;
  stairs: Rgb;
  wall_remembered: Rgb;
  floor_remembered: Rgb;
  stairs_remembered: Rgb;
  good: Rgb;
  warn: Rgb;
  alert: Rgb;
  combat: Rgb;
  others: Rgb;
  players: readonly Rgb[];
}

const rgb = (c: readonly number[]): Rgb => [c[0] ?? 0, c[1] ?? 0, c[2] ?? 0];

export const BACKGROUND = rgb(background);
export const TEXT = rgb(text);
export const TEXT_MIDDLE = rgb(text_middle);
export const TEXT_DIM = rgb(text_dim);
/** Headlines of pages: a good end, a bad one. */
export const GOOD = rgb(good);
export const ALERT = rgb(alert);
/** The cursor's frame. */
export const CURSOR = rgb(cursor);
export const MIN_CONTRAST: number = min_contrast;
export const TOO_CLOSE: number = too_close;

export const PALETTES: readonly Palette[] = palettes.map((p) => ({
  name: p.name,
  wall: rgb(p.wall),
  floor: rgb(p.floor),
  stairs: rgb(p.stairs),
  wall_remembered: rgb(p.wall_remembered),
  floor_remembered: rgb(p.floor_remembered),
  stairs_remembered: rgb(p.stairs_remembered),
  good: rgb(p.good),
  warn: rgb(p.warn),
  alert: rgb(p.alert),
  combat: rgb(p.combat),
  others: rgb(p.others),
  players: p.players.map(rgb),
}));

export const DEFAULT: Palette = PALETTES[0] ?? failNoPalette();

function failNoPalette(): never {
  throw new Error("palette.json holds no palette");
}

/** The palette called `name`, or the default. */
export function named(name: string | null): Palette {
  return PALETTES.find((p) => p.name === name) ?? DEFAULT;
}

/** A colour as the protocol sends it. */
export function fromColour(c: Colour): Rgb {
  return [c[0], c[1], c[2]];
}

/** A cell's terrain, in sight or remembered. */
export function terrainColour(p: Palette, t: Terrain, visible: boolean): Rgb {
  switch (t) {
    case "Wall":
      return visible ? p.wall : p.wall_remembered;
    case "Floor":
      return visible ? p.floor : p.floor_remembered;
    default:
      return visible ? p.stairs : p.stairs_remembered;
  }
}

/** A colour's relative luminance, as WCAG 2 defines it. */
export function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two colours (1 to 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `a` moved a fraction `t` of the way to `b`. */
function blend(a: Rgb, b: Rgb, t: number): Rgb {
  const mix = (x: number, y: number) => Math.round(x + (y - x) * t);
  return [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])];
}

/** `c`, lightened just enough to reach MIN_CONTRAST. */
function lift(c: Rgb): Rgb {
  for (let i = 0; i <= 20; i++) {
    const lighter = blend(c, [255, 255, 255], i * 0.05);
    if (contrast(lighter, BACKGROUND) >= MIN_CONTRAST) return lighter;
  }
  return [255, 255, 255];
}

/** Whether two colours are too close to tell apart at a glance. */
export function tooClose(a: Rgb, b: Rgb): boolean {
  const d = (x: number, y: number) => (x - y) ** 2;
  return Math.sqrt(d(a[0], b[0]) + d(a[1], b[1]) + d(a[2], b[2])) < TOO_CLOSE;
}

/** Whether `c` could be taken for the terrain at a glance. */
function likeTerrain(p: Palette, c: Rgb): boolean {
  return [p.wall, p.floor, p.stairs, p.floor_remembered, p.stairs_remembered].some((t) => tooClose(c, t));
}

/**
 * Colours worked out once per palette and colour the server names, which
 * is all they depend on: the map asks for them on every frame. At most
 * `most` are kept, so a hostile server naming every colour cannot grow
 * it without end; past that, a colour is worked out each time it is asked.
 */
export class KeptColours {
  private readonly kept = new Map<string, Rgb>();

  constructor(private readonly most: number) {}

  /** The colour `work` gives for `c` in `p`, worked out on the first ask. */
  of(p: Palette, c: Rgb, work: () => Rgb): Rgb {
    const key = `${p.name}:${c[0]},${c[1]},${c[2]}`;
    const known = this.kept.get(key);
    if (known !== undefined) return known;
    const worked = work();
    if (this.kept.size < this.most) this.kept.set(key, worked);
    return worked;
  }

  /** How many colours are kept. */
  get size(): number {
    return this.kept.size;
  }
}

const creatures = new KeptColours(4096);
const rememberedColours = new KeptColours(4096);

/**
 * A monster's (or an item's) colour as the map draws it: the nearest
 * colour, darker or lighter, that reaches MIN_CONTRAST and is not like the
 * terrain's (the colour itself when it already is).
 */
export function creature(p: Palette, c: Rgb): Rgb {
  return creatures.of(p, c, () => {
    for (let i = 0; i <= 16; i++) {
      for (const towards of [[255, 255, 255], [0, 0, 0]] as const) {
        const tried = blend(c, towards, i * 0.06);
        if (contrast(tried, BACKGROUND) >= MIN_CONTRAST && !likeTerrain(p, tried)) return tried;
      }
    }
    return lift(c);
  });
}

/** A pile's colour out of sight: its kind's, greyed towards the remembered floor. */
export function remembered(p: Palette, c: Rgb): Rgb {
  return rememberedColours.of(p, c, () => lift(blend(creature(p, c), p.floor_remembered, 0.55)));
}

/** The colours players are drawn in: the palette's not too close to any monster's nor the terrain's. */
export class PlayerColours {
  readonly colours: readonly Rgb[];

  constructor(p: Palette, kinds: readonly KindInfo[]) {
    const drawn = kinds.map((k) => creature(p, fromColour(k.colour)));
    const taken = (c: Rgb) => likeTerrain(p, c) || drawn.some((m) => tooClose(c, m));
    const free = p.players.filter((c) => !taken(c));
    this.colours = free.length > 0 ? free : p.players;
  }

  /** The colour of player `id`'s `@` and name. */
  of(id: PlayerId): Rgb {
    return this.colours[id % this.colours.length] ?? TEXT;
  }
}

/**
 * A colour as the canvas takes it. Not cached: the string is cheap, and a
 * cache keyed by colour would grow with every colour a server names.
 */
export function cssColour(c: Rgb): string {
  const key = (c[0] << 16) | (c[1] << 8) | c[2];
  return `#${key.toString(16).padStart(6, "0")}`;
}

// Text as Rust counts it: in characters (code points), not UTF-16 units,
// so a limit of 16 characters means the same on both sides.

/** How many characters (code points) `s` holds. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The first `n` characters of `s`. */
export function takeChars(s: string, n: number): string {
  if (s.length <= n) return s;
  let out = "";
  let i = 0;
  for (const c of s) {
    if (i++ >= n) break;
    out += c;
  }
  return out;
}

/** `s` as a list of characters. */
export function chars(s: string): string[] {
  return Array.from(s);
}

/** Whether a character is a control character (Unicode's Cc), as Rust's `char::is_control`. */
export function isControl(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f);
}

/** Whether any character of `s` is a control character. */
export function hasControl(s: string): boolean {
  for (const c of s) if (isControl(c)) return true;
  return false;
}

/**
 * Orders strings as Rust does (by code point, as their UTF-8 bytes sort),
 * not by UTF-16 unit as `<` does.
 */
export function compareText(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

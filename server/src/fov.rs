//! Field of view by symmetric shadowcasting, as Albert Ford describes it:
//! floors are points at cell centres, walls are diamonds, and a floor cell is
//! seen only when the line from the viewer's centre reaches its centre, so A
//! sees B exactly when B sees A. Walls are seen but stop sight.
//!
//! Slopes are kept as integers in units of 1/1680: every slope the scan makes
//! within radius 8 is (2·col − 1) / (2·depth) with depth ≤ 8, and 1680 is a
//! multiple of every such denominator, so the arithmetic is exact.
//!
//! The scan is bit-parallel: the 17×17 square around the viewer is read as
//! bit masks (a row of it, or a column, is one shifted load from the level's
//! [`Opacity`]), and each sector of a row is handled as a whole: the cells it
//! shows are a few mask operations, and the sectors it casts onto the next
//! row are its runs of open cells, found with trailing-zero counts. The result
//! is a 17×17 bitmask, small enough to stay in cache and cheap to compare
//! between turns.

use gloam_protocol::{Disc, Pos, Terrain};

/// The largest radius the mask holds.
pub(crate) const MAX_RADIUS: i32 = Disc::MAX_RADIUS as i32;
const SIDE: usize = (2 * MAX_RADIUS + 1) as usize;
const R: usize = MAX_RADIUS as usize;
/// The common denominator of every slope.
const UNIT: i32 = 1680;

/// Which cells of a map stop sight, packed as bits for [`Window`]s: one
/// bitset per row and one per column, each padded with `MAX_RADIUS` opaque
/// cells on every side so that any window is whole shifted loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opacity {
    width: i32,
    height: i32,
    /// 64-bit words per padded row; row `y` holds bit `x + 8` for cell (x, y).
    row_words: usize,
    rows: Vec<u64>,
    /// 64-bit words per padded column; column `x` holds bit `y + 8`.
    col_words: usize,
    cols: Vec<u64>,
}

impl Opacity {
    /// The opacity of a `width` × `height` map of `cells`, row by row;
    /// walls and everything off the map are opaque.
    pub fn of(width: u16, height: u16, cells: &[Terrain]) -> Opacity {
        let (w, h) = (usize::from(width), usize::from(height));
        assert_eq!(cells.len(), w * h, "a map's cells fill its rectangle");
        // One spare word per line, so a window's two-word read never runs off.
        let row_words = (w + 2 * R).div_ceil(64) + 1;
        let col_words = (h + 2 * R).div_ceil(64) + 1;
        let mut rows = vec![u64::MAX; row_words * (h + 2 * R)];
        let mut cols = vec![u64::MAX; col_words * (w + 2 * R)];
        for (y, row) in cells.chunks_exact(w.max(1)).enumerate() {
            let by = y + R;
            // Sixty-four cells at a time: their open ones as bits, cleared
            // in the row at once and in each open cell's column.
            for (k, cells) in row.chunks(64).enumerate() {
                let open = open_bits(cells);
                let first = k * 64 + R;
                let line = &mut rows[by * row_words + first / 64..];
                line[0] &= !(open << (first % 64));
                if !first.is_multiple_of(64) {
                    line[1] &= !(open >> (64 - first % 64));
                }
                let mut left = open;
                while left != 0 {
                    let bx = first + left.trailing_zeros() as usize;
                    cols[bx * col_words + by / 64] &= !(1 << (by % 64));
                    left &= left - 1;
                }
            }
        }
        Opacity { width: w as i32, height: h as i32, row_words, rows, col_words, cols }
    }

    /// The 17×17 square around `centre` (which must be on the map).
    #[inline]
    pub fn window(&self, centre: Pos) -> Window {
        let (x, y) = (usize::from(centre.x), usize::from(centre.y));
        debug_assert!((x as i32) < self.width && (y as i32) < self.height);
        // In padded coordinates the square starts at (x, y) itself.
        let mut window = Window { rows: [0; SIDE], cols: [0; SIDE] };
        for i in 0..SIDE {
            window.rows[i] = bits_at(&self.rows[(y + i) * self.row_words..], x);
            window.cols[i] = bits_at(&self.cols[(x + i) * self.col_words..], y);
        }
        window
    }
}

/// The 17 bits of `line` starting at bit `at`.
#[inline(always)]
fn bits_at(line: &[u64], at: usize) -> u32 {
    let two = u128::from(line[at / 64]) | u128::from(line[at / 64 + 1]) << 64;
    (two >> (at % 64)) as u32 & ((1 << SIDE) - 1)
}

/// The 17×17 square around a viewer: `rows[dy + 8]` has bit `dx + 8` set
/// when the cell at (dx, dy) stops sight, and `cols[dx + 8]` has bit `dy + 8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    rows: [u32; SIDE],
    cols: [u32; SIDE],
}

impl Window {
    /// The square around `centre`, asking `is_opaque(x, y)` of every cell;
    /// it must answer true off the map.
    pub fn from_fn(centre: Pos, is_opaque: impl Fn(i32, i32) -> bool) -> Window {
        let (ox, oy) = (i32::from(centre.x), i32::from(centre.y));
        let mut window = Window { rows: [0; SIDE], cols: [0; SIDE] };
        for dy in -MAX_RADIUS..=MAX_RADIUS {
            for dx in -MAX_RADIUS..=MAX_RADIUS {
                if is_opaque(ox + dx, oy + dy) {
                    window.rows[(dy + MAX_RADIUS) as usize] |= 1 << (dx + MAX_RADIUS);
                    window.cols[(dx + MAX_RADIUS) as usize] |= 1 << (dy + MAX_RADIUS);
                }
            }
        }
        window
    }
}

/// The cells one viewer sees, within `radius` of `centre`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fov {
    centre: Pos,
    radius: i32,
    /// Bit `dx + 8` of row `dy + 8` is set when the cell at (dx, dy) is seen.
    rows: [u32; SIDE],
}

/// For each radius, the columns of each row within it: bit `col + 8` of
/// `DISCS[radius][depth]` is set when col² + depth² ≤ radius².
const DISCS: [Lines; R + 1] = {
    let mut discs = [[0; R + 1]; R + 1];
    let mut radius = 0;
    while radius <= R {
        let mut depth = 0;
        while depth <= radius {
            let mut half = 0;
            while (half + 1) * (half + 1) + depth * depth <= radius * radius {
                half += 1;
            }
            discs[radius][depth] = (2u32 << (R + half)) - (1u32 << (R - half));
            depth += 1;
        }
        radius += 1;
    }
    discs
};

/// Sectors still to scan: (depth, start slope, end slope). A row holds at
/// most 9 runs of open cells among its 17 columns, each of which casts one
/// sector a depth deeper, and depth stops at 8, so a scan never holds more
/// than 65 at once.
const MAX_SECTORS: usize = 72;
type Sectors = [(u16, u16, u16); MAX_SECTORS];

/// One quadrant's sight: bit `col + 8` of `lines[depth]` is set when the cell
/// `col` across at `depth` out is seen.
type Lines = [u32; R + 1];

impl Fov {
    /// Sight from `centre`, reaching cells with dx² + dy² ≤ radius²;
    /// `is_opaque(x, y)` must answer true off the map. Asks about every cell
    /// of the square: for a level, [`Opacity::window`] and [`Fov::in_window`]
    /// are the fast way.
    pub fn compute(centre: Pos, radius: u8, is_opaque: impl Fn(i32, i32) -> bool) -> Fov {
        Fov::in_window(centre, radius, &Window::from_fn(centre, is_opaque))
    }

    /// Sight from `centre`, whose surroundings are `window`.
    pub fn in_window(centre: Pos, radius: u8, window: &Window) -> Fov {
        let radius = radius.min(MAX_RADIUS as u8);
        let disc = &DISCS[usize::from(radius)];
        let mut sectors = [(0, 0, 0); MAX_SECTORS];
        let (rows, cols, r) = (&window.rows, &window.cols, u32::from(radius));
        let [mut north, mut south, mut west, mut east] = [[0; R + 1]; 4];
        scan_quadrant(r, disc, |d| rows[R - d], &mut sectors, &mut north);
        scan_quadrant(r, disc, |d| rows[R + d], &mut sectors, &mut south);
        scan_quadrant(r, disc, |d| cols[R - d], &mut sectors, &mut west);
        scan_quadrant(r, disc, |d| cols[R + d], &mut sectors, &mut east);
        let mut rows = [0u32; SIDE];
        rows[R] = 1 << R;
        for d in 1..=R {
            rows[R - d] |= north[d];
            rows[R + d] |= south[d];
        }
        // East and west were scanned along columns: turn them into rows,
        // eight columns at a time. East's depths 1 to 8 become bits 9 to 16,
        // west's depths 8 to 1 bits 0 to 7.
        let east: [u32; 8] = std::array::from_fn(|k| east[k + 1]);
        let west: [u32; 8] = std::array::from_fn(|k| west[R - k]);
        for block in 0..2 {
            let (e, w) =
                (transpose8(bytes_of(&east, 8 * block)), transpose8(bytes_of(&west, 8 * block)));
            for j in 0..8 {
                let row = &mut rows[8 * block + j];
                *row |= ((e >> (8 * j) & 0xff) as u32) << (R + 1) | (w >> (8 * j) & 0xff) as u32;
            }
        }
        // Column 16 is only reached at depth 8.
        rows[2 * R] |= (east[7] >> (2 * R) & 1) << (2 * R) | west[0] >> (2 * R) & 1;
        Fov { centre, radius: i32::from(radius), rows }
    }

    pub(crate) fn centre(&self) -> Pos {
        self.centre
    }

    /// True when the cell `dx, dy` from the centre is seen.
    pub(crate) fn sees_offset(&self, dx: i32, dy: i32) -> bool {
        dx.abs() <= MAX_RADIUS
            && dy.abs() <= MAX_RADIUS
            && self.rows[(dy + MAX_RADIUS) as usize] & (1 << (dx + MAX_RADIUS)) != 0
    }

    /// True when `pos` is seen.
    pub fn sees(&self, pos: Pos) -> bool {
        let dx = i32::from(pos.x) - i32::from(self.centre.x);
        let dy = i32::from(pos.y) - i32::from(self.centre.y);
        self.sees_offset(dx, dy)
    }

    /// How many cells are seen.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Every seen cell, row by row, west to east: the set bits of each row
    /// (a look at each cell of the square was most of what finding the
    /// players in a crowd's sight cost).
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        offsets_of(self.rows).filter_map(move |(dx, dy)| self.centre.offset(dx, dy))
    }

    /// The offsets from its centre of the cells this sight sees that
    /// `other` does not, row by row, west to east (the order of a disc's
    /// indices): a row of bits at a time, not a look at each cell.
    pub(crate) fn offsets_not_in(&self, other: Option<&Fov>) -> impl Iterator<Item = (i32, i32)> {
        let theirs = other.map_or([0; SIDE], |o| o.rows_from(self.centre));
        let rows: [u32; SIDE] = std::array::from_fn(|r| self.rows[r] & !theirs[r]);
        offsets_of(rows)
    }

    /// This sight's rows as offsets from `centre`: bit `dx + 8` of row
    /// `dy + 8` set when the cell (dx, dy) from `centre` is seen.
    fn rows_from(&self, centre: Pos) -> [u32; SIDE] {
        let sx = i32::from(self.centre.x) - i32::from(centre.x);
        let sy = i32::from(self.centre.y) - i32::from(centre.y);
        let side = SIDE as i32;
        std::array::from_fn(|r| {
            // Row r from `centre` is row r - sy from this sight's centre,
            // and its column c is column c - sx.
            let mine = r as i32 - sy;
            if !(0..side).contains(&mine) || sx.abs() >= side {
                return 0;
            }
            let row = self.rows[mine as usize];
            if sx >= 0 { row << sx } else { row >> -sx }
        })
    }
}

/// The offsets of the set bits of `rows` (bit `dx + 8` of row `dy + 8`),
/// row by row, west to east. Bits past the square are never set.
fn offsets_of(rows: [u32; SIDE]) -> impl Iterator<Item = (i32, i32)> {
    (-MAX_RADIUS..=MAX_RADIUS).zip(rows).flat_map(|(dy, row)| {
        let mut bits = row & ((1 << SIDE) - 1);
        std::iter::from_fn(move || {
            let col = bits.trailing_zeros();
            (bits != 0).then(|| {
                bits &= bits - 1;
                (col as i32 - MAX_RADIUS, dy)
            })
        })
    })
}

/// Scans one quadrant, sector by sector: `line(depth)` is the opacity of the
/// row `depth` out (bit `col + 8` for the cell `col` across), and what is seen
/// is ORed into `seen[depth]`.
///
/// A slope is held as `UNIT` × (slope + 1), never negative, so that finding
/// the column under it is an unsigned division by a constant.
#[inline(always)]
fn scan_quadrant(
    radius: u32,
    disc: &Lines,
    line: impl Fn(usize) -> u32,
    sectors: &mut Sectors,
    seen: &mut Lines,
) {
    const U: u32 = UNIT as u32;
    let mut len = 1;
    sectors[0] = (1, 0, 2 * UNIT as u16);
    while len > 0 {
        len -= 1;
        let (depth, start, end) = sectors[len];
        let depth = u32::from(depth);
        // Where the sector's edges cross this row: a cell's bit, and how far
        // into the cell in units. Column -depth is bit 8 - depth.
        let (start_at, end_at) = (depth * u32::from(start), depth * u32::from(end));
        let (from, from_part) = (start_at / U + R as u32 - depth, start_at % U);
        let (to, to_part) = (end_at / U + R as u32 - depth, end_at % U);
        // The cells the sector touches (their centres rounded inwards), and
        // those whose centres lie inside it.
        let first_bit = from + u32::from(2 * from_part >= U);
        let last_bit = to + u32::from(2 * to_part > U);
        let range = span(first_bit, last_bit);
        let centred = span(from + u32::from(from_part > 0), to);
        let walls = line(depth as usize) & range;
        let open = !walls & range;
        // Walls are seen when touched; floors only when their centre is inside.
        seen[depth as usize] |= (walls | open & centred) & disc[depth as usize];
        if depth >= radius {
            continue;
        }
        // Each run of open cells casts a sector onto the next row, bounded by
        // the walls' edges beside it or by this sector's own.
        let mut firsts = open & !(open << 1);
        let mut lasts = open & !(open >> 1);
        let step = UNIT / (2 * depth as i32);
        // The left edge of the cell at `bit` (column bit - 8): (2·col − 1)/(2·depth).
        let edge = |bit: u32| ((2 * bit as i32 - 2 * MAX_RADIUS - 1) * step + UNIT) as u16;
        while firsts != 0 {
            let (first, last) = (firsts.trailing_zeros(), lasts.trailing_zeros());
            let from = if first == first_bit { start } else { edge(first) };
            let to = if last == last_bit { end } else { edge(last + 1) };
            sectors[len] = (depth as u16 + 1, from, to);
            len += 1;
            firsts &= firsts - 1;
            lasts &= lasts - 1;
        }
    }
}

/// Bits `shift` to `shift + 7` of each line, line `k` as byte `k`.
#[inline(always)]
fn bytes_of(lines: &[u32; 8], shift: usize) -> u64 {
    lines
        .iter()
        .enumerate()
        .fold(0, |bytes, (k, &line)| bytes | u64::from(line >> shift & 0xff) << (8 * k))
}

/// An 8×8 bit matrix, row `k` in byte `k`, turned so that bit `j` of byte
/// `k` becomes bit `k` of byte `j` (Hacker's Delight, 7-3).
#[inline(always)]
fn transpose8(x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    let x = x ^ t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    let x = x ^ t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Bits `first` to `last`; none when `first` is `last + 1`, as an empty
/// sector's edges are.
#[inline(always)]
fn span(first: u32, last: u32) -> u32 {
    debug_assert!(first <= last + 1);
    (1u32 << (last + 1)).wrapping_sub(1 << first)
}

/// The open ones of up to 64 `cells`, as bits (bit i for the i-th), found
/// eight cells at a time: a cell is open when its terrain is not the wall,
/// which is terrain 0.
pub(crate) fn open_bits(cells: &[Terrain]) -> u64 {
    const _: () = assert!(Terrain::Wall as u8 == 0 && Terrain::ALL.len() == 4);
    debug_assert!(cells.len() <= 64);
    let mut bits = 0;
    for (k, eight) in cells.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        for (byte, &t) in bytes.iter_mut().zip(eight) {
            *byte = t as u8;
        }
        // Each byte is 0 to 3: its low bit is set when either bit is, and
        // a multiplication gathers the eight low bits into the top byte.
        let word = u64::from_le_bytes(bytes);
        let ones = (word | word >> 1) & 0x0101_0101_0101_0101;
        bits |= (ones.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-drawn map: '#' is opaque, anything else open; off the map is opaque.
    fn opaque_in(rows: &'static [&'static str]) -> impl Fn(i32, i32) -> bool {
        move |x, y| {
            if x < 0 || y < 0 {
                return true;
            }
            rows.get(y as usize)
                .and_then(|r| r.as_bytes().get(x as usize))
                .is_none_or(|&c| c == b'#')
        }
    }

    proptest::proptest! {
        /// The walls as bits give, around any cell of any map (up to three
        /// words a row), the same window as asking cell by cell.
        #[test]
        fn opacity_windows_match_the_cells(
            w in 1u16..150,
            h in 1u16..70,
            walls in proptest::collection::vec(proptest::bool::weighted(0.4), 150 * 70),
            at in proptest::collection::vec((0u16..150, 0u16..70), 1..8),
        ) {
            let cells: Vec<Terrain> = walls[..usize::from(w) * usize::from(h)]
                .iter()
                .map(|&wall| if wall { Terrain::Wall } else { Terrain::Floor })
                .collect();
            let opacity = Opacity::of(w, h, &cells);
            let opaque = |x: i32, y: i32| {
                x < 0 || y < 0 || x >= i32::from(w) || y >= i32::from(h)
                    || cells[y as usize * usize::from(w) + x as usize] == Terrain::Wall
            };
            for centre in at.into_iter().map(|(x, y)| Pos::new(x % w, y % h)) {
                proptest::prop_assert_eq!(opacity.window(centre), Window::from_fn(centre, opaque));
            }
        }
    }

    proptest::proptest! {
        /// The cells one sight sees and another does not, found a row of
        /// bits at a time, are those found by asking each cell of the
        /// square, in the same order, however far apart the two stand
        /// (also off the map's edge); and `cells` is every cell seen.
        #[test]
        fn what_one_sight_sees_and_another_does_not(
            walls in proptest::collection::vec(proptest::bool::weighted(0.3), 40 * 40),
            a in (0u16..40, 0u16..40),
            b in (0u16..40, 0u16..40),
            radius in 1u8..=8,
        ) {
            let opaque = |x: i32, y: i32| {
                !(0..40).contains(&x) || !(0..40).contains(&y) || walls[(y * 40 + x) as usize]
            };
            let (a, b) = (Pos::new(a.0, a.1), Pos::new(b.0, b.1));
            let (mine, theirs) = (Fov::compute(a, radius, opaque), Fov::compute(b, radius, opaque));
            let square = || (-MAX_RADIUS..=MAX_RADIUS)
                .flat_map(|dy| (-MAX_RADIUS..=MAX_RADIUS).map(move |dx| (dx, dy)));
            let (ax, ay, bx, by) =
                (i32::from(a.x), i32::from(a.y), i32::from(b.x), i32::from(b.y));
            let expected: Vec<(i32, i32)> = square()
                .filter(|&(dx, dy)| mine.sees_offset(dx, dy))
                .filter(|&(dx, dy)| !theirs.sees_offset(ax + dx - bx, ay + dy - by))
                .collect();
            proptest::prop_assert_eq!(mine.offsets_not_in(Some(&theirs)).collect::<Vec<_>>(), expected);
            let all: Vec<(i32, i32)> = square().filter(|&(dx, dy)| mine.sees_offset(dx, dy)).collect();
            proptest::prop_assert_eq!(mine.offsets_not_in(None).collect::<Vec<_>>(), all.clone());
            let cells: Vec<Pos> = all.iter().filter_map(|&(dx, dy)| a.offset(dx, dy)).collect();
            proptest::prop_assert_eq!(mine.cells().collect::<Vec<_>>(), cells);
        }
    }

    #[test]
    fn transpose8_turns_rows_into_columns() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let t = transpose8(state);
            for k in 0..8 {
                for j in 0..8 {
                    assert_eq!(state >> (8 * k + j) & 1, t >> (8 * j + k) & 1, "byte {k} bit {j}");
                }
            }
        }
    }

    #[test]
    fn open_ground_shows_the_197_cell_disc() {
        let fov = Fov::compute(Pos::new(50, 50), 8, |_, _| false);
        assert_eq!(fov.count(), 197);
        assert!(fov.sees_offset(8, 0) && fov.sees_offset(0, -8));
        assert!(!fov.sees_offset(6, 6), "36 + 36 > 64");
        assert!(fov.sees_offset(4, 6) == (16 + 36 <= 64));
    }

    #[test]
    fn every_wall_of_a_convex_room_is_seen_from_inside() {
        const ROOM: &[&str] = &["########", "#......#", "#......#", "#......#", "########"];
        for y in 1..4 {
            for x in 1..7 {
                let fov = Fov::compute(Pos::new(x, y), 8, opaque_in(ROOM));
                assert_eq!(fov.count(), 40, "from ({x}, {y}) the whole room and its walls");
            }
        }
    }

    #[test]
    fn nothing_behind_a_wall_is_seen() {
        const MAP: &[&str] = &["###########", "#...#.....#", "###########"];
        let fov = Fov::compute(Pos::new(1, 1), 8, opaque_in(MAP));
        assert!(fov.sees(Pos::new(4, 1)), "the wall itself");
        for x in 5..10 {
            assert!(!fov.sees(Pos::new(x, 1)), "({x}, 1) is behind the wall");
        }
    }

    #[test]
    fn a_pillar_casts_a_shadow_but_is_seen() {
        const MAP: &[&str] =
            &["###########", "#.........#", "#...#.....#", "#.........#", "###########"];
        let fov = Fov::compute(Pos::new(2, 2), 8, opaque_in(MAP));
        assert!(fov.sees(Pos::new(4, 2)));
        assert!(!fov.sees(Pos::new(6, 2)));
        assert!(fov.sees(Pos::new(6, 1)) && fov.sees(Pos::new(6, 3)));
    }

    mod open_cells {
        use super::super::open_bits;
        use gloam_protocol::Terrain;
        use proptest::prelude::*;

        proptest! {
            /// Eight at a time, the open cells are the ones whose terrain is open.
            #[test]
            fn open_bits_are_the_open_cells(kinds in proptest::collection::vec(0usize..4, 0..=64)) {
                let cells: Vec<Terrain> = kinds.iter().map(|&k| Terrain::ALL[k]).collect();
                let expected =
                    cells.iter().enumerate().fold(0u64, |b, (i, t)| b | u64::from(t.is_open()) << i);
                prop_assert_eq!(open_bits(&cells), expected);
            }
        }
    }
}

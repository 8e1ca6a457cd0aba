//! Walking distances over a level's grid: one breadth-first search, in the
//! 8 directions players step in, shared by every part of Gloam that walks
//! (the level generators placing stairs, the server placing arrivals, the
//! simulated players and bots finding their way over what they know).
//! Cells are named by row-major index on a `width` x `height` grid; the
//! caller says which indices may be entered.

use crate::{Dir, Pos};

/// The distance of a cell no walk reached.
pub const UNREACHED: u16 = u16::MAX;

/// The largest grid [`DistanceMap::over_rows`] walks.
pub const ROWS_MAX_WIDTH: u16 = 128;
pub const ROWS_MAX_HEIGHT: u16 = 64;

/// (dx, dy) of each of `Dir::ALL`, for stepping packed coordinates.
const STEP_DELTAS: [(i32, i32); 8] = {
    let mut deltas = [(0, 0); 8];
    let mut k = 0;
    while k < 8 {
        deltas[k] = Dir::ALL[k].delta();
        k += 1;
    }
    deltas
};

/// Steps from the nearest start to every cell reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistanceMap {
    width: u16,
    height: u16,
    dist: Vec<u16>,
}

impl DistanceMap {
    /// Walks from `starts` over every cell `open` allows.
    pub fn new(width: u16, height: u16, starts: &[Pos], open: impl Fn(usize) -> bool) -> Self {
        Self::until(width, height, starts, open, |_| false).0
    }

    /// Walks from `starts` in order of distance (starts first, ties in the
    /// order cells were reached) until `goal` accepts a cell, which is
    /// given back with the map as far as it was walked. Starts outside the
    /// grid are ignored; a start need not be open.
    pub fn until(
        width: u16,
        height: u16,
        starts: &[Pos],
        open: impl Fn(usize) -> bool,
        mut goal: impl FnMut(Pos) -> bool,
    ) -> (Self, Option<Pos>) {
        Self::walk(width, height, starts, open, |pos, _| goal(pos))
    }

    /// Walks from `starts` no further than `reach` steps: cells beyond it
    /// are left unreached.
    pub fn within(
        width: u16,
        height: u16,
        starts: &[Pos],
        open: impl Fn(usize) -> bool,
        reach: u16,
    ) -> Self {
        Self::walk(width, height, starts, open, |_, d| d >= reach).0
    }

    /// Walks from `starts` over a grid whose open cells are the set bits of
    /// `open`, a row each (bit `x` of row `y` for cell (x, y); bits from
    /// `width` on are ignored): the same distances as [`DistanceMap::new`],
    /// found a wave at a time by [`waves`]. Only for grids of at most
    /// [`ROWS_MAX_WIDTH`] x [`ROWS_MAX_HEIGHT`].
    pub fn over_rows(width: u16, height: u16, open: &[u128], starts: &[Pos]) -> Self {
        let w = usize::from(width);
        let mut map = Self { width, height, dist: vec![UNREACHED; w * usize::from(height)] };
        waves(width, height, open, starts, |d, y, mut fresh| {
            while fresh != 0 {
                map.dist[y * w + fresh.trailing_zeros() as usize] = d;
                fresh &= fresh - 1;
            }
        });
        map
    }

    /// The walk itself: `goal` is asked of every cell taken from the
    /// queue, with its distance.
    fn walk(
        width: u16,
        height: u16,
        starts: &[Pos],
        open: impl Fn(usize) -> bool,
        mut goal: impl FnMut(Pos, u16) -> bool,
    ) -> (Self, Option<Pos>) {
        let (w, h) = (usize::from(width), usize::from(height));
        let mut map = Self { width, height, dist: vec![UNREACHED; w * h] };
        // Every cell enters the queue at most once, so a Vec read from the
        // front by an index is the whole queue. It holds each cell's
        // coordinates (y above x), not its index: dividing an index by a
        // width known only at run time costs more than the walk around it.
        let mut queue: Vec<u32> = Vec::with_capacity(w * h / 2);
        let packed = |pos: Pos| u32::from(pos.y) << 16 | u32::from(pos.x);
        for &start in starts {
            if let Some(i) = map.index(start)
                && map.dist[i] == UNREACHED
            {
                map.dist[i] = 0;
                queue.push(packed(start));
            }
        }
        let row = w as isize;
        // The order of `Dir::ALL`, so cells are reached in the same order on
        // the border as inside it.
        let steps = [-row, -row + 1, 1, row + 1, row, row - 1, -1, -row - 1];
        let mut head = 0;
        while let Some(&cell) = queue.get(head) {
            head += 1;
            let (x, y) = ((cell & 0xffff) as usize, (cell >> 16) as usize);
            let pos = Pos::new(x as u16, y as u16);
            let i = y * w + x;
            if goal(pos, map.dist[i]) {
                return (map, Some(pos));
            }
            let next = map.dist[i] + 1;
            if x > 0 && y > 0 && x + 1 < w && y + 1 < h {
                // Inside the border every neighbour's index is valid, and
                // its coordinates are this cell's plus the step's.
                for (k, step) in steps.into_iter().enumerate() {
                    let n = i.wrapping_add_signed(step);
                    if map.dist[n] == UNREACHED && open(n) {
                        map.dist[n] = next;
                        let (dx, dy) = STEP_DELTAS[k];
                        queue.push(cell.wrapping_add_signed(dy << 16).wrapping_add_signed(dx));
                    }
                }
            } else {
                for dir in Dir::ALL {
                    if let Some(np) = pos.step(dir)
                        && let Some(n) = map.index(np)
                        && map.dist[n] == UNREACHED
                        && open(n)
                    {
                        map.dist[n] = next;
                        queue.push(packed(np));
                    }
                }
            }
        }
        (map, None)
    }

    /// The row-major index of `pos`, if it is on the grid.
    pub fn index(&self, pos: Pos) -> Option<usize> {
        (pos.x < self.width && pos.y < self.height)
            .then(|| usize::from(pos.y) * usize::from(self.width) + usize::from(pos.x))
    }

    /// The cell at row-major index `i`.
    pub fn pos_of(&self, i: usize) -> Pos {
        let w = usize::from(self.width);
        Pos::new((i % w) as u16, (i / w) as u16)
    }

    /// Steps from the nearest start to `pos`, if it was reached.
    pub fn get(&self, pos: Pos) -> Option<u16> {
        self.index(pos).map(|i| self.dist[i]).filter(|&d| d != UNREACHED)
    }

    /// Every cell's distance, row-major ([`UNREACHED`] where none).
    pub fn distances(&self) -> &[u16] {
        &self.dist
    }

    /// The reached cell farthest from the starts; ties go to the first in
    /// row-major order, so the choice is deterministic.
    pub fn farthest(&self) -> Option<Pos> {
        // Two plain passes (the greatest distance, then its first cell)
        // are quicker than one that keeps a best so far; the first counts
        // unreached cells as nought (they wrap round to it) so that it runs
        // without a branch.
        let most = self.dist.iter().map(|d| d.wrapping_add(1)).max()?.checked_sub(1)?;
        let i = self.dist.iter().position(|&d| d == most)?;
        Some(self.pos_of(i))
    }

    /// A shortest walk from the starts to `to`, as steps, or `None` when
    /// `to` was not reached.
    pub fn path_to(&self, to: Pos) -> Option<Vec<Dir>> {
        let mut left = self.get(to)?;
        let mut at = to;
        let mut steps = Vec::with_capacity(usize::from(left));
        while left > 0 {
            // A neighbour one step nearer exists: it is how `at` was reached.
            let (dir, from) = Dir::ALL.into_iter().find_map(|d| {
                let (dx, dy) = d.delta();
                let from = at.offset(-dx, -dy)?;
                (self.get(from) == Some(left - 1)).then_some((d, from))
            })?;
            steps.push(dir);
            at = from;
            left -= 1;
        }
        steps.reverse();
        Some(steps)
    }
}

/// What a walk by rows of bits found, kept as bits: which cells it
/// reached, which lie near the starts, and the farthest, without writing a
/// distance for every cell (which costs a walk of a level several times
/// what finding its waves does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowWalk {
    /// The cells reached, a row each (bit `x` of row `y` for cell (x, y)).
    pub reached: Vec<u128>,
    /// The cells reached in fewer than the `near` steps asked for, likewise.
    pub near: Vec<u128>,
    /// The reached cell farthest from the starts and its distance; ties go
    /// to the first in row-major order, as [`DistanceMap::farthest`]'s do.
    pub farthest: Option<(Pos, u16)>,
}

impl RowWalk {
    /// Walks from `starts` over the set bits of `open`, as
    /// [`DistanceMap::over_rows`] does, noting the cells fewer than `near`
    /// steps away.
    pub fn new(width: u16, height: u16, open: &[u128], starts: &[Pos], near: u16) -> Self {
        let h = usize::from(height);
        let mut close = [0u128; 64];
        let mut farthest: Option<(Pos, u16)> = None;
        let reached = waves(width, height, open, starts, |d, y, fresh| {
            if d < near {
                close[y] |= fresh;
            }
            // Rows come top to bottom within a wave: the first row of a
            // farther wave to hold any cell holds its first in row-major
            // order.
            if farthest.is_none_or(|(_, most)| d > most) && fresh != 0 {
                let x = fresh.trailing_zeros() as u16;
                farthest = Some((Pos::new(x, y as u16), d));
            }
        });
        Self { reached: reached[..h].to_vec(), near: close[..h].to_vec(), farthest }
    }
}

/// The walk by rows of bits: from `starts` over the set bits of `open` (a
/// row each, bit `x` for cell (x, y); bits from `width` on are ignored),
/// telling `fresh` of each row's cells first reached at each distance, as
/// (distance, row, bits): distance 0 for the starts, then one wave after
/// another, each wave's rows top to bottom, each row once at most (its bits
/// may be none: every row next to the wave before is told).
/// A wave is the one before spread by one cell each way (the 8 directions
/// players step in), row by row as masks, less what was reached before.
/// Starts off the grid are ignored; a start need not be open. Gives back
/// every cell reached, a row each.
fn waves(
    width: u16,
    height: u16,
    open: &[u128],
    starts: &[Pos],
    mut fresh: impl FnMut(u16, usize, u128),
) -> [u128; 64] {
    assert!(width <= ROWS_MAX_WIDTH && height <= ROWS_MAX_HEIGHT, "{width}x{height}");
    assert_eq!(open.len(), usize::from(height), "one row of bits per row of cells");
    let h = usize::from(height);
    let columns = u128::MAX.checked_shr(128 - u32::from(width)).unwrap_or(0);
    // The cells not yet reached, a row each; the wave being spread and the
    // next one, a row each with a row of nothing above and below (row y at
    // y + 1), so that every row has two neighbours to read.
    let mut unreached = [0u128; 64];
    for (left, &row) in unreached.iter_mut().zip(open) {
        *left = row & columns;
    }
    let (mut one, mut other) = ([0u128; 66], [0u128; 66]);
    // Swapped as references after each wave, not copied.
    let (mut wave, mut next) = (&mut one, &mut other);
    // The rows of the wave that hold any cell: all others are nought, as is
    // all of `next` between waves.
    let mut rows = 0u64;
    // The starts, reached whether open or not.
    let mut reached = [0u128; 64];
    for &start in starts.iter().filter(|s| s.x < width && s.y < height) {
        let y = usize::from(start.y);
        wave[y + 1] |= 1 << start.x;
        reached[y] |= 1 << start.x;
        unreached[y] &= !(1 << start.x);
        rows |= 1 << y;
    }
    let mut left = rows;
    while left != 0 {
        let y = left.trailing_zeros() as usize;
        left &= left - 1;
        fresh(0, y, wave[y + 1]);
    }
    let on_grid = u64::MAX.checked_shr(64 - h as u32).unwrap_or(0);
    let mut d = 0;
    while rows != 0 {
        d += 1;
        let mut touched = (rows | rows << 1 | rows >> 1) & on_grid;
        let mut holding = 0u64;
        while touched != 0 {
            let y = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let near = wave[y] | wave[y + 1] | wave[y + 2];
            let new = (near | near << 1 | near >> 1) & unreached[y];
            unreached[y] ^= new;
            next[y + 1] = new;
            // No branch on whether any was reached: which way it goes is
            // a coin toss on most levels.
            holding |= u64::from(new != 0) << y;
            fresh(d, y, new);
        }
        while rows != 0 {
            wave[rows.trailing_zeros() as usize + 1] = 0;
            rows &= rows - 1;
        }
        (wave, next) = (next, wave);
        rows = holding;
    }
    for ((all, &open), &left) in reached.iter_mut().zip(open).zip(&unreached) {
        *all |= open & columns & !left;
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The open cells ('.', '<', '>') of a small hand-drawn map.
    fn map(rows: &[&str]) -> (u16, u16, Vec<bool>) {
        let open = rows.iter().flat_map(|r| r.chars().map(|c| c != '#')).collect();
        (rows[0].len() as u16, rows.len() as u16, open)
    }

    fn walk(rows: &[&str], from: Pos) -> DistanceMap {
        let (w, h, open) = map(rows);
        DistanceMap::new(w, h, &[from], |i| open[i])
    }

    /// `open` as rows of bits.
    fn rows_of(w: u16, open: &[bool]) -> Vec<u128> {
        open.chunks(usize::from(w))
            .map(|row| row.iter().enumerate().map(|(x, &o)| u128::from(o) << x).sum())
            .collect()
    }

    proptest::proptest! {
        /// The walk by rows of bits finds every distance the walk by queue
        /// does, on any grid it takes, from any starts.
        #[test]
        fn walking_by_rows_of_bits_finds_the_same_distances(
            w in 1u16..=ROWS_MAX_WIDTH,
            h in 1u16..=ROWS_MAX_HEIGHT,
            density in 77u64..256,
            seed: u64,
            starts in proptest::collection::vec((0u16..140, 0u16..70), 0..4),
        ) {
            // A cell is open with odds density/256, by xorshift from the seed.
            let mut seed = seed | 1;
            let mut draw = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed % 256
            };
            let open: Vec<bool> =
                (0..usize::from(w) * usize::from(h)).map(|_| draw() < density).collect();
            let starts: Vec<Pos> = starts.into_iter().map(|(x, y)| Pos::new(x, y)).collect();
            let by_queue = DistanceMap::new(w, h, &starts, |i| open[i]);
            let by_rows = DistanceMap::over_rows(w, h, &rows_of(w, &open), &starts);
            proptest::prop_assert_eq!(&by_rows, &by_queue);
            // Kept as bits: the same cells reached, near and farthest.
            let near = u16::from(density as u8 % 16);
            let walk = RowWalk::new(w, h, &rows_of(w, &open), &starts, near);
            let dist = by_queue.distances();
            let bits = |keep: &dyn Fn(u16) -> bool| -> Vec<bool> { dist.iter().map(|&d| keep(d)).collect() };
            proptest::prop_assert_eq!(&walk.reached, &rows_of(w, &bits(&|d| d != UNREACHED)));
            proptest::prop_assert_eq!(&walk.near, &rows_of(w, &bits(&|d| d < near)));
            let farthest = by_queue.farthest().map(|p| (p, by_queue.get(p).unwrap_or(0)));
            proptest::prop_assert_eq!(walk.farthest, farthest);
        }
    }

    #[test]
    fn walking_by_rows_ignores_bits_beyond_the_width() {
        let open = vec![u128::MAX; 3];
        let d = DistanceMap::over_rows(4, 3, &open, &[Pos::new(0, 0)]);
        assert_eq!(d, DistanceMap::new(4, 3, &[Pos::new(0, 0)], |_| true));
        assert_eq!(d.farthest(), Some(Pos::new(3, 0)));
    }

    #[test]
    fn diagonal_steps_count_as_one() {
        let d = walk(&["#####", "#...#", "#...#", "#...#", "#####"], Pos::new(1, 1));
        assert_eq!(d.get(Pos::new(3, 3)), Some(2));
        assert_eq!(d.farthest(), Some(Pos::new(3, 1)));
    }

    #[test]
    fn open_cells_on_the_edge_are_walked_without_stepping_off() {
        let d = walk(&["...", "...", "..."], Pos::new(0, 0));
        assert_eq!(d.get(Pos::new(2, 2)), Some(2));
        assert!(d.distances().iter().all(|&x| x != UNREACHED));
    }

    #[test]
    fn walls_make_the_walk_longer_and_pockets_unreachable() {
        let rows = ["#########", "#..#..#.#", "##.#.####", "#.....#.#", "#########"];
        let d = walk(&rows, Pos::new(1, 1));
        assert_eq!(d.get(Pos::new(5, 1)), Some(4));
        assert_eq!(d.get(Pos::new(7, 1)), None, "a closed pocket");
        assert_eq!(d.get(Pos::new(7, 3)), None, "a closed pocket");
    }

    #[test]
    fn a_walk_within_a_reach_leaves_farther_cells_unreached() {
        let rows = ["#########", "#..#..#.#", "##.#.####", "#.....#.#", "#########"];
        let (w, h, open) = map(&rows);
        let full = walk(&rows, Pos::new(1, 1));
        let near = DistanceMap::within(w, h, &[Pos::new(1, 1)], |i| open[i], 3);
        for (i, (&f, &n)) in full.distances().iter().zip(near.distances()).enumerate() {
            let expected = if f <= 3 { f } else { UNREACHED };
            assert_eq!(n, expected, "cell {:?}", full.pos_of(i));
        }
        assert_eq!(near.get(Pos::new(5, 1)), None, "four steps away");
    }

    #[test]
    fn a_path_follows_open_ground_and_has_the_walking_length() {
        let rows = ["#########", "#..#..#.#", "##.#.####", "#.....#.#", "#########"];
        let d = walk(&rows, Pos::new(1, 1));
        let path = d.path_to(Pos::new(5, 1)).unwrap();
        assert_eq!(path.len(), 4);
        let (_, _, open) = map(&rows);
        let mut at = Pos::new(1, 1);
        for dir in path {
            at = at.step(dir).unwrap();
            assert!(open[d.index(at).unwrap()], "{at:?} is open");
        }
        assert_eq!(at, Pos::new(5, 1));
        assert_eq!(d.path_to(Pos::new(7, 1)), None);
        assert_eq!(d.path_to(Pos::new(1, 1)), Some(vec![]));
    }

    #[test]
    fn the_search_stops_at_the_nearest_goal_from_any_start() {
        let (w, h, open) = map(&["..........", "..........", ".........."]);
        let starts = [Pos::new(0, 0), Pos::new(9, 2)];
        let (d, found) = DistanceMap::until(w, h, &starts, |i| open[i], |p| p.x == 7);
        assert_eq!(found.map(|p| d.get(p)), Some(Some(2)));
        assert_eq!(d.get(Pos::new(9, 2)), Some(0));
    }
}

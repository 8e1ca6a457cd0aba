//! Field of view by symmetric shadowcasting, as Albert Ford describes it:
//! floors are points at cell centres, walls are diamonds, and a floor cell is
//! seen only when the line from the viewer's centre reaches its centre, so A
//! sees B exactly when B sees A. Walls are seen but stop sight.
//!
//! Slopes are kept as integers in units of 1/1680: every slope the scan makes
//! within radius 8 is (2·col − 1) / (2·depth) with depth ≤ 8, and 1680 is a
//! multiple of every such denominator, so the arithmetic is exact with no
//! division in the inner loop. The result is a 17×17 bitmask around the
//! viewer, small enough to stay in cache and cheap to compare between turns.

use gloam_protocol::{Disc, Pos};

/// The largest radius the mask holds.
pub(crate) const MAX_RADIUS: i32 = Disc::MAX_RADIUS as i32;
const SIDE: usize = (2 * MAX_RADIUS + 1) as usize;
/// The common denominator of every slope.
const UNIT: i32 = 1680;

/// The cells one viewer sees, within `radius` of `centre`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fov {
    centre: Pos,
    radius: i32,
    /// Bit `dx + 8` of row `dy + 8` is set when the cell at (dx, dy) is seen.
    rows: [u32; SIDE],
}

impl Fov {
    /// Sight from `centre`, reaching cells with dx² + dy² ≤ radius²;
    /// `is_opaque(x, y)` must answer true off the map.
    pub fn compute(centre: Pos, radius: u8, is_opaque: impl Fn(i32, i32) -> bool) -> Fov {
        let radius = i32::from(radius).min(MAX_RADIUS);
        let mut fov = Fov { centre, radius, rows: [0; SIDE] };
        fov.mark(0, 0);
        let (ox, oy) = (i32::from(centre.x), i32::from(centre.y));
        let opaque = |dx: i32, dy: i32| is_opaque(ox + dx, oy + dy);
        // Each quadrant maps (depth, col) to an offset (dx, dy); written out
        // four times so each scan is compiled with its own mapping inlined.
        fov.scan_quadrant(|d, c| (c, -d), &opaque);
        fov.scan_quadrant(|d, c| (c, d), &opaque);
        fov.scan_quadrant(|d, c| (d, c), &opaque);
        fov.scan_quadrant(|d, c| (-d, c), &opaque);
        fov
    }

    #[inline(always)]
    fn scan_quadrant(
        &mut self,
        to_offset: impl Fn(i32, i32) -> (i32, i32),
        is_opaque: &impl Fn(i32, i32) -> bool,
    ) {
        let r = self.radius;
        let r2 = r * r;
        // Rows still to scan: (depth, start slope, end slope), on the stack.
        // Scanning a row pushes at most 9 rows a depth deeper (one per run of
        // open cells among 17 columns) and depth stops at 8, so the stack
        // never holds more than 72.
        let mut rows = [(0i32, 0i32, 0i32); 80];
        let mut len = 1;
        rows[0] = (1, -UNIT, UNIT);
        while len > 0 {
            len -= 1;
            let (depth, mut start, end) = rows[len];
            // Columns whose centres fall within the slopes, ties rounded inwards.
            let min_col = (2 * depth * start + UNIT).div_euclid(2 * UNIT);
            let max_col = -(UNIT - 2 * depth * end).div_euclid(2 * UNIT);
            let mut prev_wall: Option<bool> = None;
            for col in min_col..=max_col {
                let (dx, dy) = to_offset(depth, col);
                let wall = is_opaque(dx, dy);
                let centre_inside = col * UNIT >= depth * start && col * UNIT <= depth * end;
                if (wall || centre_inside) && col * col + depth * depth <= r2 {
                    self.mark(dx, dy);
                }
                let slope = (2 * col - 1) * (UNIT / (2 * depth));
                match (prev_wall, wall) {
                    (Some(true), false) => start = slope,
                    (Some(false), true) if depth < r => {
                        rows[len] = (depth + 1, start, slope);
                        len += 1;
                    }
                    _ => {}
                }
                prev_wall = Some(wall);
            }
            if prev_wall == Some(false) && depth < r {
                rows[len] = (depth + 1, start, end);
                len += 1;
            }
        }
    }

    fn mark(&mut self, dx: i32, dy: i32) {
        self.rows[(dy + MAX_RADIUS) as usize] |= 1 << (dx + MAX_RADIUS);
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

    /// Every seen cell.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (-MAX_RADIUS..=MAX_RADIUS).flat_map(move |dy| {
            (-MAX_RADIUS..=MAX_RADIUS)
                .filter(move |&dx| self.sees_offset(dx, dy))
                .filter_map(move |dx| self.centre.offset(dx, dy))
        })
    }
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
}

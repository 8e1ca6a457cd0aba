//! The sight disc: every offset within the sight radius, in one fixed order
//! that both sides derive from the radius alone.

/// The offsets (dx, dy) with dx² + dy² ≤ r², row by row from the top, each
/// named on the wire by its index. A radius of 8 gives 197 cells, so an index
/// fits in a byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disc {
    radius: i32,
    offsets: Vec<(i8, i8)>,
    /// Index of each offset in the (2r+1)² square around the centre, or `u8::MAX`
    /// outside the disc.
    lookup: Vec<u8>,
}

impl Disc {
    /// The largest radius whose disc still fits one-byte indices.
    pub const MAX_RADIUS: u8 = 8;

    pub fn new(radius: u8) -> Self {
        assert!(radius <= Self::MAX_RADIUS, "sight radius {radius} is over {}", Self::MAX_RADIUS);
        let r = i32::from(radius);
        let side = (2 * r + 1) as usize;
        let mut offsets = Vec::new();
        let mut lookup = vec![u8::MAX; side * side];
        for dy in -r..=r {
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r {
                    lookup[((dy + r) as usize) * side + (dx + r) as usize] = offsets.len() as u8;
                    offsets.push((dx as i8, dy as i8));
                }
            }
        }
        Self { radius: r, offsets, lookup }
    }

    pub fn radius(&self) -> u8 {
        self.radius as u8
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The offset an index names, or `None` for an index past the disc.
    pub fn offset(&self, index: u8) -> Option<(i32, i32)> {
        self.offsets.get(usize::from(index)).map(|&(dx, dy)| (i32::from(dx), i32::from(dy)))
    }

    /// The index of an offset, or `None` when it lies outside the disc.
    pub fn index(&self, dx: i32, dy: i32) -> Option<u8> {
        let r = self.radius;
        if dx.abs() > r || dy.abs() > r {
            return None;
        }
        let side = 2 * r + 1;
        let i = self.lookup[((dy + r) * side + (dx + r)) as usize];
        (i != u8::MAX).then_some(i)
    }

    /// Every offset in index order.
    pub fn offsets(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.offsets.iter().map(|&(dx, dy)| (i32::from(dx), i32::from(dy)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radius_eight_holds_197_cells() {
        assert_eq!(Disc::new(8).len(), 197);
    }

    #[test]
    fn index_and_offset_are_inverse() {
        let disc = Disc::new(8);
        for (i, (dx, dy)) in disc.offsets().enumerate() {
            assert_eq!(disc.index(dx, dy), Some(i as u8));
            assert_eq!(disc.offset(i as u8), Some((dx, dy)));
        }
        assert_eq!(disc.index(8, 1), None);
        assert_eq!(disc.index(9, 0), None);
        assert_eq!(disc.offset(197), None);
    }
}

//! Rows of cells as bits (bit `x` of a row for column `x`, rows of at most
//! 128 cells), and counting every cell's neighbours at once on them.

/// How many of each cell's eight neighbours are set, in every bit of a row
/// at once, as the count's binary digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Count {
    pub ones: u128,
    pub twos: u128,
    pub fours: u128,
    pub eights: u128,
}

impl Count {
    /// The set neighbours of each cell of `row`, between `above` and `below`
    /// (cells off either end of a row count as unset).
    pub(crate) fn around(above: u128, row: u128, below: u128) -> Count {
        let (a, b, c) = (above, row, below);
        // Each neighbour moved onto the cell's own bit: x − 1 by a left shift.
        let [n0, n1, n2, n3, n4, n5, n6, n7] =
            [a << 1, a, a >> 1, b << 1, b >> 1, c << 1, c, c >> 1];
        let (s1, c1) = full_add(n0, n1, n2);
        let (s2, c2) = full_add(n3, n4, n5);
        let (s3, c3) = (n6 ^ n7, n6 & n7);
        let (ones, c4) = full_add(s1, s2, s3);
        let (t, d1) = full_add(c1, c2, c3);
        let (twos, d2) = (t ^ c4, t & c4);
        let (fours, eights) = (d1 ^ d2, d1 & d2);
        Count { ones, twos, fours, eights }
    }

    /// The cells with `n` or more set neighbours.
    pub(crate) fn at_least(&self, n: u8) -> u128 {
        match n {
            0 => u128::MAX,
            1 => self.ones | self.twos | self.fours | self.eights,
            2 => self.twos | self.fours | self.eights,
            3 => self.twos & self.ones | self.fours | self.eights,
            4 => self.fours | self.eights,
            5 => self.fours & (self.twos | self.ones) | self.eights,
            6 => self.fours & self.twos | self.eights,
            7 => self.fours & self.twos & self.ones | self.eights,
            8 => self.eights,
            _ => 0,
        }
    }

    /// The cells with exactly `n` set neighbours.
    pub(crate) fn exactly(&self, n: u8) -> u128 {
        self.at_least(n) & !self.at_least(n.saturating_add(1))
    }
}

/// The sum and carry of three one-bit numbers, in every bit at once.
fn full_add(a: u128, b: u128, c: u128) -> (u128, u128) {
    (a ^ b ^ c, a & b | c & (a ^ b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every cell's count, at least and exactly, is its neighbours' sum.
        #[test]
        fn counts_are_the_neighbours_sum(above: u128, row: u128, below: u128) {
            let count = Count::around(above, row, below);
            let bit = |r: u128, x: i32| (0..128).contains(&x) && r >> x & 1 == 1;
            for x in 0..128i32 {
                let sum = [-1, 0, 1]
                    .into_iter()
                    .map(|dx| u8::from(bit(above, x + dx)) + u8::from(bit(below, x + dx)))
                    .sum::<u8>()
                    + u8::from(bit(row, x - 1))
                    + u8::from(bit(row, x + 1));
                for n in 0..=9u8 {
                    prop_assert_eq!(count.at_least(n) >> x & 1 == 1, sum >= n, "x {} n {}", x, n);
                    prop_assert_eq!(count.exactly(n) >> x & 1 == 1, sum == n, "x {} n {}", x, n);
                }
            }
        }
    }
}

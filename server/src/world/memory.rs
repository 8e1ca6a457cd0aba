//! What one player knows of one level, and what its client has been told.

use gloam_protocol::{Disc, Pos, SightDiff, Terrain};

use crate::fov::Fov;
use crate::level::Level;

/// A player's knowledge of one depth. The server sends every change as soon
/// as it happens, so what the player has seen is also what its client holds:
/// `explored` is every cell whose terrain the client was sent, and `sight`
/// the view the client was last told about.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    explored: Vec<u64>,
    sight: Option<Fov>,
}

impl Memory {
    /// A memory of the cells set in `bits`, in the form `explored_bits` gives.
    pub fn from_explored_bits(bits: &[u8]) -> Self {
        let explored = bits
            .chunks(8)
            .map(|chunk| {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                u64::from_le_bytes(word)
            })
            .collect();
        Self { explored, sight: None }
    }

    /// The explored cells as a row-major bitset (bit `i % 8` of byte `i / 8`
    /// is cell `i`), trailing empty bytes left off: what `EnterLevel`
    /// carries and the store keeps.
    pub fn explored_bits(&self) -> Vec<u8> {
        let mut bits: Vec<u8> = self.explored.iter().flat_map(|w| w.to_le_bytes()).collect();
        while bits.last() == Some(&0) {
            bits.pop();
        }
        bits
    }

    pub fn is_explored(&self, index: usize) -> bool {
        self.explored.get(index / 64).is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    fn explore(&mut self, index: usize) {
        let word = index / 64;
        if self.explored.len() <= word {
            self.explored.resize(word + 1, 0);
        }
        self.explored[word] |= 1 << (index % 64);
    }

    pub fn sight(&self) -> Option<&Fov> {
        self.sight.as_ref()
    }

    /// The client is about to clear its view: nothing is in sight for it now.
    pub fn forget_sight(&mut self) {
        self.sight = None;
    }

    /// The remembered cells as the `EnterLevel` message carries them: a
    /// row-major bitset (trailing empty bytes dropped) and each set cell's terrain.
    pub fn recall(&self, level: &Level) -> (Vec<u8>, Vec<Terrain>) {
        let bits = self.explored_bits();
        let terrain = level
            .grid
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.is_explored(i))
            .map(|(_, (_, t))| t)
            .collect();
        (bits, terrain)
    }

    /// Moves the told view to `now` and says what changed: cells that left
    /// sight, known cells back in sight, and cells seen for the first time
    /// (which become explored). Players are left for the caller to fill in.
    pub fn update_sight(&mut self, level: &Level, disc: &Disc, now: Fov) -> SightDiff {
        let mut diff = SightDiff { at: now.centre(), ..SightDiff::default() };
        if let Some(old) = &self.sight {
            let c = old.centre();
            for (i, (dx, dy)) in disc.offsets().enumerate() {
                if old.sees_offset(dx, dy) && c.offset(dx, dy).is_some_and(|p| !now.sees(p)) {
                    diff.hidden.push(i as u8);
                }
            }
        }
        let c = now.centre();
        for (i, (dx, dy)) in disc.offsets().enumerate() {
            if !now.sees_offset(dx, dy) {
                continue;
            }
            let Some(pos) = c.offset(dx, dy).filter(|&p| level.grid.contains(p)) else {
                continue;
            };
            if self.sight.as_ref().is_some_and(|old| old.sees(pos)) {
                continue;
            }
            let index = level.grid.index(pos);
            if self.is_explored(index) {
                diff.shown.push(i as u8);
            } else {
                self.explore(index);
                diff.revealed.push((i as u8, level.terrain(pos)));
            }
        }
        self.sight = Some(now);
        diff
    }

    /// True when the told view includes `pos`.
    pub fn sees(&self, pos: Pos) -> bool {
        self.sight.as_ref().is_some_and(|s| s.sees(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explored_bits_round_trip_without_trailing_empty_bytes() {
        let memory = Memory { explored: vec![u64::MAX, 0, 0x0102, 0], sight: None };
        let bits = memory.explored_bits();
        assert_eq!(bits.len(), 8 + 8 + 2);
        let back = Memory::from_explored_bits(&bits);
        assert_eq!(back.explored, vec![u64::MAX, 0, 0x0102]);
        assert!((0..256).all(|i| back.is_explored(i) == memory.is_explored(i)));
        assert!(Memory { explored: vec![0, 0], sight: None }.explored_bits().is_empty());
    }
}

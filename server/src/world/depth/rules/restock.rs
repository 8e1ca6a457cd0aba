//! A depth left alone regains monsters, so the first group through does not
//! empty the dungeon for good. The depth's task decides how long it stood
//! empty (in rounds played in the whole world, see `world::absence`) and
//! asks for a restock of so many periods before the arrival that ends the
//! absence; here is what a restock does, a command like any other: logged,
//! replayed, and rolled from a stream of its own (`DepthSeeds::restock`),
//! which nothing else advances, so successive restocks differ and a replay
//! regains the same monsters on the same cells.
//!
//! Each period brings back a quarter of the monsters the depth still misses
//! (at least one), never more than it started with; they are placed as the
//! level's first monsters were (`mapgen::populate::Habitat`): of the kinds
//! living at that depth by weight, in packs, on open floor off the stairs,
//! out of sight of the arrival point and away from it, on no one's cell.

use rand::Rng;

use super::Rules;
use super::events::Observer;
use super::log::Command;
use crate::mapgen::populate::Habitat;
use crate::seeds::{DepthSeeds, LevelRng};

/// Of the monsters a depth misses, one in this many comes back each
/// period of absence (at least one).
pub(super) const SHARE: usize = 4;

/// Groups drawn at most per monster a restock brings back: a group whose
/// leader's cell is taken places nothing, and a full level none at all.
const GROUPS_PER_MONSTER: usize = 4;

/// A depth's restocks: its stream, how many monsters it holds when full,
/// and how many restocks it had.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(super) struct Restocking {
    /// Advanced by restocks and nothing else.
    rng: LevelRng,
    /// As many monsters as the depth started with (see [`Rules::mark_full`]).
    full: usize,
    /// Restocks applied since the depth was built.
    done: u64,
}

impl Restocking {
    pub(super) fn new(seeds: DepthSeeds) -> Self {
        Self { rng: seeds.restock(), full: 0, done: 0 }
    }

    /// Where the restocks stand, as numbers for the depth's checksum:
    /// nothing before the first, so that the checksum of a depth that never
    /// had one (every log older than restocks) is what it always was.
    pub(super) fn numbers(&self) -> impl Iterator<Item = u64> {
        let now = (self.done > 0).then(|| [self.done, self.rng.clone().next_u64()]);
        now.into_iter().flatten()
    }
}

/// How many of `missing` monsters `periods` periods of absence bring
/// back: each period [`SHARE`]'s part of those still missing, at least one.
pub(super) fn returning(missing: usize, periods: u32) -> usize {
    let mut left = missing;
    // Each period brings at least one back: at most `missing` of them count.
    for _ in 0..periods {
        if left == 0 {
            break;
        }
        left -= (left / SHARE).max(1);
    }
    missing - left
}

impl Rules {
    /// The depth as it stands is full: a restock never brings it past this
    /// many monsters. Called once its first monsters are placed.
    pub(crate) fn mark_full(&mut self) {
        self.restocking.full = self.monsters.len();
    }

    /// The depth stood empty for `periods` restock periods: it regains
    /// monsters (see the module). Logged only when it draws from its
    /// stream, so a depth that misses nothing, or whose level has no room
    /// or no kind for them, logs nothing. Gives how many came.
    pub(crate) fn restock(&mut self, periods: u32, obs: &mut dyn Observer) -> usize {
        let missing = self.restocking.full.saturating_sub(self.monsters.len());
        let wanted = returning(missing, periods);
        if wanted == 0 {
            return 0;
        }
        let (level, bestiary) = (self.level.clone(), self.bestiary.clone());
        let mut habitat = Habitat::of(&level, &bestiary, self.depth);
        if habitat.is_barren() {
            return 0;
        }
        for pos in self.monsters.cells().chain(self.occupancy.cells()) {
            habitat.take(pos);
        }
        self.log.record(self.clock.rounds, Command::Restock { periods });
        self.restocking.done += 1;
        let mut placed = Vec::new();
        for _ in 0..wanted * GROUPS_PER_MONSTER {
            if placed.len() >= wanted {
                break;
            }
            habitat.place_group(&mut self.restocking.rng, wanted - placed.len(), &mut placed);
        }
        placed.into_iter().filter_map(|p| self.spawn(p.kind, p.pos, obs)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_period_brings_back_a_quarter_of_those_missing_and_at_least_one() {
        assert_eq!(returning(0, 10), 0, "a full depth gains nothing");
        assert_eq!(returning(20, 0), 0, "nor one left no time");
        assert_eq!(returning(20, 1), 5);
        assert_eq!(returning(20, 2), 5 + 3);
        assert_eq!(returning(3, 1), 1, "at least one");
        assert_eq!(returning(3, 2), 2);
        assert_eq!(returning(20, u32::MAX), 20, "never more than were missing");
    }
}

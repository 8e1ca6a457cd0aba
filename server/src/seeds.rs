//! Every random stream of a world, handed out by name. A world is one
//! seed; each depth's streams come from that depth's level seed, one per
//! use (its layout, the pick of its generator, its monsters, the dice of
//! its fights, the monsters it regains), so that adding a use never shifts
//! another's rolls and a depth's history replays exactly. The constants
//! that split the streams live here and nowhere else.

use rand::SeedableRng;

pub type LevelRng = rand_pcg::Pcg64Mcg;

/// The streams of a world of one seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seeds {
    world: u64,
}

/// The streams of one depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepthSeeds {
    level: u64,
}

/// What each stream's seed is split from its depth's level seed by.
mod split {
    pub(super) const GENERATOR: u64 = 0x006d_6978;
    pub(super) const MONSTERS: u64 = 0x6d6f_6e73_7465_7273;
    pub(super) const ITEMS: u64 = 0x0069_7465_6d73;
    pub(super) const DICE: u64 = 0x726f_756e_6473;
    pub(super) const RESTOCK: u64 = 0x0072_6573_746f_636b;
    pub(super) const VAULTS: u64 = 0x7661_756c_7473;
    pub(super) const GUARDS: u64 = 0x6775_6172_6473;
    pub(super) const LOOT: u64 = 0x6c6f_6f74;
    /// Split from the world seed itself: which depth of each block is a maze.
    pub(super) const MAZE_SLOTS: u64 = 0x6d61_7a65;
    /// Split from the world seed itself: how each unknown potion and
    /// scroll looks.
    pub(super) const LOOKS: u64 = 0x006c_6f6f_6b73;
    /// Split from the world seed itself: which depth of its band each
    /// unique lives at.
    pub(super) const UNIQUES: u64 = 0x0075_6e69_7175_6573;
    /// Where on its depth's level a unique stands.
    pub(super) const UNIQUE_CELLS: u64 = 0x0063_656c_6c73;
    /// Split from the world seed itself: how each unknown wand looks (its
    /// own stream, so that adding wands changed no potion's look).
    pub(super) const WAND_LOOKS: u64 = 0x0077_616e_6473;
}

impl Seeds {
    pub fn of_world(world: u64) -> Self {
        Self { world }
    }

    /// The streams of `depth`.
    pub fn depth(&self, depth: u16) -> DepthSeeds {
        DepthSeeds { level: mix(self.world ^ mix(u64::from(depth))) }
    }

    /// The stream that picks, in a mixed world, which depth of the block
    /// numbered `block` may be a maze.
    pub fn maze_slots(&self, block: u16) -> LevelRng {
        LevelRng::seed_from_u64(mix(self.world ^ split::MAZE_SLOTS) ^ u64::from(block))
    }
}

impl Seeds {
    /// How the world's potions and scrolls look until they are known:
    /// drawn once for the whole world.
    pub fn looks(&self) -> LevelRng {
        LevelRng::seed_from_u64(mix(self.world ^ split::LOOKS))
    }

    /// The stream that picks the depth of its band the unique of kind id
    /// `kind` lives at: one per unique, so a unique added to the bestiary
    /// moves no other.
    pub fn unique(&self, kind: u16) -> LevelRng {
        LevelRng::seed_from_u64(mix(self.world ^ split::UNIQUES) ^ u64::from(kind))
    }

    /// How the world's wands look until they are known.
    pub fn wand_looks(&self) -> LevelRng {
        LevelRng::seed_from_u64(mix(self.world ^ split::WAND_LOOKS))
    }
}

impl DepthSeeds {
    /// The streams of a depth whose level seed is `level` (for tools and
    /// tests that build one level from a seed of their own).
    pub fn from_level_seed(level: u64) -> Self {
        Self { level }
    }

    /// The level seed itself, as `gloam-server mapgen` prints it.
    pub fn level_seed(&self) -> u64 {
        self.level
    }

    /// The level's layout: every cut, room, cave and corridor.
    pub fn layout(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level)
    }

    /// In a mixed world, the draw of the generator by weight.
    pub fn generator(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::GENERATOR)
    }

    /// The monsters the level starts with: their kinds and places.
    pub fn monsters(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::MONSTERS)
    }

    /// The items the level starts with: their kinds, counts and places.
    pub fn items(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::ITEMS)
    }

    /// The depth's dice: every roll of its monsters and fights in play.
    pub fn dice(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::DICE)
    }

    /// Whether the level holds a vault, which, and where.
    pub fn vaults(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::VAULTS)
    }

    /// The kinds of a vault's guardians drawn from those living there.
    pub fn vault_guards(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::GUARDS)
    }

    /// The items of a vault's loot drawn from those lying there.
    pub fn vault_loot(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::LOOT)
    }

    /// Where the uniques living at the depth stand on its level.
    pub fn unique_cells(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::UNIQUE_CELLS)
    }

    /// The monsters a depth left alone regains: their kinds and places,
    /// restock after restock.
    pub fn restock(&self) -> LevelRng {
        LevelRng::seed_from_u64(self.level ^ split::RESTOCK)
    }
}

/// splitmix64's finaliser: spreads nearby inputs over the whole range.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    /// Every stream of a depth is its own: no two start alike, and no
    /// depth's stream is another depth's.
    #[test]
    fn the_streams_of_a_world_are_apart() {
        let seeds = Seeds::of_world(42);
        let mut firsts = std::collections::BTreeSet::new();
        for depth in 1..=26 {
            let d = seeds.depth(depth);
            let streams = [d.layout(), d.generator(), d.monsters(), d.dice(), d.restock()];
            for mut rng in streams.into_iter().chain([d.unique_cells()]) {
                assert!(firsts.insert(rng.next_u64()), "depth {depth}: a stream repeats");
            }
        }
        for block in 0..6 {
            assert!(firsts.insert(seeds.maze_slots(block).next_u64()));
        }
        for kind in 0..40 {
            assert!(firsts.insert(seeds.unique(kind).next_u64()));
        }
    }
}

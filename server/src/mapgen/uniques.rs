//! Where a world's uniques live: each on one depth of its band, drawn from
//! the world's seed by a stream of its own (`Seeds::unique`), so the same
//! world always has it on the same depth, and adding a unique to the
//! bestiary moves no other. That depth's level holds it from the start
//! (`populate`); no other level, restock, vault or summons ever does (they
//! draw from `Bestiary::living_at`, which leaves uniques out). Once slain,
//! a unique is gone for good: see `world::depth::rules::Rules::clear_slain`.

use rand::RngExt;

use crate::bestiary::{Bestiary, KindId};
use crate::seeds::Seeds;

/// The depth the unique of kind `kind` (whose band is `depths`) lives at
/// in the world of `seeds`.
pub fn depth_of(seeds: &Seeds, kind: KindId, depths: (u16, u16)) -> u16 {
    seeds.unique(kind).random_range(depths.0..=depths.1)
}

/// The uniques that live at `depth` in the world of `seeds`, in id order.
pub fn living_at(bestiary: &Bestiary, seeds: &Seeds, depth: u16) -> Vec<KindId> {
    bestiary
        .uniques()
        .filter(|&(id, k)| k.lives_at(depth) && depth_of(seeds, id, k.depths) == depth)
        .map(|(id, _)| id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Over many worlds, each unique lives at exactly one depth, inside
    /// its band.
    #[test]
    fn each_unique_lives_at_exactly_one_depth_of_its_band() {
        let bestiary = Bestiary::default();
        let uniques: Vec<(KindId, (u16, u16))> =
            bestiary.uniques().map(|(id, k)| (id, k.depths)).collect();
        assert!(uniques.len() >= 4, "four bands, a unique each");
        let mut seen_at = std::collections::BTreeSet::new();
        for world in 0..300u64 {
            let seeds = Seeds::of_world(world.wrapping_mul(0x9e37_79b9));
            for &(id, (top, bottom)) in &uniques {
                let depths: Vec<u16> =
                    (1..=30).filter(|&d| living_at(&bestiary, &seeds, d).contains(&id)).collect();
                assert_eq!(depths.len(), 1, "world {world}: kind {id} lives at {depths:?}");
                assert!((top..=bottom).contains(&depths[0]), "world {world}: {depths:?}");
                seen_at.insert((id, depths[0]));
            }
        }
        let spread: usize = uniques.iter().map(|&(_, (t, b))| usize::from(b - t + 1)).sum();
        assert_eq!(seen_at.len(), spread, "every depth of every band is drawn in some world");
    }

    /// A world of an edition before the uniques has none.
    #[test]
    fn an_older_world_has_no_uniques() {
        let bestiary = Bestiary::default().as_of(3);
        let seeds = Seeds::of_world(7);
        assert!((1..=30).all(|d| living_at(&bestiary, &seeds, d).is_empty()));
        assert!(Bestiary::default().uniques().all(|(_, k)| k.since == 4));
    }
}

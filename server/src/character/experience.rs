//! Experience and levels: kills give points, points give levels, and a
//! level gives hit points and a surer hand. The table is a square law, so
//! each level takes a little more fighting than the last and the deep
//! monsters, worth far more, keep it moving.

use super::{START_HP, Vitals};

/// The highest level.
pub const MAX_LEVEL: u8 = 20;
/// The most hit points each level above the first adds.
pub const HP_PER_LEVEL: u16 = 6;
/// Percent points each level above the first adds to a blow's chance.
pub const TO_HIT_PER_LEVEL: u8 = 2;

/// The points level `level` takes: 0 for the first, then 20 × (level − 1)².
pub fn points_for(level: u8) -> u32 {
    let above = u32::from(level.clamp(1, MAX_LEVEL) - 1);
    20 * above * above
}

/// The level `xp` points give.
pub fn level_of(xp: u32) -> u8 {
    (1..=MAX_LEVEL).rev().find(|&l| points_for(l) <= xp).unwrap_or(1)
}

/// The points the level after `level` takes (0 at the highest).
pub fn next_after(level: u8) -> u32 {
    if level >= MAX_LEVEL { 0 } else { points_for(level + 1) }
}

/// The most hit points at `level`.
pub fn max_hp_at(level: u8) -> u16 {
    START_HP + HP_PER_LEVEL * u16::from(level.clamp(1, MAX_LEVEL) - 1)
}

/// Gives `gained` points to a character with `xp` of them: its new points
/// and, when it went up, the level it reached (its hit points grow by what
/// the levels add, and so does their most).
pub fn gain(xp: &mut u32, vitals: &mut Vitals, gained: u32) -> Option<u8> {
    let before = level_of(*xp);
    *xp = xp.saturating_add(gained);
    let after = level_of(*xp);
    if after == before {
        return None;
    }
    let more = max_hp_at(after) - max_hp_at(before);
    vitals.max_hp = vitals.max_hp.saturating_add(more);
    vitals.hp = vitals.hp.saturating_add(more);
    Some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_the_table_and_stop_at_the_highest() {
        assert_eq!((points_for(1), points_for(2), points_for(3), points_for(5)), (0, 20, 80, 320));
        assert_eq!(level_of(0), 1);
        assert_eq!(level_of(19), 1);
        assert_eq!(level_of(20), 2);
        assert_eq!(level_of(79), 2);
        assert_eq!(level_of(u32::MAX), MAX_LEVEL);
        assert_eq!(next_after(1), 20);
        assert_eq!(next_after(MAX_LEVEL), 0);
    }

    #[test]
    fn a_level_gained_raises_hit_points_and_their_most() {
        let mut vitals = Vitals { hp: 10, ..Vitals::default() };
        let mut xp = 15;
        assert_eq!(gain(&mut xp, &mut vitals, 4), None);
        assert_eq!((xp, vitals.hp, vitals.max_hp), (19, 10, START_HP));
        assert_eq!(gain(&mut xp, &mut vitals, 61), Some(3), "two levels at once");
        assert_eq!((vitals.hp, vitals.max_hp), (10 + 2 * HP_PER_LEVEL, START_HP + 12));
    }
}

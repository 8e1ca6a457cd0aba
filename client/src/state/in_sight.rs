//! Who is in sight: the other players and the monsters, each changed by
//! the sights and the lists of changes the server sends, and the kinds of
//! monster as the server named them. A list of changes is checked whole
//! (every place on the map, nothing changing that is not in sight, never
//! more in sight than a depth holds) before any of it is applied.

use gloam_protocol::{KindInfo, MonsterChange, PlayerChange, Pos, Wound};

use super::limits::{MAX_KIND_NAME_CHARS, MAX_KINDS, MAX_ROSTER, check_name, check_text};
use super::reasons;
use super::{ClientState, StateError};

/// Another player, as last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherPlayer {
    pub name: String,
    pub at: Pos,
}

/// A monster in sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeenMonster {
    /// Its place in [`ClientState::kinds`].
    pub kind: u16,
    pub at: Pos,
    pub wound: Wound,
    /// It seems asleep.
    pub asleep: bool,
}

/// One change to who is in sight, as [`ClientState::check_steps`] sees it.
#[derive(Debug, Clone, Copy)]
enum Step {
    Appears(Pos),
    Moves(Pos),
    Stays,
    Vanishes,
}

impl ClientState {
    /// Other players coming into sight, moving in it, leaving it.
    pub(super) fn apply_players(&mut self, changes: &[PlayerChange]) -> Result<(), StateError> {
        self.sight_disc()?;
        self.check_players(changes)?;
        changes.iter().for_each(|c| self.apply_player(c));
        Ok(())
    }

    /// Monsters coming into sight, moving or hurt in it, leaving it.
    pub(super) fn apply_monsters(&mut self, changes: &[MonsterChange]) -> Result<(), StateError> {
        self.sight_disc()?;
        self.check_monsters(changes)?;
        changes.iter().for_each(|c| self.apply_monster(c));
        Ok(())
    }

    /// The kinds of monster, named afresh: every monster in sight keeps one.
    pub(super) fn name_kinds(&mut self, kinds: &[KindInfo]) -> Result<(), StateError> {
        if kinds.len() > MAX_KINDS {
            return Err(StateError::Inconsistent(
                reasons::MORE_KINDS_OF_MONSTER_THAN_A_CLIENT_KEEPS,
            ));
        }
        for kind in kinds {
            check_text(&kind.name, MAX_KIND_NAME_CHARS)?;
            if kind.glyph.is_control() {
                return Err(StateError::Inconsistent(
                    reasons::MONSTER_DRAWN_AS_A_CONTROL_CHARACTER,
                ));
            }
        }
        if self.monsters.values().any(|m| usize::from(m.kind) >= kinds.len()) {
            return Err(StateError::Inconsistent(reasons::MONSTER_IN_SIGHT_LOST_ITS_KIND));
        }
        self.kinds = kinds.to_vec();
        Ok(())
    }

    /// The kind of a monster in sight.
    pub fn kind_of(&self, monster: &SeenMonster) -> Option<&KindInfo> {
        self.kinds.get(usize::from(monster.kind))
    }

    /// Checks that `changes` fit the players in sight, in order, without
    /// changing anything.
    pub(super) fn check_players(&self, changes: &[PlayerChange]) -> Result<(), StateError> {
        let steps = changes.iter().map(|change| match change {
            PlayerChange::Appeared { id, name, at } => {
                check_name(name)?;
                Ok((*id, Step::Appears(*at)))
            }
            PlayerChange::Moved { id, at } => Ok((*id, Step::Moves(*at))),
            PlayerChange::Vanished { id } => Ok((*id, Step::Vanishes)),
        });
        self.check_steps(steps, |id| self.others.contains_key(id), self.others.len())
    }

    /// Checks that `changes` fit the monsters in sight, in order, without
    /// changing anything.
    pub(super) fn check_monsters(&self, changes: &[MonsterChange]) -> Result<(), StateError> {
        let steps = changes.iter().map(|change| match change {
            MonsterChange::Appeared { id, kind, at, .. } => {
                if usize::from(*kind) >= self.kinds.len() {
                    return Err(StateError::Inconsistent(reasons::MONSTER_OF_A_KIND_NEVER_NAMED));
                }
                Ok((*id, Step::Appears(*at)))
            }
            MonsterChange::Moved { id, at } => Ok((*id, Step::Moves(*at))),
            MonsterChange::Hurt { id, .. } | MonsterChange::Slept { id, .. } => {
                Ok((*id, Step::Stays))
            }
            MonsterChange::Vanished { id } => Ok((*id, Step::Vanishes)),
        });
        self.check_steps(steps, |id| self.monsters.contains_key(id), self.monsters.len())
    }

    /// Checks a run of changes to who is in sight: every place on the map,
    /// nothing moving, hurt or vanishing that is not in sight, and never
    /// more in sight than any depth holds.
    ///
    /// Each one's changes are followed in the message's order by sorting
    /// them by who and where in the message (a crowd's messages carry
    /// hundreds, and this runs for every one of them).
    fn check_steps<Id: Ord + Copy>(
        &self,
        steps: impl Iterator<Item = Result<(Id, Step), StateError>>,
        in_sight: impl Fn(&Id) -> bool,
        count: usize,
    ) -> Result<(), StateError> {
        let steps: Vec<(Id, Step)> = steps.collect::<Result<_, _>>()?;
        for (_, step) in &steps {
            if let Step::Appears(at) | Step::Moves(at) = *step {
                self.index(at).ok_or(StateError::OffTheMap(at))?;
            }
        }
        let mut by_who: Vec<(Id, usize)> =
            steps.iter().enumerate().map(|(i, s)| (s.0, i)).collect();
        by_who.sort_unstable();
        // How each change moves the count of those in sight.
        let mut counted = vec![0isize; steps.len()];
        let mut last: Option<(Id, bool)> = None;
        for (id, i) in by_who {
            let before = match last {
                Some((seen, after)) if seen == id => after,
                _ => in_sight(&id),
            };
            let after = !matches!(steps[i].1, Step::Vanishes);
            if !before && !matches!(steps[i].1, Step::Appears(_)) {
                return Err(StateError::Inconsistent(reasons::CHANGE_TO_SOMETHING_NOT_IN_SIGHT));
            }
            counted[i] = isize::from(after) - isize::from(before);
            last = Some((id, after));
        }
        let mut count = count as isize;
        for change in counted {
            count += change;
            if count > MAX_ROSTER as isize {
                return Err(StateError::Inconsistent(reasons::MORE_IN_SIGHT_THAN_ANY_DEPTH_HOLDS));
            }
        }
        Ok(())
    }

    /// Applies one change that [`check_players`](Self::check_players) passed.
    pub(super) fn apply_player(&mut self, change: &PlayerChange) {
        match change {
            PlayerChange::Appeared { id, name, at } => {
                self.others.insert(*id, OtherPlayer { name: name.clone(), at: *at });
            }
            PlayerChange::Moved { id, at } => {
                if let Some(other) = self.others.get_mut(id) {
                    other.at = *at;
                }
            }
            PlayerChange::Vanished { id } => {
                self.others.remove(id);
            }
        }
    }

    /// Applies one change that [`check_monsters`](Self::check_monsters) passed.
    pub(super) fn apply_monster(&mut self, change: &MonsterChange) {
        match *change {
            MonsterChange::Appeared { id, kind, at, wound, asleep } => {
                self.monsters.insert(id, SeenMonster { kind, at, wound, asleep });
            }
            MonsterChange::Moved { id, at } => {
                if let Some(m) = self.monsters.get_mut(&id) {
                    m.at = at;
                }
            }
            MonsterChange::Hurt { id, wound } => {
                if let Some(m) = self.monsters.get_mut(&id) {
                    m.wound = wound;
                }
            }
            MonsterChange::Slept { id, asleep } => {
                if let Some(m) = self.monsters.get_mut(&id) {
                    m.asleep = asleep;
                }
            }
            MonsterChange::Vanished { id } => {
                self.monsters.remove(&id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use gloam_protocol::{PlayerId, ServerMsg};

    use super::*;

    #[test]
    fn players_appear_move_and_vanish() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let bob = PlayerId(2);
        s.apply(&ServerMsg::Players(vec![PlayerChange::Appeared {
            id: bob,
            name: "bob".into(),
            at: Pos::new(3, 3),
        }]))
        .unwrap();
        s.apply(&ServerMsg::Players(vec![PlayerChange::Moved { id: bob, at: Pos::new(4, 3) }]))
            .unwrap();
        assert_eq!(s.others[&bob], OtherPlayer { name: "bob".into(), at: Pos::new(4, 3) });
        s.apply(&ServerMsg::Players(vec![PlayerChange::Vanished { id: bob }])).unwrap();
        assert!(s.others.is_empty());
        let again = ServerMsg::Players(vec![PlayerChange::Vanished { id: bob }]);
        assert!(s.apply(&again).is_err());
    }

    /// The rule `check_steps` keeps, followed change by change.
    fn steps_fit_one_by_one(
        steps: &[(u8, Step)],
        in_sight: impl Fn(&u8) -> bool,
        mut count: usize,
        on_map: impl Fn(Pos) -> bool,
    ) -> bool {
        let mut now: BTreeMap<u8, bool> = BTreeMap::new();
        for &(id, step) in steps {
            if let Step::Appears(at) | Step::Moves(at) = step
                && !on_map(at)
            {
                return false;
            }
            let before = now.get(&id).copied().unwrap_or_else(|| in_sight(&id));
            let after = !matches!(step, Step::Vanishes);
            if !before && !matches!(step, Step::Appears(_)) {
                return false;
            }
            count = count + usize::from(after && !before) - usize::from(before && !after);
            if count > MAX_ROSTER {
                return false;
            }
            now.insert(id, after);
        }
        true
    }

    fn step() -> impl proptest::strategy::Strategy<Value = Step> {
        use proptest::prelude::*;
        // On the 20 x 10 map, now and then off it.
        let at = prop_oneof![
            19 => (0u16..20, 0u16..10).prop_map(|(x, y)| Pos::new(x, y)),
            1 => Just(Pos::new(20, 3)),
        ];
        prop_oneof![
            at.clone().prop_map(Step::Appears),
            at.prop_map(Step::Moves),
            Just(Step::Stays),
            Just(Step::Vanishes),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]
        #[test]
        fn a_run_of_changes_is_judged_as_one_by_one(
            steps in proptest::collection::vec((0u8..4, step()), 0..16),
            seen in proptest::collection::vec(proptest::prelude::any::<bool>(), 4),
            below_the_most in 0..6usize,
        ) {
            let s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
            let in_sight = |id: &u8| seen[usize::from(*id)];
            let count = MAX_ROSTER - below_the_most;
            let on_map = |p: Pos| s.index(p).is_some();
            let sorted = s.check_steps(steps.iter().map(|&s| Ok(s)), in_sight, count);
            proptest::prop_assert_eq!(
                sorted.is_ok(),
                steps_fit_one_by_one(&steps, in_sight, count, on_map),
                "{:?}", sorted
            );
        }
    }
}

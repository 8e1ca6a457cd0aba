//! Who else is on this depth (the roster, kept sorted, with the comings and
//! goings merged into it) and whom the round waits for.

use super::limits::{MAX_ROSTER, check_names};
use super::reasons;
use super::{ClientState, StateError};

impl ClientState {
    /// Everyone else on this depth, named afresh.
    pub(super) fn set_roster(&mut self, names: &[String]) -> Result<(), StateError> {
        if names.len() > MAX_ROSTER {
            return Err(StateError::Inconsistent(reasons::ROSTER_LONGER_THAN_ANY_DEPTH_HOLDS));
        }
        check_names(names)?;
        self.roster = names.to_vec();
        self.roster.sort();
        self.roster.dedup();
        Ok(())
    }

    /// Players who came onto this depth. A crowd's comings and goings come
    /// hundreds to a message: the sorted roster is merged with them in one
    /// pass, not shifted along for each name.
    pub(super) fn join(&mut self, names: &[String]) -> Result<(), StateError> {
        check_names(names)?;
        let mut came: Vec<&String> =
            names.iter().filter(|n| self.roster.binary_search(n).is_err()).collect();
        came.sort_unstable();
        came.dedup();
        if self.roster.len() + came.len() > MAX_ROSTER {
            return Err(StateError::Inconsistent(reasons::MORE_ARRIVALS_THAN_ANY_DEPTH_HOLDS));
        }
        self.roster.extend(came.into_iter().cloned());
        // Two sorted runs: the sort merges them.
        self.roster.sort();
        Ok(())
    }

    /// Players who left this depth.
    pub(super) fn leave(&mut self, names: &[String]) {
        let mut went: Vec<&String> = names.iter().collect();
        went.sort_unstable();
        let mut went = went.into_iter().peekable();
        self.roster.retain(|name| {
            while went.next_if(|gone| *gone < name).is_some() {}
            went.next_if(|gone| *gone == name).is_none()
        });
    }

    /// Whom the round waits for.
    pub(super) fn wait_for(&mut self, names: &[String]) -> Result<(), StateError> {
        if names.len() > MAX_ROSTER {
            return Err(StateError::Inconsistent(reasons::WAITING_FOR_MORE_THAN_ANY_DEPTH_HOLDS));
        }
        check_names(names)?;
        self.waiting = names.to_vec();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{PlayerId, ServerMsg};

    #[test]
    fn the_roster_follows_arrivals_and_departures_in_order() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Roster(vec!["cat".into(), "ann".into()])).unwrap();
        s.apply(&ServerMsg::Joined(vec!["bob".into()])).unwrap();
        assert_eq!(s.roster, ["ann", "bob", "cat"]);
        s.apply(&ServerMsg::Joined(vec!["eve".into(), "dan".into(), "bob".into()])).unwrap();
        assert_eq!(s.roster, ["ann", "bob", "cat", "dan", "eve"]);
        s.apply(&ServerMsg::Left(vec!["ann".into()])).unwrap();
        s.apply(&ServerMsg::Left(vec!["zed".into(), "dan".into(), "eve".into()])).unwrap();
        assert_eq!(s.roster, ["bob", "cat"]);
    }

    proptest::proptest! {
        #[test]
        fn the_roster_is_everyone_who_came_and_has_not_left(
            news in proptest::collection::vec(
                (proptest::prelude::any::<bool>(), proptest::collection::vec("[a-e]{1,2}", 0..8)),
                0..12,
            )
        ) {
            let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
            let mut here = std::collections::BTreeSet::new();
            for (came, names) in news {
                if came {
                    here.extend(names.iter().cloned());
                    s.apply(&ServerMsg::Joined(names)).unwrap();
                } else {
                    names.iter().for_each(|n| { here.remove(n); });
                    s.apply(&ServerMsg::Left(names)).unwrap();
                }
                proptest::prop_assert!(s.roster.iter().eq(here.iter()), "{:?} {:?}", s.roster, here);
            }
        }
    }
}

//! The player's party: those it shares a round with, itself first, with
//! their hit points and levels, for the party panel.

use gloam_protocol::Member;

use super::limits::{MAX_ROSTER, check_name};
use super::reasons;
use super::{ClientState, StateError};

impl ClientState {
    /// The party, named afresh: each member once, the player first.
    pub(super) fn set_party(&mut self, members: &[Member]) -> Result<(), StateError> {
        let me = self.me.ok_or(StateError::NotWelcomed)?;
        if members.len() > MAX_ROSTER {
            return Err(StateError::Inconsistent(reasons::PARTY_LARGER_THAN_ANY_DEPTH_HOLDS));
        }
        if members.first().is_some_and(|m| m.id != me) {
            return Err(StateError::Inconsistent(
                reasons::PARTY_THAT_DOES_NOT_START_WITH_THE_PLAYER,
            ));
        }
        let mut ids: Vec<_> = members.iter().map(|m| m.id).collect();
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            return Err(StateError::Inconsistent(reasons::PARTY_MEMBER_TWICE));
        }
        for member in members {
            check_name(&member.name)?;
            if member.max == 0 || member.hp > member.max {
                return Err(StateError::Inconsistent(
                    reasons::PARTY_MEMBERS_HIT_POINTS_OVER_THEIR_MOST,
                ));
            }
        }
        self.party = members.to_vec();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{Member, PlayerId, ServerMsg};

    fn member(id: u32, name: &str, hp: u16) -> Member {
        Member { id: PlayerId(id), name: name.into(), hp, max: 30, level: 2 }
    }

    #[test]
    fn the_party_is_kept_in_the_servers_order() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let party = vec![member(1, "ann", 30), member(3, "cat", 4), member(2, "bob", 12)];
        s.apply(&ServerMsg::Party(party.clone())).unwrap();
        assert_eq!(s.party, party);
        s.apply(&ServerMsg::Party(vec![member(1, "ann", 30)])).unwrap();
        assert_eq!(s.party.len(), 1, "the others left it");
    }

    #[test]
    fn a_party_that_does_not_fit_changes_nothing() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Party(vec![member(1, "ann", 30), member(2, "bob", 12)])).unwrap();
        let before = s.clone();
        let over = Member { hp: 31, ..member(2, "bob", 0) };
        let no_most = Member { max: 0, ..member(2, "bob", 0) };
        for party in [
            vec![member(2, "bob", 12), member(1, "ann", 30)],
            vec![member(1, "ann", 30), member(2, "bob", 12), member(2, "bob", 12)],
            vec![member(1, "ann", 30), over],
            vec![member(1, "ann", 30), no_most],
            vec![member(1, "ann", 30), member(2, "", 12)],
            vec![member(1, "ann", 30), member(2, "a-name-far-too-long", 12)],
        ] {
            let msg = ServerMsg::Party(party);
            assert!(s.apply(&msg).is_err(), "{msg:?}");
            assert_eq!(s, before, "{msg:?} changed the mirror");
        }
        let mut fresh = crate::ClientState::new();
        assert!(fresh.apply(&ServerMsg::Party(vec![])).is_err(), "before the welcome");
    }
}

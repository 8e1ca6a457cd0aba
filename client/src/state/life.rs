//! The character's life: its hit points and experience, its death (or its
//! escape with the artifact), and the world's graveyard its record joins,
//! the hall of the living first.

use gloam_protocol::DeathRecord;

use super::limits::{MAX_GRAVEYARD, check_record};
use super::reasons;
use super::{ClientState, StateError};

/// The player's experience, as the server last told it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Experience {
    pub level: u8,
    pub xp: u32,
    /// The points the next level takes; 0 at the highest level.
    pub next: u32,
}

impl ClientState {
    /// The player's hit points and their most.
    pub(super) fn set_vitals(&mut self, hp: u16, max: u16) -> Result<(), StateError> {
        if max == 0 || hp > max {
            return Err(StateError::Inconsistent(reasons::HIT_POINTS_OVER_THEIR_MOST));
        }
        self.hp = Some((hp, max));
        Ok(())
    }

    /// The character died: no hit points left, and no round waits for it.
    pub(super) fn die(&mut self, record: &DeathRecord) -> Result<(), StateError> {
        check_record(record)?;
        if record.escaped {
            return Err(StateError::Inconsistent(reasons::DEATH_WHOSE_RECORD_SAYS_IT_ESCAPED));
        }
        self.death = Some(record.clone());
        self.hp = Some((0, self.hp.map_or(1, |(_, max)| max)));
        self.waiting.clear();
        Ok(())
    }

    /// The character carried the artifact up and won: no round waits for it.
    pub(super) fn escape(&mut self, record: &DeathRecord) -> Result<(), StateError> {
        check_record(record)?;
        if !record.escaped {
            return Err(StateError::Inconsistent(reasons::ESCAPE_WHOSE_RECORD_SAYS_IT_DIED));
        }
        self.escape = Some(record.clone());
        self.waiting.clear();
        Ok(())
    }

    /// How the character's game ended, once it has: its death or its escape.
    pub fn ending(&self) -> Option<&DeathRecord> {
        self.escape.as_ref().or(self.death.as_ref())
    }

    /// The graveyard, as the server sent it.
    pub(super) fn keep_graveyard(&mut self, records: &[DeathRecord]) -> Result<(), StateError> {
        if records.len() > MAX_GRAVEYARD {
            return Err(StateError::Inconsistent(reasons::GRAVEYARD_LONGER_THAN_A_CLIENT_KEEPS));
        }
        records.iter().try_for_each(check_record)?;
        self.graveyard = Some(records.to_vec());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{DeathRecord, PlayerId, ServerMsg};

    fn record(escaped: bool) -> DeathRecord {
        DeathRecord {
            name: "ann".into(),
            depth: 9,
            rounds: 4000,
            kills: 77,
            killed_by: "the Gloamstone".into(),
            when: 0,
            level: 8,
            escaped,
            morgue: 0,
        }
    }

    #[test]
    fn an_escape_ends_the_game_without_a_death() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Vitals { hp: 20, max: 30 }).unwrap();
        s.apply(&ServerMsg::Waiting(vec!["bob".into()])).unwrap();
        s.apply(&ServerMsg::Escaped(record(true))).unwrap();
        assert_eq!(s.ending(), Some(&record(true)));
        assert_eq!((s.death.as_ref(), s.hp), (None, Some((20, 30))), "alive, and as hale");
        assert!(s.waiting.is_empty());
    }

    #[test]
    fn a_record_that_contradicts_its_message_changes_nothing() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let before = s.clone();
        assert!(s.apply(&ServerMsg::Escaped(record(false))).is_err());
        assert!(s.apply(&ServerMsg::Died(record(true))).is_err());
        assert_eq!(s, before);
        s.apply(&ServerMsg::Died(record(false))).unwrap();
        assert_eq!(s.ending().map(|r| r.escaped), Some(false));
    }

    #[test]
    fn experience_is_kept_as_told() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        assert_eq!(s.experience, None);
        s.apply(&ServerMsg::Experience { level: 3, xp: 140, next: 280 }).unwrap();
        assert_eq!(s.experience, Some(super::Experience { level: 3, xp: 140, next: 280 }));
    }
}

//! The character's life: its hit points, its death, and the world's
//! graveyard its record joins.

use gloam_protocol::DeathRecord;

use super::limits::{MAX_GRAVEYARD, check_record};
use super::{ClientState, StateError};

impl ClientState {
    /// The player's hit points and their most.
    pub(super) fn set_vitals(&mut self, hp: u16, max: u16) -> Result<(), StateError> {
        if max == 0 || hp > max {
            return Err(StateError::Inconsistent("hit points over their most"));
        }
        self.hp = Some((hp, max));
        Ok(())
    }

    /// The character died: no hit points left, and no round waits for it.
    pub(super) fn die(&mut self, record: &DeathRecord) -> Result<(), StateError> {
        check_record(record)?;
        self.death = Some(record.clone());
        self.hp = Some((0, self.hp.map_or(1, |(_, max)| max)));
        self.waiting.clear();
        Ok(())
    }

    /// The graveyard, as the server sent it.
    pub(super) fn keep_graveyard(&mut self, records: &[DeathRecord]) -> Result<(), StateError> {
        if records.len() > MAX_GRAVEYARD {
            return Err(StateError::Inconsistent("a graveyard longer than a client keeps"));
        }
        records.iter().try_for_each(check_record)?;
        self.graveyard = Some(records.to_vec());
        Ok(())
    }
}

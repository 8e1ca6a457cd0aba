//! The rules' part in uniques (see `mapgen::uniques`): a unique slain is
//! handed back in the command's flow, for the depth's task to keep in the
//! store; and when a depth is built, those the store says were slain
//! before leave it, as a command like any other: logged, so that its
//! history replays to the same depth whatever the store says by then.

use super::Rules;
use super::log::Command;
use crate::bestiary::KindId;

impl Rules {
    /// Takes off the depth every unique of a kind in `slain` still on it (a
    /// history set aside, or lost, built it with them). Logged only when it
    /// takes one off. Gives the kinds taken off.
    pub(crate) fn clear_slain(&mut self, slain: &[KindId]) -> Vec<KindId> {
        let bestiary = &self.bestiary;
        let gone: Vec<(gloam_protocol::MonsterId, KindId)> = self
            .monsters
            .values()
            .filter(|m| slain.contains(&m.kind) && bestiary.kind(m.kind).unique)
            .map(|m| (m.id, m.kind))
            .collect();
        if gone.is_empty() {
            return Vec::new();
        }
        let kinds: Vec<KindId> = gone.iter().map(|&(_, kind)| kind).collect();
        self.log.record(self.clock.rounds, Command::Gone { kinds: kinds.clone() });
        for (id, _) in gone {
            self.monsters.remove(id);
        }
        kinds
    }
}

//! A depth's history: the ordered log of every command it applied, and a
//! checksum of its state. The rules read no clock and roll every die from
//! the depth's own stream, so the same depth (the same seed, bestiary and
//! placements) given the same log ends in the same state.

use gloam_protocol::{Action, PlayerId, Pos};
use rand::Rng;

use super::{Arrival, DepthState};
use crate::world::player::{Player, Vitals};

/// One command as the depth applied it, with the round it fell in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Rounds closed on the depth before this command.
    pub round: u64,
    pub what: Command,
}

/// What was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A player came, as it was then.
    Arrive {
        id: PlayerId,
        name: String,
        vitals: Vitals,
        via: Arrival,
    },
    Act {
        id: PlayerId,
        action: Action,
    },
    /// The deadline of the round `id` waited in passed.
    Deadline {
        id: PlayerId,
    },
    /// A player left (the game, or its connection fell behind).
    Leave {
        id: PlayerId,
    },
}

impl DepthState {
    /// Keeps the log of every command from now on. Off by default: until
    /// the store keeps the log (and the depth hands its entries over as it
    /// saves), a live depth would only pile them up in memory.
    pub fn keep_log(&mut self) {
        self.log = Some(Vec::new());
    }

    /// Everything this depth has applied since [`keep_log`](Self::keep_log), in order.
    pub fn log(&self) -> &[Entry] {
        self.log.as_deref().unwrap_or_default()
    }

    pub(super) fn record(&mut self, what: Command) {
        let round = self.clock.rounds;
        if let Some(log) = &mut self.log {
            log.push(Entry { round, what });
        }
    }

    /// Applies `log` to this depth (fresh from its seed), as it was applied
    /// live. Fails at the first entry that falls in another round than it
    /// did live: the depth is not the one the log was made on.
    pub fn replay(&mut self, log: &[Entry]) -> Result<(), String> {
        for (i, entry) in log.iter().enumerate() {
            if entry.round != self.clock.rounds {
                return Err(format!(
                    "entry {i} fell in round {} live but in round {} here: another depth, bestiary or rule",
                    entry.round, self.clock.rounds
                ));
            }
            match &entry.what {
                Command::Arrive { id, name, vitals, via } => {
                    let mut player = Player::new(*id, name.clone());
                    player.vitals = *vitals;
                    self.arrive(player, *via);
                }
                Command::Act { id, action } => {
                    self.act(*id, *action);
                }
                Command::Deadline { id } => {
                    self.deadline(*id);
                }
                Command::Leave { id } => {
                    self.remove(*id, "has left the game.");
                }
            }
        }
        Ok(())
    }

    /// A checksum of everything that decides what happens next: the
    /// rounds, every player's place, hit points and round state, every
    /// monster whole, and where the depth's random stream stands.
    pub fn checksum(&self) -> u64 {
        let mut sum = Fnv::default();
        sum.u64(u64::from(self.depth));
        sum.u64(self.clock.rounds);
        for p in self.players.values() {
            sum.u64(u64::from(p.id.0));
            sum.pos(p.pos);
            let v = p.vitals;
            for n in [u64::from(v.hp), u64::from(v.max_hp), u64::from(v.kills), v.rounds] {
                sum.u64(n);
            }
            sum.u64(self.clock.phase(p.id) as u64);
        }
        for m in self.monsters.values() {
            sum.u64(u64::from(m.id.0));
            sum.u64(u64::from(m.kind));
            sum.pos(m.pos);
            sum.u64(u64::from(m.hp));
            sum.u64(u64::from(m.awake));
            sum.u64(m.prey.map_or(u64::MAX, |p| u64::from(p.0)));
            sum.pos(m.goal.unwrap_or(Pos::new(u16::MAX, u16::MAX)));
            sum.u64(m.rounds);
        }
        sum.u64(self.rng.clone().next_u64());
        sum.0
    }
}

/// FNV-1a, 64 bits: the same on every machine and every build.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn u64(&mut self, n: u64) {
        for b in n.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn pos(&mut self, p: Pos) {
        self.u64(u64::from(p.x) << 16 | u64::from(p.y));
    }
}

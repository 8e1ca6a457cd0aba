//! A depth's history: the ordered log of every command it applied, and a
//! checksum of its state. The rules read no clock and roll every die from
//! the depth's own stream, so the same depth (the same seed, bestiary and
//! placements) given the same log ends in the same state.

use gloam_protocol::{Action, PlayerId, Pos};
use rand::Rng;

use super::Rules;
use super::events::Nobody;
use super::flow::Leaving;
use crate::bestiary::KindId;
use crate::character::{Player, Skills, Vitals};
use crate::items::{Item, ItemKindId, Pack};
use crate::world::depth::Arrival;
use crate::world::depth::views::still::{OLD_SHIFTS, Shift};

/// The version of these rules, stored beside each depth's history: a
/// history recorded under other rules could replay to something else than
/// what was played, so it is set aside, never replayed. Raise it whenever
/// the same log would replay differently (and re-record the replay
/// fixture). 1: a refused action spent its round; 2: it costs nothing
/// (`docs/turns.md`).
pub const RULES_VERSION: u32 = 2;

/// One command as the depth applied it, with the round it fell in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// Rounds closed on the depth before this command.
    pub round: u64,
    pub what: Command,
}

impl Command {
    /// The mark of the still told: all of them, or `shift`.
    pub(crate) fn told(shift: Option<Shift>, joined: bool) -> Self {
        let byte = |n: usize| u8::try_from(n).expect("a few dozen shifts");
        match shift {
            None => Command::Told { shift: None, joined },
            Some(s) if s.of() == OLD_SHIFTS => {
                Command::Told { shift: Some(byte(s.index())), joined }
            }
            Some(s) => Command::ToldShift { shift: byte(s.index()), of: byte(s.of()), joined },
        }
    }

    /// For a mark of the still told ([`Command::told`]): the shift told
    /// (`Some(None)`: all of them) and whether joined to the command
    /// before; `None` for anything else, and for a shift no depth tells.
    pub(crate) fn told_shift(&self) -> Option<(Option<Shift>, bool)> {
        match *self {
            Command::Told { shift: None, joined } => Some((None, joined)),
            Command::Told { shift: Some(s), joined } => {
                Some((Some(Shift::named(usize::from(s), OLD_SHIFTS)?), joined))
            }
            Command::ToldShift { shift, of, joined } => {
                Some((Some(Shift::named(usize::from(shift), usize::from(of))?), joined))
            }
            _ => None,
        }
    }

    /// A mark of what the views did between commands (see the end of
    /// [`Command`]), which the rules pass over.
    pub fn is_mark(&self) -> bool {
        matches!(
            self,
            Command::Told { .. }
                | Command::ToldShift { .. }
                | Command::Ordered { .. }
                | Command::Announced { .. }
                | Command::Resumed
                | Command::Remembered { .. }
        )
    }
}

/// A depth's log as the store keeps it (each entry encoded by the codec),
/// decoded; the first entry that does not decode is named.
pub fn decode_history(stored: &[Vec<u8>]) -> Result<Vec<Entry>, String> {
    stored
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            gloam_protocol::codec::decode_record(bytes)
                .map_err(|e| format!("entry {i} of the log is damaged: {e}"))
        })
        .collect()
}

/// Entries handed over for keeping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogPart {
    /// The number of the first entry, counting from the depth's first ever.
    pub first: u64,
    pub entries: Vec<Entry>,
    /// The depth's checksum after the last of them.
    pub checksum: u64,
}

/// What was applied.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// A player came, as it was then, carrying `pack` (logs made before
    /// items hold [`Command::Arrive`], a player with nothing). Logs made
    /// before experience and gear hold this, a player of level 1 with
    /// nothing equipped; later ones [`Command::Entered`].
    Came {
        id: PlayerId,
        name: String,
        vitals: Vitals,
        via: Arrival,
        pack: Vec<Item>,
    },
    /// A player came, as it was then: its pack with what it wields and
    /// wears, and its experience.
    Entered {
        id: PlayerId,
        name: String,
        vitals: Vitals,
        via: Arrival,
        pack: Pack,
        xp: u32,
    },
    /// A player who came up to the first depth with the artifact escaped.
    Escape {
        id: PlayerId,
    },
    /// The depth stood empty for so many restock periods and regained
    /// monsters (see `restock`), before the arrival that ended it.
    Restock {
        periods: u32,
    },
    /// A player came, as it was then: [`Command::Entered`] with the kinds
    /// of potion and scroll it knew (logs made before unknown items hold
    /// `Entered`, a player who knows none).
    Knowing {
        id: PlayerId,
        name: String,
        vitals: Vitals,
        via: Arrival,
        pack: Pack,
        xp: u32,
        known: Vec<ItemKindId>,
    },
    /// A player came, as it was then: [`Command::Knowing`] with the skills
    /// its background gave it (logs made before backgrounds, and players
    /// of none, hold `Knowing` or `Entered`, a player of no skills).
    Skilled {
        id: PlayerId,
        name: String,
        vitals: Vitals,
        via: Arrival,
        pack: Pack,
        xp: u32,
        known: Vec<ItemKindId>,
        skills: Skills,
    },
    /// The uniques of these kinds, slain in the world before this history
    /// began (one that was set aside, or lost), left the depth as it was
    /// built: see `Rules::clear_slain`.
    Gone {
        kinds: Vec<KindId>,
    },
    /// A player left because its connection was lost or fell behind (a
    /// [`Command::Leave`] quit): the same to the rules, told otherwise.
    /// Logs made before recordings hold `Leave` for both.
    Lost {
        id: PlayerId,
    },
    // What follows marks what the depth's views did between commands:
    // the rules pass over it, and a recording (`depth::recording`)
    // follows it to tell each player again what it was told then.
    /// Those who stood still (all, or one shift of five of them: as logged
    /// before [`Command::ToldShift`]) were told of the movers: `joined`,
    /// into the messages of the command before it (a deadline's), else
    /// alone.
    Told {
        shift: Option<u8>,
        joined: bool,
    },
    /// A player's action was a standing order: the step it took (an
    /// [`Command::Act`]) follows, unless it could take none.
    Ordered {
        id: PlayerId,
        action: Action,
    },
    /// A line for everyone on the depth, from the server.
    Announced {
        text: String,
    },
    /// The depth's history was taken up after a restart: the views began
    /// afresh, and the players the history left on the depth (the
    /// [`Command::Leave`]s that follow) were taken off with nobody told.
    Resumed,
    /// A player arrives (the arrival follows) remembering this of the
    /// depth: its [`Memory`](crate::character::Memory), encoded, or `None`
    /// if it had none. The rules need no memory, but a recording does to
    /// show the map the player came back to; logs made before this mark
    /// hold none, and a recording of them carries memories between visits.
    Remembered {
        memory: Option<Vec<u8>>,
    },
    /// One shift of those who stood still, shift `shift` of `of` (see
    /// `views::still`), was told of the movers: as [`Command::Told`].
    /// Last, so that the histories logged before it read as they did.
    ToldShift {
        shift: u8,
        of: u8,
        joined: bool,
    },
}

/// The entries applied and not yet handed over, when kept, and how many
/// were handed over before them.
#[derive(Debug, Default)]
pub(super) struct Log {
    entries: Option<Vec<Entry>>,
    logged: u64,
    /// How many of them the last checksum handed over counted (none yet
    /// after a restart: its first summing hands the checksum over again).
    summed: u64,
}

impl Log {
    /// Notes a command applied in round `round`, when the log is kept.
    pub(super) fn record(&mut self, round: u64, what: Command) {
        if let Some(log) = &mut self.entries {
            log.push(Entry { round, what });
        }
    }
}

impl Rules {
    /// Keeps the log of every command from now on. Off by default: until
    /// the store keeps the log (and the depth hands its entries over as it
    /// saves), a live depth would only pile them up in memory.
    pub(crate) fn keep_log(&mut self) {
        self.log.entries = Some(Vec::new());
    }

    /// What this depth has applied since [`keep_log`](Self::keep_log) and
    /// not yet handed over with [`take_log`](Self::take_log), in order.
    pub(crate) fn log(&self) -> &[Entry] {
        self.log.entries.as_deref().unwrap_or_default()
    }

    /// Hands over the entries not yet handed over, with the number of the
    /// first (counting from the depth's first ever) and the checksum of the
    /// depth after the last; `None` when there are none.
    pub(crate) fn take_log(&mut self) -> Option<LogPart> {
        let (first, entries) = self.take_unsummed()?;
        self.note_summed();
        Some(LogPart { first, entries, checksum: self.checksum() })
    }

    /// [`take_log`](Self::take_log) without the checksum (a few tenths of
    /// a millisecond for a crowd): the number of the first entry and the
    /// entries.
    pub(crate) fn take_unsummed(&mut self) -> Option<(u64, Vec<Entry>)> {
        let entries = std::mem::take(self.log.entries.as_mut()?);
        if entries.is_empty() {
            return None;
        }
        let first = self.log.logged;
        self.log.logged += entries.len() as u64;
        Some((first, entries))
    }

    /// How many entries were handed over, when the last checksum handed
    /// over counted fewer (parts go unsummed: see `world::keep_history`).
    pub(crate) fn owed_sum(&self) -> Option<u64> {
        let kept = self.log.entries.is_some();
        (kept && self.log.summed != self.log.logged).then_some(self.log.logged)
    }

    /// Notes that the checksum after every entry handed over was handed
    /// over too.
    pub(crate) fn note_summed(&mut self) {
        self.log.summed = self.log.logged;
    }

    /// The entries applied since the last call (a log kept but never
    /// handed over: a recording's, see `depth::recording`).
    pub(crate) fn take_entries(&mut self) -> Vec<Entry> {
        self.log.entries.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Numbers the next entry after `count` others (a history set aside).
    pub(crate) fn skip_log(&mut self, count: u64) {
        self.log.logged = count;
    }

    /// Replays a depth's stored history, whose first entry is numbered
    /// `first`, and takes its place in it: the next entry handed over is
    /// numbered after the last replayed. Players the history leaves on the
    /// depth (a crash took them out of the game without a word) are taken
    /// off, and that is logged too.
    pub(crate) fn resume(&mut self, first: u64, history: &[Entry]) -> Result<(), String> {
        self.replay(history)?;
        self.log.entries = Some(Vec::new());
        self.log.logged = first + history.len() as u64;
        self.log.record(self.clock.rounds, Command::Resumed);
        let stranded: Vec<PlayerId> = self.players().keys().copied().collect();
        for id in stranded {
            self.leave(id, Leaving::Quit, &mut Nobody);
        }
        Ok(())
    }

    /// Applies `log` to this depth (fresh from its seed), as it was applied
    /// live, telling nobody anything: what the clients were told decides
    /// nothing that happens next. Fails at the first entry that falls in
    /// another round than it did live: the depth is not the one the log
    /// was made on.
    pub(crate) fn replay(&mut self, log: &[Entry]) -> Result<(), String> {
        for (i, entry) in log.iter().enumerate() {
            if entry.round != self.clock.rounds {
                return Err(format!(
                    "entry {i} fell in round {} live but in round {} here: another depth, bestiary or rule",
                    entry.round, self.clock.rounds
                ));
            }
            if let Some((player, via)) = arrival(&entry.what) {
                self.arrive(player, via, &mut Nobody);
                continue;
            }
            match &entry.what {
                Command::Act { id, action } => {
                    self.act(*id, *action, &mut Nobody);
                }
                Command::Escape { id } => {
                    self.escape(*id, &mut Nobody);
                }
                Command::Deadline { id } => {
                    self.deadline(*id, &mut Nobody);
                }
                Command::Leave { id } => {
                    self.leave(*id, Leaving::Quit, &mut Nobody);
                }
                Command::Lost { id } => {
                    self.leave(*id, Leaving::Lost, &mut Nobody);
                }
                Command::Restock { periods } => {
                    self.restock(*periods, &mut Nobody);
                }
                Command::Gone { kinds } => {
                    self.clear_slain(kinds);
                }
                // Arrivals, above; and what only the views did.
                Command::Arrive { .. }
                | Command::Came { .. }
                | Command::Entered { .. }
                | Command::Knowing { .. }
                | Command::Skilled { .. }
                | Command::Told { .. }
                | Command::ToldShift { .. }
                | Command::Ordered { .. }
                | Command::Announced { .. }
                | Command::Resumed
                | Command::Remembered { .. } => {}
            }
        }
        Ok(())
    }

    /// A checksum of everything that decides what happens next: the
    /// rounds, every player's place, hit points and round state, every
    /// monster whole, every item on the floor and in a pack, who is walking
    /// which way, and where the depth's random streams stand.
    pub(crate) fn checksum(&self) -> u64 {
        let mut sum = Fnv::default();
        sum.u64(u64::from(self.depth));
        sum.u64(self.clock.rounds);
        for p in self.players().values() {
            self.sum_player(&mut sum, p);
        }
        for m in self.monsters.values() {
            sum.u64(u64::from(m.id.0));
            sum.u64(u64::from(m.kind));
            sum.pos(m.pos);
            sum.u64(u64::from(m.hp));
            sum.u64(u64::from(m.is_awake()));
            sum.u64(m.prey.map_or(u64::MAX, |p| u64::from(p.0)));
            sum.pos(m.goal.unwrap_or(Pos::new(u16::MAX, u16::MAX)));
            sum.u64(m.rounds);
            sum.u64(u64::from(m.dozing));
            if m.slowed > 0 {
                // Only a slowed one's (by a wand), as the loot below.
                sum.u64(u64::from(m.slowed));
            }
            if let Some(loot) = m.loot {
                // Only a thief's: the sums of depths without one stay.
                sum.u64(u64::from(loot.kind) << 16 | u64::from(loot.count));
            }
        }
        for (pos, pile) in self.floor.sorted() {
            sum.pos(pos);
            for item in pile {
                sum.u64(u64::from(item.kind) << 16 | u64::from(item.count));
            }
        }
        for n in self.walks.numbers() {
            sum.u64(n);
        }
        sum.u64(self.dice.clone().next_u64());
        for n in self.restocking.numbers() {
            sum.u64(n);
        }
        sum.0
    }

    /// Player `p`'s part of the checksum.
    fn sum_player(&self, sum: &mut Fnv, p: &Player) {
        sum.u64(u64::from(p.id.0));
        sum.pos(p.pos);
        let v = p.vitals;
        for n in [u64::from(v.hp), u64::from(v.max_hp), u64::from(v.kills), v.rounds] {
            sum.u64(n);
        }
        sum.u64(self.clock.phase(p.id) as u64);
        for item in p.pack.items() {
            sum.u64(u64::from(item.kind) << 16 | u64::from(item.count));
        }
        let mark = |slot: Option<u8>| slot.map_or(u64::MAX, u64::from);
        sum.u64(mark(p.pack.wielded()));
        sum.u64(mark(p.pack.worn()));
        sum.u64(u64::from(p.xp));
        // Summed only when set, so a history from before confusion
        // keeps its sums.
        if p.confused > 0 {
            sum.u64(u64::from(p.confused));
        }
        // Likewise the skills of a background, only when it gave any.
        if p.skills != Skills::default() {
            let Skills { to_hit, damage, stealth, throwing } = p.skills;
            sum.u64(u64::from_le_bytes([
                to_hit as u8,
                damage as u8,
                stealth,
                throwing as u8,
                1,
                0,
                0,
                0,
            ]));
        }
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

/// The player an arrival logged, as it came, and where it was put; `None`
/// for a command that is not an arrival.
pub(crate) fn arrival(what: &Command) -> Option<(Player, Arrival)> {
    let (player, via) = match what {
        Command::Arrive { id, name, vitals, via } => {
            let mut player = Player::new(*id, name.clone());
            player.vitals = *vitals;
            (player, via)
        }
        Command::Came { id, name, vitals, via, pack } => {
            let mut player = Player::new(*id, name.clone());
            player.vitals = *vitals;
            player.pack = Pack::of(pack.clone());
            (player, via)
        }
        Command::Entered { id, name, vitals, via, pack, xp } => {
            let mut player = Player::new(*id, name.clone());
            player.vitals = *vitals;
            player.pack.clone_from(pack);
            player.xp = *xp;
            (player, via)
        }
        Command::Knowing { id, name, vitals, via, pack, xp, known } => {
            (came(*id, name, *vitals, pack, *xp, known, Skills::default()), via)
        }
        Command::Skilled { id, name, vitals, via, pack, xp, known, skills } => {
            (came(*id, name, *vitals, pack, *xp, known, *skills), via)
        }
        _ => return None,
    };
    Some((player, *via))
}

/// A player as an arrival logged it: [`Command::Knowing`]'s fields, and
/// [`Command::Skilled`]'s skills (none for `Knowing`).
fn came(
    id: PlayerId,
    name: &str,
    vitals: Vitals,
    pack: &Pack,
    xp: u32,
    known: &[ItemKindId],
    skills: Skills,
) -> Player {
    let mut player = Player::new(id, name.to_owned());
    player.vitals = vitals;
    player.pack.clone_from(pack);
    player.xp = xp;
    player.known = known.iter().copied().collect();
    player.skills = skills;
    player
}

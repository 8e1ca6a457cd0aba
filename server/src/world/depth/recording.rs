//! Recordings: what one player was sent on a depth, made again from the
//! depth's history. The history holds every command the rules applied and,
//! between them, marks of what the views did that the rules did not (those
//! who stood still told of the movers, a standing order's first action, a
//! line for everyone, a restart: see the end of [`Command`]). Applied to the
//! depth fresh from its seed with the views listening, in the same calls
//! the depth's task made live, they tell every player again exactly what it
//! was told then; a recording keeps one player's part.
//!
//! Each call's own log is held against the history as it goes: a depth
//! that logs anything else than the history says is not the depth the
//! history was made on, and the recording stops there with the reason.
//!
//! A recording holds what the depth sent: not chat, nor what the
//! connection says of itself (greetings, the graveyard, who watches), nor
//! the record of a death (the grave has it). A player who comes to the
//! depth brings what it remembered of it then, as the history's mark
//! before its arrival says (in a history older than those marks, what it
//! remembered when it last left in the same history, if it did).
//!
//! A recording need not start from the depth's first command: restored
//! from a snapshot taken before its first round (which keeps what the
//! views had told each player), the depth plays only the commands after
//! it, so that the last rounds of a long history cost what they cost in a
//! short one.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use gloam_protocol::{PlayerId, ServerMsg};

use super::rules::{Command, Entry, Leaving, arrival};
use super::views::Views;
use super::{DepthState, Nobody, Outcome};
use crate::character::Memory;

/// One message of a recording: the round of the depth it was sent in, and
/// the id its player had then.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub round: u64,
    pub to: PlayerId,
    pub msg: ServerMsg,
}

/// A recording being made: whose, of which rounds, and what it holds.
struct Recorder<'a> {
    name: &'a str,
    rounds: RangeInclusive<u64>,
    /// The ids the player had on the depth (one each time it came).
    ids: Vec<PlayerId>,
    /// What players who left the depth remembered of it, by name.
    memories: HashMap<String, Memory>,
    /// The messages of the last command, not yet kept: a deadline's are
    /// joined by what those who stood still were told after it.
    pending: (u64, Outcome),
    /// The first round of the recording was reached.
    started: bool,
    /// After a restart: the players the history left are taken off with
    /// nobody told.
    quiet: bool,
    /// What the player arriving next remembers, as the history's mark
    /// before its arrival says (`None`: no mark, the memory is carried).
    remembered: Option<Option<Memory>>,
    kept: Vec<Recorded>,
}

impl DepthState {
    /// Applies `history` to this depth, fresh from its seed as the world
    /// builds it, with the views listening, and gives what the player named
    /// `name` was sent in `rounds`. A recording that starts with the player
    /// on the depth starts with its whole view then, as a watcher's does.
    /// Fails where the depth does not do what the history says.
    pub fn record(
        &mut self,
        history: &[Entry],
        name: &str,
        rounds: RangeInclusive<u64>,
    ) -> Result<Vec<Recorded>, String> {
        self.record_on(history, name, rounds, Vec::new())
    }

    /// As [`record`](Self::record), on this depth restored from a snapshot
    /// with its views (`restore_watched`) before the recording's first
    /// round, from `history`'s entries after the snapshot. The player, if
    /// it stood on the depth then, is known by its name.
    pub fn record_restored(
        &mut self,
        history: &[Entry],
        name: &str,
        rounds: RangeInclusive<u64>,
    ) -> Result<Vec<Recorded>, String> {
        if self.rounds() >= *rounds.start() {
            let (then, first) = (self.rounds(), rounds.start());
            return Err(format!("a snapshot of round {then} is not before round {first}"));
        }
        let here = self.rules.players().values().find(|p| p.name == name).map(|p| p.id);
        self.record_on(history, name, rounds, here.into_iter().collect())
    }

    fn record_on(
        &mut self,
        history: &[Entry],
        name: &str,
        rounds: RangeInclusive<u64>,
        ids: Vec<PlayerId>,
    ) -> Result<Vec<Recorded>, String> {
        let mut r = Recorder {
            name,
            rounds,
            ids,
            memories: HashMap::new(),
            pending: (0, Outcome::default()),
            started: false,
            quiet: false,
            remembered: None,
            kept: Vec::new(),
        };
        self.rules.keep_log();
        let mut i = 0;
        while let Some(entry) = history.get(i) {
            if entry.round > *r.rounds.end() {
                break;
            }
            if entry.round != self.rounds() {
                let live = entry.round;
                return Err(format!(
                    "entry {i} fell in round {live} live but in round {} here",
                    self.rounds()
                ));
            }
            let joined = matches!(entry.what.told_shift(), Some((_, true)));
            if !r.started && entry.round >= *r.rounds.start() && !joined {
                self.start(&mut r);
            }
            let entry = match &entry.what {
                // The memory is given with the arrival after it.
                Command::Remembered { memory } => {
                    r.remembered = Some(remembered(memory.as_deref(), i)?);
                    history.get(i + 1).ok_or(format!("entry {i} remembers for no arrival"))?
                }
                _ => entry,
            };
            self.perform(&mut r, entry);
            let made = self.rules.take_entries();
            let stored = history.get(i..i + made.len()).unwrap_or_default();
            if made.is_empty() || made != stored {
                return Err(format!("entry {i} ({:?}) is not what this depth does", entry.what));
            }
            i += made.len();
        }
        self.keep_pending(&mut r);
        Ok(r.kept)
    }

    /// The recording's first round is reached: what came before it is let
    /// go, and the player, if it is on the depth, is given its whole view
    /// as it stands.
    fn start(&mut self, r: &mut Recorder) {
        self.keep_pending(r);
        r.started = true;
        let Some(&id) = r.ids.last() else { return };
        let round = self.rounds();
        let view = self.view_of(id).unwrap_or_default();
        r.kept.extend(view.into_iter().map(|msg| Recorded { round, to: id, msg }));
    }

    /// Applies one entry of the history as the depth's task did live.
    fn perform(&mut self, r: &mut Recorder, entry: &Entry) {
        if let Some((shift, true)) = entry.what.told_shift() {
            // Told into the messages of the command before (a deadline's).
            self.tell_the_still(&mut r.pending.1, shift);
            return;
        }
        self.keep_pending(r);
        let quiet = std::mem::take(&mut r.quiet);
        let outcome = match &entry.what {
            what @ (Command::Arrive { .. }
            | Command::Came { .. }
            | Command::Entered { .. }
            | Command::Knowing { .. }
            | Command::Skilled { .. }) => self.arrive_recorded(r, what),
            Command::Act { id, action } | Command::Ordered { id, action } => self.act(*id, *action),
            Command::Deadline { id } => self.deadline(*id),
            Command::Leave { id } if quiet => {
                r.quiet = true;
                let (player, _) = self.rules.leave(*id, Leaving::Quit, &mut Nobody);
                r.remember(self.depth(), player);
                Outcome::default()
            }
            Command::Leave { id } | Command::Lost { id } => {
                let how = match entry.what {
                    Command::Lost { .. } => Leaving::Lost,
                    _ => Leaving::Quit,
                };
                let (player, outcome) = self.leave(*id, how);
                r.remember(self.depth(), player);
                outcome
            }
            Command::Restock { periods } => {
                self.restock(*periods);
                Outcome::default()
            }
            Command::Gone { kinds } => {
                self.clear_slain(kinds);
                Outcome::default()
            }
            Command::Told { .. } | Command::ToldShift { .. } => {
                let mut told = Outcome::default();
                // A shift no depth tells: told to all, which the history
                // does not hold, and the recording ends there.
                let shift = entry.what.told_shift().and_then(|(shift, _)| shift);
                self.tell_the_still(&mut told, shift);
                told
            }
            Command::Announced { text } => {
                let out = self.tell_everyone(text);
                Outcome { out, ..Outcome::default() }
            }
            Command::Resumed => {
                self.views = Views::default();
                self.rules.mark(Command::Resumed);
                r.quiet = true;
                Outcome::default()
            }
            // Logged only with the arrival it ends (or starts), which
            // applies it.
            Command::Escape { .. } | Command::Remembered { .. } => Outcome::default(),
        };
        r.pending = (entry.round, outcome);
    }

    /// An arrival of the history, with what the arriving player remembered
    /// of the depth (marked before it, or carried from when it left).
    fn arrive_recorded(&mut self, r: &mut Recorder, what: &Command) -> Outcome {
        let (mut player, via) = arrival(what).expect("an arrival");
        if player.name == r.name {
            r.ids.push(player.id);
        }
        let carried = r.memories.remove(&player.name);
        if let Some(memory) = r.remembered.take().unwrap_or(carried) {
            player.memories.insert(self.depth(), memory);
        }
        self.arrive(player, via)
    }

    /// Keeps the player's part of the last command's messages (once the
    /// recording has started), and what those who left remember.
    fn keep_pending(&self, r: &mut Recorder) {
        let (round, outcome) = std::mem::take(&mut r.pending);
        let Outcome { out, flow, .. } = outcome;
        for departure in flow.departures {
            r.remember(self.depth(), Some(departure.player));
        }
        if !r.started {
            return;
        }
        let mine = out.into_iter().filter(|o| r.ids.contains(&o.to));
        r.kept.extend(mine.map(|o| Recorded { round, to: o.to, msg: o.msg }));
    }
}

/// The memory a [`Command::Remembered`] mark (entry `i`) holds.
fn remembered(bytes: Option<&[u8]>, i: usize) -> Result<Option<Memory>, String> {
    let decode = |b| gloam_protocol::codec::decode_snapshot::<Memory>(b);
    let memory = bytes.map(decode).transpose();
    memory.map_err(|e| format!("entry {i} remembers what does not decode: {e}"))
}

impl Recorder<'_> {
    /// Keeps what `player`, leaving depth `depth`, remembers of it.
    fn remember(&mut self, depth: u16, player: Option<crate::character::Player>) {
        let Some(mut player) = player else { return };
        if let Some(memory) = player.memories.remove(&depth) {
            self.memories.insert(player.name, memory);
        }
    }
}

//! One depth's task: the actor that drives a depth. It owns the depth's
//! state and the links to its players' connections, and loops over these
//! phases, in order (the depth's own pipeline, from key to pixels, is in
//! `world::depth`'s doc):
//!
//! 1. **Take a batch**: the next command, and the actions queued behind
//!    it (up to [`MAX_BATCH`]), or a timer that came due (a round's
//!    deadline, the next shift of those who stood still, the periodic
//!    save) ([`DepthTask::take`], [`DepthTask::run`]).
//! 2. **Apply the rules**: each command in turn ([`DepthState::act_all`]
//!    and its siblings), which hands back the messages its views made and
//!    the game's flow (who was answered, came, went or died: `rules::flow`).
//! 3. **Tell the still**: the next shift of those who stood still hears of
//!    the movers, when its time has come (`depth::views::still`).
//! 4. **Count**: the rounds closed and whether the depth stands empty (for
//!    the world's absences), whose rounds now wait (for the deadline), and
//!    the metrics (`metrics`): before anyone is told, so that a reply is
//!    never ahead of its figures.
//! 5. **Deliver**: each player's messages as one reply, to its connection
//!    and its watchers (`delivery`); one whose queue is full is dropped,
//!    saved first.
//! 6. **Act on the flow**: those who took the stairs are saved and handed
//!    to the next depth's task (which answers their action), the dead are
//!    buried ([`DepthTask::finish`]).
//!
//! Saving: a player is saved at once when it arrives, leaves, is dropped
//! or takes the stairs, and those who acted every `save_interval`, in
//! [`SAVE_SHIFTS`] shifts by id (one each twenty-fifth of it), and the
//! depth's log every fifth of it, on the timer; a snapshot of the depth
//! now and then is cloned here and written by the store's thread
//! (`keeping`). A depth empty for `depth_idle` retires.

mod delivery;
mod metrics;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use gloam_protocol::{Action, PlayerId, codec};
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;
use tracing::{debug, info};

use self::metrics::DepthMetrics;
use super::absence::{self, Absences, PlayedRounds};
use super::depth::{
    Arrival, Death, Departure, DepthState, Flow, Leaving, Outcome, Outgoing, Slaying, StillSchedule,
};
use super::watch::Audience;
use crate::character::{Keep, Player};
use crate::config::Config;
use crate::store::StoreHandle;

/// What a depth sends a player's connection: everything one command
/// produced for that player, as encoded frames.
#[derive(Debug)]
pub(super) struct ToConn {
    pub(super) frames: Vec<Vec<u8>>,
    /// The player's own command was applied: its next may be sent.
    pub(super) done: bool,
    /// And it was a standing order that goes on: send it again.
    pub(super) goes_on: bool,
    /// The player arrived on this depth: its commands go here from now on.
    pub(super) now_on: Option<DepthHandle>,
    /// The character died: these are its last words.
    pub(super) died: bool,
}

/// The way a depth reaches one player: its connection, those watching it,
/// and where those who talk to it find it.
#[derive(Debug)]
pub(super) struct Link {
    pub(super) conn: mpsc::Sender<ToConn>,
    pub(super) audience: Arc<Audience>,
    /// The depth the player is on, for chat and watchers: set by the depth
    /// it arrives on before it is told anything there.
    pub(super) depth: Arc<std::sync::atomic::AtomicU16>,
    /// The last lines of the game's log the player was sent, for its
    /// morgue file: they travel with it from depth to depth.
    pub(super) lines: crate::morgue::LastLines,
}

/// The way in to one depth's task.
#[derive(Debug, Clone)]
pub(super) struct DepthHandle {
    pub(super) depth: u16,
    pub(super) tx: mpsc::Sender<DepthCmd>,
}

/// What a depth's task asks of the world around it (the registry of
/// depths answers): the host's settings, the store, the other depths.
pub(super) trait DepthHost: std::fmt::Debug + Send + Sync + 'static {
    fn config(&self) -> &Config;
    fn store(&self) -> &StoreHandle;
    /// The rounds played in the world, and when each depth was left.
    fn absences(&self) -> &Absences;
    /// Hands `arrive` (an [`DepthCmd::Arrive`]) to `depth`'s task, starting
    /// it if need be; not awaited, so that two depths with full queues
    /// handing players to each other never wait on each other.
    fn hand_to(self: Arc<Self>, depth: u16, arrive: DepthCmd);
    /// Takes `depth` out of play if `me` is still its task's way in.
    fn retire(&self, depth: u16, me: &mpsc::WeakSender<DepthCmd>) -> bool;
    /// A line for everyone in the game: every depth being played tells it.
    fn announce(&self, text: &str);
}

/// What a depth is asked to do.
#[derive(Debug)]
pub(super) enum DepthCmd {
    Arrive {
        player: Box<Player>,
        via: Arrival,
        link: Link,
    },
    Act {
        id: PlayerId,
        action: Action,
        /// When the connection handed it over: its wait in the queue is
        /// measured (see `metrics`).
        since: std::time::Instant,
    },
    /// The player leaves the game; `saved` is told once its save is on its
    /// way to the store (ahead of anything sent to the store after that).
    Leave {
        id: PlayerId,
        saved: tokio::sync::oneshot::Sender<()>,
    },
    /// A line for everyone on the depth (from the server, not a player).
    Tell(String),
    /// Someone started watching this player: those of its watchers who do
    /// not have its view yet are sent it.
    Resync(PlayerId),
    /// Hand what the depth applied to the store now (a recording is to be
    /// made of it); `kept` is told once it is on its way there.
    KeepLog {
        kept: tokio::sync::oneshot::Sender<()>,
    },
    /// The server is stopping: no action is applied and no round closed
    /// any more, so that as its players leave one by one (each saved where
    /// it stands) nobody steps onto a cell another has just left and is
    /// saved on it too.
    Freeze,
}

/// The most actions a depth applies as one batch (see [`DepthTask::take`]):
/// enough that a crowd's watchers hear of dozens of moves in one message,
/// few enough that the first of them is not kept long from its answer.
pub(super) const MAX_BATCH: usize = 64;

/// Those who acted are saved in this many shifts (by player id), one
/// every `save_interval` / `SAVE_SHIFTS` (10 ms by default), so that each
/// is saved every `save_interval` and a crowd's saves (a millisecond or
/// two for a thousand) hold up its depth's task a little at a time: in
/// five shifts, a thousand players' depth stopped every 50 ms for half a
/// millisecond or more with the log's hand-over, and the crowd's slowest
/// answers gathered there.
pub(super) const SAVE_SHIFTS: u32 = 25;

#[cfg(test)]
thread_local! {
    /// The saves each save shift made on this thread, and when, once a
    /// test asked for them (`Some`): the shifts' test times them here, at
    /// the depth, since the store's thread (at a low priority) answers
    /// its reads late on a busy machine.
    pub(super) static SHIFT_SAVES: std::cell::RefCell<Option<Vec<(PlayerId, tokio::time::Instant)>>> =
        const { std::cell::RefCell::new(None) };
}

/// The save shifts between two hand-overs of the depth's log (see
/// `keep_log`): every fifth of `save_interval` (50 ms by default), so that
/// each hands over a few hundred entries at most (a rebuild replays those
/// after the newest snapshot: see `keeping::SNAPSHOT_EVERY`); the depth's
/// checksum, a few tenths of a millisecond for a crowd, goes with every
/// fifth.
const SHIFTS_A_LOG: u32 = 5;
const _: () = assert!(SAVE_SHIFTS.is_multiple_of(SHIFTS_A_LOG), "the log goes at even shifts");

/// One depth's task: applies commands in the order they arrive and sends
/// each player one [`ToConn`] per command. A player whose connection cannot
/// keep up (its queue is full) is removed, which ends its connection.
/// Players are saved at once when they arrive, leave or take the stairs,
/// and those who acted every `save_interval`.
pub(super) struct DepthTask {
    state: DepthState,
    /// This depth's own way in, weak so that the task ends once no
    /// connection and no registry holds a handle.
    me: mpsc::WeakSender<DepthCmd>,
    links: HashMap<PlayerId, Link>,
    /// Players who acted since their last periodic save.
    acted: HashSet<PlayerId>,
    /// The shift of [`SAVE_SHIFTS`] the save tick saves next.
    save_shift: u32,
    /// Players whose round waits for others, since when.
    waiting_since: HashMap<PlayerId, tokio::time::Instant>,
    metrics: DepthMetrics,
    depths: Arc<dyn DepthHost>,
    /// The shift of those who stood still to be told of the movers next,
    /// and when (see `depth::still`).
    still: StillSchedule<tokio::time::Instant>,
    /// The rounds this depth closed and when it stood empty, told to the
    /// world's absences (see `world::absence`).
    played: PlayedRounds,
    /// Told the server stops ([`DepthCmd::Freeze`]).
    frozen: bool,
}

impl DepthTask {
    pub(super) fn new(
        state: DepthState,
        me: mpsc::WeakSender<DepthCmd>,
        depths: Arc<dyn DepthHost>,
    ) -> Self {
        let metrics = DepthMetrics::of(state.depth(), state.rounds());
        let played = PlayedRounds::of(&state);
        Self {
            state,
            me,
            links: HashMap::new(),
            acted: HashSet::new(),
            save_shift: 0,
            waiting_since: HashMap::new(),
            metrics,
            depths,
            still: StillSchedule::starting(tokio::time::Instant::now()),
            played,
            frozen: false,
        }
    }

    pub(super) async fn run(mut self, mut rx: mpsc::Receiver<DepthCmd>) {
        let mut tick = tokio::time::interval(self.depths.config().save_interval / SAVE_SHIFTS);
        // A shift the task was too busy to save on time is saved at once,
        // so that a busy depth's saves still go round in `save_interval`.
        tick.set_missed_tick_behavior(MissedTickBehavior::Burst);
        let idle_limit = self.depths.config().depth_idle;
        let mut empty_since = Some(tokio::time::Instant::now());
        loop {
            #[cfg(test)]
            super::gate::wait_if_held(&self.me).await;
            let deadline = self.next_deadline().filter(|_| !self.frozen);
            tokio::select! {
                () = tokio::time::sleep_until(deadline.map_or_else(tokio::time::Instant::now, |(_, at)| at)), if deadline.is_some() => {
                    if let Some((id, _)) = deadline {
                        self.timed(1, |task| {
                            let mut outcome = task.state.deadline(id);
                            task.state.tell_the_still(&mut outcome, None);
                            task.finish(outcome, None);
                        });
                    }
                }
                () = tokio::time::sleep_until(self.still.due()), if self.state.has_untold() => {
                    let out = self.tell_next_shift();
                    self.deliver(out, &[], &[], None);
                }
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.take(cmd, &mut rx),
                    None => break,
                },
                _ = tick.tick() => {
                    self.save_next_shift();
                    if self.save_shift.is_multiple_of(SHIFTS_A_LOG) {
                        // Summed once a `save_interval` (see `keep_history`).
                        self.keep_log(self.save_shift == 0);
                    }
                    let now = tokio::time::Instant::now();
                    empty_since = if self.state.is_empty() { empty_since.or(Some(now)) } else { None };
                    if empty_since.is_some_and(|t| now - t >= idle_limit)
                        && self.depths.retire(self.state.depth(), &self.me)
                    {
                        self.stand_down(&mut rx).await;
                        break;
                    }
                }
            }
        }
        self.save_those_who_acted();
        self.keep_log(true);
        debug!(depth = self.state.depth(), "depth task ends");
    }

    /// Runs `cmd`. An action brings the actions queued behind it (up to
    /// [`MAX_BATCH`]) and they are applied as one batch, so that those who
    /// watch hear of all of them at once (`DepthState::act_all`); the first
    /// command of another sort ends the batch and runs after it.
    fn take(&mut self, cmd: DepthCmd, rx: &mut mpsc::Receiver<DepthCmd>) {
        let DepthCmd::Act { id, action, since } = cmd else {
            return self.timed(1, |task| task.apply(cmd));
        };
        if self.frozen {
            return self.drop_frozen(id);
        }
        let taken = std::time::Instant::now();
        self.metrics.queued(taken.saturating_duration_since(since));
        let mut acts = vec![(id, action)];
        let mut next = None;
        while acts.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(DepthCmd::Act { id, action, since }) => {
                    self.metrics.queued(taken.saturating_duration_since(since));
                    acts.push((id, action));
                }
                Ok(other) => {
                    next = Some(other);
                    break;
                }
                Err(_) => break,
            }
        }
        self.metrics.batch(acts.len(), taken);
        self.timed(acts.len(), |task| task.act_all(acts));
        if let Some(cmd) = next {
            // A freeze (or anything else) after the batch, in its turn.
            self.timed(1, |task| task.apply(cmd));
        }
    }

    /// Runs `count` commands, recording how long each took (their share of
    /// the whole) and the rounds they closed (see [`DepthMetrics`]).
    fn timed(&mut self, count: usize, commands: impl FnOnce(&mut Self)) {
        self.metrics.begin(count);
        commands(self);
        self.record_metrics();
    }

    /// Records the commands' figures, once: before their replies go out
    /// (`finish` calls this), so that whoever reads a reply and then the
    /// figures finds the command counted.
    fn record_metrics(&mut self) {
        self.metrics.record(self.state.rounds(), self.state.player_count());
    }

    /// Hands the entries the depth applied since the last time to the
    /// store, with a snapshot of its state now and then, and its checksum
    /// when `summed` (see `keeping`).
    fn keep_log(&mut self, summed: bool) {
        let every = self.depths.config().snapshot_every;
        super::keeping::keep_history(&mut self.state, self.depths.store(), every, summed);
    }

    /// An empty depth out of play: takes no more commands, hands on any
    /// arrival that came through an old handle to the depth's next task,
    /// and ends, freeing its level.
    async fn stand_down(&mut self, rx: &mut mpsc::Receiver<DepthCmd>) {
        info!(depth = self.state.depth(), "depth idle: its level is freed until someone returns");
        rx.close();
        while let Some(cmd) = rx.recv().await {
            match cmd {
                arrive @ DepthCmd::Arrive { .. } => {
                    self.depths.clone().hand_to(self.state.depth(), arrive);
                }
                DepthCmd::Leave { saved, .. } => {
                    let _ = saved.send(());
                }
                DepthCmd::KeepLog { kept } => {
                    let _ = kept.send(());
                }
                _ => {}
            }
        }
    }

    fn apply(&mut self, cmd: DepthCmd) {
        match cmd {
            DepthCmd::Arrive { player, via, link } => self.arrive(*player, via, link),
            DepthCmd::Act { id, .. } if self.frozen => self.drop_frozen(id),
            DepthCmd::Act { id, action, .. } => self.act_all(vec![(id, action)]),
            DepthCmd::Freeze => self.frozen = true,
            DepthCmd::Leave { id, saved } => {
                self.links.remove(&id);
                self.acted.remove(&id);
                let (player, outcome) = self.state.leave(id, Leaving::Quit);
                if let Some(player) = player {
                    info!(player = %player.name, depth = self.state.depth(), "leaves the game");
                    self.save(&player, Keep::All);
                }
                let _ = saved.send(());
                self.finish(outcome, None);
            }
            DepthCmd::Tell(text) => {
                let out = self.state.tell_everyone(&text);
                self.deliver(out, &[], &[], None);
            }
            DepthCmd::Resync(id) => {
                if let Some(link) = self.links.get(&id) {
                    link.audience.relay(Vec::new(), || view(&self.state, id));
                }
            }
            DepthCmd::KeepLog { kept } => {
                self.keep_log(true);
                let _ = kept.send(());
            }
        }
    }

    /// An action after the freeze: not applied, but answered with nothing,
    /// so that its connection, leaving, does not wait for an answer.
    fn drop_frozen(&mut self, id: PlayerId) {
        debug!(player = id.0, depth = self.state.depth(), "an action after the freeze, dropped");
        if let Some(link) = self.links.get(&id) {
            let nothing = ToConn {
                frames: Vec::new(),
                done: true,
                goes_on: false,
                now_on: None,
                died: false,
            };
            let _ = link.conn.try_send(nothing);
        }
    }

    fn arrive(&mut self, player: Player, via: Arrival, link: Link) {
        let id = player.id;
        info!(player = %player.name, depth = self.state.depth(), ?via, "arrives");
        link.depth.store(self.state.depth(), std::sync::atomic::Ordering::SeqCst);
        self.links.insert(id, link);
        if self.state.is_empty() {
            self.restock_after_absence();
        }
        let outcome = self.state.arrive(player, via);
        if let Some(player) = self.state.player(id) {
            self.save(player, Keep::All);
        }
        let now_on =
            self.me.upgrade().map(|tx| (id, DepthHandle { depth: self.state.depth(), tx }));
        self.finish(outcome, now_on);
    }

    /// Someone comes to this depth, which stood empty: it regains monsters
    /// for every restock period of rounds played in the world since its
    /// last player left (see `world::absence`), before the arrival, which
    /// is how its log has it.
    fn restock_after_absence(&mut self) {
        let depth = self.state.depth();
        let away = self.depths.absences().end(depth);
        let periods = absence::periods(away, self.depths.config().restock_every);
        if periods == 0 {
            return;
        }
        let came = self.state.restock(periods);
        if came > 0 {
            info!(depth, away, periods, came, "the depth regained monsters while nobody was there");
        }
    }

    /// Applies a batch of actions (see [`DepthTask::take`]); those of
    /// players no longer here (they left or died with an action on its
    /// way) are dropped. Those who stood still are told of the movers in
    /// shifts, one every `still_period` / `SHIFTS` (see `depth::still`): with this
    /// batch when the next shift's time has come, else by the task's timer
    /// when it does. In a crowd that turns a message to every watcher per
    /// batch into a few a second, a twenty-fifth of the watchers at a time. The
    /// movers' own answers never wait for it.
    fn act_all(&mut self, mut acts: Vec<(PlayerId, Action)>) {
        acts.retain(|(id, _)| self.state.contains(*id));
        if acts.is_empty() {
            return;
        }
        for (id, _) in &acts {
            self.acted.insert(*id);
        }
        self.metrics.acted(acts.len());
        let mut outcome = self.state.act_all(acts);
        if self.still.is_due(tokio::time::Instant::now()) {
            outcome.out.extend(self.tell_next_shift());
        }
        self.finish(outcome, None);
    }

    /// Tells the next shift of those who stood still what they have not
    /// heard, and makes the one after it next, a step later (a longer one
    /// in a crowd: see [`still_period`]).
    fn tell_next_shift(&mut self) -> Vec<Outgoing> {
        let shift = self.still.take(tokio::time::Instant::now(), self.state.player_count());
        let mut told = Outcome::default();
        self.state.tell_the_still(&mut told, Some(shift));
        told.out
    }

    /// Sends what a command produced, hands on those who took the stairs,
    /// buries the dead, and notes whose rounds now wait (for the deadline)
    /// and the rounds closed and whether the depth now stands empty (for
    /// the world's absences: every command that changes the depth ends here).
    fn finish(&mut self, outcome: Outcome, now_on: Option<(PlayerId, DepthHandle)>) {
        let Outcome { out, flow, going_on } = outcome;
        let Flow { answered, departures, deaths, slayings, .. } = flow;
        self.played.note(&self.state, self.depths.absences());
        for id in &answered {
            self.acted.insert(*id);
        }
        // Counted before anyone is told, so a reply is never ahead of its figures.
        self.note_waits();
        self.record_metrics();
        self.deliver(out, &answered, &going_on, now_on);
        for departure in departures {
            self.hand_on(departure);
        }
        for slaying in slayings {
            self.keep_slain(&slaying);
        }
        for death in deaths {
            self.bury(death);
        }
    }

    /// A unique was slain: the store keeps it so, and it is never placed
    /// again (see `mapgen::uniques`).
    fn keep_slain(&self, slaying: &Slaying) {
        let name = &self.depths.config().bestiary.kind(slaying.kind).name;
        info!(unique = %name, by = %slaying.by, depth = self.state.depth(), "a unique is slain");
        self.depths.store().slay_unique(name, &slaying.by);
    }

    /// Notes whose rounds now wait (for the deadline), and records how
    /// long those whose rounds closed waited.
    fn note_waits(&mut self) {
        let now = tokio::time::Instant::now();
        let waiting = self.state.waiting();
        for (id, since) in &self.waiting_since {
            // Its round closed (one who left or died waits no more, but
            // its round did not close).
            if !waiting.contains(id) && self.state.contains(*id) {
                self.metrics.round_waited(now - *since);
            }
        }
        self.waiting_since.retain(|id, _| waiting.contains(id));
        for id in waiting {
            self.waiting_since.entry(id).or_insert(now);
        }
    }

    /// The player whose round's deadline comes first, and when.
    fn next_deadline(&self) -> Option<(PlayerId, tokio::time::Instant)> {
        let limit = self.depths.config().turn_deadline;
        self.waiting_since
            .iter()
            .map(|(&id, &since)| (id, since + limit))
            .min_by_key(|&(id, at)| (at, id))
    }

    /// A player died (or escaped): into the graveyard (or the hall of the
    /// living), its last words sent, its connection let go.
    fn bury(&mut self, death: Death) {
        let Death { player, end } = death;
        let (killed_by, escaped) = (self.state.end_in_words(&end), end.escaped());
        let when = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let v = player.vitals;
        let record = gloam_protocol::DeathRecord {
            name: player.name.clone(),
            depth: v.deepest,
            rounds: v.rounds,
            kills: v.kills,
            killed_by,
            when,
            level: player.level(),
            escaped,
            morgue: self.depths.store().end_life(&player.name),
        };
        let link = self.links.remove(&player.id);
        self.keep_morgue(&player, &record, link.as_ref().map(|l| &l.lines));
        let (depth, by, level) = (self.state.depth(), &record.killed_by, record.level);
        if escaped {
            info!(player = %player.name, with = %by, rounds = v.rounds, kills = v.kills, level, "escapes, and wins");
            self.depths.announce(&format!("{} has escaped the Gloam with {by}!", player.name));
        } else {
            info!(player = %player.name, depth, killed_by = %by, rounds = v.rounds, kills = v.kills, level, "dies");
        }
        self.acted.remove(&player.id);
        self.waiting_since.remove(&player.id);
        let store = self.depths.store();
        store.end_life_at(&player.name, record.morgue, depth, self.state.rounds());
        store.bury(record.clone());
        if let Some(link) = link {
            let last = if escaped {
                gloam_protocol::ServerMsg::Escaped(record)
            } else {
                gloam_protocol::ServerMsg::Died(record)
            };
            let frames = vec![codec::encode(&last)];
            let shown = frames.clone();
            let last = ToConn { frames, done: true, goes_on: false, now_on: None, died: true };
            if link.conn.try_send(last).is_ok() {
                link.audience.relay(shown, || None);
            }
        }
    }

    /// Writes the morgue file of `player`, whose life ended with `record`
    /// after it was sent `lines`: its words here, its file by the store's
    /// thread.
    fn keep_morgue(
        &self,
        player: &Player,
        record: &gloam_protocol::DeathRecord,
        lines: Option<&crate::morgue::LastLines>,
    ) {
        let none = crate::morgue::LastLines::default();
        // Named as the player knew them: a potion never learnt stays its look.
        let items = self.depths.config().world_items();
        let life = crate::morgue::Life {
            record,
            player,
            depth: self.state.depth(),
            level: self.state.level(),
            items: &items,
            bestiary: &self.depths.config().bestiary,
            lines: lines.unwrap_or(&none),
        };
        let text = crate::morgue::write(&life);
        self.depths.store().keep_morgue(&player.name, record.morgue, text);
    }

    /// A player took the stairs: saved where it stood, then handed to the
    /// depth it goes to (which saves it again there and answers its action).
    fn hand_on(&mut self, departure: Departure) {
        let Departure { player, depth, via } = departure;
        self.acted.remove(&player.id);
        self.save(&player, Keep::All);
        let Some(link) = self.links.remove(&player.id) else { return };
        info!(player = %player.name, from = self.state.depth(), to = depth, "takes the stairs");
        self.depths
            .clone()
            .hand_to(depth, DepthCmd::Arrive { player: Box::new(player), via, link });
    }

    fn save(&self, player: &Player, keep: Keep) {
        let items = &self.depths.config().items;
        self.depths.store().save(&player.name, player.snapshot(self.state.depth(), keep, items));
    }

    /// Saves those of the next save shift who acted since their last save.
    fn save_next_shift(&mut self) {
        let shift = self.save_shift;
        self.save_shift = (shift + 1) % SAVE_SHIFTS;
        let due: Vec<PlayerId> =
            self.acted.iter().copied().filter(|id| id.0 % SAVE_SHIFTS == shift).collect();
        for id in due {
            self.acted.remove(&id);
            if let Some(player) = self.state.player(id) {
                self.save(player, Keep::ThisDepth);
                #[cfg(test)]
                SHIFT_SAVES.with(|s| {
                    if let Some(saves) = s.borrow_mut().as_mut() {
                        saves.push((id, tokio::time::Instant::now()));
                    }
                });
            }
        }
    }

    fn save_those_who_acted(&mut self) {
        for id in std::mem::take(&mut self.acted) {
            if let Some(player) = self.state.player(id) {
                self.save(player, Keep::ThisDepth);
            }
        }
    }
}

/// `id`'s whole view of `state`, encoded, for a watcher who lacks it.
fn view(state: &DepthState, id: PlayerId) -> Option<Vec<Vec<u8>>> {
    Some(state.view_of(id)?.iter().map(codec::encode).collect())
}

//! The game world, as a connection sees it: [`World::enter`] claims a
//! character and puts it on its depth, giving the connection a
//! [`Presence`] with three verbs: `act`, `reply` (what the world has to say
//! to this player, one [`Reply`] per command) and `leave`. Everything else
//! is inside: one task per depth owns that depth's level and players and
//! applies their commands one at a time, in arrival order (see [`depth`]
//! for the order of one action); the stairs hand a player from one depth's
//! task to the next's without the connection carrying it.
//!
//! [`DepthState`] is the same rules without tasks or channels, for
//! benchmarks and for test fixtures that play a level directly.

mod characters;
mod depth;
mod memory;
mod player;
mod presence;
mod talk;
mod watch;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use gloam_protocol::{Action, PlayerId, Refusal, Token, codec};
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;
use tracing::{debug, info, warn};

pub use depth::{
    Arrival, Command, DepthState, Entry, Farewell, LogPart, Monster, Outgoing, Phase, Rules, Turn,
    decode_history,
};
pub use player::{Player, Vitals};
pub use presence::{ActError, Presence, Reply, Watcher};
pub use talk::{Ear, Heard, Talkers};
pub use watch::{Audience, Feed};

use crate::config::Config;
use crate::mapgen;
use crate::store::{Known, StoreHandle};
use characters::{Characters, Claim, Saved};
use depth::{Death, Departure};
use player::Keep;

/// What a depth sends a player's connection: everything one command
/// produced for that player, as encoded frames.
#[derive(Debug)]
struct ToConn {
    frames: Vec<Vec<u8>>,
    /// The player's own command was applied: its next may be sent.
    done: bool,
    /// The player arrived on this depth: its commands go here from now on.
    now_on: Option<DepthHandle>,
    /// The character died: these are its last words.
    died: bool,
}

/// The way a depth reaches one player: its connection, those watching it,
/// and where those who talk to it find it.
#[derive(Debug)]
struct Link {
    conn: mpsc::Sender<ToConn>,
    audience: Arc<Audience>,
    /// The depth the player is on, for chat and watchers: set by the depth
    /// it arrives on before it is told anything there.
    depth: Arc<std::sync::atomic::AtomicU16>,
}

/// What a depth is asked to do.
#[derive(Debug)]
enum DepthCmd {
    Arrive {
        player: Player,
        via: Arrival,
        link: Link,
    },
    Act {
        id: PlayerId,
        action: Action,
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
    /// Test hook: the depth's task stops taking commands until `until` is
    /// sent or dropped, as a depth that has fallen behind would.
    #[cfg(test)]
    Stall {
        stalled: tokio::sync::oneshot::Sender<()>,
        until: tokio::sync::oneshot::Receiver<()>,
    },
}

/// The way in to one depth's task.
#[derive(Debug, Clone)]
struct DepthHandle {
    depth: u16,
    tx: mpsc::Sender<DepthCmd>,
}

/// Everything shared between connections: the depths in play and the
/// characters.
#[derive(Debug)]
pub struct World {
    depths: Arc<Depths>,
    characters: Characters,
    /// Everyone in the game, for chat.
    talkers: talk::Talkers,
    /// Test hook: how often an action met a full depth queue.
    #[cfg(test)]
    busy: std::sync::atomic::AtomicUsize,
}

impl World {
    /// A world played under `config`, keeping its characters in `store`,
    /// which already holds those `known`.
    pub fn new(config: Config, store: StoreHandle, known: Vec<Known>) -> Self {
        let limits = characters::Limits {
            per_address_per_hour: config.new_characters_per_address_per_hour,
            total: config.max_characters,
        };
        let characters = Characters::new(store.clone(), known, limits);
        let saving = store.saving();
        let depths = Depths {
            config,
            store,
            running: Mutex::new(HashMap::new()),
            closed: std::sync::atomic::AtomicBool::new(false),
            #[cfg(test)]
            hold: Mutex::new(None),
        };
        let depths = Arc::new(depths);
        tokio::spawn(tell_about_saving(saving, Arc::downgrade(&depths)));
        Self {
            depths,
            characters,
            talkers: talk::Talkers::default(),
            #[cfg(test)]
            busy: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    pub(crate) fn config(&self) -> &Config {
        &self.depths.config
    }

    /// Joins as `name`: claims the character (creating it, resuming it
    /// where the store has it, or taking it over from another connection)
    /// and puts it on its depth. The arrival's messages are the first
    /// replies of the presence.
    pub async fn enter(
        self: &Arc<Self>,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
    ) -> Result<Presence, Refusal> {
        let Claim { id, new_token, saved, kicked } =
            self.characters.claim(name, token, from).await?;
        let (player, depth, via) = match saved {
            // A host may have raised the bottom since: never below it.
            Some(Saved { depth, player }) if depth <= self.config().bottom() => {
                let at = player.pos;
                (player, depth, Arrival::Resume(at))
            }
            Some(Saved { player, .. }) => (player, self.config().bottom(), Arrival::FromAbove),
            None => (Player::new(id, name.to_owned()), 1, Arrival::Join),
        };
        let c = self.config();
        let audience =
            Arc::new(Audience::new(name, c.watchers_allowed, c.max_watchers, c.outbox_capacity));
        let (conn, replies) = mpsc::channel(c.outbox_capacity.max(1));
        // Among those who can be spoken to before the others hear it arrive.
        let (ear, heard) = self.talkers.join(name, id, depth, audience.clone());
        let link = Link { conn, audience: audience.clone(), depth: ear.depth() };
        let arrive = DepthCmd::Arrive { player, via, link };
        let Some(here) = self.depths.arrive(depth, arrive).await else {
            self.talkers.leave(name, &ear);
            self.characters.release(name);
            return Err(Refusal::Unavailable { reason: "the server is shutting down".into() });
        };
        info!(player = name, %id, returning = new_token.is_none(), depth, "enters");
        let (name, world) = (name.to_owned(), self.clone());
        let heard = Some(heard);
        // The arrival is the first reply awaited.
        Ok(Presence {
            id,
            name,
            new_token,
            kicked,
            here,
            replies,
            awaiting: true,
            ear,
            heard,
            audience,
            world,
        })
    }

    /// Joins as `name` to watch the player `player`: checks the name as a
    /// join would (a new name becomes a character that has not played
    /// yet; one in the game cannot watch), takes a seat in the player's
    /// audience, and asks the player's depth for its whole view, which is
    /// the watcher's first feed.
    pub async fn watch(
        self: &Arc<Self>,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
        player: &str,
    ) -> Result<Watcher, Refusal> {
        let cannot = |reason: String| Refusal::CannotWatch { reason };
        if name == player {
            return Err(cannot("you cannot watch yourself".into()));
        }
        let claim = self.characters.claim_to_watch(name, token, from)?;
        let id = claim.id;
        let seated = match self.talkers.join_watching(name, id, player) {
            Ok(seated) => seated,
            Err(reason) => {
                self.characters.abandon(name, &claim);
                return Err(cannot(reason));
            }
        };
        let serial = seated.ear.serial();
        let begun = match seated.audience.sit(name, serial) {
            Ok(feed) => match self.characters.keep(name, &claim).await {
                Ok(new_token) => Ok((feed, new_token)),
                Err(refusal) => {
                    seated.audience.stand(serial);
                    Err(refusal)
                }
            },
            Err(reason) => Err(cannot(reason)),
        };
        let (feed, new_token) = match begun {
            Ok(begun) => begun,
            Err(refusal) => {
                self.talkers.leave(name, &seated.ear);
                self.characters.abandon(name, &claim);
                return Err(refusal);
            }
        };
        let kicked = claim.kicked.clone();
        // Seated first, then the player's depth read: a depth it arrives
        // on later finds the seat fresh and gives it the view itself.
        let depth = seated.ear.depth().load(std::sync::atomic::Ordering::SeqCst);
        if let Some(here) = self.depths.lock().get(&depth) {
            let _ = here.tx.try_send(DepthCmd::Resync(seated.player));
        }
        info!(watcher = name, player, "watches");
        Ok(Watcher::new((name, id), new_token, kicked, seated, feed, self.clone()))
    }

    /// Those playing now: the list a watcher picks from (see `Talkers::playing`).
    pub fn playing(&self) -> Vec<gloam_protocol::Playing> {
        self.talkers.playing()
    }

    /// The dead, deepest first.
    pub async fn graveyard(&self) -> Result<Vec<gloam_protocol::DeathRecord>, String> {
        self.depths.store().graveyard().await
    }

    /// The character `name` is no longer played (its depth has saved it).
    fn release(&self, name: &str) {
        self.characters.release(name);
    }

    /// Test hook: depth `depth`'s task stops taking commands, with its
    /// queue full, until the returned sender is used or dropped.
    #[cfg(test)]
    pub(crate) async fn stall(self: &Arc<Self>, depth: u16) -> tokio::sync::oneshot::Sender<()> {
        let (release, until) = tokio::sync::oneshot::channel();
        let tx = self.depths.handle(depth).expect("the world is open").tx;
        let (stalled, taken) = tokio::sync::oneshot::channel();
        tx.send(DepthCmd::Stall { stalled, until }).await.expect("the depth runs");
        taken.await.expect("the depth stalls");
        while tx.capacity() > 0 {
            let nobody = DepthCmd::Act { id: PlayerId(u32::MAX), action: Action::Wait };
            tx.send(nobody).await.expect("the depth runs");
        }
        release
    }

    /// Test hook: how often an action met a full depth queue so far.
    #[cfg(test)]
    pub(crate) fn busy_refusals(&self) -> usize {
        self.busy.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Ends every depth's task once the connections holding handles are gone.
    pub fn close(&self) {
        self.depths.closed.store(true, std::sync::atomic::Ordering::SeqCst);
        self.depths.lock().clear();
    }
}

/// The most actions a depth applies as one batch (see [`DepthTask::take`]):
/// enough that a crowd's watchers hear of dozens of moves in one message,
/// few enough that the first of them is not kept long from its answer.
const MAX_BATCH: usize = 64;

/// How often at most those who stood still are told of others' moves (see
/// `DepthTask::act_all`): every twentieth of a second, busy or not, well
/// under what an eye takes in of a grid game. In a crowd a watcher then
/// gets a few messages a second, not one per batch; a mover's own answer
/// and news of monsters never wait for it. They are told in shifts (see
/// [`depth::SHIFTS`]), one every `TELL_THE_STILL / SHIFTS`. A crowd hears
/// less often (see [`still_period`]).
const TELL_THE_STILL: std::time::Duration = std::time::Duration::from_millis(50);

/// How many times a second at most a depth tells its still, all shifts
/// together, once its crowd is too large to tell each every
/// [`TELL_THE_STILL`]: beyond a hundred players each hears less often.
const STILL_TOLD_PER_SECOND: u64 = 2_000;

/// The least often the still hear of the movers, however large the crowd:
/// four times a second, about what Crossfire's eight game ticks a second
/// show.
const SLOWEST_NEWS: std::time::Duration = std::time::Duration::from_millis(250);

/// How often at most a player who stood still hears of the movers on a
/// depth of `players`: every [`TELL_THE_STILL`] up to a hundred of them,
/// then as often as [`STILL_TOLD_PER_SECOND`] allows, at least every
/// [`SLOWEST_NEWS`]. Telling a watcher is much of what a crowd costs the
/// server (each is a message to encode and send, with every mover in its
/// sight to find), and the number of watchers grows with the crowd, so
/// without this a crowd of a thousand took the server's core. A player
/// who acts still hears of everyone in its own answer, at once.
fn still_period(players: usize) -> std::time::Duration {
    let spread = 1_000_000u64.saturating_mul(players as u64) / STILL_TOLD_PER_SECOND;
    std::time::Duration::from_micros(spread).clamp(TELL_THE_STILL, SLOWEST_NEWS)
}

/// How long a notice about saving waits for room in one depth's queue.
const NOTICE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(1);

/// Tells every player when saving stops working (a full or failing disk)
/// and when it works again, for as long as the world lasts.
async fn tell_about_saving(
    mut saving: tokio::sync::watch::Receiver<bool>,
    depths: std::sync::Weak<Depths>,
) {
    while saving.changed().await.is_ok() {
        let Some(depths) = depths.upgrade() else { return };
        let text = if *saving.borrow_and_update() {
            warn!("saving works again");
            "The server can save again: your progress is kept."
        } else {
            warn!("saving has stopped: the store cannot commit");
            "The server cannot save right now: your progress since is not kept until it can."
        };
        let running: Vec<DepthHandle> = depths.lock().values().cloned().collect();
        for depth in running {
            // Waits for room in a busy depth's queue (a notice dropped there
            // would leave its players never told), but not for long on one
            // that is stuck.
            let told = depth.tx.send(DepthCmd::Tell(text.into()));
            if tokio::time::timeout(NOTICE_PATIENCE, told).await.is_err() {
                warn!(depth = depth.depth, "a depth too busy to be told about saving");
            }
        }
    }
}

/// The depths in play, each built and started the first time anyone goes
/// there. Depth tasks hold this too, to hand players down and up the stairs.
#[derive(Debug)]
struct Depths {
    config: Config,
    store: StoreHandle,
    running: Mutex<HashMap<u16, DepthHandle>>,
    /// The world is shutting down: no depth is started any more.
    closed: std::sync::atomic::AtomicBool,
    /// Test hook: building this depth tells the first sender and then
    /// waits for the receiver.
    #[cfg(test)]
    hold: Mutex<Option<BuildHold>>,
}

#[cfg(test)]
type BuildHold = (u16, std::sync::mpsc::Sender<()>, std::sync::mpsc::Receiver<()>);

impl Depths {
    /// Puts a player on `depth` (an `Arrive`), starting the depth if need
    /// be; gives the handle it went to, or `None` once the world is closing.
    /// A depth that stopped for being empty just as the player came is
    /// started afresh, and the arrival goes there.
    async fn arrive(self: &Arc<Self>, depth: u16, mut arrive: DepthCmd) -> Option<DepthHandle> {
        for _ in 0..3 {
            let here = self.handle(depth)?;
            match here.tx.send(arrive).await {
                Ok(()) => return Some(here),
                Err(mpsc::error::SendError(back)) => {
                    // A task that ended without retiring (it cannot, short of
                    // a bug) must not be handed arrivals forever.
                    self.lock().retain(|_, h| !h.tx.same_channel(&here.tx));
                    arrive = back;
                }
            }
        }
        warn!(depth, "no depth task would take an arrival");
        None
    }

    /// The handle of `depth`, starting its task first if need be (`None`
    /// once the world is closing). The level is built outside the lock, so
    /// a join or a stair trip elsewhere never waits on another depth's
    /// building.
    fn handle(self: &Arc<Self>, depth: u16) -> Option<DepthHandle> {
        if self.closed.load(std::sync::atomic::Ordering::SeqCst) {
            return None;
        }
        if let Some(handle) = self.lock().get(&depth) {
            return Some(handle.clone());
        }
        let c = &self.config;
        #[cfg(test)]
        self.hold_while_building(depth);
        let build = || {
            let mut state = fresh_depth(c, depth);
            resume(&mut state, &self.store, c);
            state
        };
        // Building a level and replaying its history takes milliseconds to
        // (for a long history) seconds: on the multi-threaded runtime the
        // other tasks of this thread move elsewhere meanwhile.
        let multi_threaded = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        let state = if multi_threaded { tokio::task::block_in_place(build) } else { build() };
        let mut running = self.lock();
        if let Some(handle) = running.get(&depth) {
            // Another connection built it meanwhile: theirs is the one in play.
            return Some(handle.clone());
        }
        let generator = mapgen::generator_with(c.generator, &c.mix, c.seed, depth);
        info!(
            depth,
            generator = generator.name(),
            monsters = state.monsters().count(),
            "level built"
        );
        let (tx, rx) = mpsc::channel(c.depth_queue.max(1));
        let handle = DepthHandle { depth, tx };
        let rounds_counted = state.rounds();
        let task = DepthTask {
            state,
            me: handle.tx.downgrade(),
            links: HashMap::new(),
            acted: HashSet::new(),
            waiting_since: HashMap::new(),
            figures: Figures { rounds_counted, ..Figures::of(depth) },
            depths: self.clone(),
            next_shift: 0,
            next_shift_at: tokio::time::Instant::now(),
        };
        tokio::spawn(task.run(rx));
        running.insert(depth, handle.clone());
        Some(handle)
    }

    /// Takes `depth` out of play if `me` is still its task's way in: the
    /// next arrival there starts it afresh.
    fn retire(&self, depth: u16, me: &mpsc::WeakSender<DepthCmd>) -> bool {
        let mut running = self.lock();
        let current = running
            .get(&depth)
            .is_some_and(|h| me.upgrade().is_some_and(|tx| tx.same_channel(&h.tx)));
        if current {
            running.remove(&depth);
        }
        current
    }

    #[cfg(test)]
    fn hold_while_building(&self, depth: u16) {
        let hold =
            self.hold.lock().unwrap_or_else(PoisonError::into_inner).take_if(|h| h.0 == depth);
        if let Some((_, building, until)) = hold {
            let _ = building.send(());
            let _ = until.recv();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u16, DepthHandle>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn store(&self) -> &StoreHandle {
        &self.store
    }
}

/// Depth `depth` of the world `c` plays, as its seed makes it: its level
/// (the last has no stairs down), its monsters, the host's rules. The
/// server builds every depth so, and `gloam-server replay` too.
pub fn fresh_depth(c: &Config, depth: u16) -> DepthState {
    let generator = mapgen::generator_with(c.generator, &c.mix, c.seed, depth);
    let mut level = mapgen::build(generator, mapgen::level_seed(c.seed, depth), depth);
    if depth >= c.bottom() {
        mapgen::make_bottom(&mut level);
    }
    populated(c, depth, Arc::new(level))
}

/// Takes up a depth's stored history: replays it, so its monsters are where
/// they were. A history that does not fit (the host changed the bestiary or
/// the rules) is set aside with a warning, and the depth starts afresh from
/// its seed. Reads the store where the level is built, before the depth's
/// task starts, so the task never waits on it.
fn resume(state: &mut DepthState, store: &StoreHandle, c: &Config) {
    let depth = state.depth();
    let stored = match store.depth_log(depth) {
        Ok(stored) => stored,
        Err(e) => {
            warn!(depth, error = %e, "cannot read the depth's history: it starts afresh");
            return;
        }
    };
    if stored.is_empty() {
        return;
    }
    let started = std::time::Instant::now();
    match decode_history(&stored).and_then(|entries| state.resume(&entries)) {
        Ok(()) => {
            let (count, rounds, took) = (stored.len(), state.rounds(), started.elapsed());
            info!(depth, entries = count, rounds, ?took, "depth history replayed");
        }
        Err(e) => {
            warn!(depth, error = %e, "the depth's history does not fit this world: it starts afresh from its seed");
            *state = fresh_depth(c, depth);
            state.skip_log(stored.len() as u64);
        }
    }
}

/// The depth's state as its level's seed leaves it: its monsters placed,
/// those the host placed by hand added, the host's rules set.
fn populated(c: &Config, depth: u16, level: Arc<crate::level::Level>) -> DepthState {
    let seed = mapgen::level_seed(c.seed, depth);
    let placed = mapgen::populate::populate(&level, &c.bestiary, seed, depth);
    let mut state =
        DepthState::with_bestiary(depth, level, c.sight_radius, c.bestiary.clone(), seed);
    state.set_rules(Rules { pvp: c.pvp });
    state.keep_log();
    for p in placed {
        state.spawn(p.kind, p.pos);
    }
    for p in c.placements.iter().filter(|p| p.depth == depth) {
        let placed = c.bestiary.find(&p.kind).and_then(|kind| state.spawn(kind, p.pos));
        if placed.is_none() {
            warn!(
                kind = p.kind,
                depth,
                x = p.pos.x,
                y = p.pos.y,
                "cannot place a monster there: not open floor, or taken"
            );
        }
    }
    state
}

/// `id`'s whole view of `state`, encoded, for a watcher who lacks it.
fn view(state: &DepthState, id: PlayerId) -> Option<Vec<Vec<u8>>> {
    Some(state.view_of(id)?.iter().map(codec::encode).collect())
}

/// One depth's task: applies commands in the order they arrive and sends
/// each player one [`ToConn`] per command. A player whose connection cannot
/// keep up (its queue is full) is removed, which ends its connection.
/// Players are saved at once when they arrive, leave or take the stairs,
/// and those who acted every `save_interval`.
struct DepthTask {
    state: DepthState,
    /// This depth's own way in, weak so that the task ends once no
    /// connection and no registry holds a handle.
    me: mpsc::WeakSender<DepthCmd>,
    links: HashMap<PlayerId, Link>,
    /// Players who acted since the last periodic save.
    acted: HashSet<PlayerId>,
    /// Players whose round waits for others, since when.
    waiting_since: HashMap<PlayerId, tokio::time::Instant>,
    figures: Figures,
    depths: Arc<Depths>,
    /// The shift of those who stood still to be told of the movers next,
    /// and when at the soonest (see [`depth::SHIFTS`]).
    next_shift: usize,
    next_shift_at: tokio::time::Instant,
}

/// What a depth's task records for `--metrics` (see `crate::telemetry`).
#[derive(Debug)]
struct Figures {
    players: metrics::Gauge,
    actions: metrics::Counter,
    rounds: metrics::Counter,
    command: metrics::Histogram,
    round_wait: metrics::Histogram,
    /// When the commands being run started, and how many they are, until
    /// their time is recorded.
    started: Option<(std::time::Instant, usize)>,
    /// The depth's rounds already counted.
    rounds_counted: u64,
}

impl Figures {
    fn of(depth: u16) -> Self {
        use crate::telemetry as t;
        Self {
            players: metrics::gauge!(t::PLAYERS, "depth" => depth.to_string()),
            actions: metrics::counter!(t::ACTIONS),
            rounds: metrics::counter!(t::ROUNDS),
            command: metrics::histogram!(t::COMMAND_SECONDS),
            round_wait: metrics::histogram!(t::ROUND_WAIT_SECONDS),
            started: None,
            rounds_counted: 0,
        }
    }
}

impl DepthTask {
    async fn run(mut self, mut rx: mpsc::Receiver<DepthCmd>) {
        let mut tick = tokio::time::interval(self.depths.config.save_interval);
        tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let idle_limit = self.depths.config.depth_idle;
        let mut empty_since = Some(tokio::time::Instant::now());
        loop {
            let deadline = self.next_deadline();
            tokio::select! {
                () = tokio::time::sleep_until(deadline.map_or_else(tokio::time::Instant::now, |(_, at)| at)), if deadline.is_some() => {
                    if let Some((id, _)) = deadline {
                        self.timed(1, |task| {
                            let turn = task.state.deadline(id);
                            task.finish(turn, None);
                        });
                    }
                }
                () = tokio::time::sleep_until(self.next_shift_at), if self.state.has_untold() => {
                    let out = self.tell_next_shift();
                    self.deliver(out, &[], None);
                }
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.take(cmd, &mut rx).await,
                    None => break,
                },
                _ = tick.tick() => {
                    self.save_those_who_acted();
                    self.keep_log();
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
        self.keep_log();
        debug!(depth = self.state.depth(), "depth task ends");
    }

    /// Runs `cmd`. An action brings the actions queued behind it (up to
    /// [`MAX_BATCH`]) and they are applied as one batch, so that those who
    /// watch hear of all of them at once (`DepthState::act_all`); the first
    /// command of another sort ends the batch and runs after it.
    async fn take(&mut self, cmd: DepthCmd, rx: &mut mpsc::Receiver<DepthCmd>) {
        let DepthCmd::Act { id, action } = cmd else { return self.take_one(cmd).await };
        let mut acts = vec![(id, action)];
        let mut next = None;
        while acts.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(DepthCmd::Act { id, action }) => acts.push((id, action)),
                Ok(other) => {
                    next = Some(other);
                    break;
                }
                Err(_) => break,
            }
        }
        self.timed(acts.len(), |task| task.act_all(acts));
        if let Some(cmd) = next {
            self.take_one(cmd).await;
        }
    }

    async fn take_one(&mut self, cmd: DepthCmd) {
        match cmd {
            #[cfg(test)]
            DepthCmd::Stall { stalled, until } => {
                let _ = stalled.send(());
                let _ = until.await;
            }
            cmd => self.timed(1, |task| task.apply(cmd)),
        }
    }

    /// Runs `count` commands, recording how long each took (their share of
    /// the whole) and the rounds they closed (see
    /// [`DepthTask::record_figures`]).
    fn timed(&mut self, count: usize, commands: impl FnOnce(&mut Self)) {
        self.figures.started = Some((std::time::Instant::now(), count));
        commands(self);
        self.record_figures();
    }

    /// Records the commands' figures, once: before their replies go out
    /// (`finish` calls this), so that whoever reads a reply and then the
    /// figures finds the command counted.
    fn record_figures(&mut self) {
        let f = &mut self.figures;
        if let Some((started, count)) = f.started.take() {
            let share = started.elapsed() / u32::try_from(count.max(1)).unwrap_or(u32::MAX);
            for _ in 0..count {
                f.command.record(share);
            }
        }
        let rounds = self.state.rounds();
        f.rounds.increment(rounds.saturating_sub(f.rounds_counted));
        f.rounds_counted = rounds;
        f.players.set(self.state.player_count() as f64);
    }

    /// Hands the entries the depth applied since the last time to the store.
    fn keep_log(&mut self) {
        let Some(part) = self.state.take_log() else { return };
        let entries = part.entries.iter().map(codec::encode).collect();
        self.depths.store().append_log(self.state.depth(), part.first, entries, part.checksum);
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
                    let (depths, depth) = (self.depths.clone(), self.state.depth());
                    tokio::spawn(async move { depths.arrive(depth, arrive).await });
                }
                DepthCmd::Leave { saved, .. } => {
                    let _ = saved.send(());
                }
                _ => {}
            }
        }
    }

    fn apply(&mut self, cmd: DepthCmd) {
        match cmd {
            DepthCmd::Arrive { player, via, link } => self.arrive(player, via, link),
            DepthCmd::Act { id, action } => self.act_all(vec![(id, action)]),
            DepthCmd::Leave { id, saved } => {
                self.links.remove(&id);
                self.acted.remove(&id);
                let (player, turn) = self.state.remove_untold(id, Farewell::LEFT);
                if let Some(player) = player {
                    info!(player = %player.name, depth = self.state.depth(), "leaves the game");
                    self.save(&player, Keep::All);
                }
                let _ = saved.send(());
                self.finish(turn, None);
            }
            DepthCmd::Tell(text) => {
                let out = self.state.tell_everyone(&text);
                self.deliver(out, &[], None);
            }
            DepthCmd::Resync(id) => {
                if let Some(link) = self.links.get(&id) {
                    link.audience.relay(&[], || view(&self.state, id));
                }
            }
            #[cfg(test)]
            DepthCmd::Stall { .. } => {}
        }
    }

    fn arrive(&mut self, player: Player, via: Arrival, link: Link) {
        let id = player.id;
        info!(player = %player.name, depth = self.state.depth(), ?via, "arrives");
        link.depth.store(self.state.depth(), std::sync::atomic::Ordering::SeqCst);
        self.links.insert(id, link);
        let out = self.state.arrive_untold(player, via);
        if let Some(player) = self.state.player(id) {
            self.save(player, Keep::All);
        }
        let now_on =
            self.me.upgrade().map(|tx| (id, DepthHandle { depth: self.state.depth(), tx }));
        let turn = Turn { out, answered: vec![id], ..Turn::default() };
        self.finish(turn, now_on);
    }

    /// Applies a batch of actions (see [`DepthTask::take`]); those of
    /// players no longer here (they left or died with an action on its
    /// way) are dropped. Those who stood still are told of the movers in
    /// shifts, one every [`still_period`] / [`depth::SHIFTS`]: with this
    /// batch when the next shift's time has come, else by the task's timer
    /// when it does. In a crowd that turns a message to every watcher per
    /// batch into a few a second, a fifth of the watchers at a time. The
    /// movers' own answers never wait for it.
    fn act_all(&mut self, mut acts: Vec<(PlayerId, Action)>) {
        acts.retain(|(id, _)| self.state.contains(*id));
        if acts.is_empty() {
            return;
        }
        for (id, _) in &acts {
            self.acted.insert(*id);
        }
        self.figures.actions.increment(acts.len() as u64);
        let mut turn = self.state.act_untold(acts);
        if tokio::time::Instant::now() >= self.next_shift_at {
            turn.out.extend(self.tell_next_shift());
        }
        self.finish(turn, None);
    }

    /// Tells the next shift of those who stood still what they have not
    /// heard, and makes the one after it next, a step later (a longer one
    /// in a crowd: see [`still_period`]).
    fn tell_next_shift(&mut self) -> Vec<Outgoing> {
        let out = self.state.tell_shift(self.next_shift);
        self.next_shift = (self.next_shift + 1) % depth::SHIFTS;
        let step = still_period(self.state.player_count()) / depth::SHIFTS as u32;
        self.next_shift_at = tokio::time::Instant::now() + step;
        out
    }

    /// Sends what a command produced, hands on those who took the stairs,
    /// buries the dead, and notes whose rounds now wait (for the deadline).
    fn finish(&mut self, turn: Turn, now_on: Option<(PlayerId, DepthHandle)>) {
        let Turn { out, answered, departures, deaths } = turn;
        for id in &answered {
            self.acted.insert(*id);
        }
        // Counted before anyone is told, so a reply is never ahead of its figures.
        self.note_waits();
        self.record_figures();
        self.deliver(out, &answered, now_on);
        for departure in departures {
            self.hand_on(departure);
        }
        for death in deaths {
            self.bury(death);
        }
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
                self.figures.round_wait.record(now - *since);
            }
        }
        self.waiting_since.retain(|id, _| waiting.contains(id));
        for id in waiting {
            self.waiting_since.entry(id).or_insert(now);
        }
    }

    /// The player whose round's deadline comes first, and when.
    fn next_deadline(&self) -> Option<(PlayerId, tokio::time::Instant)> {
        let limit = self.depths.config.turn_deadline;
        self.waiting_since
            .iter()
            .map(|(&id, &since)| (id, since + limit))
            .min_by_key(|&(id, at)| (at, id))
    }

    /// A player died: into the graveyard, its last words sent, its
    /// connection let go.
    fn bury(&mut self, death: Death) {
        let Death { player, killed_by } = death;
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
        };
        info!(player = %player.name, depth = self.state.depth(), killed_by = %record.killed_by, rounds = v.rounds, kills = v.kills, "dies");
        self.acted.remove(&player.id);
        self.waiting_since.remove(&player.id);
        self.depths.store().bury(record.clone());
        if let Some(link) = self.links.remove(&player.id) {
            let frames = vec![codec::encode(&gloam_protocol::ServerMsg::Died(record))];
            link.audience.relay(&frames, || None);
            let _ = link.conn.try_send(ToConn { frames, done: true, now_on: None, died: true });
        }
    }

    /// A player took the stairs: saved where it stood, then handed to the
    /// depth it goes to (which saves it again there and answers its action).
    fn hand_on(&mut self, departure: Departure) {
        let Departure { player, depth, via } = departure;
        self.acted.remove(&player.id);
        self.save(&player, Keep::All);
        let Some(link) = self.links.remove(&player.id) else { return };
        info!(player = %player.name, from = self.state.depth(), to = depth, "takes the stairs");
        let depths = self.depths.clone();
        // Not awaited here: two depths with full queues handing players to
        // each other must not wait on each other.
        tokio::spawn(
            async move { depths.arrive(depth, DepthCmd::Arrive { player, via, link }).await },
        );
    }

    fn save(&self, player: &Player, keep: Keep) {
        self.depths.store().save(&player.name, player.snapshot(self.state.depth(), keep));
    }

    fn save_those_who_acted(&mut self) {
        for id in std::mem::take(&mut self.acted) {
            if let Some(player) = self.state.player(id) {
                self.save(player, Keep::ThisDepth);
            }
        }
    }

    /// Sends each player its messages as one reply (the player whose
    /// command this was gets one even when it has nothing else, marked
    /// done), dropping players whose queues are full and telling the others.
    fn deliver(
        &mut self,
        out: Vec<Outgoing>,
        answered: &[PlayerId],
        now_on: Option<(PlayerId, DepthHandle)>,
    ) {
        // One reply per player, found by index: an arrival in a crowd
        // sends a line to everyone, and a search per message would cost the
        // square of the crowd.
        let mut replies: Vec<(PlayerId, ToConn)> = Vec::new();
        let mut index: HashMap<PlayerId, usize> = HashMap::new();
        let empty = || ToConn { frames: Vec::new(), done: false, now_on: None, died: false };
        for &id in answered {
            index.insert(id, replies.len());
            replies.push((id, ToConn { done: true, ..empty() }));
        }
        if let Some((id, handle)) = now_on {
            let at = *index.entry(id).or_insert_with(|| {
                replies.push((id, empty()));
                replies.len() - 1
            });
            replies[at].1.now_on = Some(handle);
        }
        for Outgoing { to, msg } in out {
            let frame = codec::encode(&msg);
            let at = *index.entry(to).or_insert_with(|| {
                replies.push((to, empty()));
                replies.len() - 1
            });
            replies[at].1.frames.push(frame);
        }
        let mut fallen = Vec::new();
        for (to, reply) in replies {
            let Some(link) = self.links.get(&to) else { continue };
            link.audience.relay(&reply.frames, || view(&self.state, to));
            if link.conn.try_send(reply).is_err() {
                fallen.push(to);
            }
        }
        for id in fallen {
            let turn = self.drop_laggard(id);
            self.finish(turn, None);
        }
    }

    /// Removes a player whose connection fell behind, saving it first so
    /// that it comes back where it was.
    fn drop_laggard(&mut self, id: PlayerId) -> Turn {
        self.links.remove(&id);
        self.acted.remove(&id);
        let (player, turn) = self.state.remove(id, Farewell::LOST);
        if let Some(player) = player {
            warn!(player = %player.name, depth = self.state.depth(), "dropped: its connection fell behind");
            self.save(&player, Keep::All);
        }
        turn
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use gloam_protocol::{Dir, Pos};

    use super::*;
    use crate::store::Store;

    const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    /// A player whose connection stops reading is dropped by its depth, and
    /// saved where it stood then: it comes back there, not at the start.
    #[tokio::test]
    async fn a_player_dropped_for_falling_behind_is_saved_where_it_stood() {
        // No periodic saves: only the drop can have saved the step.
        let config = Config {
            save_interval: Duration::from_secs(3600),
            outbox_capacity: 64,
            ..Config::quiet(9)
        };
        let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
        let (writer, known) = Store::in_memory().start();
        let store = writer.handle();
        let world = Arc::new(World::new(config, store.clone(), known));
        let mut ann = world.enter("ann", None, LOCAL).await.unwrap();

        let open = |p: Pos| level.terrain(p).is_open();
        let dir = Dir::ALL.into_iter().find(|&d| level.arrival.step(d).is_some_and(open)).unwrap();
        let stepped_to = level.arrival.step(dir).unwrap();
        // The arrival and one step, read in full.
        let arrival = ann.reply().await.expect("the arrival");
        assert!(arrival.done && !arrival.frames.is_empty());
        ann.act(Action::Move(dir)).unwrap();
        assert!(ann.reply().await.expect("the step's answer").done);
        // Then nothing more is read while waits pile up.
        for _ in 0..100 {
            ann.act(Action::Wait).unwrap();
        }
        let dropped = tokio::time::timeout(Duration::from_secs(5), async {
            while ann.reply().await.is_some() {}
        })
        .await;
        assert!(dropped.is_ok(), "the depth let the laggard go");
        let saved = store.load("ann").await.unwrap().expect("saved when dropped");
        assert_eq!((saved.depth, saved.pos), (1, stepped_to));
        assert!(!saved.explored.is_empty());
    }

    /// The stairs move a player to the next depth inside the world: its
    /// next commands go there without the connection doing anything.
    #[tokio::test]
    async fn the_stairs_move_a_presence_to_the_next_depth() {
        let config = Config::quiet(9);
        let (writer, known) = Store::in_memory().start();
        let world = Arc::new(World::new(config.clone(), writer.handle(), known));
        let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
        let mut ann = world.enter("ann", None, LOCAL).await.unwrap();
        ann.reply().await.unwrap();
        let path = level.grid.walk_from(level.arrival).path_to(level.stairs_down).unwrap();
        for dir in path {
            ann.act(Action::Move(dir)).unwrap();
            while !ann.reply().await.unwrap().done {}
        }
        assert_eq!(ann.depth(), 1);
        ann.act(Action::Descend).unwrap();
        let mut entered = None;
        loop {
            let reply = ann.reply().await.unwrap();
            for frame in &reply.frames {
                if let Ok(gloam_protocol::ServerMsg::EnterLevel { depth, .. }) =
                    codec::decode_server(frame)
                {
                    entered = Some(depth);
                }
            }
            if reply.done {
                break;
            }
        }
        assert_eq!((entered, ann.depth()), (Some(2), 2));
        ann.act(Action::Wait).unwrap();
        assert!(ann.reply().await.unwrap().done, "depth 2 answers the next action");
        ann.leave().await;
        let saved = writer.handle().load("ann").await.unwrap().unwrap();
        assert_eq!(saved.depth, 2);
    }

    /// Building a level takes a while (caves, and soon monsters): another
    /// depth being built must not hold up a join elsewhere.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_join_is_not_held_up_while_another_depth_is_built() {
        let (writer, known) = Store::in_memory().start();
        let world = Arc::new(World::new(Config::quiet(5), writer.handle(), known));
        let (building, entered) = std::sync::mpsc::channel();
        let (release, until) = std::sync::mpsc::channel();
        *world.depths.hold.lock().unwrap() = Some((7, building, until));
        let depths = world.depths.clone();
        let builder = tokio::task::spawn_blocking(move || depths.handle(7).map(|h| h.depth));
        entered.recv_timeout(Duration::from_secs(10)).expect("depth 7 is being built");
        let joining = world.clone();
        let join = tokio::spawn(async move {
            let mut ann = joining.enter("ann", None, LOCAL).await.unwrap();
            ann.reply().await.expect("the arrival on depth 1").done
        });
        let joined = tokio::time::timeout(Duration::from_secs(10), join).await;
        assert!(joined.is_ok(), "the join waited for another depth's level");
        release.send(()).unwrap();
        assert_eq!(builder.await.unwrap(), Some(7));
    }

    /// Every message of the replies up to the one that answers the last command.
    async fn until_done(ann: &mut Presence) -> Vec<gloam_protocol::ServerMsg> {
        let mut msgs = Vec::new();
        loop {
            let reply = ann.reply().await.expect("still in the world");
            msgs.extend(reply.frames.iter().map(|f| codec::decode_server(f).unwrap()));
            if reply.done {
                return msgs;
            }
        }
    }

    /// Actions that queue up while a depth is busy are applied as one
    /// batch: a player who stood still hears of every mover in one
    /// message, not one per mover, and every mover is answered.
    #[tokio::test]
    async fn actions_queued_together_reach_a_watcher_in_one_message() {
        use gloam_protocol::{PlayerChange, ServerMsg};
        let config = Config::quiet(9);
        let (writer, known) = Store::in_memory().start();
        let world = Arc::new(World::new(config.clone(), writer.handle(), known));
        let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
        let stands = |msgs: &[ServerMsg]| {
            msgs.iter().rev().find_map(|m| match m {
                ServerMsg::Sight(d) | ServerMsg::Displaced(d) => Some(d.at),
                _ => None,
            })
        };
        let mut ann = world.enter("ann", None, LOCAL).await.unwrap();
        let mut taken = vec![stands(&until_done(&mut ann).await).unwrap()];
        let mut movers = Vec::new();
        for name in ["bob", "cy", "dee"] {
            let mut p = world.enter(name, None, LOCAL).await.unwrap();
            taken.push(stands(&until_done(&mut p).await).unwrap());
            movers.push((p, *taken.last().unwrap()));
        }
        // Everything the arrivals told ann is read.
        ann.act(Action::Wait).unwrap();
        until_done(&mut ann).await;

        let (release, until) = tokio::sync::oneshot::channel();
        let (stalled, on_hold) = tokio::sync::oneshot::channel();
        let tx = world.depths.handle(1).unwrap().tx;
        tx.send(DepthCmd::Stall { stalled, until }).await.unwrap();
        on_hold.await.unwrap();
        for (mover, at) in &mut movers {
            let free = |p: Pos| level.terrain(p).is_open() && !taken.contains(&p);
            let dir = Dir::ALL.into_iter().find(|&d| at.step(d).is_some_and(free)).unwrap();
            taken.push(at.step(dir).unwrap());
            mover.act(Action::Move(dir)).unwrap();
        }
        release.send(()).unwrap();
        for (mover, _) in &mut movers {
            assert!(!until_done(mover).await.is_empty(), "each mover is answered");
        }
        let reply = ann.reply().await.unwrap();
        let told: Vec<Vec<PlayerChange>> = reply
            .frames
            .iter()
            .filter_map(|f| match codec::decode_server(f).unwrap() {
                ServerMsg::Players(changes) => Some(changes),
                _ => None,
            })
            .collect();
        assert_eq!(told.len(), 1, "one message for the batch: {told:?}");
        let moved = told[0].iter().filter(|c| matches!(c, PlayerChange::Moved { .. })).count();
        assert_eq!(moved, 3, "all three moves in it: {told:?}");
    }

    /// Where the last sight diff among `msgs` stands its player.
    fn stands(msgs: &[gloam_protocol::ServerMsg]) -> Option<Pos> {
        use gloam_protocol::ServerMsg;
        msgs.iter().rev().find_map(|m| match m {
            ServerMsg::Sight(d) | ServerMsg::Displaced(d) => Some(d.at),
            _ => None,
        })
    }

    /// Whether `frames` tell, in a `Players` message, of a player stepping
    /// onto `to`.
    fn tells_of_a_step(frames: &[Vec<u8>], to: Pos) -> bool {
        use gloam_protocol::{PlayerChange, ServerMsg};
        frames.iter().any(|f| match codec::decode_server(f).unwrap() {
            ServerMsg::Players(changes) => {
                changes.iter().any(|c| matches!(c, PlayerChange::Moved { at, .. } if *at == to))
            }
            _ => false,
        })
    }

    /// Ann and Bob on depth 1 of a quiet world (no monsters, no rounds),
    /// each having read all it was told on arriving.
    struct AnnAndBob {
        _writer: crate::store::Writer,
        _world: Arc<World>,
        level: crate::level::Level,
        ann: Presence,
        ann_at: Pos,
        bob: Presence,
        bob_at: Pos,
    }

    impl AnnAndBob {
        async fn enter() -> Self {
            let config = Config::quiet(9);
            let (writer, known) = Store::in_memory().start();
            let world = Arc::new(World::new(config.clone(), writer.handle(), known));
            let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
            let mut ann = world.enter("ann", None, LOCAL).await.unwrap();
            let ann_at = stands(&until_done(&mut ann).await).unwrap();
            let mut bob = world.enter("bob", None, LOCAL).await.unwrap();
            let bob_at = stands(&until_done(&mut bob).await).unwrap();
            Self { _writer: writer, _world: world, level, ann, ann_at, bob, bob_at }
        }

        /// Bob steps to a free cell, answered (where he now stands).
        async fn bob_steps(&mut self) -> Pos {
            let (level, ann_at) = (&self.level, self.ann_at);
            let free = |p: Pos| level.terrain(p).is_open() && p != ann_at;
            let dir =
                Dir::ALL.into_iter().find(|&d| self.bob_at.step(d).is_some_and(free)).unwrap();
            self.bob.act(Action::Move(dir)).unwrap();
            self.bob_at = stands(&until_done(&mut self.bob).await).unwrap();
            self.bob_at
        }
    }

    /// Those who stood still hear of the movers at most every
    /// [`TELL_THE_STILL`], however quiet the depth; the mover's own answer
    /// never waits for it.
    #[tokio::test(start_paused = true)]
    async fn the_still_hear_of_movers_at_most_every_twentieth_of_a_second() {
        use tokio::time::Instant;
        let mut two = AnnAndBob::enter().await;
        let mut told_at = Vec::new();
        for _ in 0..2 {
            // A round: ann waits, bob steps somewhere free.
            two.ann.act(Action::Wait).unwrap();
            until_done(&mut two.ann).await;
            let acted = Instant::now();
            let bob_at = two.bob_steps().await;
            assert_eq!(Instant::now(), acted, "the mover's answer does not wait");
            let reply = tokio::time::timeout(Duration::from_secs(5), two.ann.reply());
            let reply = reply.await.expect("ann is told within seconds").unwrap();
            assert!(tells_of_a_step(&reply.frames, bob_at), "ann hears of bob's step");
            told_at.push(Instant::now());
        }
        let apart = told_at[1] - told_at[0];
        assert!(apart >= TELL_THE_STILL, "told again after {apart:?}");
    }

    /// The still are told every [`TELL_THE_STILL`] up to a hundred
    /// players on a depth, less often beyond (never less than four times a
    /// second), and never more often as the crowd grows.
    #[test]
    fn a_crowd_hears_less_often_but_at_least_four_times_a_second() {
        let ms = |n| still_period(n).as_millis();
        assert_eq!([ms(0), ms(1), ms(2), ms(100)], [50, 50, 50, 50]);
        assert_eq!([ms(150), ms(200), ms(400)], [75, 100, 200]);
        assert_eq!([ms(500), ms(1_000), ms(usize::MAX)], [250, 250, 250]);
        for n in 0..2_000 {
            assert!(still_period(n) <= still_period(n + 1), "{n}");
        }
    }

    /// A depth's task tells its still as often as its crowd allows: with
    /// 150 on the depth a watcher hears of two steps no sooner than 75 ms
    /// apart, where two players alone hear every 50 ms.
    #[tokio::test(start_paused = true)]
    async fn a_crowd_is_told_less_often() {
        use tokio::time::Instant;
        let mut two = AnnAndBob::enter().await;
        let mut crowd = Vec::new();
        for i in 0..148 {
            let mut p = two._world.enter(&format!("p{i}"), None, LOCAL).await.unwrap();
            until_done(&mut p).await;
            crowd.push(p);
        }
        let mut told_at = Vec::new();
        for _ in 0..2 {
            two.ann.act(Action::Wait).unwrap();
            until_done(&mut two.ann).await;
            let bob_at = two.bob_steps().await;
            loop {
                let reply = tokio::time::timeout(Duration::from_secs(5), two.ann.reply());
                let reply = reply.await.expect("ann is told within seconds").unwrap();
                if tells_of_a_step(&reply.frames, bob_at) {
                    break;
                }
            }
            told_at.push(Instant::now());
        }
        let apart = told_at[1] - told_at[0];
        assert!(apart >= still_period(150), "told again after {apart:?}");
        assert!(still_period(150) > TELL_THE_STILL);
    }

    /// Those who stood still are told in shifts: watchers of different
    /// shifts hear of one step at different moments, a shift's step
    /// apart, and each within [`TELL_THE_STILL`] of it.
    #[tokio::test(start_paused = true)]
    async fn the_still_hear_of_a_step_in_shifts() {
        use tokio::time::Instant;
        let two = AnnAndBob::enter().await;
        let (mut bob, bob_was) = (two.bob, two.bob_at);
        let mut taken = vec![two.ann_at, bob_was];
        let mut watchers = vec![two.ann];
        for name in ["cat", "dan", "eve", "fay"] {
            let mut p = two._world.enter(name, None, LOCAL).await.unwrap();
            taken.push(stands(&until_done(&mut p).await).unwrap());
            watchers.push(p);
        }
        let shifts: std::collections::BTreeSet<usize> =
            watchers.iter().map(|w| depth::shift_of(w.id())).collect();
        assert!(shifts.len() >= 3, "the watchers are of several shifts");
        // Everything about the arrivals heard, and the shifts' timer idle.
        tokio::time::sleep(TELL_THE_STILL * 2).await;
        for w in &mut watchers {
            while let Ok(Some(_)) = tokio::time::timeout(Duration::ZERO, w.reply()).await {}
        }
        let stepped = Instant::now();
        let free = |p: Pos| two.level.terrain(p).is_open() && !taken.contains(&p);
        let dir = Dir::ALL.into_iter().find(|&d| bob_was.step(d).is_some_and(free)).unwrap();
        bob.act(Action::Move(dir)).unwrap();
        let bob_at = stands(&until_done(&mut bob).await).unwrap();
        assert_ne!(bob_at, bob_was);
        let heard = watchers.into_iter().map(|mut w| {
            tokio::spawn(async move {
                loop {
                    let reply = tokio::time::timeout(Duration::from_secs(5), w.reply());
                    let reply = reply.await.expect("told within seconds").unwrap();
                    if tells_of_a_step(&reply.frames, bob_at) {
                        return (depth::shift_of(w.id()), Instant::now() - stepped);
                    }
                }
            })
        });
        let mut when = std::collections::BTreeMap::new();
        for h in heard.collect::<Vec<_>>() {
            let (shift, after) = h.await.unwrap();
            assert!(after <= TELL_THE_STILL, "heard after {after:?}");
            when.entry(shift).or_insert(after);
            assert_eq!(when[&shift], after, "a shift hears at one moment");
        }
        let mut moments: Vec<Duration> = when.values().copied().collect();
        moments.sort();
        for pair in moments.windows(2) {
            assert!(pair[1] - pair[0] >= TELL_THE_STILL / depth::SHIFTS as u32, "{moments:?}");
        }
    }

    /// One who stands still hears of an arrival (its line and the roster
    /// change) from the depth task's timer, within [`TELL_THE_STILL`].
    #[tokio::test(start_paused = true)]
    async fn the_still_hear_of_an_arrival_within_a_twentieth_of_a_second() {
        use gloam_protocol::ServerMsg;
        use tokio::time::Instant;
        let two = AnnAndBob::enter().await;
        let mut ann = two.ann;
        let mut cat = two._world.enter("cat", None, LOCAL).await.unwrap();
        until_done(&mut cat).await;
        let arrived = Instant::now();
        // Bob's arrival may not be told yet (the store's thread takes real
        // time while this test's clock runs ahead): then one line and one
        // roster change tell of both.
        let cat = |names: &Vec<String>| names.iter().any(|n| n == "cat");
        let mut heard = Vec::new();
        while !heard.iter().any(|m| matches!(m, ServerMsg::Joined(names) if cat(names))) {
            let reply = tokio::time::timeout(Duration::from_secs(5), ann.reply());
            let reply = reply.await.expect("ann hears within seconds").unwrap();
            heard.extend(reply.frames.iter().map(|f| codec::decode_server(f).unwrap()));
        }
        let line = |m: &ServerMsg| matches!(m, ServerMsg::Others(l) if l.contains("cat") && l.ends_with("on this depth."));
        assert!(heard.iter().any(line), "{heard:?}");
        let after = Instant::now() - arrived;
        assert!(after <= TELL_THE_STILL, "heard after {after:?}");
    }

    /// Whatever the still are yet to hear, a player's answer to its own
    /// action, a wait too, shows the others as they stand when it is
    /// applied, at once.
    #[tokio::test(start_paused = true)]
    async fn an_answer_shows_the_others_as_they_stand_now() {
        use gloam_protocol::{PlayerChange, ServerMsg};
        use tokio::time::Instant;
        let mut two = AnnAndBob::enter().await;
        two.ann.act(Action::Wait).unwrap();
        until_done(&mut two.ann).await;
        let acted = Instant::now();
        let bob_at = two.bob_steps().await;
        two.ann.act(Action::Wait).unwrap();
        let answer = until_done(&mut two.ann).await;
        assert_eq!(Instant::now(), acted, "nothing waited");
        let told = answer.iter().any(|m| match m {
            ServerMsg::Sight(d) => d
                .players
                .iter()
                .any(|c| matches!(c, PlayerChange::Moved { at, .. } if *at == bob_at)),
            _ => false,
        });
        assert!(told, "ann's answer shows bob where he stepped: {answer:?}");
    }

    /// A depth nobody is on for `depth_idle` frees its level and task; the
    /// next arrival there starts it afresh, with the very level the seed
    /// makes, and the player remembers what it knew of it.
    #[tokio::test(start_paused = true)]
    async fn an_idle_depth_stops_and_is_rebuilt_exactly_when_someone_returns() {
        let config = Config {
            depth_idle: Duration::from_secs(60),
            save_interval: Duration::from_secs(1),
            ..Config::quiet(9)
        };
        let (writer, known) = Store::in_memory().start();
        let world = Arc::new(World::new(config.clone(), writer.handle(), known));
        let level = |d| mapgen::build_level_with(config.seed, d, config.generator, &config.mix);
        let (one, two) = (level(1), level(2));
        let mut ann = world.enter("ann", None, LOCAL).await.unwrap();
        until_done(&mut ann).await;
        let path = one.grid.walk_from(one.arrival).path_to(one.stairs_down).unwrap();
        for dir in path {
            ann.act(Action::Move(dir)).unwrap();
            until_done(&mut ann).await;
        }
        ann.act(Action::Descend).unwrap();
        until_done(&mut ann).await;
        ann.act(Action::Ascend).unwrap();
        until_done(&mut ann).await;
        assert_eq!(ann.depth(), 1);
        let running = |w: &World, d| w.depths.lock().contains_key(&d);
        assert!(running(&world, 2), "just left: depth 2 still runs");
        // Time passes (paused: the runtime skips ahead while all is idle).
        for _ in 0..70 {
            ann.act(Action::Wait).unwrap();
            until_done(&mut ann).await;
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        assert!(!running(&world, 2), "an empty depth let its level go");
        assert!(running(&world, 1), "an occupied depth goes on");
        ann.act(Action::Descend).unwrap();
        let msgs = until_done(&mut ann).await;
        assert!(running(&world, 2), "back in play");
        let (remembered, terrain) = msgs
            .iter()
            .find_map(|m| match m {
                gloam_protocol::ServerMsg::EnterLevel { remembered, terrain, .. } => {
                    Some((gloam_protocol::CellSet::from_bytes(remembered), terrain.clone()))
                }
                _ => None,
            })
            .expect("the level again");
        assert!(!terrain.is_empty(), "what it saw there is remembered");
        for (i, t) in remembered.iter().zip(terrain) {
            assert_eq!(two.grid.cells()[i], t, "the same level, cell {i}");
        }
    }

    /// Alone on a depth the game waits, however long: a hunting jackal five
    /// cells away is where it was after a minute with nothing pressed (the
    /// clock is paused, so the minute passes at once), and the next action
    /// is one round: one step for the jackal.
    #[tokio::test(start_paused = true)]
    async fn alone_a_minute_passes_and_nothing_moves() {
        let config = Config::with_seed(9);
        let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
        let seen = level.grid.fov(level.arrival, 8);
        let far = |p: &Pos| p.x.abs_diff(level.arrival.x).max(p.y.abs_diff(level.arrival.y));
        let at = seen
            .cells()
            .filter(|p| level.terrain(*p) == gloam_protocol::Terrain::Floor && far(p) == 5)
            .min()
            .expect("floor five cells off, in sight of the arrival");
        let placements =
            vec![crate::config::Placement { kind: "jackal".into(), depth: 1, pos: at }];
        let config = Config { placements, ..config };
        let (writer, known) = Store::in_memory().start();
        let world = Arc::new(World::new(config, writer.handle(), known));
        let mut ann = world.enter("ann", None, LOCAL).await.unwrap();
        let arrival = until_done(&mut ann).await;
        let jackal = arrival
            .iter()
            .find_map(|m| match m {
                gloam_protocol::ServerMsg::Sight(d) => d.monsters.iter().find_map(|c| match c {
                    gloam_protocol::MonsterChange::Appeared { id, at: seen_at, .. }
                        if *seen_at == at =>
                    {
                        Some(*id)
                    }
                    _ => None,
                }),
                _ => None,
            })
            .expect("ann sees the jackal on arriving");
        tokio::time::sleep(Duration::from_secs(60)).await;
        let quiet = tokio::time::timeout(Duration::ZERO, ann.reply()).await;
        assert!(quiet.is_err(), "nothing happened in a minute");
        ann.act(Action::Wait).unwrap();
        let moved: Vec<Pos> = until_done(&mut ann)
            .await
            .iter()
            .flat_map(|m| match m {
                gloam_protocol::ServerMsg::Sight(d) => d.monsters.clone(),
                gloam_protocol::ServerMsg::Monsters(c) => c.clone(),
                _ => Vec::new(),
            })
            .filter_map(|c| match c {
                gloam_protocol::MonsterChange::Moved { id, at } if id == jackal => Some(at),
                _ => None,
            })
            .collect();
        assert_eq!(moved.len(), 1, "one round, one step: {moved:?}");
        assert_eq!(far(&moved[0]), 4, "a step towards ann");
    }

    /// One client in a loop cannot fill the host's disk: past the hour's
    /// quota for its address, and past the world's total, new names are
    /// refused with a reason and nothing more is stored.
    #[tokio::test]
    async fn new_characters_are_capped_per_address_and_in_all() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config {
            new_characters_per_address_per_hour: 5,
            max_characters: 12,
            ..Config::quiet(2)
        };
        let (writer, known) = Store::open(dir.path()).unwrap().start();
        let world = Arc::new(World::new(config, writer.handle(), known));
        let address = |i: u8| IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, i));
        let mut made = Vec::new();
        let mut refusals = std::collections::BTreeSet::new();
        for attempt in 0..3_000u32 {
            // Most from one address; every hundredth from a new one.
            let from =
                if attempt % 100 == 0 { address((attempt / 100) as u8) } else { address(200) };
            match world.enter(&format!("bot{attempt}"), None, from).await {
                Ok(presence) => made.push(presence),
                Err(Refusal::Unavailable { reason }) => {
                    refusals.insert(reason);
                }
                Err(other) => panic!("{other:?}"),
            }
        }
        assert_eq!(made.len(), 12, "5 from the looping address, then others up to the total");
        // The host's own machine is not held to the hourly quota, only to the total.
        let local = world.enter("host", None, LOCAL).await.err();
        assert!(
            matches!(local, Some(Refusal::Unavailable { reason }) if reason.contains("all the characters"))
        );
        assert!(refusals.iter().any(|r| r.contains("an hour from one address")), "{refusals:?}");
        assert!(refusals.iter().any(|r| r.contains("all the characters it can keep")));
        for presence in made {
            presence.leave().await;
        }
        world.close();
        let handle = writer.handle();
        handle.flush().await;
        drop(handle);
        writer.close();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.known().len(), 12, "nothing refused was stored");
    }

    /// When the disk fills, the players are told their progress is not
    /// being kept and no new character is made; when there is room again
    /// they are told so, and where they stand is saved after all.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn players_hear_when_saving_stops_and_when_it_works_again() {
        let config = Config { save_interval: Duration::from_millis(20), ..Config::quiet(4) };
        let (store, full) = Store::on_a_disk_that_fills();
        let (writer, known) = store.start();
        let world = Arc::new(World::new(config, writer.handle(), known));
        let mut ann = world.enter("ann", None, LOCAL).await.unwrap();
        until_done(&mut ann).await;
        full.store(true, std::sync::atomic::Ordering::SeqCst);
        let heard = |msgs: &[gloam_protocol::ServerMsg], words: &str| {
            msgs.iter()
                .any(|m| matches!(m, gloam_protocol::ServerMsg::Note(n) if n.contains(words)))
        };
        // Bounded by the timeouts around it, not by a count of waits: the
        // store retries once a second, and waits can be quick enough that
        // any count runs out first.
        let until_heard = async |ann: &mut Presence, words: &str| loop {
            ann.act(Action::Wait).unwrap();
            if heard(&until_done(ann).await, words) {
                return;
            }
            tokio::task::yield_now().await;
        };
        tokio::time::timeout(Duration::from_secs(20), until_heard(&mut ann, "cannot save"))
            .await
            .expect("told in time");
        let refused = world.enter("bob", None, LOCAL).await.err();
        assert!(
            matches!(refused, Some(Refusal::Unavailable { reason }) if reason.contains("cannot save"))
        );
        full.store(false, std::sync::atomic::Ordering::SeqCst);
        tokio::time::timeout(Duration::from_secs(20), until_heard(&mut ann, "can save again"))
            .await
            .expect("told in time");
        ann.leave().await;
        assert!(writer.handle().load("ann").await.unwrap().is_some(), "ann is kept");
    }
}

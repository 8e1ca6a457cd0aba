//! The game world, as a connection sees it: [`World::enter`] claims a
//! character and puts it on its depth, giving the connection a
//! [`Presence`] whose verbs are `act`, `try_reply` (what the world has to
//! say to this player, one [`Reply`] per command), `say` and `inbox` (its
//! chat), and `leave`; the rest of it (`depth`, `audience`, `kicked`,
//! `new_token`) tells the connection where its player is, who watches it,
//! whether it was taken over and its next key. [`World::watch`] gives a
//! [`Watcher`] the same way. Everything else is inside: one task per depth
//! (`task`) owns that depth's level and players and applies their commands
//! one at a time, in arrival order (see `depth` for the order of one
//! action, from key to pixels); the registry (`registry`) starts and
//! retires those tasks, and the stairs hand a player from one depth's task
//! to the next's without the connection carrying it.
//!
//! [`DepthState`] is the same rules without tasks or channels, for
//! benchmarks and for test fixtures that play a level directly, with the
//! few types they name (an [`Arrival`], a [`Death`] and its [`End`], how a
//! player [`Leaving`] went, a depth's history as [`Entry`]s).

mod absence;
mod build;
mod characters;
mod depth;
#[cfg(test)]
mod gate;
mod keeping;
mod presence;
mod recordings;
mod registry;
#[cfg(test)]
mod restock_tests;
mod talk;
mod task;
mod watch;

use std::net::IpAddr;
use std::sync::Arc;

#[cfg(test)]
use gloam_protocol::{Action, PlayerId};
use gloam_protocol::{DeathRecord, Refusal, Token};
use tokio::sync::mpsc;
use tracing::info;

pub use crate::character::Player;
pub use build::fresh_depth;
/// Who hits and for how much, and the line a missile flies: what a
/// player weighing its weapons and its throws reckons with.
pub(crate) use depth::rules::{combat, throwing};
pub use depth::{
    Arrival, Command, Death, DepthState, End, Entry, Leaving, Monster, Outcome, Outgoing,
    RULES_VERSION, Recorded, SNAPSHOT_FORMAT, decode_history, may_start_order,
};
/// The rules of a depth alone, for the balance run to play with nobody
/// listening.
pub(crate) use depth::{Departure, Flow, Killer, Nobody, Rules};
pub use keeping::{SNAPSHOT_EVERY, keep_history};
pub use presence::{ActError, Presence, Reply, Watcher};
pub use recordings::{
    MAX_RECORDING_ROUNDS, Recording, record_history, record_report, record_stored,
};
pub use talk::Talkers;
pub use watch::{Audience, StreamPart};

use crate::character::Credential;
use crate::config::Config;
use crate::store::StoreHandle;
use characters::{Characters, Claim, Saved};
use registry::{Depths, tell_about_saving};
use task::{DepthCmd, Link};

/// Everything shared between connections: the depths in play and the
/// characters.
#[derive(Debug)]
pub struct World {
    depths: Arc<Depths>,
    characters: Characters,
    /// Everyone in the game, for chat.
    talkers: talk::Talkers,
    /// The whole graveyard as last read for `/status`, and when.
    graves: std::sync::Mutex<Option<(tokio::time::Instant, Arc<Vec<DeathRecord>>)>>,
    /// Held while a recording is made: one at a time (see `recordings`).
    recording_turn: tokio::sync::Mutex<()>,
    /// Cancelled once the host drains the world (see [`World::drain`]).
    draining: tokio_util::sync::CancellationToken,
}

/// How long `/status` shows the graveyard it read before reading it again:
/// a flood of requests costs the store one read a second.
const GRAVES_KEPT: std::time::Duration = std::time::Duration::from_secs(1);

impl World {
    /// A world played under `config`, keeping its characters in `store`,
    /// which already holds those `known`.
    pub fn new(config: Config, store: StoreHandle, known: Vec<Credential>) -> Self {
        let limits = characters::Limits {
            per_address_per_hour: config.new_characters_per_address_per_hour,
            total: config.max_characters,
            players: config.max_players,
        };
        let characters = Characters::new(store.clone(), known, limits, config.items.clone());
        let saving = store.saving();
        let depths = Arc::new(Depths::new(config, store));
        tokio::spawn(tell_about_saving(saving, Arc::downgrade(&depths)));
        let graves = std::sync::Mutex::default();
        let recording_turn = tokio::sync::Mutex::default();
        let draining = tokio_util::sync::CancellationToken::new();
        let talkers = talk::Talkers::default();
        Self { depths, characters, talkers, graves, recording_turn, draining }
    }

    pub(crate) fn config(&self) -> &Config {
        &self.depths.config
    }

    /// Joins as `name`: claims the character (creating it, of the
    /// `background` named if any, resuming it where the store has it, or
    /// taking it over from another connection) and puts it on its depth.
    /// The arrival's messages are the first replies of the presence.
    pub async fn enter(
        self: &Arc<Self>,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
        background: Option<&str>,
    ) -> Result<Presence, Refusal> {
        let config = self.config();
        let background = match background {
            Some(wanted) => match config.backgrounds.find(wanted) {
                Some(background) => Some(background),
                None => return Err(Refusal::NoSuchBackground { name: wanted.to_owned() }),
            },
            None => None,
        };
        let Claim { id, new_token, saved, kicked } =
            self.characters.claim(name, token, from).await?;
        let (player, depth, via) = match saved {
            // A host may have raised the bottom since: never below it.
            Some(Saved { depth, player }) if depth <= self.config().bottom() => {
                let at = player.pos;
                (player, depth, Arrival::Resume(at))
            }
            Some(Saved { player, .. }) => (player, self.config().bottom(), Arrival::FromAbove),
            None => {
                let mut player = Player::new(id, name.to_owned());
                if let Some(background) = background {
                    background.outfit(&mut player, &config.world_items());
                }
                (player, 1, Arrival::Join)
            }
        };
        let c = self.config();
        let audience =
            Arc::new(Audience::new(name, c.watchers_allowed, c.max_watchers, c.outbox_capacity));
        let (conn, replies) = mpsc::channel(c.outbox_capacity.max(1));
        // Among those who can be spoken to before the others hear it arrive.
        let (listener, inbox) = self.talkers.join(name, id, depth, audience.clone());
        let lines = crate::morgue::LastLines::default();
        let link = Link { conn, audience: audience.clone(), depth: listener.depth(), lines };
        let arrive = DepthCmd::Arrive { player: Box::new(player), via, link };
        let Some(here) = self.depths.arrive(depth, arrive).await else {
            self.talkers.leave(name, &listener);
            self.characters.release(name);
            return Err(Refusal::Unavailable { reason: "the server is shutting down".into() });
        };
        info!(player = name, %id, returning = new_token.is_none(), depth, "enters");
        let (name, world) = (name.to_owned(), self.clone());
        let inbox = Some(inbox);
        // The arrival is the first reply awaited.
        Ok(Presence {
            id,
            name,
            new_token,
            kicked,
            here,
            replies,
            awaiting: true,
            asked: None,
            listener,
            inbox,
            audience,
            world,
        })
    }

    /// Joins as `name` to watch the player `player`: checks that `player`
    /// plays, then the name as a join would (a new name becomes a
    /// character that has not played yet; one in the game cannot watch),
    /// takes a seat in the player's audience, and asks the player's depth
    /// for its whole view, which is the watcher's first stream.
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
        // The player first: a watch of nobody spends nothing of the
        // address's quota of new characters, which claiming a new name does.
        if !self.talkers.is_playing(player) {
            return Err(cannot(format!("nobody called {player} is playing")));
        }
        let claim = self.characters.claim_to_watch(name, token, from).await?;
        let id = claim.id;
        let joined = match self.talkers.join_watching(name, id, player) {
            Ok(joined) => joined,
            Err(reason) => {
                self.characters.abandon(name, &claim);
                return Err(cannot(reason));
            }
        };
        let serial = joined.listener.serial();
        let begun = match joined.audience.sit(name, serial) {
            Ok(stream) => match self.characters.keep(name, &claim).await {
                Ok(new_token) => Ok((stream, new_token)),
                Err(refusal) => {
                    joined.audience.stand(serial);
                    Err(refusal)
                }
            },
            Err(reason) => Err(cannot(reason)),
        };
        let (stream, new_token) = match begun {
            Ok(begun) => begun,
            Err(refusal) => {
                self.talkers.leave(name, &joined.listener);
                self.characters.abandon(name, &claim);
                return Err(refusal);
            }
        };
        let kicked = claim.kicked.clone();
        // Joined first, then the player's depth read: a depth it arrives
        // on later finds the seat fresh and gives it the view itself.
        let depth = joined.listener.depth().load(std::sync::atomic::Ordering::SeqCst);
        if let Some(here) = self.depths.lock().get(&depth) {
            let _ = here.tx.try_send(DepthCmd::Resync(joined.player));
        }
        info!(watcher = name, player, "watches");
        Ok(Watcher::new((name, id), new_token, kicked, joined, stream, self.clone()))
    }

    /// Those playing now: the list a watcher picks from (see `Talkers::playing`).
    pub fn playing(&self) -> Vec<gloam_protocol::Playing> {
        self.talkers.playing()
    }

    /// The dead, deepest first: the deepest
    /// [`MAX_GRAVEYARD`](gloam_protocol::MAX_GRAVEYARD), so that the list
    /// fits one message however many have died.
    pub async fn graveyard(&self) -> Result<Vec<gloam_protocol::DeathRecord>, String> {
        self.depths.store().graveyard(gloam_protocol::MAX_GRAVEYARD).await
    }

    /// `name`'s morgue file number `number`, if it has one (see `morgue`).
    pub async fn morgue(&self, name: &str, number: u32) -> Result<Option<String>, String> {
        self.depths.store().morgue(name, number).await
    }

    /// Those playing now, by depth (see `Talkers::by_depth`).
    pub fn players_by_depth(&self) -> std::collections::BTreeMap<u16, Vec<String>> {
        self.talkers.by_depth()
    }

    /// Everyone in the graveyard and the hall of the living, in the
    /// store's order (the living first, then the dead deepest first), read
    /// again at most once a second.
    pub async fn all_graves(&self) -> Result<Arc<Vec<DeathRecord>>, String> {
        let now = tokio::time::Instant::now();
        let kept = self.graves.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        if let Some((read, graves)) = kept
            && now.duration_since(read) < GRAVES_KEPT
        {
            return Ok(graves);
        }
        let graves = Arc::new(self.depths.store().graveyard(usize::MAX).await?);
        *self.graves.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((now, graves.clone()));
        Ok(graves)
    }

    /// Drains the world, as `why` asks (a signal, a request): from now on
    /// a newcomer is refused with [`Refusal::Draining`] naming
    /// `Config::drain_to`, while those in play go on; [`World::drained`]
    /// completes once the last of them has left. False if it was draining
    /// already.
    pub fn drain(&self, why: &str) -> bool {
        let elsewhere = self.config().drain_to.clone();
        if !self.characters.drain(elsewhere.clone()) {
            return false;
        }
        let players = self.characters.players();
        info!(why, players, elsewhere = elsewhere.as_deref().unwrap_or("-"), "draining started");
        self.draining.cancel();
        true
    }

    /// Whether the host drains the world.
    pub fn is_draining(&self) -> bool {
        self.characters.is_draining()
    }

    /// How many play now (watchers are not counted).
    pub fn players(&self) -> usize {
        self.characters.players()
    }

    /// False while the store's last commit failed (saves are kept and
    /// tried again; new characters are refused meanwhile).
    pub fn is_saving(&self) -> bool {
        self.depths.store().is_saving()
    }

    /// Completes once the world drains and nobody plays any more.
    pub async fn drained(&self) {
        self.draining.cancelled().await;
        self.characters.until_nobody_plays().await;
    }

    /// The character `name` is no longer played (its depth has saved it).
    fn release(&self, name: &str) {
        self.characters.release(name);
    }

    /// Test hook: depth `depth`'s task stops taking commands, with its
    /// queue full, until the returned sender is used or dropped.
    #[cfg(test)]
    pub(crate) async fn stall(self: &Arc<Self>, depth: u16) -> tokio::sync::oneshot::Sender<()> {
        let release = self.hold(depth).await;
        let tx = self.depths.handle(depth).expect("the world is open").tx;
        while tx.capacity() > 0 {
            let nobody = DepthCmd::Act {
                id: PlayerId(u32::MAX),
                action: Action::Wait,
                since: std::time::Instant::now(),
            };
            tx.send(nobody).await.expect("the depth runs");
        }
        release
    }

    /// Test hook: depth `depth`'s task stops taking commands (they wait in
    /// its queue) until the returned sender is used or dropped.
    #[cfg(test)]
    pub(crate) async fn hold(self: &Arc<Self>, depth: u16) -> tokio::sync::oneshot::Sender<()> {
        let tx = self.depths.handle(depth).expect("the world is open").tx;
        gate::hold_task(&tx).await
    }

    /// Test hook: how many commands wait in depth `depth`'s queue.
    #[cfg(test)]
    pub(crate) fn queued(self: &Arc<Self>, depth: u16) -> usize {
        let tx = self.depths.handle(depth).expect("the world is open").tx;
        tx.max_capacity() - tx.capacity()
    }

    /// Ends every depth's task once the connections holding handles are
    /// gone, each depth's history handed to the store first (the store
    /// closes next: what a depth hands over as its task ends would come
    /// too late, and a clean restart would lose the last of its history).
    pub async fn close(&self) {
        self.depths.keep_every_log().await;
        self.depths.close();
    }

    /// The server stops: every depth applies no more actions, so that its
    /// players, leaving one by one, are each saved where they stood.
    pub async fn freeze(&self) {
        self.depths.freeze().await;
    }
}

#[cfg(test)]
mod snapshot_tests;
#[cfg(test)]
mod tests;

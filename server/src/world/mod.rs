//! The game world: one task per depth, each owning that depth's level and
//! players and applying their actions one at a time, in arrival order.
//! Connections reach a depth through its [`DepthHandle`]; a depth answers
//! through each player's [`Link`].

mod characters;
mod depth;
mod memory;
mod player;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gloam_protocol::{Action, PlayerId, codec};
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;
use tracing::{debug, info, warn};

pub use characters::{Characters, Claim, Saved};
pub use depth::{Arrival, Departure, DepthState, Outgoing, Turn};
pub use memory::Memory;
pub use player::{Keep, Player};

use crate::config::Config;
use crate::mapgen;
use crate::store::{Known, StoreHandle};

/// What a depth sends a connection.
#[derive(Debug)]
pub enum ToConn {
    /// One encoded message to write.
    Frame(Vec<u8>),
    /// The player's last command was applied; the next may be sent.
    TurnDone,
    /// The player took the stairs: the connection carries it to `depth`.
    Transfer { departure: Departure, link: Link },
}

/// The way a depth reaches one player's connection.
pub type Link = mpsc::Sender<ToConn>;

/// What a connection asks of a depth.
#[derive(Debug)]
pub enum DepthCmd {
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
}

/// The way in to one depth's task.
#[derive(Debug, Clone)]
pub struct DepthHandle {
    pub depth: u16,
    tx: mpsc::Sender<DepthCmd>,
}

impl DepthHandle {
    /// Sends a command, waiting while the depth's queue is full. Fails only
    /// when the depth's task has ended (the server is shutting down).
    pub async fn send(&self, cmd: DepthCmd) -> Result<(), WorldGone> {
        self.tx.send(cmd).await.map_err(|_| WorldGone)
    }
}

/// The depth's task has ended.
#[derive(Debug, thiserror::Error)]
#[error("the world is shutting down")]
pub struct WorldGone;

/// Everything shared between connections: the depths in play and the names in use.
#[derive(Debug)]
pub struct World {
    config: Config,
    depths: Mutex<HashMap<u16, DepthHandle>>,
    characters: Characters,
    store: StoreHandle,
}

impl World {
    /// A world played under `config`, keeping its characters in `store`,
    /// which already holds those `known`.
    pub fn new(config: Config, store: StoreHandle, known: Vec<Known>) -> Self {
        let characters = Characters::new(store.clone(), known);
        Self { config, depths: Mutex::new(HashMap::new()), characters, store }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Who may play which name.
    pub fn characters(&self) -> &Characters {
        &self.characters
    }

    /// The handle of a depth, building its level and starting its task the
    /// first time anyone goes there.
    pub fn depth(&self, depth: u16) -> DepthHandle {
        let mut depths = self.depths.lock().unwrap_or_else(PoisonError::into_inner);
        depths
            .entry(depth)
            .or_insert_with(|| {
                let c = &self.config;
                let generator = mapgen::generator_with(c.generator, &c.mix, c.seed, depth);
                let level =
                    Arc::new(mapgen::build(generator, mapgen::level_seed(c.seed, depth), depth));
                info!(depth, generator = generator.name(), "level built");
                let (tx, rx) = mpsc::channel(self.config.depth_queue);
                let state = DepthState::new(depth, level, self.config.sight_radius);
                tokio::spawn(run_depth(state, rx, self.store.clone(), c.save_interval));
                DepthHandle { depth, tx }
            })
            .clone()
    }

    /// Ends every depth's task once the connections holding handles are gone.
    pub fn close(&self) {
        self.depths.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

/// One depth's task: applies commands in the order they arrive and sends the
/// results. A player whose connection cannot keep up (its queue is full) is
/// removed, which closes its connection. Players are saved at once when they
/// arrive or leave, and those who acted are saved every `save_every`.
async fn run_depth(
    state: DepthState,
    mut rx: mpsc::Receiver<DepthCmd>,
    store: StoreHandle,
    save_every: Duration,
) {
    let mut task = DepthTask { state, links: HashMap::new(), acted: HashSet::new(), store };
    let mut tick = tokio::time::interval(save_every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(cmd) => task.handle(cmd),
                None => break,
            },
            _ = tick.tick() => task.save_those_who_acted(),
        }
    }
    task.save_those_who_acted();
    debug!(depth = task.state.depth(), "depth task ends");
}

struct DepthTask {
    state: DepthState,
    links: HashMap<PlayerId, Link>,
    /// Players who acted since the last periodic save.
    acted: HashSet<PlayerId>,
    store: StoreHandle,
}

impl DepthTask {
    fn handle(&mut self, cmd: DepthCmd) {
        match cmd {
            DepthCmd::Arrive { player, via, link } => {
                let id = player.id;
                info!(player = %player.name, depth = self.state.depth(), ?via, "arrives");
                self.links.insert(id, link);
                let out = self.state.arrive(player, via);
                self.save(id, Keep::All);
                self.deliver(out);
                self.turn_done(id);
            }
            DepthCmd::Act { id, action } => {
                if !self.state.contains(id) {
                    return;
                }
                self.acted.insert(id);
                let turn = self.state.act(id, action);
                self.deliver(turn.out);
                match turn.departure {
                    Some(departure) => self.hand_on(id, departure),
                    None => self.turn_done(id),
                }
            }
            DepthCmd::Leave { id, saved } => {
                self.links.remove(&id);
                self.acted.remove(&id);
                let (player, out) = self.state.remove(id, "has left the game.");
                self.deliver(out);
                if let Some(player) = player {
                    info!(player = %player.name, depth = self.state.depth(), "leaves the game");
                    self.store.save(&player.name, player.snapshot(self.state.depth(), Keep::All));
                }
                let _ = saved.send(());
            }
        }
    }

    /// A player took the stairs: saved where it stood, then handed to its
    /// connection to carry to the next depth (which saves it again there).
    fn hand_on(&mut self, id: PlayerId, departure: Departure) {
        self.acted.remove(&id);
        let player = &departure.player;
        self.store.save(&player.name, player.snapshot(self.state.depth(), Keep::All));
        let Some(link) = self.links.remove(&id) else {
            return;
        };
        info!(player = %player.name, from = self.state.depth(), to = departure.depth, "takes the stairs");
        let back = link.clone();
        if back.try_send(ToConn::Transfer { departure, link }).is_err() {
            warn!(player = %id, "connection gone while taking the stairs");
        }
    }

    fn save(&self, id: PlayerId, keep: Keep) {
        if let Some(player) = self.state.player(id) {
            self.store.save(&player.name, player.snapshot(self.state.depth(), keep));
        }
    }

    fn save_those_who_acted(&mut self) {
        for id in std::mem::take(&mut self.acted) {
            self.save(id, Keep::ThisDepth);
        }
    }

    fn turn_done(&mut self, id: PlayerId) {
        if let Some(link) = self.links.get(&id)
            && link.try_send(ToConn::TurnDone).is_err()
        {
            let out = self.drop_laggard(id);
            self.deliver(out);
        }
    }

    /// Sends each message to its player's connection, dropping players whose
    /// queues are full (and telling the others they left).
    fn deliver(&mut self, out: Vec<Outgoing>) {
        let mut pending = out;
        while !pending.is_empty() {
            let mut more = Vec::new();
            for Outgoing { to, msg } in pending {
                let Some(link) = self.links.get(&to) else { continue };
                if link.try_send(ToConn::Frame(codec::encode(&msg))).is_err() {
                    more.extend(self.drop_laggard(to));
                }
            }
            pending = more;
        }
    }

    /// Removes a player whose connection fell behind, saving it first so
    /// that it comes back where it was.
    fn drop_laggard(&mut self, id: PlayerId) -> Vec<Outgoing> {
        self.links.remove(&id);
        self.acted.remove(&id);
        let (player, out) = self.state.remove(id, "has lost the connection.");
        if let Some(player) = player {
            warn!(player = %player.name, depth = self.state.depth(), "dropped: its connection fell behind");
            self.store.save(&player.name, player.snapshot(self.state.depth(), Keep::All));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{Dir, Pos};

    use super::*;
    use crate::store::Store;

    /// A player whose connection stops reading is dropped by its depth, and
    /// saved where it stood then: it comes back there, not at the start.
    #[tokio::test]
    async fn a_player_dropped_for_falling_behind_is_saved_where_it_stood() {
        // No periodic saves: only the drop can have saved the step.
        let config = Config { save_interval: Duration::from_secs(3600), ..Config::with_seed(9) };
        let generator = mapgen::generator_with(config.generator, &config.mix, config.seed, 1);
        let level = mapgen::build(generator, mapgen::level_seed(config.seed, 1), 1);
        let (writer, known) = Store::in_memory().start();
        let store = writer.handle();
        let world = World::new(config, store.clone(), known);
        let depth = world.depth(1);
        let (link, mut inbox) = mpsc::channel(64);
        let id = PlayerId(1);
        let player = Player::new(id, "ann".into());
        depth.send(DepthCmd::Arrive { player, via: Arrival::Join, link }).await.unwrap();

        let open = |p: Pos| level.terrain(p).is_open();
        let dir = Dir::ALL.into_iter().find(|&d| level.arrival.step(d).is_some_and(open)).unwrap();
        let stepped_to = level.arrival.step(dir).unwrap();
        // The arrival and one step, read in full.
        depth.send(DepthCmd::Act { id, action: Action::Move(dir) }).await.unwrap();
        let mut turns = 0;
        while turns < 2 {
            match tokio::time::timeout(Duration::from_secs(5), inbox.recv()).await {
                Ok(Some(ToConn::TurnDone)) => turns += 1,
                Ok(Some(_)) => {}
                other => panic!("expected the step's answer, got {other:?}"),
            }
        }
        // Then nothing more is read while waits pile up.
        for _ in 0..100 {
            depth.send(DepthCmd::Act { id, action: Action::Wait }).await.unwrap();
        }
        let dropped = tokio::time::timeout(Duration::from_secs(5), async {
            while inbox.recv().await.is_some() {}
        })
        .await;
        assert!(dropped.is_ok(), "the depth let the laggard go");
        let saved = store.load("ann").await.unwrap().expect("saved when dropped");
        assert_eq!((saved.depth, saved.pos), (1, stepped_to));
        assert!(!saved.explored.is_empty());
    }
}

//! The game world: one task per depth, each owning that depth's level and
//! players and applying their actions one at a time, in arrival order.
//! Connections reach a depth through its [`DepthHandle`]; a depth answers
//! through each player's [`Link`].

mod characters;
mod depth;
mod memory;
mod player;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use gloam_protocol::{Action, PlayerId, codec};
use tokio::sync::mpsc;
use tracing::{debug, info, warn};

pub use characters::{Characters, Claim, Saved};
pub use depth::{Arrival, Departure, DepthState, Outgoing, Turn};
pub use memory::Memory;
pub use player::Player;

use crate::config::Config;
use crate::mapgen;

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
    /// The player leaves the game; it is handed back on `reply` to be kept.
    Leave {
        id: PlayerId,
        reply: Option<tokio::sync::oneshot::Sender<Player>>,
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
}

impl World {
    pub fn new(config: Config) -> Self {
        Self { config, depths: Mutex::new(HashMap::new()), characters: Characters::default() }
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
                tokio::spawn(run_depth(state, rx));
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
/// removed, which closes its connection.
async fn run_depth(mut state: DepthState, mut rx: mpsc::Receiver<DepthCmd>) {
    let mut links: HashMap<PlayerId, Link> = HashMap::new();
    while let Some(cmd) = rx.recv().await {
        match cmd {
            DepthCmd::Arrive { player, via, link } => {
                let id = player.id;
                info!(player = %player.name, depth = state.depth(), ?via, "arrives");
                links.insert(id, link);
                let out = state.arrive(player, via);
                deliver(&mut state, &mut links, out);
                turn_done(&mut state, &mut links, id);
            }
            DepthCmd::Act { id, action } => {
                if !state.contains(id) {
                    continue;
                }
                let turn = state.act(id, action);
                deliver(&mut state, &mut links, turn.out);
                match turn.departure {
                    Some(departure) => {
                        let Some(link) = links.remove(&id) else {
                            continue;
                        };
                        info!(player = %departure.player.name, from = state.depth(), to = departure.depth, "takes the stairs");
                        let back = link.clone();
                        if back.try_send(ToConn::Transfer { departure, link }).is_err() {
                            warn!(player = %id, "connection gone while taking the stairs");
                        }
                    }
                    None => turn_done(&mut state, &mut links, id),
                }
            }
            DepthCmd::Leave { id, reply } => {
                links.remove(&id);
                let (player, out) = state.remove(id, "has left the game.");
                deliver(&mut state, &mut links, out);
                if let Some(player) = player {
                    info!(player = %player.name, depth = state.depth(), "leaves the game");
                    if let Some(reply) = reply {
                        let _ = reply.send(player);
                    }
                }
            }
        }
    }
    debug!(depth = state.depth(), "depth task ends");
}

fn turn_done(state: &mut DepthState, links: &mut HashMap<PlayerId, Link>, id: PlayerId) {
    if let Some(link) = links.get(&id)
        && link.try_send(ToConn::TurnDone).is_err()
    {
        let out = drop_laggard(state, links, id);
        deliver(state, links, out);
    }
}

/// Sends each message to its player's connection, dropping players whose
/// queues are full (and telling the others they left).
fn deliver(state: &mut DepthState, links: &mut HashMap<PlayerId, Link>, out: Vec<Outgoing>) {
    let mut pending = out;
    while !pending.is_empty() {
        let mut more = Vec::new();
        for Outgoing { to, msg } in pending {
            let Some(link) = links.get(&to) else { continue };
            if link.try_send(ToConn::Frame(codec::encode(&msg))).is_err() {
                more.extend(drop_laggard(state, links, to));
            }
        }
        pending = more;
    }
}

fn drop_laggard(
    state: &mut DepthState,
    links: &mut HashMap<PlayerId, Link>,
    id: PlayerId,
) -> Vec<Outgoing> {
    links.remove(&id);
    let (player, out) = state.remove(id, "has lost the connection.");
    if let Some(player) = player {
        warn!(player = %player.name, depth = state.depth(), "dropped: its connection fell behind");
    }
    out
}

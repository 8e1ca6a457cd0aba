//! Who can be spoken to: every player in the game, the depth it is on, and
//! a way to its connection that bypasses the depths. Chat never waits for
//! a depth's clock or costs a turn, so it goes straight from the speaker's
//! connection to the listeners' (see `net::chat` for what a line may hold).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use gloam_protocol::{ChatTo, PlayerId, Playing, ServerMsg, codec};
use tokio::sync::mpsc;
use tracing::debug;

use super::watch::Audience;

/// Lines queued for one listener. One that lets this many pile up misses
/// the next (its connection is behind on everything else too).
const INBOX_QUEUE: usize = 64;

/// Everyone in the game, by name.
#[derive(Debug, Default)]
pub struct Talkers {
    by_name: Mutex<HashMap<String, Talker>>,
    joined: AtomicU64,
}

#[derive(Debug)]
struct Talker {
    /// Which joining this is (a takeover joins the name again).
    serial: u64,
    id: PlayerId,
    depth: Arc<AtomicU16>,
    tx: mpsc::Sender<Vec<u8>>,
    /// Those watching this player (none for a watcher).
    audience: Option<Arc<Audience>>,
}

/// A player's place among the talkers: which joining it is, and where.
#[derive(Debug)]
pub struct Listener {
    serial: u64,
    depth: Arc<AtomicU16>,
}

/// The lines said to one player, for its connection to pass on.
#[derive(Debug)]
pub struct Inbox(mpsc::Receiver<Vec<u8>>);

impl Inbox {
    /// The next line said to this player (encoded), `None` once it left.
    pub(crate) async fn next(&mut self) -> Option<Vec<u8>> {
        self.0.recv().await
    }

    /// A line already said to this player, if one is waiting.
    pub fn try_next(&mut self) -> Option<Vec<u8>> {
        self.0.try_recv().ok()
    }
}

impl Listener {
    /// Which joining this is.
    pub(crate) fn serial(&self) -> u64 {
        self.serial
    }

    /// Where the player is (a watcher: where its player is), for the
    /// player's depth to keep up to date.
    pub(crate) fn depth(&self) -> Arc<AtomicU16> {
        self.depth.clone()
    }
}

/// What joining to watch a player gave.
#[derive(Debug)]
pub(crate) struct JoinedWatching {
    pub listener: Listener,
    pub inbox: Inbox,
    /// The watched player's id and audience.
    pub player: PlayerId,
    pub audience: Arc<Audience>,
}

impl Talkers {
    /// `name` joins the game on `depth` (taking over the name from an
    /// earlier connection, if any), watched by `audience`.
    pub fn join(
        &self,
        name: &str,
        id: PlayerId,
        depth: u16,
        audience: Arc<Audience>,
    ) -> (Listener, Inbox) {
        let depth = Arc::new(AtomicU16::new(depth));
        self.insert(name, id, depth, Some(audience))
    }

    /// `name` joins to watch the player `watched`: it hears what is said
    /// wherever that player is. Gives why not when that player is not
    /// in the game (a watcher cannot be watched).
    pub(crate) fn join_watching(
        &self,
        name: &str,
        id: PlayerId,
        watched: &str,
    ) -> Result<JoinedWatching, String> {
        let (player, depth, audience) = {
            let talkers = self.lock();
            match talkers.get(watched) {
                Some(Talker { id, depth, audience: Some(audience), .. }) => {
                    (*id, depth.clone(), audience.clone())
                }
                _ => return Err(format!("nobody called {watched} is playing")),
            }
        };
        let (listener, inbox) = self.insert(name, id, depth, None);
        Ok(JoinedWatching { listener, inbox, player, audience })
    }

    /// Whether `name` is playing (a watcher is not).
    pub(crate) fn is_playing(&self, name: &str) -> bool {
        self.lock().get(name).is_some_and(|t| t.audience.is_some())
    }

    fn insert(
        &self,
        name: &str,
        id: PlayerId,
        depth: Arc<AtomicU16>,
        audience: Option<Arc<Audience>>,
    ) -> (Listener, Inbox) {
        let serial = self.joined.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(INBOX_QUEUE);
        let talker = Talker { serial, id, depth: depth.clone(), tx, audience };
        self.lock().insert(name.to_owned(), talker);
        (Listener { serial, depth }, Inbox(rx))
    }

    /// The player who joined with `listener` has left.
    pub fn leave(&self, name: &str, listener: &Listener) {
        let mut talkers = self.lock();
        if talkers.get(name).is_some_and(|t| t.serial == listener.serial) {
            talkers.remove(name);
        }
    }

    /// Says `text` (already cleaned) from `name` to those `to` names, the
    /// speaker included; gives how many inbox it, or the note for a
    /// speaker whose listener is not in the game.
    pub fn say(&self, name: &str, to: &ChatTo, text: &str) -> Result<usize, String> {
        let talkers = self.lock();
        let Some(speaker) = talkers.get(name) else { return Ok(0) };
        let here = speaker.depth.load(Ordering::SeqCst);
        let listeners: Vec<&Talker> = match to {
            ChatTo::Everyone => talkers.values().collect(),
            ChatTo::Depth => {
                talkers.values().filter(|t| t.depth.load(Ordering::SeqCst) == here).collect()
            }
            ChatTo::Player(other) => match talkers.get(other.as_str()) {
                Some(listener) if listener.serial == speaker.serial => vec![speaker],
                Some(listener) => vec![speaker, listener],
                None => return Err(format!("Nobody called {other} is playing.")),
            },
        };
        let line = ServerMsg::Chat {
            from: speaker.id,
            name: name.to_owned(),
            to: to.clone(),
            text: text.to_owned(),
        };
        let frame = codec::encode(&line);
        let mut inbox = 0;
        for listener in listeners {
            match listener.tx.try_send(frame.clone()) {
                Ok(()) => inbox += 1,
                Err(e) => debug!(from = name, to = %listener.id, error = %e, "a line not inbox"),
            }
        }
        Ok(inbox)
    }

    /// Those playing now (not those watching), by name, the first
    /// [`MAX_WHO`](gloam_protocol::MAX_WHO): how many watch each, and
    /// whether it may be watched.
    pub fn playing(&self) -> Vec<Playing> {
        let talkers = self.lock();
        let mut all: Vec<Playing> = talkers
            .iter()
            .filter_map(|(name, t)| {
                let audience = t.audience.as_ref()?;
                let watchers = audience.count().min(usize::from(u8::MAX)) as u8;
                Some(Playing { name: name.clone(), watchers, watchable: audience.is_open() })
            })
            .collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all.truncate(gloam_protocol::MAX_WHO);
        all
    }

    /// Those playing now (not those watching), by depth, each depth's
    /// names in order.
    pub fn by_depth(&self) -> BTreeMap<u16, Vec<String>> {
        let talkers = self.lock();
        let mut depths: BTreeMap<u16, Vec<String>> = BTreeMap::new();
        for (name, t) in talkers.iter().filter(|(_, t)| t.audience.is_some()) {
            depths.entry(t.depth.load(Ordering::SeqCst)).or_default().push(name.clone());
        }
        depths.values_mut().for_each(|names| names.sort());
        depths
    }

    /// Where the player called `name` plays now, and whether it lets
    /// others watch it; `None` when it is not playing.
    pub fn whereabouts(&self, name: &str) -> Option<(u16, bool)> {
        let talkers = self.lock();
        let t = talkers.get(name)?;
        let audience = t.audience.as_ref()?;
        Some((t.depth.load(Ordering::SeqCst), audience.is_open()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Talker>> {
        // A panic elsewhere while holding it leaves the map whole.
        self.by_name.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

//! The depths in play: each built and its task started the first time
//! anyone goes there, retired when it has stood empty long enough; and the
//! notices about saving that every depth's players hear.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;
use tracing::{info, warn};

use super::absence::Absences;
use super::build::{built, resume};
use super::task::{DepthCmd, DepthHandle, DepthHost, DepthTask};
use crate::config::Config;
use crate::store::StoreHandle;

/// How long a notice about saving waits for room in one depth's queue.
const NOTICE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(1);

/// Tells every player when saving stops working (a full or failing disk)
/// and when it works again, for as long as the world lasts.
pub(super) async fn tell_about_saving(
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
pub(super) struct Depths {
    pub(super) config: Config,
    store: StoreHandle,
    running: Mutex<HashMap<u16, DepthHandle>>,
    /// One gate a depth: who builds it holds it, so that a crowd arriving
    /// at once at a depth out of play waits for one building (and one
    /// replay of its history) instead of each building its own.
    building: Mutex<HashMap<u16, Arc<tokio::sync::Mutex<()>>>>,
    /// How many times a depth was built (for tests).
    #[cfg(test)]
    pub(super) builds: std::sync::atomic::AtomicUsize,
    /// The world is shutting down: no depth is started any more.
    pub(super) closed: std::sync::atomic::AtomicBool,
    /// The rounds played, and when each depth was left (see `absence`).
    absences: Absences,
}

impl Depths {
    /// No depth in play yet.
    pub(super) fn new(config: Config, store: StoreHandle) -> Self {
        Self {
            config,
            store,
            running: Mutex::new(HashMap::new()),
            building: Mutex::new(HashMap::new()),
            #[cfg(test)]
            builds: std::sync::atomic::AtomicUsize::new(0),
            closed: std::sync::atomic::AtomicBool::new(false),
            absences: Absences::default(),
        }
    }

    /// No depth is started any more, and those running end once the
    /// connections holding their handles are gone.
    /// Tells every depth in play that the server stops: it applies no
    /// more actions (see [`DepthCmd::Freeze`]). Waits for room in a busy
    /// depth's queue, but not long on one that is stuck.
    pub(super) async fn freeze(&self) {
        let running: Vec<DepthHandle> = self.lock().values().cloned().collect();
        for depth in running {
            let told = depth.tx.send(DepthCmd::Freeze);
            if tokio::time::timeout(NOTICE_PATIENCE, told).await.is_err() {
                warn!(depth = depth.depth, "a depth too busy to be told the server stops");
            }
        }
    }

    pub(super) fn close(&self) {
        self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
        self.lock().clear();
    }

    /// Puts a player on `depth` (an `Arrive`), starting the depth if need
    /// be; gives the handle it went to, or `None` once the world is closing.
    /// A depth that stopped for being empty just as the player came is
    /// started afresh, and the arrival goes there.
    pub(super) async fn arrive(
        self: &Arc<Self>,
        depth: u16,
        mut arrive: DepthCmd,
    ) -> Option<DepthHandle> {
        for _ in 0..3 {
            let here = self.built(depth).await?;
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

    /// [`handle`](Self::handle), waiting at the depth's gate while another
    /// connection builds it, so that it is built once however many come.
    async fn built(self: &Arc<Self>, depth: u16) -> Option<DepthHandle> {
        if let Some(handle) = self.lock().get(&depth) {
            return Some(handle.clone());
        }
        let gate = {
            let mut building = self.building.lock().unwrap_or_else(PoisonError::into_inner);
            building.entry(depth).or_default().clone()
        };
        let _building = gate.lock().await;
        self.handle(depth)
    }

    /// The handle of `depth`, starting its task first if need be (`None`
    /// once the world is closing). The level is built outside the lock, so
    /// a join or a stair trip elsewhere never waits on another depth's
    /// building.
    pub(super) fn handle(self: &Arc<Self>, depth: u16) -> Option<DepthHandle> {
        if self.closed.load(std::sync::atomic::Ordering::SeqCst) {
            return None;
        }
        if let Some(handle) = self.lock().get(&depth) {
            return Some(handle.clone());
        }
        let c = &self.config;
        let build = || {
            // Held (by a test) where a long replay would hold it.
            #[cfg(test)]
            super::gate::wait_while_building(self.as_ref(), depth);
            #[cfg(test)]
            self.builds.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let (mut state, generator) = built(c, depth);
            resume(&mut state, &self.store, c);
            (state, generator)
        };
        // Building a level and replaying its history takes milliseconds to
        // (for a long history) seconds: on the multi-threaded runtime the
        // other tasks of this thread move elsewhere meanwhile.
        let multi_threaded = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        let (state, generator) =
            if multi_threaded { tokio::task::block_in_place(build) } else { build() };
        let mut running = self.lock();
        if let Some(handle) = running.get(&depth) {
            // Another connection built it meanwhile: theirs is the one in play.
            return Some(handle.clone());
        }
        info!(
            depth,
            generator = generator.name(),
            monsters = state.monsters().count(),
            "level built"
        );
        let (tx, rx) = mpsc::channel(c.depth_queue.max(1));
        let handle = DepthHandle { depth, tx };
        let task = DepthTask::new(state, handle.tx.downgrade(), self.clone());
        tokio::spawn(task.run(rx));
        running.insert(depth, handle.clone());
        Some(handle)
    }

    /// Takes `depth` out of play if `me` is still its task's way in: the
    /// next arrival there starts it afresh.
    pub(super) fn retire(&self, depth: u16, me: &mpsc::WeakSender<DepthCmd>) -> bool {
        let mut running = self.lock();
        let current = running
            .get(&depth)
            .is_some_and(|h| me.upgrade().is_some_and(|tx| tx.same_channel(&h.tx)));
        if current {
            running.remove(&depth);
        }
        current
    }

    /// Has `depth`, if it is in play, hand what it applied to the store,
    /// and waits until that is on its way there (not long on a depth that
    /// is stuck): a read of its history after this sees all of it.
    pub(super) async fn keep_log_of(&self, depth: u16) {
        let Some(handle) = self.lock().get(&depth).cloned() else { return };
        let (kept, done) = tokio::sync::oneshot::channel();
        let asked = async {
            if handle.tx.send(DepthCmd::KeepLog { kept }).await.is_ok() {
                let _ = done.await;
            }
        };
        if tokio::time::timeout(NOTICE_PATIENCE, asked).await.is_err() {
            warn!(depth, "a depth too busy to hand its log over for a recording");
        }
    }

    /// Has every depth in play hand what it applied to the store, and
    /// waits until each has (not long on one that is stuck): the server
    /// stops, and its store closes next.
    pub(super) async fn keep_every_log(&self) {
        let running: Vec<u16> = self.lock().keys().copied().collect();
        for depth in running {
            self.keep_log_of(depth).await;
        }
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u16, DepthHandle>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn store(&self) -> &StoreHandle {
        &self.store
    }
}

impl DepthHost for Depths {
    fn config(&self) -> &Config {
        &self.config
    }

    fn store(&self) -> &StoreHandle {
        &self.store
    }

    fn absences(&self) -> &Absences {
        &self.absences
    }

    fn hand_to(self: Arc<Self>, depth: u16, arrive: DepthCmd) {
        tokio::spawn(async move { self.arrive(depth, arrive).await });
    }

    fn retire(&self, depth: u16, me: &mpsc::WeakSender<DepthCmd>) -> bool {
        Depths::retire(self, depth, me)
    }

    fn announce(&self, text: &str) {
        let running: Vec<DepthHandle> = self.lock().values().cloned().collect();
        for depth in running {
            // A depth whose queue is full misses the line rather than
            // keeping this one waiting.
            let _ = depth.tx.try_send(DepthCmd::Tell(text.to_owned()));
        }
    }
}

//! Test doors, outside the house: a test can hold a depth's task still
//! (as a depth that has fallen behind would be), or hold the building of a
//! depth, without any production type knowing. Only test builds have this
//! module; the task's loop and the registry's building look here, in test
//! builds only, at the one place each may be held.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{mpsc, oneshot};

use super::task::DepthCmd;

/// A hold on one depth's task: its way in (to find it by), the sender it
/// tells once it is held, and what it waits for.
type TaskHold = (mpsc::WeakSender<DepthCmd>, oneshot::Sender<()>, oneshot::Receiver<()>);

/// A hold on building one depth of one registry (found by its address):
/// told once building starts, then waits for the receiver.
type BuildHold = (usize, u16, std::sync::mpsc::Sender<()>, std::sync::mpsc::Receiver<()>);

static TASKS: Mutex<Vec<TaskHold>> = Mutex::new(Vec::new());
static BUILDS: Mutex<Vec<BuildHold>> = Mutex::new(Vec::new());

/// Holds the task behind `tx` still at the top of its loop until the
/// returned sender is used or dropped; returns once it is held. (The
/// task is woken by a command for nobody, which changes nothing.)
pub(super) async fn hold_task(tx: &mpsc::Sender<DepthCmd>) -> oneshot::Sender<()> {
    let (release, until) = oneshot::channel();
    let (held, on_hold) = oneshot::channel();
    TASKS.lock().unwrap_or_else(PoisonError::into_inner).push((tx.downgrade(), held, until));
    let nobody = gloam_protocol::PlayerId(u32::MAX);
    tx.send(DepthCmd::Resync(nobody)).await.expect("the depth runs");
    on_hold.await.expect("the depth is held");
    release
}

/// Called by a depth's task at the top of its loop: waits while a test
/// holds it.
pub(super) async fn wait_if_held(me: &mpsc::WeakSender<DepthCmd>) {
    let Some(tx) = me.upgrade() else { return };
    let hold = {
        let mut tasks = TASKS.lock().unwrap_or_else(PoisonError::into_inner);
        let at = tasks.iter().position(|(w, ..)| w.upgrade().is_some_and(|t| t.same_channel(&tx)));
        at.map(|i| tasks.swap_remove(i))
    };
    if let Some((_, held, until)) = hold {
        let _ = held.send(());
        let _ = until.await;
    }
}

/// Holds the building of `depth` by the registry at `registry`: the
/// returned receiver hears once building starts, and building goes on
/// once the sender is used or dropped.
pub(super) fn hold_building<T>(
    registry: &Arc<T>,
    depth: u16,
) -> (std::sync::mpsc::Receiver<()>, std::sync::mpsc::Sender<()>) {
    let (building, started) = std::sync::mpsc::channel();
    let (release, until) = std::sync::mpsc::channel();
    let at = Arc::as_ptr(registry) as usize;
    BUILDS.lock().unwrap_or_else(PoisonError::into_inner).push((at, depth, building, until));
    (started, release)
}

/// Called by the registry at `registry` as it builds `depth`: waits while
/// a test holds that building.
pub(super) fn wait_while_building<T>(registry: &T, depth: u16) {
    let at = registry as *const T as usize;
    let hold = {
        let mut builds = BUILDS.lock().unwrap_or_else(PoisonError::into_inner);
        let found = builds.iter().position(|h| h.0 == at && h.1 == depth);
        found.map(|i| builds.swap_remove(i))
    };
    if let Some((_, _, building, until)) = hold {
        let _ = building.send(());
        let _ = until.recv();
    }
}

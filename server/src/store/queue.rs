//! The way into the store's thread: two lanes.
//!
//! New characters have a lane of their own, which the thread empties
//! first and commits at once, so that a bystander's creation never waits
//! behind a burst of other writes. Taking it ahead of what was sent before
//! changes nothing anyone reads: a name is created once, before it ever
//! plays, so nothing else about it is on its way. (Each creating
//! connection waits for its answer, so this lane holds at most one command
//! per connection.)
//!
//! Everything else goes in one lane, in the order sent, bounded at
//! [`QUEUE`] commands, with back-pressure on whoever keeps asking: a load
//! or a graveyard (what a connection asks on each join and each death)
//! waits for room while the lane is full, so a client that rejoins or dies
//! in a loop is the one held back. The depths' writes (saves, deaths,
//! logs) never wait, as a depth held up by the disk would hold up every
//! player on it, bystanders too; they count toward the bound instead, so
//! while they fill the lane the requests behind them wait. Those writes
//! are bounded in their turn: a depth writes on an arrival, a departure, a
//! death or the stairs (each follows a request, or an action paced per
//! connection), and once a save interval for each player who acted. The
//! rare requests of the host and of a depth being built (a backup, a
//! flush, a depth's log) do not wait either.
//!
//! A write that joins the next commit does not wake the thread while it
//! waits for a commit already set for a later moment ([`Lanes::gathering`]):
//! it is taken then, as it would have been. Woken by each of a crowd's
//! saves, the thread took them one at a time between the depth's sends,
//! two switches of the core each (BENCHMARKS.md, "Where the crowd's tail
//! goes").

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use super::command::Cmd;

/// Commands the lane holds before a load or a graveyard waits for room:
/// four batches of the thread's, a few seconds of a burst.
pub(super) const QUEUE: usize = 4096;

/// The store's thread has ended: nothing sent is taken any more.
#[derive(Debug)]
pub(super) struct Closed;

#[derive(Default)]
pub(super) struct Queue {
    lanes: Mutex<Lanes>,
    /// Wakes the store's thread when a command comes.
    came: Condvar,
    /// Wakes the loads and graveyards that wait for room.
    room: tokio::sync::Notify,
}

#[derive(Default)]
struct Lanes {
    new_characters: VecDeque<Cmd>,
    rest: VecDeque<Cmd>,
    closed: bool,
    /// The store's thread waits for a commit set for a later moment: a
    /// write sent meanwhile joins it then, without waking the thread.
    gathering: bool,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lanes = self.lanes();
        f.debug_struct("Queue")
            .field("new_characters", &lanes.new_characters.len())
            .field("rest", &lanes.rest.len())
            .field("closed", &lanes.closed)
            .finish()
    }
}

impl Queue {
    fn lanes(&self) -> MutexGuard<'_, Lanes> {
        self.lanes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends `cmd` at once, whatever the lane holds.
    pub(super) fn send(&self, cmd: Cmd) -> Result<(), Closed> {
        let mut lanes = self.lanes();
        if lanes.closed {
            return Err(Closed);
        }
        let wake = !(lanes.gathering && cmd.joins_the_next_commit());
        lanes.rest.push_back(cmd);
        if wake {
            self.came.notify_one();
        }
        Ok(())
    }

    /// Sends a new character, in its own lane.
    pub(super) fn send_new_character(&self, cmd: Cmd) -> Result<(), Closed> {
        let mut lanes = self.lanes();
        if lanes.closed {
            return Err(Closed);
        }
        lanes.new_characters.push_back(cmd);
        self.came.notify_one();
        Ok(())
    }

    /// Sends `cmd` once the lane has room for it.
    pub(super) async fn send_when_room(&self, cmd: Cmd) -> Result<(), Closed> {
        loop {
            // Listening before looking, so that room made in between is heard.
            let room = self.room.notified();
            let mut room = std::pin::pin!(room);
            room.as_mut().enable();
            {
                let mut lanes = self.lanes();
                if lanes.closed {
                    return Err(Closed);
                }
                if lanes.rest.len() < QUEUE {
                    lanes.rest.push_back(cmd);
                    self.came.notify_one();
                    return Ok(());
                }
            }
            room.await;
        }
    }

    /// For the store's thread: every new character waiting, then up to
    /// `most` other commands in the order sent. Waits for one until
    /// `until` (None: for as long as it takes); empty if none came by then.
    pub(super) fn take(&self, most: usize, until: Option<Instant>) -> Vec<Cmd> {
        let mut lanes = self.lanes();
        while lanes.new_characters.is_empty() && lanes.rest.is_empty() {
            lanes = match until {
                None => self.came.wait(lanes).unwrap_or_else(PoisonError::into_inner),
                Some(at) => {
                    let now = Instant::now();
                    if at <= now {
                        return Vec::new();
                    }
                    lanes.gathering = true;
                    let waited = self.came.wait_timeout(lanes, at - now);
                    let mut lanes = waited.unwrap_or_else(PoisonError::into_inner).0;
                    lanes.gathering = false;
                    lanes
                }
            };
        }
        let mut batch: Vec<Cmd> = lanes.new_characters.drain(..).collect();
        let count = lanes.rest.len().min(most);
        batch.extend(lanes.rest.drain(..count));
        let room = lanes.rest.len() < QUEUE;
        drop(lanes);
        if room {
            self.room.notify_waiters();
        }
        batch
    }

    /// Whether the store's thread waits for a commit set for later.
    #[cfg(test)]
    pub(super) fn is_gathering(&self) -> bool {
        self.lanes().gathering
    }

    /// Takes nothing more: what waits is dropped (those who wait for an
    /// answer hear that the store is closed), and so is what comes after.
    fn close(&self) {
        let dropped = {
            let mut lanes = self.lanes();
            lanes.closed = true;
            (std::mem::take(&mut lanes.new_characters), std::mem::take(&mut lanes.rest))
        };
        drop(dropped);
        self.room.notify_waiters();
    }
}

/// Closes the queue when dropped: the store's thread holds one, so that
/// however it ends (a panic too) nobody waits for an answer that will not
/// come.
pub(super) struct CloseOnDrop(pub(super) Arc<Queue>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

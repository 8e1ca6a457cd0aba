//! Watching a player: its audience, the seats of those who watch it, and
//! what each seat is fed.
//!
//! A watcher's client must end up holding exactly what its player's client
//! holds, so the stream is cut from the very replies the player's depth
//! sends it: whatever the player's connection takes from the depth, the
//! depth then hands to the player's [`Audience`] too ([`Audience::relay`]),
//! under the same order; a reply the connection did not take (it fell
//! behind) is shown to nobody. When the player leaves, its connection
//! writes every reply it took before its watchers were sent away
//! ([`Presence::leave`](super::Presence::leave)), so that a watcher is
//! never shown what the player was not.
//! A seat taken in the middle of play is *fresh*: at the next delivery to
//! its player (or the resync the watcher asks the depth for) it is given
//! the player's whole view as the depth has told it, instead of that
//! delivery's changes, and from then on the changes. A watcher that reads
//! too slowly loses its seat alone; the player never waits for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Bytes;
use tracing::{debug, info};

/// What a watcher is fed.
#[derive(Debug)]
pub enum StreamPart {
    /// Messages of its player's game, encoded, in the order the player's
    /// client gets them: copied once per delivery, shared by every watcher.
    Frames(Arc<[Bytes]>),
    /// The watching is over, and why.
    End(String),
}

/// Those watching one player, and whether it lets anyone watch.
#[derive(Debug)]
pub struct Audience {
    player: String,
    seats: Mutex<Seats>,
    /// The names of those watching, for the player's HUD and theirs.
    names: watch::Sender<Vec<String>>,
    /// Someone is watching: a depth delivering to an unwatched player
    /// need not take the lock.
    watched: AtomicBool,
    limit: usize,
    /// How many batches a watcher may fall behind before it loses its seat.
    capacity: usize,
}

#[derive(Debug)]
struct Seats {
    open: bool,
    /// The player has left the game: nobody may sit any more.
    closed: bool,
    list: Vec<Seat>,
}

#[derive(Debug)]
struct Seat {
    name: String,
    /// Which watching this is (one name may watch again after leaving).
    serial: u64,
    tx: mpsc::Sender<StreamPart>,
    /// Not yet given the player's whole view.
    fresh: bool,
}

impl Audience {
    /// The audience of `player`, open to watchers when `open`, seating at
    /// most `limit`, each of whom may fall `capacity` batches behind.
    pub fn new(player: &str, open: bool, limit: usize, capacity: usize) -> Self {
        let seats = Seats { open, closed: false, list: Vec::new() };
        Self {
            player: player.to_owned(),
            seats: Mutex::new(seats),
            names: watch::Sender::new(Vec::new()),
            watched: AtomicBool::new(false),
            limit,
            capacity: capacity.max(1),
        }
    }

    /// Whom this audience watches.
    pub fn player(&self) -> &str {
        &self.player
    }

    /// Seats watcher `name` (its `serial`-th watching): its stream, or why
    /// it cannot watch. It is fresh until its depth gives it the view.
    pub fn sit(&self, name: &str, serial: u64) -> Result<mpsc::Receiver<StreamPart>, String> {
        let mut seats = self.lock();
        let player = &self.player;
        if seats.closed {
            return Err(format!("{player} is not playing"));
        }
        if !seats.open {
            return Err(format!("{player} does not let anyone watch"));
        }
        if seats.list.len() >= self.limit {
            let (n, s) = (self.limit, if self.limit == 1 { "" } else { "s" });
            return Err(format!("{player} already has {n} watcher{s}, as many as allowed"));
        }
        let (tx, rx) = mpsc::channel(self.capacity);
        seats.list.push(Seat { name: name.to_owned(), serial, tx, fresh: true });
        info!(player = %player, watcher = name, "starts watching");
        self.changed(&seats);
        Ok(rx)
    }

    /// Watcher `serial` leaves its seat (its connection ended).
    pub fn stand(&self, serial: u64) {
        let mut seats = self.lock();
        let before = seats.list.len();
        seats.list.retain(|s| s.serial != serial);
        if seats.list.len() != before {
            self.changed(&seats);
        }
    }

    /// Sends watcher `name` away; false when nobody of that name watches.
    pub fn kick(&self, name: &str) -> bool {
        let why = format!("{} sent you away", self.player);
        self.send_away(|s| s.name == name, &why) > 0
    }

    /// Lets others watch, or not: saying no sends those watching away.
    pub fn set_open(&self, open: bool) {
        self.lock().open = open;
        if !open {
            let why = format!("{} stopped letting anyone watch", self.player);
            self.send_away(|_| true, &why);
        }
    }

    /// Whether others may watch now.
    pub fn is_open(&self) -> bool {
        self.lock().open
    }

    /// The player's game ended: every watcher is told `why`, and nobody
    /// may sit any more.
    pub fn close(&self, why: &str) {
        self.lock().closed = true;
        self.send_away(|_| true, why);
    }

    /// How many watch now.
    pub fn count(&self) -> usize {
        self.lock().list.len()
    }

    /// The names of those watching, now and as they change.
    pub fn names(&self) -> watch::Receiver<Vec<String>> {
        self.names.subscribe()
    }

    /// Whether anyone watches: a depth copies a reply for the watchers
    /// (see [`relay`](Self::relay)) only then.
    pub fn is_watched(&self) -> bool {
        self.watched.load(Ordering::Acquire)
    }

    /// Hands a watcher what the player's connection just took from the
    /// depth: its `frames`, or to a fresh seat the player's whole `view`
    /// (made only if a seat needs it; `None` when the player is not on the
    /// depth, and the seat stays fresh). A watcher whose stream is full or
    /// gone loses its seat.
    pub fn relay(&self, frames: Vec<Vec<u8>>, view: impl FnOnce() -> Option<Vec<Vec<u8>>>) {
        if !self.is_watched() {
            return;
        }
        let mut seats = self.lock();
        let mut view = Some(view);
        let shared = |frames: Vec<Vec<u8>>| -> Arc<[Bytes]> {
            frames.into_iter().map(Bytes::from).collect()
        };
        let nothing_new = frames.is_empty();
        let mut frames = Some(frames);
        let mut whole: Option<Arc<[Bytes]>> = None;
        let mut changes: Option<Arc<[Bytes]>> = None;
        let before = seats.list.len();
        seats.list.retain_mut(|seat| {
            let batch = if seat.fresh {
                if let Some(make) = view.take() {
                    whole = make().map(shared);
                }
                let Some(whole) = &whole else { return true };
                seat.fresh = false;
                whole.clone()
            } else if nothing_new {
                return true;
            } else {
                changes.get_or_insert_with(|| shared(frames.take().unwrap_or_default())).clone()
            };
            match seat.tx.try_send(StreamPart::Frames(batch)) {
                Ok(()) => true,
                Err(e) => {
                    debug!(player = %self.player, watcher = %seat.name, error = %e, "a watcher loses its seat");
                    false
                }
            }
        });
        if seats.list.len() != before {
            self.changed(&seats);
        }
    }

    /// Sends away the watchers `which` picks, telling them `why` (a
    /// watcher too far behind to be told just goes); gives how many.
    fn send_away(&self, which: impl Fn(&Seat) -> bool, why: &str) -> usize {
        let mut seats = self.lock();
        let before = seats.list.len();
        seats.list.retain(|seat| {
            if !which(seat) {
                return true;
            }
            let _ = seat.tx.try_send(StreamPart::End(why.to_owned()));
            false
        });
        let gone = before - seats.list.len();
        if gone > 0 {
            self.changed(&seats);
        }
        gone
    }

    /// Someone sat or left: the names and the hint follow.
    fn changed(&self, seats: &Seats) {
        self.watched.store(!seats.list.is_empty(), Ordering::Release);
        let names: Vec<String> = seats.list.iter().map(|s| s.name.clone()).collect();
        self.names.send_replace(names);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seats> {
        self.seats.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(stream: Option<StreamPart>) -> Vec<Vec<u8>> {
        match stream {
            Some(StreamPart::Frames(f)) => f.iter().map(|b| b.to_vec()).collect(),
            other => panic!("expected frames, got {other:?}"),
        }
    }

    #[test]
    fn a_fresh_seat_gets_the_whole_view_once_then_the_changes() {
        let audience = Audience::new("ann", true, 8, 4);
        let mut bob = audience.sit("bob", 1).unwrap();
        audience.relay(vec![vec![1]], || Some(vec![vec![9], vec![9]]));
        assert_eq!(frames(bob.try_recv().ok()), vec![vec![9], vec![9]], "the view, not the change");
        audience.relay(vec![vec![2]], || panic!("nobody needs the view"));
        assert_eq!(frames(bob.try_recv().ok()), vec![vec![2]]);
        // Nothing to pass on: nothing sent.
        audience.relay(Vec::new(), || panic!("nobody needs the view"));
        assert!(bob.try_recv().is_err());
    }

    #[test]
    fn a_seat_stays_fresh_while_the_player_is_between_depths() {
        let audience = Audience::new("ann", true, 8, 4);
        let mut bob = audience.sit("bob", 1).unwrap();
        audience.relay(vec![vec![1]], || None);
        assert!(bob.try_recv().is_err(), "no view to give, and no change without it");
        audience.relay(vec![vec![2]], || Some(vec![vec![8]]));
        assert_eq!(frames(bob.try_recv().ok()), vec![vec![8]]);
    }

    #[test]
    fn a_watcher_that_does_not_read_loses_its_seat_alone() {
        let audience = Audience::new("ann", true, 8, 2);
        let mut bob = audience.sit("bob", 1).unwrap();
        let _slow = audience.sit("cat", 2).unwrap();
        let names = audience.names();
        for i in 0..5u8 {
            audience.relay(vec![vec![i]], || Some(Vec::new()));
            while bob.try_recv().is_ok() {}
        }
        assert_eq!(*names.borrow(), vec!["bob".to_owned()], "cat fell behind and went");
        audience.relay(vec![vec![7]], || None);
        assert_eq!(frames(bob.try_recv().ok()), vec![vec![7]], "bob goes on");
    }

    #[test]
    fn refusing_kicking_and_closing_send_watchers_away_with_a_reason() {
        let audience = Audience::new("ann", true, 2, 4);
        let mut bob = audience.sit("bob", 1).unwrap();
        let mut cat = audience.sit("cat", 2).unwrap();
        assert!(audience.sit("dan", 3).unwrap_err().contains("already has 2 watchers"));
        assert!(audience.kick("bob"));
        assert!(!audience.kick("nobody"));
        assert!(matches!(bob.try_recv(), Ok(StreamPart::End(why)) if why == "ann sent you away"));
        audience.set_open(false);
        assert!(
            matches!(cat.try_recv(), Ok(StreamPart::End(why)) if why.contains("stopped letting"))
        );
        assert!(audience.sit("dan", 4).unwrap_err().contains("does not let anyone watch"));
        audience.set_open(true);
        let mut dan = audience.sit("dan", 5).unwrap();
        audience.close("ann has left the game");
        assert!(
            matches!(dan.try_recv(), Ok(StreamPart::End(why)) if why == "ann has left the game")
        );
        assert!(audience.sit("eve", 6).unwrap_err().contains("not playing"));
        assert!(audience.names().borrow().is_empty());
    }
}

//! The lanes into the store's thread: new characters are taken first and
//! never wait for room; a load or a graveyard waits for room while the
//! other lane is full; the depths' writes never wait.

use std::time::Duration;

use futures_util::FutureExt;
use tokio::sync::oneshot;

use super::super::command::Cmd;
use super::super::queue::{QUEUE, Queue};
use super::{disks, snapshot};
use crate::character::Credential;
use crate::store::Store;

fn save(x: u16) -> Cmd {
    Cmd::Save { name: "ann".into(), snapshot: snapshot(1, x) }
}

fn create(name: &str) -> Cmd {
    let known = Credential { name: name.into(), token_hash: [7; 32] };
    Cmd::Create { known, done: oneshot::channel().0 }
}

/// Takes from `queue` on a thread of its own, waiting until `set_for`
/// from now; gives how long it waited and what it took once `send` has
/// been called while it waited.
fn take_while_gathering(set_for: Duration, send: impl FnOnce(&Queue)) -> (Duration, Vec<Cmd>) {
    let queue = std::sync::Arc::new(Queue::default());
    let taker = std::thread::spawn({
        let queue = queue.clone();
        move || {
            let start = std::time::Instant::now();
            let batch = queue.take(10, Some(start + set_for));
            (start.elapsed(), batch)
        }
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !queue.is_gathering() {
        assert!(std::time::Instant::now() < deadline, "the thread never waited");
        std::thread::yield_now();
    }
    send(&queue);
    taker.join().unwrap()
}

/// A crowd's saves come while a commit is set for later: each joins it
/// then, without waking the store's thread one save at a time.
#[test]
fn a_write_does_not_wake_the_store_while_a_commit_is_set_for_later() {
    let set_for = Duration::from_millis(300);
    let (waited, batch) = take_while_gathering(set_for, |queue| queue.send(save(1)).unwrap());
    assert!(waited >= set_for, "woken by the save after {waited:?}");
    assert_eq!(batch.len(), 1, "the save is taken when the commit is due");
}

/// A commit set for later that came due leaves the thread waiting as
/// before: the next write, sent while it waits for nothing in particular,
/// wakes it (a flag left set would leave that write, and the store, asleep).
#[test]
fn a_wait_for_a_commit_that_came_due_leaves_writes_waking_the_store() {
    let queue = Queue::default();
    let soon = std::time::Instant::now() + Duration::from_millis(20);
    assert!(queue.take(10, Some(soon)).is_empty(), "nothing came");
    assert!(!queue.is_gathering(), "no longer waiting for a commit set for later");
}

/// A read, and a new character, are answered at once however long the
/// commit set for later waits.
#[test]
fn a_read_or_a_new_character_wakes_the_store_at_once() {
    let set_for = Duration::from_secs(30);
    let (reply, _answer) = oneshot::channel();
    let read = Cmd::Load { name: "bob".into(), reply };
    let (waited, batch) = take_while_gathering(set_for, |queue| queue.send(read).unwrap());
    assert!(waited < set_for, "the read waited for the commit");
    assert!(matches!(batch[..], [Cmd::Load { .. }]));
    let new = |queue: &Queue| queue.send_new_character(create("cy")).unwrap();
    let (waited, batch) = take_while_gathering(set_for, new);
    assert!(waited < set_for, "the new character waited for the commit");
    assert!(matches!(batch[..], [Cmd::Create { .. }]));
}

#[test]
fn a_new_character_is_taken_first_and_never_waits_for_room() {
    let queue = Queue::default();
    for x in 0..QUEUE as u16 {
        queue.send(save(x)).unwrap();
    }
    let (reply, _answer) = oneshot::channel();
    let mut load = Box::pin(queue.send_when_room(Cmd::Load { name: "bob".into(), reply }));
    assert!(load.as_mut().now_or_never().is_none(), "a load waits while the lane is full");
    queue.send(save(0)).expect("a depth's save never waits");
    queue.send_new_character(create("cy")).expect("a new character never waits");

    let batch = queue.take(10, None);
    assert!(matches!(batch[0], Cmd::Create { .. }), "the new character first");
    assert_eq!(batch.len(), 11, "then the others, in order, up to the most asked");
    assert!(load.as_mut().now_or_never().is_some(), "room made: the load is in");
    let rest = queue.take(usize::MAX, Some(std::time::Instant::now()));
    assert_eq!(rest.len(), QUEUE + 1 - 10 + 1, "the load behind what was sent before it");
    assert!(matches!(rest.last(), Some(Cmd::Load { .. })));
}

/// While the thread is held up (a slow disk) and the lane is full, a load
/// waits for room, and the depths' saves go on without waiting: a save
/// sent after the load had to wait is ahead of it, and the load sees it.
#[test]
fn a_load_waits_for_room_while_the_lane_is_full() {
    let dir = tempfile::tempdir().unwrap();
    let (store, disk): (Store, _) = disks::on_a_disk_the_test_holds(dir.path());
    let (writer, _) = store.start();
    let handle = writer.handle();
    disk.hold();
    handle.save("ann", snapshot(1, 0));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !disk.stopped_a_write() {
        assert!(std::time::Instant::now() < deadline, "the save never reached the disk");
        std::thread::yield_now();
    }
    for x in 0..QUEUE as u16 {
        handle.save("ann", snapshot(1, x));
    }
    let mut load = Box::pin(handle.load("bob"));
    assert!(load.as_mut().now_or_never().is_none());
    handle.save("bob", snapshot(2, 7));
    disk.release();
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let bob = rt.block_on(async { tokio::time::timeout(Duration::from_secs(30), load).await });
    let bob = bob.expect("answered once there was room").unwrap().expect("bob's save is seen");
    assert_eq!((bob.depth, bob.pos.x), (2, 7), "the load got in behind bob's save");
    drop(handle);
    writer.close();
}

/// The yields of the calling thread so far (see `yield_to_the_game`).
fn yields() -> usize {
    super::super::keeper::YIELDS.with(std::cell::Cell::get)
}

/// A crowd's saves are written a few at a time, the store's thread giving
/// way to the game between them and before the commit: where the two
/// share a core, a game's thread ready to run waits no longer than a few
/// saves take, not for the scheduler's next tick.
#[test]
fn the_store_thread_gives_way_between_writes() {
    let db = redb::Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .unwrap();
    let every = super::super::keeper::GIVE_WAY_EVERY;
    let yields_writing = |count: usize| {
        let saves: Vec<Cmd> = (0..count as u16).map(save).collect();
        let before = yields();
        super::super::tables::write(&db, &saves).unwrap();
        yields() - before
    };
    assert_eq!(yields_writing(every), 1, "{every} saves: before the commit alone");
    assert_eq!(yields_writing(every + 1), 2, "and after the first {every}");
    assert_eq!(yields_writing(5 * every), 5, "after each {every} but the last, then the commit");
}

/// A snapshot the store's thread makes for a depth is given pauses that
/// let the game run (a crowd's is tens of milliseconds of writing).
#[test]
fn a_snapshot_made_by_the_store_thread_gives_way() {
    let store = Store::in_memory();
    let (writer, _) = store.start();
    let (tell, heard) = std::sync::mpsc::channel();
    writer.handle().keep_snapshot_made(1, move |pause| {
        let before = yields();
        pause();
        let _ = tell.send(yields() - before);
        crate::store::DepthSnapshot { after: 1, rules: 1, checksum: 1, bytes: vec![1] }
    });
    let given = heard.recv_timeout(Duration::from_secs(10)).expect("the snapshot was made");
    assert_eq!(given, 1, "its pause yields to the game");
}

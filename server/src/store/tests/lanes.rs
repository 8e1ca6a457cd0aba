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

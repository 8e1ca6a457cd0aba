//! A burst of writes (saves, deaths, the rejoins that follow them) must
//! not lock out a brand-new character: creating one waits for its own
//! commit, never behind the burst.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use gloam_protocol::MAX_GRAVEYARD;

use super::{death, snapshot};
use crate::character::Credential;
use crate::store::{Store, StoreHandle};

/// Characters dying and rejoining at once, as so many connections would.
const FLOODERS: u16 = 1000;

/// Flooders that die and rejoin in a loop until `stop`: each saves its
/// character twice (arriving, then acting), dies, asks for the graveyard
/// (as a dying connection does) and loads its character again (its
/// rejoining). Six names among them all. Counts the deaths sent.
fn flood(handle: &StoreHandle, stop: &Arc<AtomicBool>, deaths: &Arc<AtomicUsize>) {
    for k in 0..FLOODERS {
        let (handle, stop, deaths) = (handle.clone(), stop.clone(), deaths.clone());
        tokio::spawn(async move {
            let name = format!("f{}", k % 6);
            let mut rounds = 0;
            while !stop.load(Ordering::Relaxed) {
                handle.save(&name, snapshot(1, k));
                handle.save(&name, snapshot(2, k));
                rounds += 1;
                handle.bury(death(&name, 2, rounds, 1_000));
                deaths.fetch_add(1, Ordering::Relaxed);
                if handle.graveyard(MAX_GRAVEYARD).await.is_err()
                    || handle.load(&name).await.is_err()
                {
                    return;
                }
            }
        });
    }
}

/// Waits (a minute at most) until `deaths` reaches `count`.
async fn until(deaths: &AtomicUsize, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while deaths.load(Ordering::Relaxed) < count {
        assert!(Instant::now() < deadline, "the burst never reached {count} deaths");
        tokio::task::yield_now().await;
    }
}

/// While a thousand connections die and rejoin in a loop (thousands of
/// saves, deaths and loads a second on a real disk), a brand-new character
/// is created within a second, three times over. Its creation waited
/// behind everything queued (one commit per rejoin), seconds on end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_character_is_created_within_a_second_during_a_burst_of_deaths() {
    let dir = tempfile::tempdir().unwrap();
    let (writer, _) = Store::open(dir.path()).unwrap().start();
    let handle = writer.handle();
    let (stop, deaths) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    flood(&handle, &stop, &deaths);
    let mut took = Vec::new();
    for i in 0..3u8 {
        until(&deaths, 2_000 * (usize::from(i) + 1)).await;
        let started = Instant::now();
        let known = Credential { name: format!("newbie{i}"), token_hash: [i; 32] };
        let made = tokio::time::timeout(Duration::from_secs(60), handle.create(known)).await;
        took.push(started.elapsed());
        made.expect("created within a minute").expect("created");
        // Still going: the creation came in the middle of the burst.
        until(&deaths, deaths.load(Ordering::Relaxed) + 100).await;
    }
    stop.store(true, Ordering::Relaxed);
    eprintln!(
        "new characters during a burst of {} deaths took {took:?}",
        deaths.load(Ordering::Relaxed)
    );
    for t in &took {
        assert!(*t < Duration::from_secs(1), "a new character took {t:?}: {took:?}");
    }
    handle.flush().await;
    drop(handle);
    tokio::task::spawn_blocking(move || writer.close()).await.unwrap();
}

//! The store's tests: what it keeps and gives back, how it refuses a
//! folder it cannot use, and how its thread gathers, fails and ends.

/// Each test named, a function of a [`Place`], runs twice: on redb in a
/// data folder of its own, and on PostgreSQL in a database of its own
/// (where PostgreSQL is not installed, that run says so and passes, unless
/// `tests/run-all` requires it: see `gloam_tests::postgres`).
macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        $(mod $test {
            #[test]
            fn redb() {
                super::$test(&super::Place::redb())
            }
            #[test]
            fn postgres() {
                if let Some(place) = super::Place::postgres() {
                    super::$test(&place)
                }
            }
        })*
    };
}

mod burst;
mod disks;
mod lanes;
mod morgues;
mod snapshots;

use std::time::Duration;

use gloam_protocol::{DeathRecord, Pos};
use redb::Database;

use super::keeper::AT_ONCE;
use super::tables::META;
use super::*;
use crate::character::{Credential, KeptPile, Progress, Skills, Snapshot, Vitals};
use crate::config::{WorldSpec, WorldWish};
use crate::mapgen::{Generator, GeneratorSetting, Mix};

/// Where a test's store is kept: a data folder of its own (redb), or a
/// database of its own on the tests' PostgreSQL.
#[derive(Debug)]
enum Place {
    Folder(tempfile::TempDir),
    Database(String),
}

impl Place {
    fn redb() -> Self {
        Place::Folder(tempfile::tempdir().unwrap())
    }

    fn postgres() -> Option<Self> {
        gloam_tests::postgres::database().map(Place::Database)
    }

    /// Another place of the same kind, new.
    fn another(&self) -> Self {
        match self {
            Place::Folder(_) => Place::redb(),
            Place::Database(_) => Place::postgres().expect("PostgreSQL ran for this one"),
        }
    }

    /// The store kept here, opened (again).
    fn open(&self) -> Store {
        match self {
            Place::Folder(dir) => Store::open(dir.path()).unwrap(),
            Place::Database(url) => Store::connect(url).unwrap(),
        }
    }
}

fn spec(seed: u64) -> WorldSpec {
    WorldSpec {
        seed,
        generator: GeneratorSetting::Mixed,
        mix: Mix::default(),
        edition: crate::config::EDITION,
    }
}

fn seed(seed: u64) -> WorldWish {
    WorldWish { seed: Some(seed), ..WorldWish::default() }
}

fn pile(x: u16) -> KeptPile {
    KeptPile { at: Pos { x, y: 3 }, top: "dart".into(), count: x, more: x.is_multiple_of(2) }
}

fn snapshot(depth: u16, x: u16) -> Snapshot {
    Snapshot {
        depth,
        pos: Pos { x, y: 7 },
        vitals: Vitals { hp: 12, max_hp: 30, kills: u32::from(x), rounds: 99, deepest: depth },
        explored: vec![(1, vec![255, 0, 5]), (depth, vec![0, 0x80])],
        piles: vec![(1, Vec::new()), (depth, vec![pile(x)])],
        pack: vec![("dart".into(), x), ("dagger".into(), 1)],
        progress: Progress { xp: u32::from(x) * 10, wielded: Some(1), worn: None },
        known: if x.is_multiple_of(2) { vec!["potion of healing".into()] } else { Vec::new() },
        slain: vec![("jackal".into(), u32::from(x)), ("kobold".into(), 1)],
        background: x.is_multiple_of(3).then(|| {
            ("scout".to_owned(), Skills { to_hit: -1, damage: 2, stealth: 40, throwing: 5 })
        }),
    }
}

/// `store`, whose writes wait `gather` after a commit for others to go
/// with them, instead of `GATHER`.
fn gathering(store: Store, gather: Duration) -> Store {
    Store { gather, ..store }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().build().unwrap()
}

fn death(name: &str, depth: u16, rounds: u64, when: u64) -> DeathRecord {
    let killed_by = "a jackal".into();
    DeathRecord {
        name: name.into(),
        depth,
        rounds,
        kills: 3,
        killed_by,
        when,
        level: 1,
        escaped: false,
        morgue: 0,
    }
}

/// Those who escaped head the graveyard in the hall of the living, in the
/// order they escaped, and every record keeps its level, after a restart
/// too; an escape also takes the character out of play.
fn the_living_head_the_graveyard_and_records_keep_their_level(place: &Place) {
    let escape = |name: &str, when| DeathRecord {
        killed_by: "the Gloamstone".into(),
        escaped: true,
        level: 14,
        ..death(name, 26, 9_000, when)
    };
    {
        let store = place.open();
        store.settle_world(&seed(42), crate::fresh_seed).unwrap();
        let (writer, _) = store.start();
        let handle = writer.handle();
        runtime().block_on(async {
            handle.create(Credential { name: "dee".into(), token_hash: [1; 32] }).await.unwrap();
            handle.save("dee", snapshot(2, 3));
            let saved = handle.load("dee").await.unwrap().unwrap();
            assert_eq!(saved.progress, snapshot(2, 3).progress, "experience and gear are kept");
            handle.bury(DeathRecord { level: 5, ..death("ann", 9, 50, 1_000) });
            handle.bury(escape("dee", 2_000));
            handle.bury(escape("bob", 3_000));
            assert_eq!(handle.load("dee").await.unwrap(), None, "dee's game is over");
        });
        drop(handle);
        writer.close();
    }
    let store = place.open();
    let all = store.graveyard().unwrap();
    let names: Vec<(&str, bool, u8)> =
        all.iter().map(|d| (d.name.as_str(), d.escaped, d.level)).collect();
    assert_eq!(names, [("dee", true, 14), ("bob", true, 14), ("ann", false, 5)]);
    assert_eq!(all[0], escape("dee", 2_000));
}

/// A death takes the character out of play (its next join is a new
/// character under the same name and token) and into the graveyard, which
/// lists the dead deepest first, and outlives closing the file.
fn the_dead_go_to_the_graveyard_and_their_names_stay(place: &Place) {
    let known = Credential { name: "ann".into(), token_hash: [9; 32] };
    {
        let store = place.open();
        store.settle_world(&seed(42), crate::fresh_seed).unwrap();
        let (writer, _) = store.start();
        let handle = writer.handle();
        runtime().block_on(async {
            handle.create(known.clone()).await.unwrap();
            handle.save("ann", snapshot(3, 4));
            assert_eq!(handle.load("ann").await.unwrap().unwrap().vitals.kills, 4);
            handle.bury(death("ann", 3, 50, 1_000));
            handle.bury(death("bob", 7, 10, 2_000));
            handle.bury(death("cy", 3, 80, 3_000));
            assert_eq!(handle.load("ann").await.unwrap(), None, "ann starts afresh");
            let names: Vec<String> =
                handle.graveyard(usize::MAX).await.unwrap().into_iter().map(|d| d.name).collect();
            assert_eq!(names, ["bob", "cy", "ann"], "deepest, then longest lived");
        });
        drop(handle);
        writer.close();
    }
    let store = place.open();
    assert_eq!(store.known(), [known], "the name and its token stay");
    let dead = store.graveyard().unwrap();
    assert_eq!(dead.len(), 3);
    assert_eq!(dead[0], death("bob", 7, 10, 2_000));
}

/// Every death keeps its grave, however many deaths one name has in one
/// second: graves were once kept by (second, name), and a burst of 1,601
/// deaths left 133 graves.
fn every_death_keeps_its_grave_even_many_of_one_name_in_one_second(place: &Place) {
    let (writer, _) = place.open().start();
    let handle = writer.handle();
    runtime().block_on(async {
        for rounds in 0..300 {
            handle.bury(death("ann", 2, rounds, 1_000));
        }
        handle.bury(death("bob", 1, 5, 1_000));
        let dead = handle.graveyard(usize::MAX).await.unwrap();
        assert_eq!(dead.len(), 301, "a grave for each death");
        assert_eq!(dead[0], death("ann", 2, 299, 1_000), "deepest, then longest lived");
        assert_eq!(dead[300].name, "bob");
    });
    drop(handle);
    writer.close();
    let store = place.open();
    assert_eq!(store.graveyard().unwrap().len(), 301, "and they are kept");
    let (writer, _) = store.start();
    writer.handle().bury(death("ann", 2, 0, 1_000));
    writer.close();
    let dead = place.open().graveyard().unwrap();
    assert_eq!(dead.len(), 302, "numbering goes on after a restart");
    let twins: Vec<_> = dead.iter().filter(|d| **d == death("ann", 2, 0, 1_000)).collect();
    assert_eq!(twins.len(), 2, "even a death alike in every field has a grave of its own");
}

/// The uniques slain are kept for good: read with any depth's history,
/// after closing the file too, and a unique slain twice (a history that
/// was lost) is listed once.
fn the_uniques_slain_survive_closing_the_file(place: &Place) {
    {
        let store = place.open();
        store.settle_world(&seed(42), crate::fresh_seed).unwrap();
        assert!(store.depth_history(5).unwrap().slain_uniques.is_empty(), "none yet");
        let (writer, _) = store.start();
        let handle = writer.handle();
        handle.slay_unique("Old Mother Rot", "ann");
        handle.slay_unique("Grishnakh the Kobold Chief", "bob");
        handle.slay_unique("Old Mother Rot", "bob");
        let seen = handle.depth_history(1).unwrap().slain_uniques;
        assert_eq!(seen, ["Grishnakh the Kobold Chief", "Old Mother Rot"], "sees what came before");
        writer.close();
    }
    let store = place.open();
    let kept = store.depth_history(9).unwrap().slain_uniques;
    assert_eq!(kept, ["Grishnakh the Kobold Chief", "Old Mother Rot"]);
}

fn saves_are_loaded_back_and_survive_closing_the_file(place: &Place) {
    let known = Credential { name: "ann".into(), token_hash: [9; 32] };
    {
        let store = place.open();
        assert_eq!(store.settle_world(&seed(42), crate::fresh_seed).unwrap(), spec(42));
        let (writer, _) = store.start();
        let handle = writer.handle();
        runtime().block_on(async {
            handle.create(known.clone()).await.unwrap();
            assert_eq!(handle.load("ann").await.unwrap(), None, "never placed yet");
            handle.save("ann", snapshot(1, 3));
            handle.save("ann", snapshot(2, 4));
            let loaded = handle.load("ann").await.unwrap().unwrap();
            assert_eq!((loaded.depth, loaded.pos), (2, Pos { x: 4, y: 7 }));
            assert_eq!(loaded.explored, vec![(1, vec![255, 0, 5]), (2, vec![0, 0x80])]);
            assert_eq!(loaded.piles, vec![(2, vec![pile(4)])], "depth 1's forgotten since");
            assert_eq!(handle.load("bob").await.unwrap(), None);
        });
        writer.close();
    }
    let store = place.open();
    assert_eq!(store.known(), [known]);
    let id = store.world_id().unwrap();
    assert_eq!(id.len(), 16);
    assert_eq!(store.world_id().unwrap(), id, "the same every time");
    assert_ne!(Store::in_memory().world_id().unwrap(), id, "drawn per world");
    assert_eq!(store.world().unwrap(), Some(spec(42)));
    let (writer, _) = store.start();
    let loaded = runtime().block_on(writer.handle().load("ann")).unwrap().unwrap();
    assert_eq!(loaded.pos, Pos { x: 4, y: 7 });
    assert_eq!(loaded.piles, vec![(2, vec![pile(4)])], "the remembered piles are kept");
}

fn a_stored_world_wins_unless_the_host_asked_for_another(place: &Place) {
    let store = place.open();
    assert_eq!(
        store.settle_world(&seed(1), crate::fresh_seed).unwrap(),
        spec(1),
        "a new world is the one asked for"
    );
    // What the host leaves out comes from the stored world.
    assert_eq!(store.settle_world(&WorldWish::default(), crate::fresh_seed).unwrap(), spec(1));
    let err = store.settle_world(&seed(2), crate::fresh_seed).unwrap_err();
    assert!(matches!(err, StoreError::OtherWorld { .. }));
    let text = err.to_string();
    assert!(text.contains("seed 1") && text.contains("--seed 2"), "{text}");
    // Asking for what is stored is fine.
    assert_eq!(store.settle_world(&seed(1), crate::fresh_seed).unwrap(), spec(1));
    let maze = WorldWish {
        generator: Some(GeneratorSetting::One(Generator::Maze)),
        ..WorldWish::default()
    };
    assert!(
        store
            .settle_world(&maze, crate::fresh_seed)
            .unwrap_err()
            .to_string()
            .contains("--generator maze")
    );
}

#[test]
fn a_new_world_asked_for_nothing_gets_a_random_seed_and_the_defaults() {
    let worlds: Vec<WorldSpec> = (0..2)
        .map(|_| Store::in_memory().settle_world(&WorldWish::default(), crate::fresh_seed).unwrap())
        .collect();
    assert_eq!(worlds[0].generator, GeneratorSetting::Mixed);
    assert_eq!(worlds[0].mix, Mix::default());
    assert_ne!(worlds[0].seed, worlds[1].seed);
}

#[test]
fn a_second_opening_of_a_folder_is_refused_while_the_first_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = Store::open(dir.path()).unwrap();
    let err = Store::open(dir.path()).unwrap_err();
    match &err {
        StoreError::Locked { file, holder } => {
            assert_eq!(file, &dir.path().join(STORE_FILE));
            assert_eq!(holder, &std::process::id().to_string());
        }
        other => panic!("expected Locked, got {other:?}"),
    }
    assert!(err.to_string().contains("world.redb"), "{err}");
    let (writer, _) = first.start();
    writer.close();
    Store::open(dir.path()).expect("free again once the first is closed");
}

/// On PostgreSQL a world is held by its server's session (an advisory
/// lock on the database), as a folder by its lock: a second server is
/// refused while the first plays, and takes it once the first has closed.
#[test]
fn a_second_server_is_refused_a_world_on_postgres_while_the_first_plays_it() {
    let Some(place) = Place::postgres() else { return };
    let first = place.open();
    let err = Store::connect(match &place {
        Place::Database(url) => url,
        Place::Folder(_) => unreachable!("a database"),
    })
    .unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err:?}");
    assert!(err.to_string().contains("postgres://postgres@127.0.0.1"), "{err}");
    let (writer, _) = first.start();
    writer.close();
    drop(place.open());
}

#[test]
fn a_damaged_file_is_an_error_and_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(STORE_FILE);
    let junk: Vec<u8> =
        (0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&file, &junk).unwrap();
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains(&file.display().to_string()), "{err}");
    assert!(std::fs::read(&file).unwrap() == junk, "never overwritten");
}

#[test]
fn a_store_of_another_version_is_an_error_and_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(STORE_FILE);
    {
        let db = Database::create(&file).unwrap();
        let txn = db.begin_write().unwrap();
        txn.open_table(META).unwrap().insert("version", 99u32.to_le_bytes().as_slice()).unwrap();
        txn.commit().unwrap();
    }
    let before = std::fs::read(&file).unwrap();
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::OtherVersion { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("version 99") && text.contains("world.redb"), "{text}");
    assert!(std::fs::read(&file).unwrap() == before, "never overwritten");
}

#[test]
fn a_redb_file_that_is_not_a_gloam_store_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(STORE_FILE);
    drop(Database::create(&file).unwrap());
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
}

#[test]
fn a_missing_folder_and_store_are_created() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("a").join("b");
    let store = Store::open(&inner).unwrap();
    assert_eq!(store.file(), Some(inner.join(STORE_FILE).as_path()));
    assert!(inner.join(STORE_FILE).is_file());
    assert_eq!(store.world().unwrap(), None);
    assert!(store.known().is_empty());
}

#[test]
fn a_store_damaged_inside_is_refused_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (writer, _) = Store::open(dir.path()).unwrap().start();
        let handle = writer.handle();
        runtime().block_on(async {
            for i in 0..200u16 {
                let name = format!("p{i}");
                handle
                    .create(Credential { name: name.clone(), token_hash: [i as u8; 32] })
                    .await
                    .unwrap();
                handle.save(&name, snapshot(i % 5 + 1, i));
            }
            handle.load("p0").await.unwrap();
        });
        writer.close();
    }
    let file = dir.path().join(STORE_FILE);
    let mut bytes = std::fs::read(&file).unwrap();
    // Scribble over every page after the header.
    let len = bytes.len();
    for at in (8192..len).step_by(4096) {
        for b in &mut bytes[(at + 100).min(len)..(at + 200).min(len)] {
            *b ^= 0x5a;
        }
    }
    std::fs::write(&file, &bytes).unwrap();
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
}

fn every_generator_setting_and_a_mix_read_back_as_written(place: &Place) {
    let mix: Mix = "bsp=3,caves=1,maze=0".parse().unwrap();
    for generator in GeneratorSetting::all() {
        let store = place.another().open();
        let asked = WorldWish { seed: Some(5), generator: Some(generator), mix: Some(mix.clone()) };
        let world = store.settle_world(&asked, crate::fresh_seed).unwrap();
        assert_eq!(store.world().unwrap(), Some(world), "{generator:?}");
    }
}

/// Dropping a writer (as an aborted server task does, on an async worker)
/// returns at once even while its thread is busy; the thread still commits
/// what it was sent and then lets the folder go.
#[test]
fn dropping_a_writer_never_waits_for_its_thread() {
    let dir = tempfile::tempdir().unwrap();
    // Busy by a disk that stops taking writes while the test holds it,
    // rather than by a command only tests send: the thread is held where a
    // slow disk would hold it, and its commands stay the game's own.
    let (store, disk) = disks::on_a_disk_the_test_holds(dir.path());
    let (writer, _) = store.start();
    let handle = writer.handle();
    runtime()
        .block_on(handle.create(Credential { name: "ann".into(), token_hash: [1; 32] }))
        .unwrap();
    disk.hold();
    handle.save("ann", snapshot(3, 9));
    drop(handle);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !disk.stopped_a_write() {
        assert!(std::time::Instant::now() < deadline, "the save never reached the disk");
        std::thread::yield_now();
    }
    let (dropped, done) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        drop(writer);
        let _ = dropped.send(());
    });
    done.recv_timeout(Duration::from_secs(10))
        .expect("the drop returned while the store's thread was busy");
    assert!(Store::open(dir.path()).is_err(), "the busy thread still holds the folder");
    disk.release();
    // The thread ends by itself; the folder is free once it has.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let store = loop {
        match Store::open(dir.path()) {
            Ok(store) => break store,
            Err(StoreError::Locked { .. }) if std::time::Instant::now() < deadline => {
                std::thread::yield_now()
            }
            Err(e) => panic!("the folder was not let go: {e}"),
        }
    };
    let (writer, _) = store.start();
    let saved = runtime().block_on(writer.handle().load("ann")).unwrap().expect("committed");
    assert_eq!((saved.depth, saved.pos.x), (3, 9));
    writer.close();
}

/// A backup left unfinished (`.partial`: the server was killed while it
/// wrote it) would stay in `backups/` forever, as no prune looks at it: it
/// is removed when the store opens, and when it backs up again; finished
/// backups stay.
#[test]
fn unfinished_backups_are_removed_when_the_store_opens_and_when_it_backs_up() {
    let dir = tempfile::tempdir().unwrap();
    let backups = dir.path().join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    let finished = backups.join("world-000000000001-000000000.redb");
    let unfinished = |n: u64| backups.join(format!("world-{n:012}-000000000.redb.partial"));
    std::fs::write(&finished, b"a finished backup").unwrap();
    std::fs::write(unfinished(2), b"half a backup").unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert!(!unfinished(2).exists(), "removed when the store opened");
    assert!(finished.exists(), "a finished backup stays");

    let (writer, _) = store.start();
    std::fs::write(unfinished(3), b"half a backup").unwrap();
    let made = runtime().block_on(writer.handle().backup(5)).unwrap();
    writer.close();
    let mut left: Vec<_> =
        std::fs::read_dir(&backups).unwrap().map(|e| e.unwrap().path()).collect();
    left.sort();
    assert_eq!(left, [finished, made], "the unfinished one is gone, the new one finished");
}

/// A backup holds every table of the store: restored, a character is
/// all it was (its pack, experience and remembered piles too) and the
/// graveyard lists the same dead and living, with their levels.
/// Regression: backups left out packs, progress, the graves' levels and
/// the hall of the living.
#[test]
fn a_backup_restores_everything_the_store_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    store.settle_world(&seed(8), crate::fresh_seed).unwrap();
    let (writer, _) = store.start();
    let handle = writer.handle();
    let rt = runtime();
    let dee = DeathRecord { level: 3, morgue: 2, ..death("dee", 4, 70, 1_000) };
    let eve = DeathRecord { level: 5, escaped: true, morgue: 7, ..death("eve", 1, 900, 2_000) };
    let (kept, dead, made) = rt.block_on(async {
        handle.create(Credential { name: "ann".into(), token_hash: [1; 32] }).await.unwrap();
        handle.save("ann", snapshot(2, 4));
        handle.bury(dee);
        handle.bury(eve);
        handle.append_log(3, 0, vec![vec![1], vec![2]], 77);
        handle.start_history(3, 2, 9);
        handle.append_log(3, 2, vec![vec![3]], 78);
        handle.slay_unique("Old Mother Rot", "dee");
        let kept = handle.load("ann").await.unwrap().unwrap();
        (kept, handle.graveyard(10).await.unwrap(), handle.backup(1).await.unwrap())
    });
    writer.close();
    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(made, restored.path().join(STORE_FILE)).unwrap();
    let store = Store::open(restored.path()).unwrap();
    assert_eq!(store.graveyard().unwrap(), dead, "the same dead and living, with their levels");
    let history = store.depth_history(3).unwrap();
    assert_eq!((history.start, history.rules, history.entries), (2, Some(9), vec![vec![3]]));
    assert_eq!(history.live, Some((3, 78)), "depth 3's history, set aside and new");
    assert_eq!(history.slain_uniques, ["Old Mother Rot"], "and the uniques slain");
    let (writer, _) = store.start();
    let ann = rt.block_on(writer.handle().load("ann")).unwrap().expect("ann is in the backup");
    assert_eq!(ann, kept, "ann as she was: pack, experience, piles and all");
    writer.close();
    // And a table added to the store but not to the backup shows here.
    let tables = |dir: &std::path::Path| {
        let db = Database::open(dir.join(STORE_FILE)).unwrap();
        let txn = redb::ReadableDatabase::begin_read(&db).unwrap();
        let mut names: Vec<String> =
            txn.list_tables().unwrap().map(|t| redb::TableHandle::name(&t).to_owned()).collect();
        names.sort();
        names
    };
    assert_eq!(tables(restored.path()), tables(dir.path()), "every table copied");
}

/// While the disk is full saving stops and says so, nothing committed is
/// lost, and the saves made meanwhile are committed by themselves once
/// there is room again.
#[test]
fn a_full_disk_stops_saving_until_there_is_room_and_loses_nothing() {
    let (store, full) = Store::on_a_disk_that_fills();
    let (writer, _) = store.start();
    let handle = writer.handle();
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    rt.block_on(handle.create(Credential { name: "ann".into(), token_hash: [1; 32] })).unwrap();
    handle.save("ann", snapshot(1, 3));
    rt.block_on(handle.flush());
    assert!(handle.is_saving());
    full.store(true, std::sync::atomic::Ordering::SeqCst);
    handle.save("ann", snapshot(2, 5));
    rt.block_on(handle.flush());
    assert!(!handle.is_saving(), "the failed commit is reported");
    let bob = rt.block_on(handle.create(Credential { name: "bob".into(), token_hash: [2; 32] }));
    assert!(bob.is_err(), "no new character while nothing can be saved");
    full.store(false, std::sync::atomic::Ordering::SeqCst);
    let mut saving = handle.saving();
    rt.block_on(async {
        tokio::time::timeout(std::time::Duration::from_secs(10), saving.wait_for(|s| *s))
            .await
            .expect("saving resumed by itself")
            .unwrap();
    });
    let ann = rt.block_on(handle.load("ann")).unwrap().expect("ann is kept");
    assert_eq!((ann.depth, ann.pos.x), (2, 5), "the save made while full was kept and committed");
    assert_eq!(rt.block_on(handle.load("bob")).unwrap(), None);
    writer.close();
}

/// Waits (ten seconds at most) until `writer` has made more than `before`
/// commits.
fn until_committed(writer: &Writer, before: usize, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while writer.commits() == before {
        assert!(std::time::Instant::now() < deadline, "{what} was never committed");
        std::thread::yield_now();
    }
}

/// The first saves in a row are committed at once, each by itself; after
/// those, saves that come while the store gathers go in one commit, and a
/// load waits for no commit unless a write of its own character is
/// pending, which it then sees.
fn saves_are_gathered_and_a_load_commits_only_its_own(place: &Place) {
    // Gathering for as long as the test lasts: after the first few, only a
    // load or a flush commits.
    let store = gathering(place.open(), std::time::Duration::from_secs(3600));
    let (writer, _) = store.start();
    let handle = writer.handle();
    let rt = runtime();
    for x in 0..AT_ONCE as u16 {
        let before = writer.commits();
        handle.save("ann", snapshot(1, x));
        until_committed(&writer, before, "a save to a store not yet busy");
    }

    let before = writer.commits();
    for x in 0..50 {
        handle.save("ann", snapshot(2, x));
        handle.save("bob", snapshot(2, x));
        assert_eq!(rt.block_on(handle.load("cy")).unwrap(), None);
    }
    assert_eq!(writer.commits(), before, "loads of another character committed nothing");

    // Bob's load has his saves pending: it commits them, and ann's, at once.
    let bob = rt.block_on(handle.load("bob")).unwrap().expect("bob's save is seen");
    assert_eq!((bob.depth, bob.pos.x), (2, 49));
    assert_eq!(writer.commits(), before + 1, "a hundred saves in one commit");
    let ann = rt.block_on(handle.load("ann")).unwrap().expect("ann was saved");
    assert_eq!((ann.depth, ann.pos.x), (2, 49));
    assert_eq!(writer.commits(), before + 1, "nothing was left to commit");
    writer.close();
}

/// Commits made at once (for the reads that wait for one, and for new
/// characters) do not run the pace of commits ahead: after thirty in a
/// row, a save is committed a gathering later, not thirty gatherings (a
/// crash in between would have lost all that time of play).
fn a_save_waits_one_gathering_even_after_many_commits_made_at_once(place: &Place) {
    let gather = Duration::from_millis(200);
    let (writer, _) = gathering(place.open(), gather).start();
    let handle = writer.handle();
    let rt = runtime();
    for x in 0..30 {
        handle.save("ann", snapshot(1, x));
        // Sees ann's save: committed at once.
        rt.block_on(handle.load("ann")).unwrap().expect("ann's save");
    }
    let before = writer.commits();
    let started = std::time::Instant::now();
    handle.save("bob", snapshot(1, 1));
    until_committed(&writer, before, "bob's save");
    let took = started.elapsed();
    assert!(took < gather * 5, "bob's save waited {took:?}");
    writer.close();
}

/// While the store is busy, a save is committed by itself once the
/// gathering time has passed, with no load or flush to ask for it.
fn a_gathered_save_is_committed_without_being_asked(place: &Place) {
    let store = gathering(place.open(), std::time::Duration::from_millis(20));
    let (writer, _) = store.start();
    let handle = writer.handle();
    // Busy: the commits that may go at once are spent.
    for x in 0..=AT_ONCE as u16 {
        handle.save("ann", snapshot(1, x));
        runtime().block_on(handle.flush());
    }
    let before = writer.commits();
    handle.save("ann", snapshot(2, 5));
    until_committed(&writer, before, "the gathered save");
    // Committed: a load finds it with nothing pending.
    let ann = runtime().block_on(handle.load("ann")).unwrap().expect("ann was saved");
    assert_eq!((ann.depth, ann.pos.x), (2, 5));
    writer.close();
}

/// A depth's history: entries kept before any start was marked are a
/// history of rules 1 from entry 0; a new history marked after them is
/// read alone, from its start; a gap ends what can be replayed, but the
/// next entry is numbered after everything stored.
fn a_depth_history_is_read_from_its_start_under_its_rules(place: &Place) {
    let (writer, _) = place.open().start();
    let handle = writer.handle();
    let nothing = handle.depth_history(4).unwrap();
    assert_eq!((nothing.rules, nothing.entries.len(), nothing.next), (None, 0, 0));
    handle.append_log(4, 0, vec![vec![1], vec![2], vec![3]], 7);
    let old = handle.depth_history(4).unwrap();
    assert_eq!((old.start, old.rules, old.next), (0, Some(1), 3), "before versions: rules 1");
    assert_eq!(old.entries, [vec![1], vec![2], vec![3]]);
    handle.start_history(4, 3, 2);
    let new = handle.depth_history(4).unwrap();
    assert_eq!((new.start, new.rules, new.entries.len(), new.next), (3, Some(2), 0, 3));
    handle.append_log(4, 3, vec![vec![4]], 8);
    handle.append_log(4, 5, vec![vec![6]], 9);
    let gap = handle.depth_history(4).unwrap();
    assert_eq!(gap.entries, [vec![4]], "nothing after the gap");
    assert_eq!((gap.next, gap.live), (6, Some((6, 9))));
    // A part handed over unsummed keeps its entries, and the checksum
    // kept stays that of the last part summed.
    handle.append_log(4, 6, vec![vec![7]], None);
    let unsummed = handle.depth_history(4).unwrap();
    assert_eq!((unsummed.next, unsummed.live), (7, Some((6, 9))));
    // And the checksum alone, later (the depth fell quiet): no entry more.
    handle.append_log(4, 7, Vec::new(), Some(11));
    let summed = handle.depth_history(4).unwrap();
    assert_eq!((summed.next, summed.live), (7, Some((7, 11))));
    assert_eq!(handle.depth_history(5).unwrap().rules, None, "other depths are apart");
    writer.close();
}

/// A world made before editions keeps the levels its players know: one
/// whose meta says `vaults` is of the second edition, one that says
/// nothing of the first (no vaults); a new world is of the newest.
fn a_world_made_before_editions_keeps_its_levels(place: &Place) {
    let store = place.open();
    let new = store.settle_world(&WorldWish::default(), || 7).unwrap();
    assert_eq!(new.edition, crate::config::EDITION, "a new world is of the newest edition");
    let rewrite = |vaults: Option<&[u8]>| {
        let values = [("edition", None), ("vaults", vaults.map(<[u8]>::to_vec))];
        store.with(|b| b.set_meta(&values)).unwrap();
        store.settle_world(&WorldWish::default(), || 8).unwrap()
    };
    let second = rewrite(Some(b"1"));
    assert_eq!((second.seed, second.edition), (7, 2));
    let first = rewrite(None);
    assert_eq!((first.seed, first.edition), (7, 1));
    let config = crate::Config::default().playing(first);
    assert!(config.vaults.all().is_empty(), "a first-edition world plays without vaults");
    let config = crate::Config::default().playing(second);
    assert_eq!(config.vaults.all().len(), crate::mapgen::Vaults::built_in().all().len());
    let config = crate::Config::default().playing(new);
    assert_eq!(config.items.edition(), crate::config::EDITION);
}

on_both_backends!(
    the_living_head_the_graveyard_and_records_keep_their_level,
    the_dead_go_to_the_graveyard_and_their_names_stay,
    every_death_keeps_its_grave_even_many_of_one_name_in_one_second,
    the_uniques_slain_survive_closing_the_file,
    saves_are_loaded_back_and_survive_closing_the_file,
    a_stored_world_wins_unless_the_host_asked_for_another,
    every_generator_setting_and_a_mix_read_back_as_written,
    saves_are_gathered_and_a_load_commits_only_its_own,
    a_save_waits_one_gathering_even_after_many_commits_made_at_once,
    a_gathered_save_is_committed_without_being_asked,
    a_depth_history_is_read_from_its_start_under_its_rules,
    a_world_made_before_editions_keeps_its_levels,
);

/// A world moved from redb into PostgreSQL (`gloam-server migrate`) reads
/// back alike there: its id and settings, its characters and their saves,
/// the hall of the living and the graves in the same order, the ends of
/// lives, and a depth's history with its snapshot and the uniques slain.
#[test]
fn a_world_copied_into_postgres_reads_back_alike() {
    let Some(target) = Place::postgres() else { return };
    let source = Place::redb();
    let store = source.open();
    store.settle_world(&seed(42), crate::fresh_seed).unwrap();
    let (writer, _) = store.start();
    let handle = writer.handle();
    runtime().block_on(async {
        for (i, name) in ["ann", "bob"].into_iter().enumerate() {
            let known = Credential { name: name.into(), token_hash: [i as u8; 32] };
            handle.create(known).await.unwrap();
            handle.save(name, snapshot(2, 3 + i as u16));
        }
        handle.bury(death("cy", 3, 50, 1_000));
        handle.bury(DeathRecord { escaped: true, level: 9, ..death("dee", 5, 70, 900) });
        handle.bury(death("eve", 3, 50, 1_000));
        handle.bury(DeathRecord { morgue: 2, ..death("fay", 4, 10, 800) });
    });
    handle.end_life_at("cy", 1, 3, 49);
    handle.slay_unique("Old Mother Rot", "ann");
    handle.start_history(2, 0, 5);
    handle.append_log(2, 0, (0..12u8).map(|n| vec![n]).collect(), 77);
    let snapshot_at = |after| DepthSnapshot { after, rules: 5, checksum: after, bytes: vec![1] };
    (1..=6).for_each(|n| handle.keep_snapshot(2, snapshot_at(n * 2)));
    writer.close();

    let (from, to) = (source.open(), target.open());
    assert!(from.copy_into(&to).unwrap().writes > 10);
    drop(to);
    let to = target.open();
    assert_eq!(to.world_id().unwrap(), from.world_id().unwrap(), "the world keeps its id");
    assert_eq!(to.world().unwrap(), Some(spec(42)));
    assert_eq!(to.known(), from.known());
    assert_eq!(to.graveyard().unwrap(), from.graveyard().unwrap());
    assert_eq!(to.graveyard().unwrap().len(), 4);
    for reading in [Reading::Whole, Reading::FromSnapshot] {
        assert_eq!(to.read_history(2, reading).unwrap(), from.read_history(2, reading).unwrap());
    }
    assert_eq!(to.read_history(2, Reading::FromSnapshot).unwrap().snapshot, Some(snapshot_at(12)));
    let read = |store: Store| {
        let (writer, _) = store.start();
        let handle = writer.handle();
        let rt = runtime();
        let saves = ["ann", "bob"].map(|name| rt.block_on(handle.load(name)).unwrap());
        let end = rt.block_on(handle.life_end("cy", 1)).unwrap();
        writer.close();
        (saves, end)
    };
    let (moved, kept) = (read(to), read(from));
    assert_eq!(moved, kept);
    assert!(moved.0.iter().all(Option::is_some) && moved.1 == Some((3, 49)));
}

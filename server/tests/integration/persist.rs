//! Characters survive the server: the real binary is stopped cleanly or
//! killed with SIGKILL mid-play and started again on the same data folder,
//! and a returning player is back where it was with what it remembered. A
//! data folder another server holds, a damaged store and a store of another
//! version are each refused with a clear error, and left as they were.

#![cfg(unix)]

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use gloam_protocol::{Pos, Refusal, Terrain, Token};
use gloam_server::mapgen::{self, Generator, GeneratorSetting, Mix};
use gloam_server::store::{META, STORE_FILE};
use gloam_tests::process::{Failure, ServerProcess};
use gloam_tests::{SimClient, SimError};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");

/// These tests are about what is kept: no monster moves in the way of a
/// returning player or kills one mid-test.
fn quiet(args: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    all.extend(["--bestiary".into(), gloam_tests::QUIET_BESTIARY.into()]);
    all
}

pub(crate) fn start(data: &Path, args: &[&str]) -> ServerProcess {
    let args = quiet(args);
    ServerProcess::start(SERVER, data, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn try_start(data: &Path, args: &[&str]) -> Result<ServerProcess, Failure> {
    let args = quiet(args);
    ServerProcess::try_start(SERVER, data, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Joins as `name`; a refusal comes back as Err.
pub(crate) async fn join(
    url: &str,
    name: &str,
    token: Option<Token>,
) -> Result<SimClient, Refusal> {
    match SimClient::join_with_token(url, name, token, None).await {
        Ok(sim) => Ok(sim),
        Err(SimError::Refused(refusal)) => Err(refusal),
        Err(e) => panic!("{name} could not join: {e}"),
    }
}

/// The level the server builds for this world at `depth`.
fn level_of(seed: u64, depth: u16) -> gloam_server::level::Level {
    let generator =
        mapgen::generator_with(GeneratorSetting::One(Generator::Bsp), &Mix::default(), seed, depth);
    mapgen::build(generator, mapgen::level_seed(seed, depth), depth)
}

#[tokio::test]
async fn a_clean_restart_keeps_depth_position_memory_and_levels() {
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path(), &["--seed", "11", "--generator", "bsp"]);
    let mut ann = join(&server.url, "ann", None).await.unwrap();
    let token = ann.token.expect("a new character gets a token");
    ann.explore_until(|s| s.find(Terrain::StairsDown).is_some(), 400).await.unwrap();
    assert!(ann.descend_known(400).await.unwrap(), "the stairs down were found");
    ann.explore(60).await.unwrap();
    let (depth, at, known) = (ann.state.depth, ann.at(), ann.known());
    assert_eq!(depth, 2);
    ann.quit().await.unwrap();
    assert!(server.process.signal("TERM").success());

    // No --seed or --generator: the stored world is the one played.
    let server = start(data.path(), &[]);
    assert!(server.banner().contains("world seed 11, generator bsp"), "{}", server.banner());
    assert!(server.banner().contains("(1 characters"), "{}", server.banner());
    for wrong in [None, Some([7u8; 16])] {
        let refused = join(&server.url, "ann", wrong).await.err();
        assert_eq!(refused, Some(Refusal::WrongToken), "a name is played only with its token");
    }
    let back = join(&server.url, "ann", Some(token)).await.unwrap();
    assert_eq!((back.state.depth, back.at()), (depth, at), "same depth and cell");
    let known_cells: HashSet<Pos> = known.keys().copied().collect();
    assert_eq!(back.remembered_cells(), known_cells, "the resync is exactly what was known");
    let level = level_of(11, depth);
    for (pos, terrain) in &back.known() {
        assert_eq!(known.get(pos), Some(terrain), "same terrain at {pos:?}");
        assert_eq!(level.terrain(*pos), *terrain, "the level is the world seed's at {pos:?}");
    }
}

/// Where a walker was, when, and what it knew of its depth then.
struct Moment {
    when: Instant,
    depth: u16,
    at: Pos,
    known: HashSet<Pos>,
}

#[tokio::test]
async fn a_killed_server_loses_at_most_the_last_second() {
    killed_in_play(&[]).await;
}

/// Six rounds of play, each ended by a SIGKILL wherever the server is in
/// its saving, on a server started with `store` (its store's options) and
/// again after each kill: each resumed player lost at most the last second.
pub(crate) async fn killed_in_play(store: &[&str]) {
    const ROUNDS: usize = 6;
    let data = tempfile::tempdir().unwrap();
    let mut rng = Pcg64::seed_from_u64(0x6c6f_6d61);
    let mut token = None;
    let mut before_kill: Option<(Instant, Vec<Moment>)> = None;
    for round in 0..ROUNDS {
        let world: &[&str] = if round == 0 { &["--seed", "3", "--generator", "bsp"] } else { &[] };
        let server = start(data.path(), &[world, store].concat());
        let mut walker = join(&server.url, "ann", token).await.unwrap();
        token = walker.token;
        if let Some((killed_at, history)) = before_kill.take() {
            check_resume(&walker, killed_at, &history, round);
        }
        // Walk for a random number of moves, sometimes taking the stairs,
        // then kill the server wherever it is in its saving.
        let moves = rng.random_range(5..80);
        let mut history = Vec::with_capacity(moves);
        let record = |w: &SimClient, history: &mut Vec<Moment>| {
            history.push(Moment {
                when: Instant::now(),
                depth: w.state.depth,
                at: w.at(),
                known: w.known().into_keys().collect(),
            })
        };
        record(&walker, &mut history);
        for _ in 0..moves {
            walker.wander(|n| rng.random_range(0..n)).await.unwrap();
            record(&walker, &mut history);
        }
        if rng.random_bool(0.3) && walker.descend_known(200).await.unwrap() {
            record(&walker, &mut history);
            walker.wander(|n| rng.random_range(0..n)).await.unwrap();
            record(&walker, &mut history);
        }
        let killed_at = Instant::now();
        server.process.kill_hard();
        drop(walker);
        before_kill = Some((killed_at, history));
    }
}

/// The resumed walker stands where it stood at some moment of the last
/// second before the kill (or where it was when that second began), and
/// remembers at least what it knew then.
fn check_resume(walker: &SimClient, killed_at: Instant, history: &[Moment], round: usize) {
    let window = killed_at - Duration::from_secs(1);
    let start = history.iter().rposition(|m| m.when < window).unwrap_or(0);
    let candidates = &history[start..];
    let (depth, at) = (walker.state.depth, walker.at());
    let matched = candidates.iter().any(|m| m.depth == depth && m.at == at);
    if !matched {
        let last = history.last().expect("a history");
        panic!(
            "round {round}: resumed at depth {} {:?}, but in the last second it was at {:?} \
             (last: depth {} {:?}, {:?} before the kill)",
            depth,
            at,
            candidates.iter().map(|m| (m.depth, m.at)).collect::<Vec<_>>(),
            last.depth,
            last.at,
            killed_at - last.when,
        );
    }
    let remembered = walker.remembered_cells();
    let earliest = &history[start];
    // What it knew only within the last second may be lost: a round killed
    // less than a second after joining (its first save not yet committed
    // on a loaded machine) promises nothing of what it saw.
    if earliest.depth == depth && earliest.when < window {
        let lost: Vec<_> = earliest.known.difference(&remembered).collect();
        assert!(
            lost.is_empty(),
            "round {round}: forgot {} cells it knew a second before",
            lost.len()
        );
    }
}

#[tokio::test]
async fn a_second_server_on_the_same_data_is_refused_and_the_first_plays_on() {
    let data = tempfile::tempdir().unwrap();
    let first = start(data.path(), &["--seed", "4"]);
    let ann = join(&first.url, "ann", None).await.unwrap();
    let failure = try_start(data.path(), &[]).expect_err("the second is refused");
    assert!(!failure.status.success());
    let file = data.path().join(STORE_FILE);
    assert!(failure.stderr.contains(&file.display().to_string()), "{}", failure.stderr);
    assert!(failure.stderr.contains("in use by another Gloam server"), "{}", failure.stderr);
    assert!(failure.stderr.contains(&first.process.pid().to_string()), "names the holder");
    assert_eq!(failure.stderr.lines().count(), 1, "one clear line: {}", failure.stderr);
    // The first server is unharmed and keeps its character.
    let token = ann.token;
    ann.quit().await.unwrap();
    let again = join(&first.url, "ann", token).await.unwrap();
    assert_eq!(again.token, token);
}

#[tokio::test]
async fn a_damaged_store_is_refused_and_left_untouched() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join(STORE_FILE);
    let junk: Vec<u8> =
        (0..50_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    std::fs::write(&file, &junk).unwrap();
    let failure = try_start(data.path(), &[]).expect_err("refused");
    assert!(!failure.status.success());
    assert!(failure.stderr.contains(&file.display().to_string()), "{}", failure.stderr);
    assert!(failure.stderr.contains("not a readable Gloam store"), "{}", failure.stderr);
    assert!(std::fs::read(&file).unwrap() == junk, "the file is as it was");
}

#[tokio::test]
async fn a_store_of_another_version_is_refused_and_left_untouched() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join(STORE_FILE);
    write_store_of_version(&file, 99);
    let before = std::fs::read(&file).unwrap();
    let failure = try_start(data.path(), &[]).expect_err("refused");
    assert!(!failure.status.success());
    assert!(failure.stderr.contains(&file.display().to_string()), "{}", failure.stderr);
    assert!(failure.stderr.contains("Gloam store version 99"), "{}", failure.stderr);
    assert!(std::fs::read(&file).unwrap() == before, "the file is as it was");
}

fn write_store_of_version(file: &Path, version: u32) {
    let db = redb::Database::create(file).unwrap();
    let txn = db.begin_write().unwrap();
    txn.open_table(META).unwrap().insert("version", version.to_le_bytes().as_slice()).unwrap();
    txn.commit().unwrap();
}

#[tokio::test]
async fn a_missing_data_folder_is_created_and_named() {
    let data = tempfile::tempdir().unwrap();
    let folder = data.path().join("worlds").join("first");
    let server = start(&folder, &[]);
    assert!(folder.join(STORE_FILE).is_file());
    let file = std::path::absolute(folder.join(STORE_FILE)).unwrap();
    assert!(server.banner().contains(&format!("data: {}", file.display())), "{}", server.banner());
}

/// The newest finished backups in `dir`, oldest first.
fn backups_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.retain(|p| p.extension().is_some_and(|e| e == "redb"));
    found.sort();
    found
}

/// A running server writes a consistent copy of its store when sent
/// SIGUSR1, keeping the newest few; the copy, put in an empty folder, is the
/// world as it was, and play goes on in it.
#[tokio::test]
async fn a_backup_taken_while_serving_restores_and_plays_on() {
    let data = tempfile::tempdir().unwrap();
    let args = ["--seed", "11", "--generator", "bsp", "--backups-kept", "2"];
    let server = start(data.path(), &args);
    let mut ann = join(&server.url, "ann", None).await.unwrap();
    let token = ann.token.expect("a token");
    ann.explore(40).await.unwrap();
    let (depth, at, known) = (ann.state.depth, ann.at(), ann.known());
    // Another player keeps playing while the backups are taken.
    let mut bob = join(&server.url, "bob", None).await.unwrap();
    ann.quit().await.unwrap();
    let dir = data.path().join("backups");
    let mut made = HashSet::new();
    for _ in 0..3 {
        let status = std::process::Command::new("kill")
            .args(["-USR1", &server.process.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            bob.wander(|n| n / 2).await.unwrap();
            if let Some(new) = backups_in(&dir).into_iter().find(|p| !made.contains(p)) {
                made.insert(new);
                break;
            }
            assert!(Instant::now() < deadline, "no backup appeared in {}", dir.display());
        }
    }
    let kept = backups_in(&dir);
    assert_eq!(kept.len(), 2, "only the newest two are kept: {kept:?}");
    assert!(server.process.signal("TERM").success());

    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(kept.last().unwrap(), restored.path().join(STORE_FILE)).unwrap();
    let server = start(restored.path(), &[]);
    assert!(server.banner().contains("world seed 11, generator bsp"), "{}", server.banner());
    let back = join(&server.url, "ann", Some(token)).await.unwrap();
    assert_eq!((back.state.depth, back.at()), (depth, at), "the backup holds where ann stood");
    let known_cells: HashSet<Pos> = known.keys().copied().collect();
    assert_eq!(back.remembered_cells(), known_cells, "and all she had explored");
    let stranger = join(&server.url, "ann", None).await.err();
    assert_eq!(stranger, Some(Refusal::WrongToken), "the key came through the backup too");
}

/// `--backup-every` writes backups on its own while the server runs.
#[tokio::test]
async fn backups_are_written_every_interval() {
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path(), &["--seed", "3", "--backup-every", "1s"]);
    let mut ann = join(&server.url, "ann", None).await.unwrap();
    let dir = data.path().join("backups");
    let deadline = Instant::now() + Duration::from_secs(20);
    while backups_in(&dir).len() < 2 {
        assert!(Instant::now() < deadline, "no backups every second in {}", dir.display());
        ann.wander(|n| n / 2).await.unwrap();
    }
    assert!(server.process.signal("TERM").success());
}

/// A watcher of a player who played before the server was stopped (or
/// killed) and is not back yet is answered at once, with a refusal it may
/// try again after (the clients do: see `client/src/session/retry.rs`),
/// whether it watched before (with its key) or comes new; and it watches
/// once the player is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_of_a_player_not_back_after_a_restart_is_refused_at_once() {
    let data = tempfile::tempdir().unwrap();
    let mut server = start(data.path(), &["--seed", "11", "--generator", "bsp"]);
    let ann = join(&server.url, "ann", None).await.unwrap();
    let eye = SimClient::watch(&server.url, "eye", "ann", None).await.unwrap();
    let (ann_key, eye_key) = (ann.token, eye.token);
    for signal in ["TERM", "KILL"] {
        let bind = server.url.trim_start_matches("ws://").to_owned();
        match signal {
            "KILL" => server.process.kill_hard(),
            _ => assert!(server.process.signal(signal).success()),
        }
        let args = quiet(&[]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        server = ServerProcess::start_at(SERVER, &bind, data.path(), &args);
        for (name, key) in [("eye", eye_key), (&format!("new{signal}"), None)] {
            let asked = Instant::now();
            let refused = SimClient::watch_with_token(&server.url, name, key, "ann", None).await;
            let Err(SimError::Refused(Refusal::CannotWatch { reason })) = refused else {
                panic!("{name} after SIG{signal}: {refused:?}");
            };
            assert_eq!(reason, "nobody called ann is playing");
            assert!(asked.elapsed() < Duration::from_secs(1), "answered at once");
        }
        let back = join(&server.url, "ann", ann_key).await.unwrap();
        let eye = SimClient::watch_with_token(&server.url, "eye", eye_key, "ann", None).await;
        assert!(eye.is_ok(), "eye watches ann back after SIG{signal}: {:?}", eye.err());
        drop((back, eye));
    }
    drop(ann);
}

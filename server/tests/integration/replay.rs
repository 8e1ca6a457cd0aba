//! A depth's history is kept: the real binary is played by several players
//! fighting the seed's monsters for hundreds of rounds, stopped, and
//! `gloam-server replay` rebuilds the depth from the seed and the stored log
//! to the same checksum as the live depth's; started again, the depth takes
//! up its history (its monsters as they were), and after more play the
//! replay still agrees. Every monster each player was shown, in both runs,
//! is what it truly saw in the depth replayed from the log. A player who
//! plays in both runs is sent, in all, exactly what its recording made
//! from the stored history holds, across the restart.

#![cfg(unix)]

use std::process::Command;

use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::history::{self, Glimpse};
use gloam_tests::process::ServerProcess;
use gloam_tests::{Oracle, SimClient, SimError};

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");
const ARGS: [&str; 6] = ["--seed", "21", "--generator", "caves", "--turn-deadline-ms", "30"];
const SEED: u64 = 21;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Caves);

fn oracle() -> Option<Oracle> {
    Some(Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS))
}

fn replay(data: &std::path::Path) -> String {
    let out = Command::new(SERVER)
        .args(["replay", "--depth", "1", "--data"])
        .arg(data)
        .output()
        .expect("gloam-server runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("text")
}

/// Three players explore and fight for `turns` turns each; the dead join
/// again. Gives back what each was shown of the monsters.
async fn play(url: &str, names: [&str; 3], turns: usize) -> Vec<Glimpse> {
    let mut sims = Vec::new();
    for name in names {
        sims.push(SimClient::join(url, name, oracle()).await.expect("join"));
    }
    let mut glimpses = Vec::new();
    for _ in 0..turns {
        for sim in sims.iter_mut() {
            let acted = match sim.fight() {
                Some(action) => sim.act(action).await.map(drop),
                None => sim.explore(1).await.map(drop),
            };
            match acted {
                Ok(()) => {}
                Err(SimError::Died(_)) => {
                    glimpses.extend(sim.take_oracle().unwrap().glimpses);
                    let (name, token) = (sim.name.clone(), sim.token);
                    *sim = SimClient::join_with_token(url, &name, token, oracle()).await.unwrap();
                }
                Err(e) => panic!("{}: {e}", sim.name),
            }
        }
    }
    for sim in sims {
        glimpses.extend(sim.quit_with_oracle().await.expect("quits").unwrap().glimpses);
    }
    glimpses
}

fn commands_and_sum(report: &str) -> (u64, String) {
    let line = report.lines().next().unwrap();
    let commands = line.split_whitespace().nth(2).unwrap().parse().unwrap();
    (commands, line.rsplit(' ').next().unwrap().to_owned())
}

#[tokio::test]
async fn a_depth_replayed_from_the_store_matches_the_live_one_across_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(SERVER, data.path(), &ARGS);
    let shown_first = play(&server.url, ["ann", "bob", "cy"], 120).await;
    assert!(server.process.signal("TERM").success());
    let first = replay(data.path());
    assert!(first.contains("the same"), "{first}");
    let (commands, _) = commands_and_sum(&first);
    assert!(commands > 300, "{first}");

    let server = ServerProcess::start(SERVER, data.path(), &ARGS);
    let shown_second = play(&server.url, ["dee", "eve", "fay"], 60).await;
    assert!(server.process.signal("TERM").success());
    let second = replay(data.path());
    assert!(second.contains("the same"), "{second}");
    let (more, _) = commands_and_sum(&second);
    assert!(more > commands, "the history went on from where it was: {first}{second}");

    let config = Config { seed: SEED, generator: SETTING, ..Config::default() };
    let store = Store::open(data.path()).unwrap();
    let glimpses: Vec<Glimpse> = [shown_first, shown_second].concat();
    let covered =
        history::check_every_depth(&config, &store, &glimpses).unwrap_or_else(|e| panic!("{e}"));
    assert!(covered.glimpses >= 10, "{covered:?}");
}

/// What `player` was sent of its game on one connection: its transcript
/// but the welcome (and the kinds it names) before it and the notice of
/// the restart after it.
fn game_of(player: &SimClient) -> Vec<gloam_protocol::ServerMsg> {
    use gloam_protocol::ServerMsg;
    let sent = player.transcript.as_deref().expect("recorded from the first message");
    assert!(matches!(
        sent[..3],
        [ServerMsg::Welcome { .. }, ServerMsg::Kinds(_), ServerMsg::ItemKinds(_)]
    ));
    sent[3..].iter().filter(|m| !matches!(m, ServerMsg::Restarting)).cloned().collect()
}

/// Ann and bob explore a while, recorded; the server restarts.
async fn explore_recorded(
    url: &str,
    tokens: [Option<gloam_protocol::Token>; 2],
) -> (Vec<gloam_protocol::ServerMsg>, [Option<gloam_protocol::Token>; 2]) {
    // The oracle of a first life only: a fresh one would take what a
    // returning player remembers for cells it never saw.
    let checked = || if tokens[0].is_none() { oracle() } else { None };
    let mut ann = SimClient::join_recorded(url, "ann", tokens[0], checked()).await.expect("ann");
    let mut bob = SimClient::join_recorded(url, "bob", tokens[1], checked()).await.expect("bob");
    for _ in 0..40 {
        ann.explore(1).await.expect("ann explores");
        bob.explore(1).await.expect("bob explores");
    }
    ann.sync().await.expect("ann is answered");
    let tokens = [ann.token, bob.token];
    (game_of(&ann), tokens)
}

#[tokio::test]
async fn a_recording_made_from_the_store_goes_on_across_a_restart() {
    const QUIET: [&str; 2] =
        ["--bestiary", concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/assets/quiet-bestiary.toml")];
    let args = [&ARGS[..], &QUIET].concat();
    let data = tempfile::tempdir().unwrap();
    let server = ServerProcess::start(SERVER, data.path(), &args);
    let (first, tokens) = explore_recorded(&server.url, [None, None]).await;
    assert!(server.process.signal("TERM").success());
    let server = ServerProcess::start(SERVER, data.path(), &args);
    let (second, _) = explore_recorded(&server.url, tokens).await;
    assert!(server.process.signal("TERM").success());

    let store = Store::open(data.path()).unwrap();
    let world = store.world().unwrap().expect("a world");
    let bestiary = gloam_server::bestiary::Bestiary::load(std::path::Path::new(QUIET[1])).unwrap();
    let config =
        Config { bestiary: std::sync::Arc::new(bestiary), ..Config::default() }.playing(world);
    let stored = store.depth_history(1).unwrap();
    let made = gloam_server::world::record_history(&config, 1, &stored, "ann", 0..=u64::MAX)
        .expect("the history records");
    let recorded: Vec<gloam_protocol::ServerMsg> = made.into_iter().map(|r| r.msg).collect();
    let first_len = first.len();
    let sent = [first, second].concat();
    let first = (0..recorded.len().min(sent.len())).find(|&i| recorded[i] != sent[i]);
    let at = |m: &[gloam_protocol::ServerMsg], i: usize| {
        format!("{:?}", &m[i.saturating_sub(2)..(i + 3).min(m.len())])
    };
    if let Some(i) = first {
        panic!(
            "message {i} of {} (first run {}): recorded {}\nsent {}",
            sent.len(),
            first_len,
            at(&recorded, i),
            at(&sent, i)
        );
    }
    assert_eq!(recorded.len(), sent.len(), "as many messages as were sent in both runs");
    assert!(recorded == sent, "ann's recording is what she was sent, across the restart");

    // The host's view of it: a line a message, then how many.
    drop(store);
    let out = Command::new(SERVER)
        .args(["record", "--depth", "1", "--player", "ann", QUIET[0], QUIET[1], "--data"])
        .arg(data.path())
        .output()
        .expect("gloam-server runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8(out.stdout).expect("text");
    let last = report.lines().last().unwrap_or_default();
    assert!(last.starts_with(&format!("{} messages to ann (", sent.len())), "{last}");
    assert_eq!(report.lines().count(), sent.len() + 1, "a line a message");
}

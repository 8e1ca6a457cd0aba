//! A depth's history is kept: the real binary is played by several players
//! fighting the seed's monsters for hundreds of rounds, stopped, and
//! `gloam-server replay` rebuilds the depth from the seed and the stored log
//! to the same checksum as the live depth's; started again, the depth takes
//! up its history (its monsters as they were), and after more play the
//! replay still agrees. Every monster each player was shown, in both runs,
//! is what it truly saw in the depth replayed from the log.

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

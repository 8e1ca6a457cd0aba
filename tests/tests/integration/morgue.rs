//! Morgue files over real sockets: a character that kills a rat and is
//! killed by a giant has its life written to the data folder's
//! `morgue/ann/1.txt` and served at `/morgue/ann/1.txt` on the game's
//! port: its kills by kind, what it carried, the last lines its client's
//! log showed, and the map of the depth exactly as its client knew it. A
//! second life of the name, made with its token as a scout, is number 2
//! and says it was a scout; a path that names no file is a 404, one that
//! is no morgue path a 400, and nothing outside the morgue
//! folder is ever read.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use gloam_protocol::{Action, Dir, Pos, ServerMsg};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::oracle::{Oracle, check_morgue_map};
use gloam_tests::raw::{self, HttpAnswer};
use gloam_tests::{ARENA_BESTIARY, SimClient, SimError, TestServer};

const SEED: u64 = 7_070;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);

fn bestiary() -> Bestiary {
    Bestiary::load(std::path::Path::new(ARENA_BESTIARY)).expect("the arena bestiary loads")
}

async fn get(addr: SocketAddr, method: &str, target: &str) -> HttpAnswer {
    let head = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    raw::http(addr, head.as_bytes()).await
}

/// The lines of the section headed `title`, up to the blank line after.
fn section<'t>(text: &'t str, title: &str) -> &'t str {
    let (_, rest) = text.split_once(&format!("\n{title}\n")).unwrap_or_else(|| panic!("{title}"));
    rest.split_once("\n\n").map_or(rest, |(section, _)| section)
}

/// Strikes the rat on `rat` until it dies, then waits for the giant: gives
/// the record of the death.
async fn kill_the_rat_then_die(ann: &mut SimClient, rat: Pos) -> gloam_protocol::DeathRecord {
    let arrival = ann.at();
    let dir = Dir::ALL.into_iter().find(|&d| arrival.step(d) == Some(rat)).expect("beside");
    for _ in 0..60 {
        let rat_alive = ann.state.monsters.values().any(|m| m.at == rat);
        let action = if rat_alive { Action::Move(dir) } else { Action::Wait };
        match ann.act(action).await {
            Ok(_) => {}
            Err(SimError::Died(record)) => return record,
            Err(e) => panic!("ann's game broke: {e:?}"),
        }
    }
    panic!("the giant never came")
}

#[tokio::test]
async fn a_death_writes_a_morgue_file_served_on_the_games_port() {
    let (_, cells) = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 1);
    let rat = cells[0];
    let (_, far) = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 5);
    let placed = [("rat", rat), ("giant", far[0])];
    let placements: Vec<Placement> =
        placed.iter().map(|&(kind, pos)| Placement { kind: kind.into(), depth: 1, pos }).collect();
    let config = Config {
        seed: SEED,
        generator: SETTING,
        actions_per_second: 1_000,
        action_burst: 1_000,
        bestiary: Arc::new(bestiary()),
        placements: placements.clone(),
        turn_deadline: Duration::from_secs(30),
        ..Config::default()
    };
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config, store).await.expect("the server starts");
    let oracle = Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
        .with_monsters(bestiary(), placements);
    let mut ann = SimClient::join(&server.url(), "ann", Some(oracle)).await.expect("joins");
    let token = ann.token;
    let record = kill_the_rat_then_die(&mut ann, rat).await;
    assert_eq!((record.morgue, record.killed_by.as_str()), (1, "a giant"), "{record:?}");

    let answer = get(server.addr, "GET", "/morgue/ann/1.txt").await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.header("Content-Type"), Some("text/plain; charset=utf-8"));
    let text = String::from_utf8(answer.body.clone()).expect("UTF-8");
    let on_disk = data.path().join("morgue").join("ann").join("1.txt");
    assert_eq!(std::fs::read_to_string(on_disk).expect("in the data folder"), text);

    assert!(text.starts_with("Gloam morgue file: ann, life 1\n"), "{text}");
    assert!(text.contains("\nKilled by a giant on depth 1, "), "{text}");
    assert!(text.contains("\nKills: 1\n      1  rat\n"), "the rat, by kind:\n{text}");
    let names: Vec<&str> = ann
        .state
        .pack
        .iter()
        .map(|c| ann.state.item_kinds[usize::from(c.kind)].name.as_str())
        .collect();
    let carried: Vec<&str> = section(&text, "Carried:").lines().collect();
    if names.is_empty() {
        assert_eq!(carried, ["  nothing"]);
    } else {
        assert_eq!(carried.len(), names.len(), "{carried:?} for {names:?}");
        for (line, name) in carried.iter().zip(&names) {
            assert!(line.contains(name), "{line} for {name}");
        }
    }
    // The last lines its client showed, as it showed them.
    let shown: Vec<String> =
        ann.state.log.iter().filter(|l| !l.is_chat()).map(|l| format!("  {}", l.shown())).collect();
    let last = &shown[shown.len().saturating_sub(20)..];
    let lines = section(&text, "Last messages:");
    assert_eq!(lines.lines().collect::<Vec<_>>(), last, "the log as the client showed it");
    assert!(lines.contains("The giant crushes you"), "{lines}");
    check_morgue_map(&text, &ann.state).unwrap_or_else(|e| panic!("{e}\n{text}"));

    let head = get(server.addr, "HEAD", "/morgue/ann/1.txt").await;
    assert_eq!((head.status, head.body.len()), (200, 0));
    assert_eq!(head.header("Content-Length"), Some(text.len().to_string().as_str()));
    for (target, status) in [
        ("/morgue/ann/2.txt", 404),
        ("/morgue/bob/1.txt", 404),
        ("/morgue/ann/01.txt", 400),
        ("/morgue/ann/0.txt", 400),
        ("/morgue/../world.redb", 400),
        ("/morgue/ann/../../world.redb", 400),
        ("/morgue/%2e%2e/1.txt", 400),
        ("/morgue/ann/1.txt.part", 400),
    ] {
        let answer = get(server.addr, "GET", target).await;
        assert_eq!(answer.status, status, "{target}: {answer:?}");
        assert!(!answer.body.starts_with(b"Gloam morgue"), "{target}");
    }

    // The name's next life is number 2, of the background chosen for it.
    let url = server.url();
    let mut again = SimClient::create_again(&url, "ann", token, "scout", None).await.unwrap();
    assert_eq!(again.state.hp, Some((26, 26)), "a scout's hit points");
    assert!(!again.state.pack.is_empty(), "a scout's kit");
    let mut second = None;
    for _ in 0..60 {
        match again.act(Action::Wait).await {
            Ok(msgs) => assert!(!msgs.iter().any(|m| matches!(m, ServerMsg::Refused(_)))),
            Err(SimError::Died(record)) => second = Some(record),
            Err(e) => panic!("{e:?}"),
        }
        if second.is_some() {
            break;
        }
    }
    let second = second.expect("the giant kills the second life too");
    assert_eq!(second.morgue, 2);
    let answer = get(server.addr, "GET", "/morgue/ann/2.txt").await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.starts_with(b"Gloam morgue file: ann, life 2\n"));
    let text = String::from_utf8(answer.body).expect("UTF-8");
    assert!(text.contains("\nBackground: scout\n"), "{text}");
    assert!(!text.contains("Gloam morgue file: ann, life 1\n"), "{text}");
    assert!(data.path().join("morgue/ann/1.txt").exists(), "the first life stays");
}

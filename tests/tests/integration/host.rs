//! What a host sets and sees, over real sockets: a stop that tells every
//! player and watcher the server restarts (and saves them first), the
//! message of the day, the cap on players, and the world's name. The
//! host's page of the world (`/status`) is in `page.rs`; the real binary's
//! signals in the server's `tests/signal.rs`.

use std::time::Duration;

use gloam_protocol::{Action, Refusal, ServerMsg};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::sim::SimError;
use gloam_tests::{Oracle, SimClient, TestServer};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const SEED: u64 = 38;

fn config() -> Config {
    Config {
        generator: GeneratorSetting::One(Generator::Bsp),
        actions_per_second: 1_000_000,
        action_burst: 1_000_000,
        ..Config::quiet(SEED)
    }
}

fn oracle() -> Oracle {
    Oracle::new(SEED, GeneratorSetting::One(Generator::Bsp), gloam_protocol::SIGHT_RADIUS)
}

/// Everything `sim` reads until the server closes (each message checked by
/// its oracle, if it has one), and the close frame.
async fn until_closed(sim: &mut SimClient) -> (Vec<ServerMsg>, Option<CloseFrame>) {
    let mut read = Vec::new();
    // Each read is bounded by the client's own timeout.
    loop {
        match sim.recv().await {
            Ok(msg) => read.push(msg),
            Err(SimError::Closed(frame)) => return (read, frame),
            Err(e) => panic!("{e} after {read:?}"),
        }
    }
}

/// The server stopped as a host stops it (SIGTERM, Ctrl-C: here its
/// injected shutdown) tells each player and each watcher that it is
/// restarting, as the last message before a close with 1012 (Service
/// Restart); their mirrors keep it, the log says it; and the player was
/// saved first: the same world started again has it where it stood.
#[tokio::test]
async fn a_stop_tells_players_and_watchers_the_server_restarts_once_they_are_saved() {
    let data = tempfile::tempdir().unwrap();
    let server = TestServer::start_with_store(config(), Store::open(data.path()).unwrap()).await;
    let server = server.unwrap();
    let mut ann = SimClient::join(&server.url(), "ann", Some(oracle())).await.unwrap();
    ann.explore(20).await.unwrap();
    let (stood, token) = (ann.at(), ann.token);
    let seen = ann.oracle().map(Oracle::fork);
    let mut bob = SimClient::watch(&server.url(), "bob", "ann", seen).await.unwrap();
    server.stop(Duration::from_secs(10)).await.expect("run returns Ok");
    for sim in [&mut ann, &mut bob] {
        let (read, frame) = until_closed(sim).await;
        assert_eq!(read.last(), Some(&ServerMsg::Restarting), "the last word: {read:?}");
        let frame = frame.expect("a close frame");
        assert_eq!(frame.code, CloseCode::Restart);
        assert_eq!(frame.reason.as_str(), "the server is restarting");
        assert!(sim.state.restarting, "the mirror keeps it");
        let last = sim.state.log.back().map(|l| l.text.clone());
        assert_eq!(last.as_deref(), Some("The server is restarting."));
    }
    let again = TestServer::start_with_store(config(), Store::open(data.path()).unwrap()).await;
    let again = again.unwrap();
    let seen = ann.take_oracle();
    let ann = SimClient::join_with_token(&again.url(), "ann", token, seen).await.unwrap();
    assert_eq!(ann.at(), stood, "saved where it stood before the restart was told");
    assert!(!ann.state.restarting, "a new welcome forgets the last connection's restart");
}

/// A host's message of the day is told to each player and each watcher
/// as it joins, after the kinds and before its game (for a watcher,
/// before whom it watches: it reads the lines as said to it, not turned
/// into its player's).
#[tokio::test]
async fn the_message_of_the_day_is_told_on_joining_to_players_and_watchers() {
    let motd = vec!["Welcome to Gloamhold.".to_owned(), "You may be watched here.".to_owned()];
    let server = TestServer::start(Config { motd: motd.clone(), ..config() }).await.unwrap();
    let ann = SimClient::join(&server.url(), "ann", Some(oracle())).await.unwrap();
    let bob = SimClient::watch(&server.url(), "bob", "ann", None).await.unwrap();
    for sim in [&ann, &bob] {
        let log: Vec<&str> = sim.state.log.iter().map(|l| l.text.as_str()).collect();
        let at = log.iter().position(|&l| l == motd[0]).unwrap_or_else(|| panic!("{log:?}"));
        assert_eq!(log[at + 1], motd[1], "{log:?}");
    }
    // Nothing else joins with it: without one, no line is said.
    let plain = TestServer::start(config()).await.unwrap();
    let cy = SimClient::join(&plain.url(), "cy", None).await.unwrap();
    assert!(cy.state.log.iter().all(|l| !motd.contains(&l.text)));
}

/// With `--max-players 2`, a third player is refused with the reason and
/// how many may play; a watcher is not counted, nor a player joining
/// again with its key (a takeover), and a place given up is taken again.
/// A watcher who would play is a new player, refused too.
#[tokio::test]
async fn a_full_server_refuses_new_players_but_not_rejoins_or_watchers() {
    let server = TestServer::start(Config { max_players: Some(2), ..config() }).await.unwrap();
    let url = server.url();
    let mut ann = SimClient::join(&url, "ann", None).await.unwrap();
    let bob = SimClient::join(&url, "bob", None).await.unwrap();
    let full = Refusal::Full { players: 2 };
    match SimClient::join(&url, "cy", None).await {
        Err(SimError::Refused(refusal)) => assert_eq!(refusal, full),
        other => panic!("cy should be refused: {:?}", other.map(|s| s.state.me)),
    }
    assert_eq!(full.to_string(), "The server is full (2 players); try again later.");
    let dan = SimClient::watch(&url, "dan", "ann", None).await.expect("a watcher is not counted");
    match SimClient::join_with_token(&url, "dan", dan.token, None).await {
        Err(SimError::Refused(refusal)) => assert_eq!(refusal, full),
        other => panic!("dan may not play: {:?}", other.map(|s| s.state.me)),
    }
    let again = SimClient::join_with_token(&url, "ann", ann.token, None).await;
    let again = again.expect("ann takes her own character over");
    let (_, frame) = until_closed(&mut ann).await;
    assert_eq!(frame.map(|f| f.code), Some(CloseCode::Policy), "the old connection is closed");
    bob.quit().await.unwrap();
    let cy = SimClient::join(&url, "cy", None).await.expect("bob's place is free");
    assert!(cy.state.me.is_some() && again.state.me.is_some());
}

/// The world's name is told in every welcome (a player's and a
/// watcher's), for the clients' titles; a world without one sends none.
#[tokio::test]
async fn the_welcome_names_the_world() {
    let named = Config { world_name: "Gloamhold".into(), ..config() };
    let server = TestServer::start(named).await.unwrap();
    let ann = SimClient::join(&server.url(), "ann", None).await.unwrap();
    let bob = SimClient::watch(&server.url(), "bob", "ann", None).await.unwrap();
    assert_eq!((ann.state.world.as_str(), bob.state.world.as_str()), ("Gloamhold", "Gloamhold"));
    let plain = TestServer::start(config()).await.unwrap();
    let mut cy = SimClient::join(&plain.url(), "cy", None).await.unwrap();
    assert_eq!(cy.state.world, "");
    cy.act(Action::Wait).await.unwrap();
}

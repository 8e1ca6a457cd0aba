//! The window's player against a real server, through the window's own
//! session and connections (no window): ann, a fighter, is crushed by a
//! giant that stands beside her arrival; her end page offers her last
//! rounds, `r` asks for them on a connection of its own, and the recording
//! plays on the player page to its end, the giant's blow in its log; Esc
//! goes back to the end page. And a fall watched from the graveyard by a
//! player still in play: bob's, by its letter, with ann's game kept.

use std::sync::Arc;
use std::time::{Duration, Instant};

use gloam_client::input::Key;
use gloam_client::layout::Layout;
use gloam_client::net::{self, NetEvent};
use gloam_client::scene::Page;
use gloam_client::session::{KeyOutcome, Session, Tick};
use gloam_client::tokens::TokenSlot;
use gloam_protocol::{Action, ClientMsg};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::TestServer;

const SEED: u64 = 31;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);
const PATIENCE: Duration = Duration::from_secs(30);

/// The world of seed 31 with no monster but a giant beside the arrival,
/// whose one blow kills.
fn config() -> Config {
    let (bestiary, placements) = gloam_tests::giant_beside_arrival(SEED, SETTING);
    Config {
        generator: SETTING,
        bestiary: Arc::new(bestiary),
        placements,
        ..Config::with_seed(SEED)
    }
}

/// Gives the session what `connection` says (to the game, or of the
/// recording with `recording`) until `done` holds.
fn until(
    session: &mut Session,
    connection: &net::Connection,
    recording: bool,
    done: impl Fn(&Session) -> bool,
) {
    let deadline = Instant::now() + PATIENCE;
    while !done(session) {
        let left = deadline.saturating_duration_since(Instant::now());
        let event = connection.events.recv_timeout(left).expect("the server answers in time");
        match recording {
            true => session.on_recording(event),
            false => {
                assert!(!matches!(event, NetEvent::Closed { .. }), "closed: {event:?}");
                session.on_net(event);
            }
        }
    }
}

/// The window's text, at 1280 x 720.
fn screen(session: &Session) -> String {
    gloam_client::view::screen_text(&session.scene(), &Layout::at(1280, 720, 16, 9))
}

/// Plays the recording on a clock of its own, at x16, to its end.
fn play_to_the_end(session: &mut Session) {
    let mut now = Instant::now();
    for _ in 0..4 {
        assert_eq!(session.on_key(Key::Char('+'), false, false, now), KeyOutcome::Redraw);
    }
    // A group a tick at most: a recording has at most 500 rounds.
    for _ in 0..1_000 {
        match session.tick(now) {
            Tick::Moved(Some(wait)) | Tick::Within(wait) => now += wait,
            Tick::Moved(None) | Tick::Idle => return,
            Tick::Connect => panic!("nothing to connect to"),
        }
    }
    panic!("the recording did not end");
}

/// A runtime and a server on it with a store of its own (in the folder
/// given back), so that its falls are kept and can be watched again.
fn a_server_that_keeps_its_graves() -> (tokio::runtime::Runtime, tempfile::TempDir, TestServer) {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = runtime.block_on(TestServer::start_with_store(config(), store)).unwrap();
    (runtime, data, server)
}

#[test]
fn a_death_is_watched_again_from_the_end_page() {
    let (runtime, _data, server) = a_server_that_keeps_its_graves();
    let url = server.url();
    let slot = TokenSlot { store: None, server: url.clone(), name: "ann".into() };
    let mut session = Session::new(url.clone(), slot);
    let first = session.opening(None, Some("fighter".into()));
    let game = net::connect(runtime.handle(), url.clone(), first, || {});
    until(&mut session, &game, false, |s| s.scene().state.at.is_some());

    // She waits, and the giant beside her strikes.
    let now = Instant::now();
    let wait = ClientMsg::Act(Action::Wait);
    assert_eq!(session.on_key(Key::Char('5'), false, false, now), KeyOutcome::Send(wait.clone()));
    assert!(game.send(wait.clone()));
    session.sent(&wait, now);
    until(&mut session, &game, false, |s| s.page() == Page::End);
    let end = screen(&session);
    assert!(end.contains("Enter: a new character named ann    r: watch your last rounds"), "{end}");

    let KeyOutcome::Ask(ask) = session.on_key(Key::Char('r'), false, false, now) else {
        panic!("r asks for a recording");
    };
    assert!(screen(&session).contains("  Recording:             asking the server..."));
    let recording = net::ask(runtime.handle(), url, ask, || {});
    until(&mut session, &recording, true, |s| !s.asking());
    assert!(session.playing_back(), "{}", screen(&session));

    play_to_the_end(&mut session);
    let hud: Vec<String> =
        gloam_client::hud::hud(&session.scene()).into_iter().map(|l| l.text).collect();
    assert_eq!(hud[1], "Space: play again    +/-: faster, slower    Esc: back");
    assert!(hud[2].starts_with("Recording: ann on depth 1, round "), "{hud:#?}");
    assert!(hud[2].ends_with(", x16, ended"), "{hud:#?}");
    assert!(hud.iter().any(|l| l.starts_with("The giant crushes you")), "{hud:#?}");
    assert!(screen(&session).contains('@'), "her map is drawn");

    assert_eq!(session.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
    assert_eq!((session.page(), session.playing_back()), (Page::End, false));
    drop(game);
    drop(server);
}

/// Sends what a key asked for on the game's connection, as the window does.
fn carry_out(session: &mut Session, game: &net::Connection, outcome: KeyOutcome) {
    let KeyOutcome::Send(msg) = outcome else { panic!("{outcome:?} sends nothing") };
    assert!(game.send(msg.clone()));
    session.sent(&msg, Instant::now());
}

fn hud_text(session: &Session) -> Vec<String> {
    gloam_client::hud::hud(&session.scene()).into_iter().map(|l| l.text).collect()
}

/// bob is crushed by the giant; ann, in play beside it (alone on the
/// depth, nothing moves until she acts), opens the graveyard, and bob's
/// grave's letter plays his fall on the player page, her game's keys
/// doing nothing meanwhile; Space at its end plays it again; Esc goes back
/// to the graveyard and Esc again to her map, where she still plays.
#[test]
fn a_fall_is_watched_from_the_graveyard_while_playing() {
    let (runtime, _data, server) = a_server_that_keeps_its_graves();
    let url = server.url();
    let bob = runtime.block_on(async {
        let mut bob = gloam_tests::SimClient::join(&url, "bob", None).await.expect("bob joins");
        let died = bob.act(Action::Wait).await;
        assert!(matches!(died, Err(gloam_tests::SimError::Died(_))), "{died:?}");
        bob
    });
    let life = bob.state.death.as_ref().expect("bob's record").morgue;
    let slot = TokenSlot { store: None, server: url.clone(), name: "ann".into() };
    let mut session = Session::new(url.clone(), slot);
    let first = session.opening(None, Some("fighter".into()));
    let game = net::connect(runtime.handle(), url.clone(), first, || {});
    until(&mut session, &game, false, |s| s.scene().state.at.is_some());

    let now = Instant::now();
    let shown = session.on_key(Key::Char('G'), false, false, now);
    carry_out(&mut session, &game, shown);
    until(&mut session, &game, false, |s| s.page() == Page::Graveyard);
    let page = screen(&session);
    assert!(page.contains("  a) bob "), "{page}");
    assert!(page.contains("a: watch a fall    any other key: back"), "{page}");
    let KeyOutcome::Ask(ask) = session.on_key(Key::Char('a'), false, false, now) else {
        panic!("a asks for bob's fall");
    };
    let want = gloam_protocol::RecordingAsk::Grave { name: "bob".into(), life, rounds: 100 };
    assert!(matches!(&ask, ClientMsg::Recording { ask, .. } if *ask == want), "{ask:?}");
    let recording = net::ask(runtime.handle(), url, ask, || {});
    until(&mut session, &recording, true, |s| !s.asking());
    assert!(session.playing_back(), "{}", screen(&session));
    for key in [Key::Char('5'), Key::Char('h'), Key::Enter, Key::Char('G')] {
        assert_eq!(session.on_key(key, false, false, now), KeyOutcome::Ignore, "{key:?}");
    }

    play_to_the_end(&mut session);
    let hud = hud_text(&session);
    assert!(hud[2].starts_with("Recording: bob on depth 1, round "), "{hud:#?}");
    assert!(hud[2].ends_with(", x16, ended"), "{hud:#?}");
    assert!(hud.iter().any(|l| l.starts_with("The giant crushes you")), "{hud:#?}");
    assert_eq!(session.on_key(Key::Char(' '), false, false, now), KeyOutcome::Redraw);
    let again = hud_text(&session);
    assert!(again[2].ends_with(", x16, playing"), "played again: {again:#?}");
    assert!(!again.iter().any(|l| l.starts_with("The giant crushes you")), "{again:#?}");

    assert_eq!(session.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
    assert_eq!((session.page(), session.playing_back()), (Page::Graveyard, false));
    assert_eq!(session.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
    assert_eq!(session.page(), Page::Map);
    assert!(session.scene().state.ending().is_none(), "ann still plays");
    assert!(hud_text(&session)[0].starts_with("Depth 1 "), "{:#?}", hud_text(&session));
    drop((game, recording));
    drop(server);
}

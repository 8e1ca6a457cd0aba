//! A new character's first screen against a real server, through the
//! window's own connection and session (no window): a name with no kept
//! token opens with the question, the server's list shows as the first
//! screen, `a` makes a fighter on the same connection, and it arrives with
//! a fighter's 36 hit points and its key kept; the next connection, with
//! the key, is a plain hello. A screen read for longer than the server
//! waits for a hello stays up when the server closes, and the letter
//! connects again with the Create first.

use std::time::{Duration, Instant};

use gloam_client::input::Key;
use gloam_client::net::{self, NetEvent};
use gloam_client::scene::{Link, Page};
use gloam_client::session::{KeyOutcome, Session, Tick};
use gloam_client::tokens::{TokenSlot, TokenStore};
use gloam_protocol::{ClientMsg, PROTOCOL_VERSION};
use gloam_server::Config;
use gloam_tests::TestServer;

const PATIENCE: Duration = Duration::from_secs(30);

/// Gives the session what the connection says until `done` holds.
fn until(session: &mut Session, connection: &net::Connection, done: impl Fn(&Session) -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done(session) {
        let left = deadline.saturating_duration_since(Instant::now());
        let event = connection.events.recv_timeout(left).expect("the server answers in time");
        assert!(!matches!(event, NetEvent::Closed { .. }), "closed: {event:?}");
        session.on_net(event);
    }
}

#[test]
fn a_new_name_chooses_a_background_on_the_first_screen_and_arrives_as_it() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let server = runtime.block_on(TestServer::start(Config::default())).unwrap();
    let keys = tempfile::tempdir().unwrap();
    let slot = || TokenSlot {
        store: Some(TokenStore::at(keys.path())),
        server: server.url(),
        name: "ann".into(),
    };
    let mut session = Session::new(server.url(), slot());
    let first = session.opening(None, None);
    assert_eq!(first, ClientMsg::Backgrounds, "no key kept: a new character");
    let connection = net::connect(runtime.handle(), server.url(), first, || {});
    until(&mut session, &connection, |s| s.page() == Page::Backgrounds);
    let shown =
        session.scene().state.backgrounds.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    assert_eq!(shown.first().map(String::as_str), Some("fighter"), "{shown:?}");
    assert!(shown.len() >= 4, "at least four backgrounds: {shown:?}");

    let outcome = session.on_key(Key::Char('a'), false, false, Instant::now());
    let create = ClientMsg::Create {
        version: PROTOCOL_VERSION,
        name: "ann".into(),
        token: None,
        background: "fighter".into(),
    };
    assert_eq!(outcome, KeyOutcome::Send(create.clone()));
    assert!(connection.send(create));
    until(&mut session, &connection, |s| s.scene().state.hp.is_some());
    assert_eq!(*session.scene().link, Link::Playing);
    assert_eq!(session.scene().state.hp, Some((36, 36)), "a fighter's hit points");
    assert!(connection.quit());

    // Back again: the key was kept, so the hello is a plain one.
    let again = Session::new(server.url(), slot());
    let hello = again.opening(None, None);
    assert!(matches!(hello, ClientMsg::Hello { token: Some(_), .. }), "{hello:?}");
    drop(server);
}

#[test]
fn a_first_screen_read_past_the_servers_wait_stays_and_the_letter_connects_again() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let config = Config { handshake_timeout: Duration::from_millis(300), ..Config::default() };
    let server = runtime.block_on(TestServer::start(config)).unwrap();
    let slot = TokenSlot { store: None, server: server.url(), name: "bea".into() };
    let mut session = Session::new(server.url(), slot);
    let connection =
        net::connect(runtime.handle(), server.url(), session.opening(None, None), || {});
    until(&mut session, &connection, |s| s.page() == Page::Backgrounds);
    // The player reads on; the server stops waiting.
    let closed = connection.events.recv_timeout(PATIENCE).expect("the server closes in time");
    assert!(matches!(closed, NetEvent::Closed { .. }), "{closed:?}");
    session.on_net(closed);
    assert_eq!(session.page(), Page::Backgrounds, "the screen stays up");
    assert_eq!(session.tick(Instant::now()), Tick::Idle, "nothing tried by itself");

    assert_eq!(session.on_key(Key::Char('a'), false, false, Instant::now()), KeyOutcome::Redraw);
    assert_eq!(session.tick(Instant::now()), Tick::Connect);
    let first = session.opening(None, None);
    assert!(matches!(&first, ClientMsg::Create { background, .. } if background == "fighter"));
    let connection = net::connect(runtime.handle(), server.url(), first, || {});
    until(&mut session, &connection, |s| s.scene().state.hp.is_some());
    assert_eq!(session.scene().state.hp, Some((36, 36)), "a fighter's hit points");
    assert!(connection.quit());
    drop(server);
}

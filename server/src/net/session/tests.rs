//! Sessions served over in-memory streams, from whatever address a test
//! names: the whole path of a client, from the upgrade to the close,
//! without a socket.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{Action, ClientMsg, PROTOCOL_VERSION, Refusal, codec};
use tokio::time::timeout;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{Bytes, Message};

use super::*;
use crate::store::Store;

type Client = WebSocketStream<tokio::io::DuplexStream>;

const LOCAL: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// How long any one wait on the server may take.
const PATIENCE: Duration = Duration::from_secs(10);

/// A world served to in-memory clients.
struct Server {
    _writer: crate::store::Writer,
    world: Arc<World>,
    hellos: Arc<Hellos>,
    stop: CancellationToken,
}

impl Server {
    fn start(config: Config) -> Self {
        let (writer, known) = Store::in_memory().start();
        let hellos = Arc::new(Hellos::new(config.hello_pace));
        let world = Arc::new(World::new(config, writer.handle(), known));
        Self { _writer: writer, world, hellos, stop: CancellationToken::new() }
    }

    /// A client from `from` that has said `first`, and its session's task.
    async fn connect(
        &self,
        from: IpAddr,
        first: &ClientMsg,
    ) -> (Client, tokio::task::JoinHandle<()>) {
        let (client_io, server_io) = tokio::io::duplex(64 * 1024);
        let peer = SocketAddr::new(from, 9);
        let (world, hellos, stop) = (self.world.clone(), self.hellos.clone(), self.stop.clone());
        let task = tokio::spawn(serve(server_io, peer, world, hellos, stop));
        let (mut ws, _) = tokio_tungstenite::client_async("ws://test/", client_io).await.unwrap();
        ws.send(Message::Binary(codec::encode(first).into())).await.unwrap();
        (ws, task)
    }

    /// `name`, joined from `from`, having read up to its first sight.
    async fn join(&self, from: IpAddr, name: &str) -> (Client, tokio::task::JoinHandle<()>) {
        let (mut ws, task) = self.connect(from, &hello(name)).await;
        until(&mut ws, |m| decoded(m).is_some_and(|m| matches!(m, ServerMsg::Sight(_)))).await;
        (ws, task)
    }
}

fn hello(name: &str) -> ClientMsg {
    ClientMsg::Hello { version: PROTOCOL_VERSION, name: name.into(), token: None }
}

fn decoded(m: &Message) -> Option<ServerMsg> {
    match m {
        Message::Binary(b) => codec::decode_server(b).ok(),
        _ => None,
    }
}

async fn recv(ws: &mut Client) -> Message {
    timeout(PATIENCE, ws.next())
        .await
        .expect("the server answers in time")
        .expect("the connection is open")
        .expect("a frame")
}

/// Reads until a frame `wanted` is true of, which it gives; all within
/// [`PATIENCE`]. A close before it fails the test.
async fn until(ws: &mut Client, wanted: impl Fn(&Message) -> bool) -> Message {
    let reading = async {
        loop {
            match recv(ws).await {
                m if wanted(&m) => return m,
                Message::Close(c) => panic!("closed instead: {c:?}"),
                _ => {}
            }
        }
    };
    timeout(PATIENCE, reading).await.expect("the frame comes in time")
}

/// Reads until the server's close frame (within [`PATIENCE`]) and gives it.
async fn close_of(ws: &mut Client) -> Option<(CloseCode, String)> {
    let reading = async {
        loop {
            if let Message::Close(frame) = recv(ws).await {
                return frame.map(|f| (f.code, f.reason.to_string()));
            }
        }
    };
    timeout(PATIENCE, reading).await.expect("closed in time")
}

fn is_sight(m: &Message) -> bool {
    decoded(m).is_some_and(|m| matches!(m, ServerMsg::Sight(_)))
}

/// A connection whose hello does not come in time is closed with "try
/// again later" (1013), which clients try again, not with a policy close
/// (1008), which locked a player late in a reconnect storm out.
#[tokio::test]
async fn a_hello_that_does_not_come_in_time_is_closed_to_be_tried_again() {
    let handshake_timeout = Duration::from_millis(200);
    let server = Server::start(Config { handshake_timeout, ..Config::quiet(4) });
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let peer = SocketAddr::new(LOCAL, 9);
    let (world, hellos) = (server.world.clone(), server.hellos.clone());
    let _task = tokio::spawn(serve(server_io, peer, world, hellos, server.stop.clone()));
    let (mut ws, _) = tokio_tungstenite::client_async("ws://test/", client_io).await.unwrap();
    let (code, reason) = close_of(&mut ws).await.expect("a close frame");
    assert_eq!(code, CloseCode::Again, "{reason}");
    assert!(reason.contains("no hello in time"), "{reason}");
}

/// Sends a ping and reads until its pong.
async fn ping(ws: &mut Client, payload: &'static [u8]) {
    ws.send(Message::Ping(Bytes::from_static(payload))).await.unwrap();
    until(ws, |m| matches!(m, Message::Pong(p) if p.as_ref() == payload)).await;
}

async fn send(ws: &mut Client, msg: &ClientMsg) {
    ws.send(Message::Binary(codec::encode(msg).into())).await.unwrap();
}

/// An action the pacer lets through goes to the world as it arrives:
/// a timer set for "now" fires on the timer's next millisecond, which
/// added a millisecond to every answer.
#[tokio::test]
async fn an_action_is_answered_without_waiting_for_a_timer() {
    let server = Server::start(Config::quiet(3));
    let (mut ws, task) = server.join(LOCAL, "ann").await;
    // From here the clock moves only when every task waits on a timer.
    tokio::time::pause();
    for _ in 0..3 {
        let sent = tokio::time::Instant::now();
        send(&mut ws, &ClientMsg::Act(Action::Wait)).await;
        until(&mut ws, is_sight).await;
        assert_eq!(tokio::time::Instant::now() - sent, Duration::ZERO, "answered at once");
    }
    server.stop.cancel();
    drop(ws);
    let _ = timeout(PATIENCE, task).await;
}

/// A depth that stops taking commands (its queue full) must not take
/// its players' connections with it: they still answer pings and hear
/// the server stop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_depth_leaves_its_connections_answering() {
    let server = Server::start(Config { depth_queue: 2, ..Config::with_seed(3) });
    let (mut ws, task) = server.join(LOCAL, "ann").await;
    let release = server.world.stall(1).await;
    // More actions than the stalled depth's queue holds. The session reads
    // its client's frames in order, and offers an action it has read to
    // the depth before it reads the next frame: the pong comes after the
    // full queue turned the first action back.
    for _ in 0..10 {
        send(&mut ws, &ClientMsg::Act(Action::Wait)).await;
    }
    ping(&mut ws, b"still there?").await;
    server.stop.cancel();
    assert_eq!(close_of(&mut ws).await.map(|(code, _)| code), Some(CloseCode::Restart));
    drop(ws);
    let ended = timeout(PATIENCE, task).await;
    assert!(ended.is_ok(), "the connection task ended while its depth stood still");
    drop(release);
}

/// The depth's full queue turns an action back; the session offers it
/// again until the depth has room, and then it is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_a_full_depth_turned_back_is_answered_once_it_has_room() {
    let server = Server::start(Config { depth_queue: 2, ..Config::quiet(3) });
    let (mut ws, task) = server.join(LOCAL, "ann").await;
    let release = server.world.stall(1).await;
    send(&mut ws, &ClientMsg::Act(Action::Wait)).await;
    // Turned back by now (see the test above).
    ping(&mut ws, b"turned back").await;
    drop(release);
    until(&mut ws, is_sight).await;
    server.stop.cancel();
    drop(ws);
    assert!(timeout(PATIENCE, task).await.is_ok());
}

/// Says hello as `name` from `from`: the client once it has seen its
/// first sight, or the refusal.
async fn say_hello(server: &Server, from: IpAddr, name: &str) -> Result<Client, Refusal> {
    greet(server, from, &hello(name)).await
}

/// Says `first` from `from`: the client once it has seen its first
/// sight, or the refusal.
async fn greet(server: &Server, from: IpAddr, first: &ClientMsg) -> Result<Client, Refusal> {
    let (mut ws, _task) = server.connect(from, first).await;
    let answer = until(&mut ws, |m| {
        decoded(m).is_some_and(|m| matches!(m, ServerMsg::Sight(_) | ServerMsg::Refused(_)))
    });
    match decoded(&answer.await) {
        Some(ServerMsg::Refused(refusal)) => Err(refusal),
        _ => Ok(ws),
    }
}

/// Quits and waits for the close.
async fn quit(mut ws: Client) {
    send(&mut ws, &ClientMsg::Act(Action::Quit)).await;
    assert_eq!(close_of(&mut ws).await.map(|(code, _)| code), Some(CloseCode::Normal));
}

/// One address saying hello and quitting in a tight loop gets its burst
/// and then a hello a second, each refusal saying why; another address
/// joins at once meanwhile, and the host's own machine is not paced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hellos_are_paced_per_address() {
    let config = Config { new_characters_per_address_per_hour: 1_000, ..Config::quiet(3) };
    let pace = config.hello_pace;
    let server = Server::start(config);
    let flooder = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
    let started = tokio::time::Instant::now();
    let (mut joined, mut refusals) = (0, Vec::new());
    let flood = async {
        for i in 0..60 {
            match say_hello(&server, flooder, &format!("f{i}")).await {
                Ok(ws) => {
                    joined += 1;
                    quit(ws).await;
                }
                Err(refusal) => refusals.push(refusal.to_string()),
            }
        }
    };
    timeout(Duration::from_secs(60), flood).await.expect("the flood ends in time");
    let allowed = pace.burst + pace.per_second * (started.elapsed().as_secs() as u32 + 1);
    assert!(joined >= pace.burst && joined <= allowed, "{joined} joined, at most {allowed}");
    assert!(
        refusals.iter().all(|r| r.contains("too many hellos from your address")),
        "{refusals:?}"
    );
    let other = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 2));
    let at_once = tokio::time::Instant::now();
    let bob = say_hello(&server, other, "bob").await.expect("another address joins");
    assert!(at_once.elapsed() < Duration::from_secs(1), "at once: {:?}", at_once.elapsed());
    quit(bob).await;
    for i in 0..2 * pace.burst {
        let host = say_hello(&server, LOCAL, &format!("h{i}")).await.expect("loopback joins");
        quit(host).await;
    }
    assert!(say_hello(&server, flooder, "again").await.is_err(), "the flooder still waits");
}

/// A watch of a player nobody plays is refused, and spends none of its
/// address's hourly quota of new characters: after three under new
/// names, a new character from that address still joins.
#[tokio::test]
async fn a_watch_of_nobody_spends_none_of_the_addresss_new_characters() {
    let config = Config { new_characters_per_address_per_hour: 1, ..Config::quiet(3) };
    let server = Server::start(config);
    let from = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
    for i in 0..3 {
        let (name, player) = (format!("w{i}"), "nobody".into());
        let watch = ClientMsg::Watch { version: PROTOCOL_VERSION, name, token: None, player };
        let refused = greet(&server, from, &watch).await.err();
        assert!(matches!(refused, Some(Refusal::CannotWatch { .. })), "{refused:?}");
    }
    let ann = say_hello(&server, from, "ann").await.err();
    assert_eq!(ann, None, "a new character joins");
}

/// A watcher whose link broke comes back with its key while the server
/// still holds its old connection (a dead link is noticed only at its
/// next ping or write): the new connection takes the name over and
/// watches, as a returning player's does, and the old one is sent away.
/// A name being played still cannot watch (`tests/integration/watch.rs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_back_with_its_key_takes_its_name_over_from_its_old_connection() {
    let server = Server::start(Config::quiet(3));
    let (_ann, _task) = server.join(LOCAL, "ann").await;
    let watch = |token| ClientMsg::Watch {
        version: PROTOCOL_VERSION,
        name: "eye".into(),
        token,
        player: "ann".into(),
    };
    let (mut old, _old_task) = server.connect(LOCAL, &watch(None)).await;
    let welcome =
        until(&mut old, |m| decoded(m).is_some_and(|m| matches!(m, ServerMsg::Welcome { .. })));
    let Some(ServerMsg::Welcome { token: Some(token), .. }) = decoded(&welcome.await) else {
        panic!("a new watcher's name is given a key");
    };

    let (mut back, _back_task) = server.connect(LOCAL, &watch(Some(token))).await;
    let answer = until(&mut back, |m| {
        decoded(m)
            .is_some_and(|m| matches!(m, ServerMsg::EnterLevel { .. } | ServerMsg::Refused(_)))
    })
    .await;
    let answer = decoded(&answer);
    assert!(matches!(answer, Some(ServerMsg::EnterLevel { .. })), "watches again: {answer:?}");
    let (code, reason) = close_of(&mut old).await.expect("the old connection is sent away");
    assert_eq!(code, CloseCode::Policy);
    assert_eq!(reason, "another connection took this name over, to play or to watch");
}

/// A watch of a player who lets nobody watch is refused, and gives back
/// the new character its new name counted against its address: after
/// three, a new character from that address still joins.
#[tokio::test]
async fn a_refused_watch_gives_back_the_addresss_new_character() {
    let config = Config { new_characters_per_address_per_hour: 1, ..Config::quiet(3) };
    let server = Server::start(config);
    let (mut bob, _task) = server.join(LOCAL, "bob").await;
    send(&mut bob, &ClientMsg::Audience(gloam_protocol::AudienceCmd::Refuse)).await;
    // Answered in order: once bob's list of players comes, his refusal is in.
    send(&mut bob, &ClientMsg::Who).await;
    until(&mut bob, |m| decoded(m).is_some_and(|m| matches!(m, ServerMsg::Who(_)))).await;
    let from = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 8));
    for i in 0..3 {
        let (name, player) = (format!("w{i}"), "bob".into());
        let watch = ClientMsg::Watch { version: PROTOCOL_VERSION, name, token: None, player };
        let refused = greet(&server, from, &watch).await.err();
        assert!(matches!(refused, Some(Refusal::CannotWatch { .. })), "{refused:?}");
    }
    let ann = say_hello(&server, from, "ann").await.err();
    assert_eq!(ann, None, "a new character joins");
}

/// Lines that are nothing once cleaned are paced like any other: five at
/// once pass (and are dropped), the sixth is warned about, and the
/// seventh is a flood that ends the connection.
#[tokio::test]
async fn a_flood_of_control_characters_is_paced_as_chat() {
    let server = Server::start(Config::quiet(3));
    let (mut ws, _task) = server.join(LOCAL, "ann").await;
    let empty = ClientMsg::Chat { to: gloam_protocol::ChatTo::Depth, text: "\u{7}\u{1b}\n".into() };
    for _ in 0..7 {
        send(&mut ws, &empty).await;
    }
    // Asked for last, paced as chat: answered only if the lines were not.
    send(&mut ws, &ClientMsg::Who).await;
    let told = until(&mut ws, |m| {
        let answer =
            decoded(m).is_some_and(|m| matches!(m, ServerMsg::Note(_) | ServerMsg::Who(_)));
        answer || matches!(m, Message::Close(_))
    })
    .await;
    let warning = ServerMsg::Note(crate::net::chat::TOO_FAST.into());
    assert_eq!(decoded(&told), Some(warning), "warned first: {told:?}");
    let (code, reason) = close_of(&mut ws).await.expect("a close with a reason");
    assert_eq!(code, CloseCode::Policy);
    assert!(reason.contains("flooding"), "{reason}");
}

/// Where a `Sight` or `Displaced` puts its player.
fn stands(m: &Message) -> Option<gloam_protocol::Pos> {
    match decoded(m)? {
        ServerMsg::Sight(d) | ServerMsg::Displaced(d) => Some(d.at),
        _ => None,
    }
}

/// The game's messages read until the server's close (within
/// [`PATIENCE`]), without the connection's own (chat, who watches, the
/// graveyard, a watcher's note that its watching ends), and the close's
/// reason.
async fn game_until_close(ws: &mut Client) -> (Vec<ServerMsg>, String) {
    let own = |m: &ServerMsg| match m {
        ServerMsg::Chat { .. } | ServerMsg::Watchers(_) | ServerMsg::Graveyard(_) => true,
        ServerMsg::Note(note) => note.starts_with("You stop watching "),
        _ => false,
    };
    let reading = async {
        let mut game = Vec::new();
        loop {
            match recv(ws).await {
                Message::Close(frame) => {
                    return (game, frame.map(|f| f.reason.to_string()).unwrap_or_default());
                }
                m => game.extend(decoded(&m).filter(|m| !own(m))),
            }
        }
    };
    timeout(PATIENCE, reading).await.expect("closed in time")
}

/// A player that quits is written all its depth sent it until it was off
/// the level, as its watcher was shown it: the two streams end alike.
/// Cy's step into ann's place waits in the held depth's queue ahead of
/// ann's leave. (Ann's connection once stopped at her quit, and bob alone
/// saw her displaced.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_that_quits_is_shown_all_its_watcher_was() {
    let server = Server::start(Config::quiet(3));
    let (mut ann, _ann_task) = server.connect(LOCAL, &hello("ann")).await;
    let ann_at = stands(&until(&mut ann, is_sight).await).expect("ann stands somewhere");
    let (mut cy, _cy_task) = server.connect(LOCAL, &hello("cy")).await;
    let cy_at = stands(&until(&mut cy, is_sight).await).expect("cy stands somewhere");
    let player = "ann".into();
    let watch =
        ClientMsg::Watch { version: PROTOCOL_VERSION, name: "bob".into(), token: None, player };
    let (mut bob, _bob_task) = server.connect(LOCAL, &watch).await;
    // The end of bob's first view; then both read up to ann's answer to a
    // wait, and from there on the two streams are one.
    until(&mut bob, |m| decoded(m).is_some_and(|m| matches!(m, ServerMsg::Waiting(_)))).await;
    send(&mut ann, &ClientMsg::Act(Action::Wait)).await;
    until(&mut ann, is_sight).await;
    until(&mut bob, is_sight).await;

    let release = server.world.hold(1).await;
    let into_ann = gloam_protocol::Dir::ALL.into_iter().find(|&d| cy_at.step(d) == Some(ann_at));
    let into_ann = into_ann.expect("cy arrived beside ann");
    send(&mut cy, &ClientMsg::Act(Action::Move(into_ann))).await;
    // His session offers the step to the depth before it reads the ping.
    ping(&mut cy, b"stepped").await;
    send(&mut ann, &ClientMsg::Act(Action::Quit)).await;
    let leave_queued = async {
        while server.world.queued(1) < 2 {
            tokio::task::yield_now().await;
        }
    };
    timeout(PATIENCE, leave_queued).await.expect("ann's leave reaches the depth");
    drop(release);

    let (ann_saw, why) = game_until_close(&mut ann).await;
    assert_eq!(why, "goodbye");
    let (bob_saw, why) = game_until_close(&mut bob).await;
    assert_eq!(why, "ann left the game");
    assert_eq!(bob_saw, ann_saw, "bob was shown what ann was, and nothing more");
    let swapped = ServerMsg::Others("cy swaps places with you.".into());
    assert!(ann_saw.contains(&swapped), "cy's step reached ann before she left: {ann_saw:?}");
}

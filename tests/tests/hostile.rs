//! Malformed and hostile input against a live server, while a canary player
//! keeps playing. For every kind: the server neither panics nor exits, the
//! offender is closed (with a reason wherever the protocol allows one), and
//! the canary's actions keep being answered.
//!
//! A test binary of its own, outside `tests/integration/`: the panic hook
//! below counts every panic in the process as the server's, so beside the
//! other scenarios any failed assertion of theirs would fail this too.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use gloam_protocol::{Action, ClientMsg, Dir, PROTOCOL_VERSION, Refusal, ServerMsg, codec};
use gloam_server::Config;
use gloam_server::config::HelloPace;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_tests::raw::{
    self, Ending, Length, OP_BINARY, OP_CLOSE, OP_CONTINUATION, OP_PING, OP_TEXT, frame,
};
use gloam_tests::{SimClient, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default(info);
    }));
}

fn config() -> Config {
    Config {
        seed: 99,
        generator: GeneratorSetting::One(Generator::Bsp),
        handshake_timeout: Duration::from_secs(1),
        ..Config::default()
    }
}

fn wait_bytes() -> Vec<u8> {
    codec::encode(&ClientMsg::Act(Action::Wait))
}

/// What a kind of bad input expects of the server.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// A close frame with a reason (the WebSocket is open, so the protocol allows one).
    CloseWithReason,
    /// The connection ends, with or without a close frame (before the upgrade
    /// there is no WebSocket to close; after a protocol-level close the
    /// server may simply drop it).
    Ends,
}

/// Opens a WebSocket and says hello as `name`.
async fn joined(server: &TestServer, name: &str) -> TcpStream {
    let mut s = raw::open(server.addr).await;
    s.write_all(&raw::hello(name)).await.unwrap();
    s
}

async fn check(
    server: &TestServer,
    canary: &mut SimClient,
    what: &str,
    expect: Expect,
    mut stream: TcpStream,
) {
    let ending = raw::ending(&mut stream).await;
    match expect {
        Expect::CloseWithReason => match &ending {
            Ending::Closed { code, reason } => {
                assert_ne!(*code, 1000, "{what}: not a normal close");
                assert!(!reason.is_empty(), "{what}: the close says why");
            }
            other => panic!("{what}: expected a close frame, got {other:?}"),
        },
        Expect::Ends => assert_ne!(ending, Ending::StillOpen, "{what}: the connection should end"),
    }
    assert!(server.is_running(), "{what}: the server stopped");
    // The canary keeps playing.
    let dir = canary.first_step(|p| canary.is_frontier(p)).unwrap_or(Dir::N);
    canary
        .act(Action::Move(dir))
        .await
        .unwrap_or_else(|e| panic!("{what}: the canary stopped: {e}"));
    canary.act(Action::Wait).await.unwrap_or_else(|e| panic!("{what}: the canary stopped: {e}"));
    eprintln!("{what}: {ending:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_input_closes_only_the_offender() {
    count_panics();
    let server = TestServer::start(config()).await.unwrap();
    let mut canary = SimClient::join(&server.url(), "canary", None).await.unwrap();
    let mut kinds = 0;

    // Bad frames on an open WebSocket, after a proper hello.
    let wait = wait_bytes();
    let mut long_ping = frame(true, 0, OP_PING, true, &[0u8; 200], Length::Honest);
    long_ping.truncate(long_ping.len());
    let bad_frames: Vec<(&str, Vec<u8>)> = vec![
        ("unmasked client frame", frame(true, 0, OP_BINARY, false, &wait, Length::Honest)),
        ("reserved bits set", frame(true, 0b100, OP_BINARY, true, &wait, Length::Honest)),
        ("reserved opcode", frame(true, 0, 0x3, true, &wait, Length::Honest)),
        ("reserved control opcode", frame(true, 0, 0xB, true, b"", Length::Honest)),
        ("oversized control frame", long_ping),
        ("fragmented control frame", frame(false, 0, OP_PING, true, b"hi", Length::Honest)),
        (
            "continuation with nothing to continue",
            frame(true, 0, OP_CONTINUATION, true, &wait, Length::Honest),
        ),
        (
            "frame header announcing 1 GiB",
            frame(true, 0, OP_BINARY, true, b"", Length::Claim64(1 << 30)),
        ),
        (
            "64-bit length with its top bit set",
            frame(true, 0, OP_BINARY, true, b"", Length::Claim64(1 << 63)),
        ),
        ("text frame", frame(true, 0, OP_TEXT, true, b"hello", Length::Honest)),
        (
            "invalid UTF-8 in a text frame",
            frame(true, 0, OP_TEXT, true, &[0xff, 0xfe, 0xc0], Length::Honest),
        ),
        (
            "truncated message",
            raw::binary(
                &codec::encode(&ClientMsg::Hello { version: 1, name: "x".into(), token: None })
                    [..2],
            ),
        ),
        ("unknown message variant", raw::binary(&[7, 0])),
        (
            "length prefix of u64::MAX",
            raw::binary(&[0, 1, 253, 255, 255, 255, 255, 255, 255, 255, 255]),
        ),
        ("trailing bytes", raw::binary(&[wait.as_slice(), &[0]].concat())),
        ("second hello", raw::hello("again")),
        ("empty binary frame", raw::binary(&[])),
        ("message over the size limit", raw::binary(&[0u8; 300])),
        ("frame over the size limit", raw::binary(&[0u8; 5000])),
    ];
    for (i, (what, bytes)) in bad_frames.into_iter().enumerate() {
        let mut s = joined(&server, &format!("bad{i}")).await;
        s.write_all(&bytes).await.unwrap();
        check(&server, &mut canary, what, Expect::CloseWithReason, s).await;
        kinds += 1;
    }

    // A close frame with a code no one may send: the server ends the connection.
    let mut s = joined(&server, "badclose").await;
    s.write_all(&frame(true, 0, OP_CLOSE, true, &999u16.to_be_bytes(), Length::Honest))
        .await
        .unwrap();
    check(&server, &mut canary, "bad close code", Expect::Ends, s).await;
    kinds += 1;

    // An action before the hello.
    let mut s = raw::open(server.addr).await;
    s.write_all(&raw::binary(&wait)).await.unwrap();
    check(&server, &mut canary, "action before the hello", Expect::CloseWithReason, s).await;
    kinds += 1;

    // No hello at all.
    let s = raw::open(server.addr).await;
    check(&server, &mut canary, "silence instead of a hello", Expect::CloseWithReason, s).await;
    kinds += 1;

    // Handshakes gone wrong: no WebSocket yet, so no close frame.
    let mut s = raw::connect(server.addr, None).await.unwrap();
    let huge = format!("X-Junk: {}\r\n", "a".repeat(70 * 1024));
    let _ = s.write_all(raw::upgrade_request("13", &huge).as_bytes()).await;
    check(&server, &mut canary, "handshake header over 64 KiB", Expect::Ends, s).await;
    kinds += 1;

    let mut s = raw::connect(server.addr, None).await.unwrap();
    let request = raw::upgrade_request("13", "");
    let started = Instant::now();
    // One byte every 200 ms: the server gives up after its 1 s handshake timeout.
    for b in request.bytes().take(40) {
        if s.write_all(&[b]).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        if started.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    check(&server, &mut canary, "handshake trickled byte by byte", Expect::Ends, s).await;
    kinds += 1;

    // Plain HTTP without an upgrade is a page request (tests/page.rs);
    // another protocol's preface is a request no one can read.
    let mut s = raw::connect(server.addr, None).await.unwrap();
    s.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await.unwrap();
    check(&server, &mut canary, "HTTP/2 preface on a plain socket", Expect::Ends, s).await;
    kinds += 1;

    let mut s = raw::connect(server.addr, None).await.unwrap();
    s.write_all(raw::upgrade_request("8", "").as_bytes()).await.unwrap();
    check(&server, &mut canary, "wrong WebSocket version", Expect::Ends, s).await;
    kinds += 1;

    let mut s = raw::connect(server.addr, None).await.unwrap();
    s.write_all(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage that looks like TLS")
        .await
        .unwrap();
    check(&server, &mut canary, "TLS hello on a plain socket", Expect::Ends, s).await;
    kinds += 1;

    // Ten thousand pings: answered or not, nothing else is disturbed, and
    // the player behind them can still play.
    let mut s = joined(&server, "pinger").await;
    let ping = frame(true, 0, OP_PING, true, b"p", Length::Honest);
    let pings: Vec<u8> = ping.iter().copied().cycle().take(ping.len() * 10_000).collect();
    s.write_all(&pings).await.unwrap();
    s.write_all(&raw::binary(&[7, 0])).await.unwrap(); // then an unknown variant, to end it
    check(&server, &mut canary, "ten thousand pings", Expect::CloseWithReason, s).await;
    kinds += 1;

    // A reset in the middle of a frame.
    let mut s = joined(&server, "resetter").await;
    let half = raw::binary(&wait);
    s.write_all(&half[..3]).await.unwrap();
    // A zero linger resets the connection on drop rather than blocking.
    #[allow(deprecated)]
    s.set_linger(Some(Duration::ZERO)).unwrap();
    drop(s);
    let probe = raw::open(server.addr).await;
    check(&server, &mut canary, "reset in the middle of a frame", Expect::CloseWithReason, probe)
        .await;
    kinds += 1;

    // A flood of actions far over the pace.
    let mut s = joined(&server, "flooder").await;
    let flood: Vec<u8> = std::iter::repeat_n(raw::binary(&wait), 2_000).flatten().collect();
    let _ = s.write_all(&flood).await;
    let ending = raw::ending(&mut s).await;
    match &ending {
        Ending::Closed { code, reason } => {
            assert_eq!(*code, 1008, "policy violation");
            assert!(reason.contains("flooding"), "{reason}");
        }
        other => panic!("flood: expected a policy close, got {other:?}"),
    }
    check(&server, &mut canary, "a flood of actions", Expect::Ends, s).await;
    kinds += 1;

    assert!(kinds >= 20, "{kinds} kinds tried");
    eprintln!("{kinds} kinds of bad input tried");
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "nothing panicked");
    assert!(server.is_running());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_dropped_and_nobody_else_slows_down() {
    let config = Config {
        actions_per_second: 1_000_000,
        action_burst: 1_000_000,
        action_queue: 1_000_000,
        send_timeout: Duration::from_millis(500),
        ..config()
    };
    let server = TestServer::start(config).await.unwrap();
    let mut canary = SimClient::join(&server.url(), "canary", None).await.unwrap();
    // A tiny receive buffer, and actions whose answers it never reads.
    let mut slow = raw::connect(server.addr, Some(2048)).await.unwrap();
    slow.write_all(raw::upgrade_request("13", "").as_bytes()).await.unwrap();
    let head = raw::read_head(&mut slow).await.unwrap();
    assert!(head.starts_with("HTTP/1.1 101"));
    slow.write_all(&raw::hello("slow")).await.unwrap();
    let started = Instant::now();
    let batch: Vec<u8> = std::iter::repeat_n(raw::binary(&wait_bytes()), 1_000).flatten().collect();
    let gone = |canary: &SimClient| {
        canary
            .state
            .log
            .iter()
            .any(|l| l == "slow has left the game." || l == "slow has lost the connection.")
    };
    let mut dropped_after = None;
    let mut writing = true;
    let deadline = started + Duration::from_secs(30);
    let mut batches = 0;
    while Instant::now() < deadline {
        // Keep the answers coming until the server stops taking actions.
        if writing && batches < 2_000 {
            let write =
                tokio::time::timeout(Duration::from_millis(50), slow.write_all(&batch)).await;
            writing = matches!(write, Ok(Ok(())));
            batches += 1;
        }
        // The canary plays on meanwhile, promptly.
        let t = Instant::now();
        canary.act(Action::Wait).await.unwrap();
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "the canary was slowed down: {:?}",
            t.elapsed()
        );
        if gone(&canary) {
            dropped_after = Some(started.elapsed());
            break;
        }
    }
    let dropped_after = dropped_after.expect("the slow reader was dropped");
    eprintln!("a client that never reads was dropped after {dropped_after:?}");
    assert!(server.is_running());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_answer_pings_is_dropped() {
    let config = Config {
        ping_interval: Duration::from_millis(200),
        ping_timeout: Duration::from_millis(300),
        ..config()
    };
    let server = TestServer::start(config).await.unwrap();
    // A raw client reads nothing, so it never answers a ping.
    let mut deaf = joined(&server, "deaf").await;
    match raw::ending(&mut deaf).await {
        Ending::Closed { code, reason } => {
            assert_eq!(code, 1008);
            assert!(reason.contains("ping"), "{reason}");
        }
        other => panic!("expected a close, got {other:?}"),
    }
    // A real client answers pings (its library does) and stays, idle, past several.
    let mut alive = SimClient::join(&server.url(), "alive", None).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    // Quiet spells: stretches with nothing to read but the pings themselves.
    let mut quiet = 0;
    while Instant::now() < deadline {
        // Reading lets the client's WebSocket layer answer the server's pings.
        match tokio::time::timeout(Duration::from_millis(100), alive.recv()).await {
            Err(_) => quiet += 1,
            Ok(Ok(_)) => {}
            Ok(Err(e)) => panic!("an idle client that answers pings was dropped: {e}"),
        }
    }
    assert!(quiet > 0, "the client sat idle past the ping interval and timeout");
    alive.act(Action::Wait).await.unwrap();
}

#[tokio::test]
async fn connections_over_the_limit_are_told_to_try_again_later() {
    let server = TestServer::start(Config { max_connections: 2, ..config() }).await.unwrap();
    let _a = SimClient::join(&server.url(), "ann", None).await.unwrap();
    let _b = SimClient::join(&server.url(), "bob", None).await.unwrap();
    let mut third = raw::open(server.addr).await;
    match raw::ending(&mut third).await {
        Ending::Closed { code, reason } => {
            assert_eq!(code, 1013, "try again later");
            assert!(reason.contains("try again later"), "{reason}");
        }
        other => panic!("expected a close, got {other:?}"),
    }
}

/// Says hello as `name` from the loopback address `from`, then quits: the
/// refusal if there was one. Each wait is bounded by the raw client's
/// timeout.
async fn hello_from(
    server: &TestServer,
    from: std::net::Ipv4Addr,
    name: &str,
) -> Result<(), Refusal> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind((from, 0).into()).expect("binds a loopback address");
    let stream = socket.connect(server.addr).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(server.url(), stream).await.unwrap();
    let say = |msg: &ClientMsg| Message::Binary(codec::encode(msg).into());
    let hello = ClientMsg::Hello { version: PROTOCOL_VERSION, name: name.into(), token: None };
    ws.send(say(&hello)).await.unwrap();
    let answer = async {
        loop {
            let bytes = match ws.next().await {
                Some(Ok(Message::Binary(bytes))) => bytes,
                Some(Ok(_)) => continue,
                other => panic!("{name}: closed before an answer: {other:?}"),
            };
            match codec::decode_server(&bytes).unwrap() {
                ServerMsg::Refused(refusal) => return Err(refusal),
                ServerMsg::Sight(_) => return Ok(()),
                _ => {}
            }
        }
    };
    let answer = tokio::time::timeout(raw::READ_TIMEOUT, answer).await.expect("answered in time");
    if answer.is_ok() {
        ws.send(say(&ClientMsg::Act(Action::Quit))).await.unwrap();
    }
    // Until the server's close (and the end of the stream), as a client that quits reads.
    let closed = async { while let Some(Ok(_)) = ws.next().await {} };
    tokio::time::timeout(raw::READ_TIMEOUT, closed).await.expect("closed in time");
    answer
}

/// One address saying hello and quitting in a tight loop gets its burst,
/// then a hello a second, every other hello refused with the reason;
/// another address still joins at once. The host's own machine is not
/// paced by default, so this server paces loopback too, and the other
/// address is another loopback one (Linux answers on all of 127.0.0.0/8).
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_flood_from_one_address_is_paced_and_another_joins_at_once() {
    let pace = HelloPace { burst: 3, per_second: 1, loopback: true };
    let server = TestServer::start(Config { hello_pace: pace, ..config() }).await.unwrap();
    let (flooder, other) = (std::net::Ipv4Addr::LOCALHOST, std::net::Ipv4Addr::new(127, 0, 0, 2));
    let started = Instant::now();
    let (mut joined, mut refusals) = (0, Vec::new());
    let flood = async {
        for i in 0..100 {
            match hello_from(&server, flooder, &format!("f{i}")).await {
                Ok(()) => joined += 1,
                Err(refusal) => refusals.push(refusal),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), flood).await.expect("the flood ends in time");
    let allowed = pace.burst + pace.per_second * (started.elapsed().as_secs() as u32 + 1);
    eprintln!("{joined} of 100 hellos joined in {:?}", started.elapsed());
    assert!(joined <= allowed, "{joined} joined, at most {allowed}");
    assert!(
        refusals.iter().all(|r| matches!(r, Refusal::Unavailable { reason }
            if reason.contains("too many hellos from your address"))),
        "{refusals:?}"
    );
    let at_once = Instant::now();
    hello_from(&server, other, "bystander").await.expect("another address joins");
    assert!(at_once.elapsed() < Duration::from_secs(1), "at once: {:?}", at_once.elapsed());
    assert!(hello_from(&server, flooder, "again").await.is_err(), "the flooder still waits");
}

/// A request head over 8 KiB is answered 431, an unreadable one 400, and
/// each connection closed; a player plays on meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_requests_too_large_or_unreadable_are_refused_in_plain_http() {
    let server = TestServer::start(config()).await.unwrap();
    let mut canary = SimClient::join(&server.url(), "canary", None).await.unwrap();
    let pad = "a".repeat(9 * 1024);
    let large = format!("GET / HTTP/1.1\r\nHost: localhost\r\nX-Pad: {pad}\r\n\r\n");
    let answer = raw::http(server.addr, large.as_bytes()).await;
    assert_eq!(answer.status, 431, "{answer:?}");
    assert_eq!(answer.header("Connection"), Some("close"));
    // An upgrade is no exception: its head is read under the same limit.
    let large_upgrade = raw::upgrade_request("13", &format!("X-Pad: {pad}\r\n"));
    assert_eq!(raw::http(server.addr, large_upgrade.as_bytes()).await.status, 431);
    let answer = raw::http(server.addr, b"GET /\x01 HTTP/1.1\r\n\r\n").await;
    assert_eq!(answer.status, 400, "{answer:?}");
    canary.act(Action::Wait).await.unwrap();
    assert!(server.is_running());
}

/// A head sent a byte at a time and never finished is cut off once the
/// handshake timeout has passed since the connection came, however the
/// bytes keep coming, and is answered nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_dribbled_and_never_finished_is_cut_off_at_the_handshake_timeout() {
    let server = TestServer::start(config()).await.unwrap();
    let limit = server.config.handshake_timeout;
    // Before the connect: the server's clock starts at its accept.
    let started = Instant::now();
    let mut s = raw::connect(server.addr, None).await.unwrap();
    let (mut reader, mut writer) = s.split();
    let dribble = async {
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        let head = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".iter();
        for &b in head.chain(std::iter::repeat(&b'a')) {
            tick.tick().await;
            if writer.write_all(&[b]).await.is_err() {
                break;
            }
        }
        std::future::pending::<()>().await;
    };
    let mut answer = Vec::new();
    let read = tokio::time::timeout(raw::READ_TIMEOUT, async {
        tokio::select! {
            read = reader.read_to_end(&mut answer) => read,
            () = dribble => unreachable!(),
        }
    })
    .await
    .expect("cut off within the read timeout");
    let after = started.elapsed();
    // The end of the stream or a reset: either way, not a word.
    assert!(answer.is_empty(), "answered {:?} ({read:?})", String::from_utf8_lossy(&answer));
    // Cut off by the timeout, not at once (with a few milliseconds of
    // slack: tokio's timers turn on a millisecond wheel and may fire a
    // tick early); the bytes still coming did not put it off, or the read
    // timeout above would have passed first.
    let earliest = limit - Duration::from_millis(5);
    assert!(after >= earliest, "cut off after {after:?}, before the {limit:?} timeout");
    eprintln!("a dribbled head was cut off after {after:?}");
}

/// Over `max_connections`, a page request is answered 503 with when to
/// come back, and an upgrade closed with "try again later"; a page request
/// holds its place while its head is read, and is answered once it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_cap_a_page_request_gets_503_and_a_game_try_again_later() {
    let config =
        Config { max_connections: 1, handshake_timeout: Duration::from_secs(10), ..config() };
    let server = TestServer::start(config).await.unwrap();
    // Connected first, so accepted first (the listen queue is in order):
    // it holds the only place while its head is unfinished.
    let mut first = raw::connect(server.addr, None).await.unwrap();
    first.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n").await.unwrap();
    let full = raw::http(server.addr, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
    assert_eq!(full.status, 503, "{full:?}");
    assert_eq!(full.header("Retry-After"), Some("5"));
    let mut game = raw::open(server.addr).await;
    match raw::ending(&mut game).await {
        Ending::Closed { code, reason } => {
            assert_eq!(code, 1013, "try again later");
            assert!(reason.contains("try again later"), "{reason}");
        }
        other => panic!("expected a close, got {other:?}"),
    }
    first.write_all(b"\r\n").await.unwrap();
    let page = raw::read_answer(&mut first).await;
    assert_eq!(page.status, 200, "{page:?}");
}

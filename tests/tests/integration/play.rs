//! Scenarios played over real WebSockets against a real server on loopback.
//! Every simulated client is checked by the oracle after every message.

use std::collections::HashSet;
use std::time::Duration;

use gloam_protocol::codec;
use gloam_protocol::{
    Action, CellSet, ClientMsg, PROTOCOL_VERSION, Pos, Refusal, ServerMsg, Terrain,
};
use gloam_server::Config;
use gloam_server::mapgen::GeneratorSetting;
use gloam_tests::raw;
use gloam_tests::sim::connect_raw;
use gloam_tests::{Oracle, SimClient, TestServer};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const SEED: u64 = 20_261_130;
const MAX_STEPS: usize = 3_000;

fn config() -> Config {
    Config {
        seed: SEED,
        generator: GeneratorSetting::Mixed,
        // Simulated clients walk as fast as the server answers.
        actions_per_second: 1_000_000,
        action_burst: 1_000_000,
        // These scenarios are about sight, walking and the stairs: no
        // monster gets in the way (tests/fight.rs has them).
        ..Config::quiet(SEED)
    }
}

fn oracle() -> Oracle {
    Oracle::new(SEED, GeneratorSetting::Mixed, gloam_protocol::SIGHT_RADIUS)
}

async fn join(server: &TestServer, name: &str) -> SimClient {
    SimClient::join(&server.url(), name, Some(oracle())).await.expect("join")
}

/// For every pair on the same depth: each reports the other exactly when the
/// other stands in its sight, at the right place. Returns (pairs in sight,
/// pairs out of sight).
fn check_exact_sight(clients: &[&SimClient], truth: &mut Oracle) -> (usize, usize) {
    let (mut seen, mut unseen) = (0, 0);
    for a in clients {
        for b in clients {
            if a.id() == b.id() || a.state.depth != b.state.depth {
                continue;
            }
            let in_sight = truth.sight(a.state.depth, a.at()).contains(&b.at());
            let reported = a.state.others.get(&b.id()).map(|o| o.at);
            if in_sight {
                assert_eq!(
                    reported,
                    Some(b.at()),
                    "{} should see {} at {:?}",
                    a.name,
                    b.name,
                    b.at()
                );
                seen += 1;
            } else {
                assert_eq!(reported, None, "{} should not see {}", a.name, b.name);
                unseen += 1;
            }
        }
    }
    (seen, unseen)
}

#[tokio::test]
async fn three_players_see_each_other_exactly_when_in_sight() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut b = join(&server, "bob").await;
    let mut c = join(&server, "cat").await;
    let mut truth = oracle();
    a.sync().await.unwrap();
    b.sync().await.unwrap();
    let (seen, _) = check_exact_sight(&[&a, &b, &c], &mut truth);
    assert_eq!(seen, 6, "players who join together start in sight of each other");

    let (mut ever_seen, mut ever_unseen) = (0, 0);
    for step in 0..200 {
        // Ann explores; Cat wanders after her every third turn; Bob stays.
        let dir = a.first_step(|p| a.is_frontier(p)).expect("something to explore");
        a.act(Action::Move(dir)).await.unwrap();
        if step % 3 == 0
            && let Some(dir) = c.first_step(|p| c.is_frontier(p))
        {
            c.act(Action::Move(dir)).await.unwrap();
        }
        for sim in [&mut a, &mut b, &mut c] {
            sim.sync().await.unwrap();
        }
        let (seen, unseen) = check_exact_sight(&[&a, &b, &c], &mut truth);
        ever_seen += seen;
        ever_unseen += unseen;
    }
    assert!(ever_seen > 0 && ever_unseen > 0, "both cases happened: {ever_seen} / {ever_unseen}");
    assert!(a.checked() > 400 && b.checked() > 200 && c.checked() > 200);
}

fn decode_recall(msgs: &[ServerMsg]) -> (u16, HashSet<(Pos, Terrain)>) {
    for msg in msgs {
        if let ServerMsg::EnterLevel { depth, width, remembered, terrain, .. } = msg {
            let cells = CellSet::from_bytes(remembered);
            assert_eq!(cells.iter().count(), terrain.len(), "one terrain per cell");
            let w = usize::from(*width);
            let at = |i: usize| Pos::new((i % w) as u16, (i / w) as u16);
            return (*depth, cells.iter().zip(terrain).map(|(i, &t)| (at(i), t)).collect());
        }
    }
    panic!("no EnterLevel in {msgs:?}");
}

#[tokio::test]
async fn stairs_lead_down_to_a_fresh_view_and_back_to_the_remembered_one() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut b = join(&server, "bob").await;
    let mut c = join(&server, "cat").await;

    // Ann finds the stairs and goes down.
    a.explore_until(|s| s.find(Terrain::StairsDown).is_some(), MAX_STEPS).await.unwrap();
    let stairs = a.state.find(Terrain::StairsDown).unwrap();
    a.walk_to(stairs, MAX_STEPS).await.unwrap();
    assert!(a.state.log.back().unwrap().contains("stairs down"), "stepping onto stairs says so");
    let remembered_depth_1: HashSet<(Pos, Terrain)> = a.state.known_cells().collect();
    let turn = a.act(Action::Descend).await.unwrap();
    assert_eq!(decode_recall(&turn), (2, HashSet::new()), "depth 2 starts unexplored");
    assert_eq!(a.state.depth, 2);
    let known: HashSet<Pos> = a.state.known_cells().map(|(p, _)| p).collect();
    let visible: HashSet<Pos> = a.state.visible_cells().collect();
    assert_eq!(known, visible, "a fresh view: all it knows is what it sees");
    assert_eq!(a.state.terrain(a.at()), Some(Terrain::StairsUp), "arrives on the up staircase");
    assert!(a.state.roster.is_empty());

    // The others are told she left.
    b.sync().await.unwrap();
    c.sync().await.unwrap();
    assert!(b.state.log.iter().any(|l| l == "ann goes down the stairs."), "{:?}", b.state.log);
    assert_eq!(b.state.roster, vec!["cat".to_string()]);
    assert!(!b.state.others.contains_key(&a.id()));

    // Bob follows and they meet at the foot of the stairs.
    b.find_and_descend(MAX_STEPS).await.unwrap();
    a.sync().await.unwrap();
    assert_eq!(b.state.depth, 2);
    assert!(a.state.others.contains_key(&b.id()), "ann sees bob arrive");
    assert!(b.state.others.contains_key(&a.id()), "bob sees ann");
    assert!(a.state.log.iter().any(|l| l == "bob arrives on this depth."));
    assert_eq!(a.state.roster, vec!["bob".to_string()]);
    c.sync().await.unwrap();
    assert!(c.state.roster.is_empty(), "cat is alone on depth 1");

    // Ann climbs back: depth 1 comes back exactly as she remembered it.
    let turn = a.act(Action::Ascend).await.unwrap();
    let (depth, recalled) = decode_recall(&turn);
    assert_eq!(depth, 1);
    assert_eq!(recalled, remembered_depth_1, "the remembered view of depth 1");
    assert_eq!(a.state.terrain(a.at()), Some(Terrain::StairsDown), "arrives on the down staircase");
    c.sync().await.unwrap();
    assert!(c.state.log.iter().any(|l| l == "ann arrives on this depth."));
    b.sync().await.unwrap();
    assert!(b.state.log.iter().any(|l| l == "ann climbs the stairs."));
}

#[tokio::test]
async fn stairs_only_work_where_they_are() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let at = a.at();
    // Away from stairs, the stairs' key travels to stairs it knows of: none yet.
    let turn = a.act(Action::Descend).await.unwrap();
    assert!(turn.contains(&ServerMsg::Note("You know of no stairs down.".into())));
    let turn = a.act(Action::Ascend).await.unwrap();
    assert!(turn.contains(&ServerMsg::Note("You know of no stairs up.".into())));
    assert_eq!((a.state.depth, a.at()), (1, at), "nothing moved");
}

#[tokio::test]
async fn walking_into_a_player_swaps_the_two() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut b = join(&server, "bob").await;
    a.sync().await.unwrap();
    let (from, to) = (a.at(), b.at());
    let dir = gloam_protocol::Dir::from_delta(
        i32::from(to.x) - i32::from(from.x),
        i32::from(to.y) - i32::from(from.y),
    )
    .expect("bob arrives next to ann");
    a.act(Action::Move(dir)).await.unwrap();
    assert_eq!(a.at(), to);
    b.sync().await.unwrap();
    assert_eq!(b.at(), from, "bob was moved to where ann stood");
    assert!(b.state.log.iter().any(|l| l == "ann swaps places with you."));
}

async fn expect_refusal(server: &TestServer, hello: ClientMsg) -> (Refusal, CloseCode, String) {
    let mut raw = connect_raw(&server.url()).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    raw.send(Message::Binary(gloam_protocol::codec::encode(&hello).into())).await.unwrap();
    let refusal = match raw.next().await {
        Some(Ok(Message::Binary(b))) => match gloam_protocol::codec::decode_server(&b).unwrap() {
            ServerMsg::Refused(r) => r,
            other => panic!("expected a refusal, got {other:?}"),
        },
        other => panic!("expected a refusal, got {other:?}"),
    };
    let close = tokio::time::timeout(Duration::from_secs(10), raw.next()).await.unwrap();
    match close {
        Some(Ok(Message::Close(Some(frame)))) => (refusal, frame.code, frame.reason.to_string()),
        other => panic!("expected a close frame, got {other:?}"),
    }
}

#[tokio::test]
async fn a_name_without_its_token_a_bad_name_and_a_wrong_version_are_refused_with_a_reason() {
    let server = TestServer::start(config()).await.unwrap();
    let ann = join(&server, "ann").await;
    assert!(ann.token.is_some(), "a new character gets its secret");

    for token in [None, Some([0u8; 16])] {
        let (refusal, code, reason) = expect_refusal(
            &server,
            ClientMsg::Hello { version: PROTOCOL_VERSION, name: "ann".into(), token },
        )
        .await;
        assert_eq!(refusal, Refusal::WrongToken);
        assert_eq!(code, CloseCode::Policy);
        assert!(reason.contains("belongs to another player"), "{reason}");
    }

    let (refusal, _, reason) = expect_refusal(
        &server,
        ClientMsg::Hello { version: PROTOCOL_VERSION + 1, name: "zed".into(), token: None },
    )
    .await;
    assert_eq!(refusal, Refusal::WrongVersion { server: PROTOCOL_VERSION });
    assert!(reason.contains("version"), "{reason}");

    let (refusal, _, _) = expect_refusal(
        &server,
        ClientMsg::Hello { version: PROTOCOL_VERSION, name: "two words".into(), token: None },
    )
    .await;
    assert!(matches!(refusal, Refusal::NameInvalid { .. }));
}

#[tokio::test]
async fn a_returning_player_is_put_back_where_it_was_with_its_memory() {
    let server = TestServer::start(config()).await.unwrap();
    let mut ann = join(&server, "ann").await;
    let mut bob = join(&server, "bob").await;
    for _ in 0..60 {
        let dir = ann.first_step(|p| ann.is_frontier(p)).expect("something to explore");
        ann.act(Action::Move(dir)).await.unwrap();
    }
    let (token, at, depth) = (ann.token.expect("a token"), ann.at(), ann.state.depth);
    let known: HashSet<(Pos, Terrain)> = ann.state.known_cells().collect();
    ann.send(&ClientMsg::Act(Action::Quit)).await.unwrap();
    ann.closed().await.unwrap();
    bob.sync().await.unwrap();
    assert!(bob.state.log.iter().any(|l| l == "ann has left the game."));

    let truth = ann.take_oracle();
    let mut back =
        SimClient::join_with_token(&server.url(), "ann", Some(token), truth).await.unwrap();
    assert_eq!(back.token, Some(token), "no new secret for a returning character");
    assert_eq!((back.state.depth, back.at()), (depth, at), "back where she stood");
    let remembered: HashSet<(Pos, Terrain)> = back.state.known_cells().collect();
    assert_eq!(remembered, known, "the resync is exactly what she knew");
    bob.sync().await.unwrap();
    assert!(bob.state.log.iter().filter(|l| *l == "ann arrives on this depth.").count() >= 1);
    back.act(Action::Wait).await.unwrap();
}

#[tokio::test]
async fn a_second_connection_with_the_token_takes_the_character_over() {
    let server = TestServer::start(config()).await.unwrap();
    let mut first = join(&server, "ann").await;
    let token = first.token.expect("a token");
    first.act(Action::Wait).await.unwrap();
    let at = first.at();
    let truth = first.take_oracle();
    let mut second =
        SimClient::join_with_token(&server.url(), "ann", Some(token), truth).await.unwrap();
    let frame = first.closed().await.unwrap().expect("a close frame");
    assert_eq!(frame.code, CloseCode::Policy);
    assert!(frame.reason.contains("took over"), "{}", frame.reason);
    assert_eq!(second.at(), at, "the same character, where it stood");
    second.act(Action::Wait).await.unwrap();
}

#[tokio::test]
async fn a_malformed_frame_closes_only_its_sender() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut b = join(&server, "bob").await;
    let hello = |name: &str| {
        gloam_protocol::codec::encode(&ClientMsg::Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            token: None,
        })
    };
    let mut wait_plus_byte = gloam_protocol::codec::encode(&ClientMsg::Act(Action::Wait));
    wait_plus_byte.push(0);
    let bad_inputs: Vec<(&str, Message)> = vec![
        ("garbage", Message::Binary(vec![0xff, 0xfe, 0xfd].into())),
        ("trailing bytes", Message::Binary(wait_plus_byte.into())),
        ("unknown variant", Message::Binary(vec![1, 77].into())),
        ("empty frame", Message::Binary(Vec::new().into())),
        ("text frame", Message::Text("hello".into())),
        ("second hello", Message::Binary(hello("again").into())),
        ("oversized frame", Message::Binary(vec![0u8; 64 * 1024].into())),
        (
            "length prefix of u64::MAX",
            Message::Binary(vec![0, 1, 253, 255, 255, 255, 255, 255, 255, 255, 255].into()),
        ),
    ];
    for (i, (what, bad)) in bad_inputs.into_iter().enumerate() {
        let mut m = join(&server, &format!("mal{i}")).await;
        m.send_message(bad).await.unwrap();
        let frame = m.closed().await.unwrap().unwrap_or_else(|| panic!("{what}: a close frame"));
        assert_ne!(frame.code, CloseCode::Normal, "{what}");
        assert!(!frame.reason.is_empty(), "{what}: the close says why");
        // The others play on.
        let dir = a.first_step(|p| a.is_frontier(p)).unwrap();
        a.act(Action::Move(dir)).await.unwrap_or_else(|e| panic!("{what}: ann stopped: {e}"));
        b.sync().await.unwrap_or_else(|e| panic!("{what}: bob stopped: {e}"));
        assert!(!b.state.others.keys().any(|id| *id == m.id()), "{what}: the offender is gone");
    }
}

#[tokio::test]
async fn an_action_before_hello_is_refused() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut raw = connect_raw(&server.url()).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    let wait = gloam_protocol::codec::encode(&ClientMsg::Act(Action::Wait));
    raw.send(Message::Binary(wait.into())).await.unwrap();
    match tokio::time::timeout(Duration::from_secs(10), raw.next()).await.unwrap() {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(frame.code, CloseCode::Protocol);
            assert!(frame.reason.contains("hello"));
        }
        other => panic!("expected a close frame, got {other:?}"),
    }
    a.sync().await.unwrap();
}

#[tokio::test]
async fn the_server_shuts_down_cleanly_on_request() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut b = join(&server, "bob").await;
    let addr = server.addr;
    server.stop(Duration::from_secs(10)).await.expect("run returns Ok");
    for sim in [&mut a, &mut b] {
        let frame = sim.closed().await.unwrap().expect("a close frame");
        assert_eq!(frame.code, CloseCode::Restart, "come back soon");
        assert!(sim.state.restarting, "told so before the close");
    }
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "nothing listens after shutdown");
}

#[tokio::test]
async fn quitting_closes_normally_and_tells_the_others() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut b = join(&server, "bob").await;
    a.sync().await.unwrap();
    assert!(a.state.others.contains_key(&b.id()));
    b.send(&ClientMsg::Act(Action::Quit)).await.unwrap();
    let frame = b.closed().await.unwrap().expect("a close frame");
    assert_eq!(frame.code, CloseCode::Normal);
    // Ann hears of it before her next reply.
    a.sync().await.unwrap();
    assert!(!a.state.others.contains_key(&b.id()));
    assert!(a.state.log.iter().any(|l| l == "bob has left the game."), "{:?}", a.state.log);
    assert!(a.state.roster.is_empty());
}

/// The dungeon has a bottom: the last depth's level has no stairs down,
/// so nobody goes deeper, and the oracle (told of the bottom) agrees.
#[tokio::test]
async fn the_last_depth_has_no_way_down() {
    let server = TestServer::start(Config { max_depth: 2, ..config() }).await.unwrap();
    let mut ann =
        SimClient::join(&server.url(), "ann", Some(oracle().with_bottom(2))).await.unwrap();
    ann.find_and_descend(MAX_STEPS).await.unwrap();
    assert_eq!(ann.state.depth, 2);
    // Everything there is to see of the last level: no stairs down.
    ann.explore_until(|_| false, MAX_STEPS).await.err();
    assert_eq!(ann.state.find(Terrain::StairsDown), None);
    let bottom = oracle().level(2).stairs_down;
    ann.walk_to(bottom, MAX_STEPS).await.unwrap();
    let turn = ann.act(Action::Descend).await.unwrap();
    assert!(turn.contains(&ServerMsg::Note("You know of no stairs down.".into())));
    assert_eq!(ann.state.depth, 2);
}

/// RFC 6455 5.5.1: a close from the client is answered with a close, and
/// the stream then ends cleanly rather than being reset.
#[tokio::test]
async fn a_client_that_closes_gets_a_close_back() {
    let server = TestServer::start(config()).await.unwrap();
    for i in 0..5 {
        let mut ann = join(&server, &format!("closer{i}")).await;
        ann.sync().await.unwrap();
        let answered = ann.close_cleanly().await.expect("a complete closing handshake");
        assert!(answered, "the server answered the close with one of its own");
    }
    assert!(server.is_running());
}

/// A flooder is closed with 1008 and reads that close frame: the server
/// reads what it still sends instead of resetting the connection under it.
#[tokio::test]
async fn a_flooder_reads_its_close_frame_before_the_connection_ends() {
    let server = TestServer::start(Config { actions_per_second: 5, action_burst: 5, ..config() })
        .await
        .unwrap();
    for i in 0..3 {
        let mut s = raw::open(server.addr).await;
        s.write_all(&raw::hello(&format!("flood{i}"))).await.unwrap();
        let wait = raw::binary(&codec::encode(&ClientMsg::Act(Action::Wait)));
        // More than the sockets buffer: still sending when the close comes.
        let flood: Vec<u8> = std::iter::repeat_n(wait, 200_000).flatten().collect();
        let _ = s.write_all(&flood).await;
        match raw::ending(&mut s).await {
            raw::Ending::Closed { code: 1008, reason } => assert!(reason.contains("flooding")),
            other => panic!("flooder {i} did not read its close frame: {other:?}"),
        }
    }
}

#[tokio::test]
async fn per_move_diffs_are_small() {
    let server = TestServer::start(config()).await.unwrap();
    let mut a = join(&server, "ann").await;
    let mut moves = 0;
    while moves < 600 {
        match a.first_step(|p| a.is_frontier(p)) {
            Some(dir) => {
                a.act(Action::Move(dir)).await.unwrap();
            }
            None => {
                // Explored all of this depth: go down and carry on.
                let stairs = a.state.find(Terrain::StairsDown).unwrap();
                a.walk_to(stairs, MAX_STEPS).await.unwrap();
                a.act(Action::Descend).await.unwrap();
            }
        }
        moves += 1;
    }
    let sizes = &a.stats.move_replies;
    let mean = sizes.iter().sum::<usize>() as f64 / sizes.len() as f64;
    let mut sorted = sizes.clone();
    sorted.sort_unstable();
    let p99 = sorted[sorted.len() * 99 / 100];
    eprintln!(
        "per-move Sight frame over {} moves: mean {mean:.1} bytes, p99 {p99} bytes",
        sizes.len()
    );
    assert!(mean < 40.0, "mean {mean}");
}

/// The load tool's way of reading (`SimClient::read_deferred`): what a
/// client reads is kept, not applied, until it catches up, and then it is
/// applied in order, each message checked by the oracle as it would have
/// been on arrival; reading on as usual catches up first.
#[tokio::test]
async fn a_client_reading_ahead_applies_what_it_read_in_order_when_it_catches_up() {
    let server = TestServer::start(config()).await.unwrap();
    let mut ann = join(&server, "ann").await;
    let from = ann.at();
    let dir = ann.first_step(|p| p != from).expect("ann has somewhere to go");
    let before = ann.state.clone();
    ann.act_deferred(Action::Move(dir)).await.expect("the step is answered");
    assert!(ann.state == before, "nothing read is applied before catching up");
    ann.catch_up().expect("what was read fits, in order");
    let stepped = from.step(dir).unwrap();
    assert_eq!(ann.at(), stepped, "the answer applied: ann stands where she stepped");

    let back = ann.first_step(|p| p == from).expect("the way back");
    ann.act_deferred(Action::Move(back)).await.expect("the step back is answered");
    ann.sync().await.expect("reading on catches up first, then reads");
    assert_eq!(ann.at(), from, "both steps applied, in order");
}

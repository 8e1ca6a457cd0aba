//! Watching over real WebSockets against a real server on loopback: a
//! watcher's stream is its player's, message for message, from a whole
//! view when it comes in the middle (on the player's level and after the
//! stairs); the player sees who watches, refuses watchers or sends one
//! away; the host's limit and default hold; a watcher that stops reading
//! is dropped alone. Every message every client receives, watchers'
//! included, is checked by the oracle, and the player's monsters against
//! the depth's replayed log.

use std::time::Duration;

use gloam_protocol::{Action, AudienceCmd, ChatTo, ClientMsg, Pos, Refusal, ServerMsg};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::history;
use gloam_tests::{Oracle, SimClient, SimError, TestServer, raw};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const SEED: u64 = 31;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);

/// The seed's monsters, and a sleeping rat in sight of depth 1's arrival,
/// so that a watcher who comes at once has a monster to be shown.
fn config() -> Config {
    Config {
        generator: SETTING,
        actions_per_second: 1_000,
        action_burst: 1_000,
        placements: vec![Placement { kind: "rat".into(), depth: 1, pos: in_sight_of_arrival() }],
        ..Config::with_seed(SEED)
    }
}

fn oracle() -> Oracle {
    Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
        .with_monsters(Bestiary::default(), config().placements)
}

/// A floor cell four steps from depth 1's arrival, in its sight.
fn in_sight_of_arrival() -> Pos {
    gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 4).1[0]
}

async fn join(server: &TestServer, name: &str) -> SimClient {
    SimClient::join(&server.url(), name, Some(oracle())).await.expect("join")
}

/// `name` watches `player`, checked by an oracle that knows what the
/// player has seen.
async fn watch(server: &TestServer, name: &str, player: &SimClient) -> SimClient {
    let oracle = player.oracle().map(Oracle::fork);
    SimClient::watch(&server.url(), name, &player.name, oracle).await.expect("watch")
}

/// Asserts that `watcher` shows what `player` shows, field by field (a
/// whole mirror is too long to read in a failure).
fn same_view(watcher: &SimClient, player: &SimClient) {
    let (a, b) = (watcher.view(), player.view());
    let who = &watcher.name;
    assert_eq!(a.me, b.me, "{who}: whose eyes");
    assert_eq!((a.depth, a.at), (b.depth, b.at), "{who}: where");
    assert!(a.known_cells().eq(b.known_cells()), "{who}: the remembered map");
    assert!(a.visible_cells().eq(b.visible_cells()), "{who}: what is in sight");
    assert_eq!(a.others, b.others, "{who}: the players in sight");
    assert_eq!(a.monsters, b.monsters, "{who}: the monsters in sight");
    assert_eq!((a.hp, &a.waiting, &a.roster), (b.hp, &b.waiting, &b.roster), "{who}: the HUD");
    assert_eq!(
        (&a.experience, &a.party, &a.pack, &a.floor),
        (&b.experience, &b.party, &b.pack, &b.floor),
        "{who}: items"
    );
    assert!(a == b, "{who}: the rest of the mirror");
}

/// Reads `watcher`'s stream until its transcript is as long as `player`'s
/// (each read bounded by the client's timeout), then checks that the two
/// are the same messages and leave the same view.
async fn same_stream(player: &SimClient, watcher: &mut SimClient) {
    let want = catch_up(player, watcher).await;
    let (mine, theirs) = (player.transcript.as_ref(), watcher.transcript.as_ref());
    assert_eq!(theirs.map(Vec::len), Some(want), "{}: no more than its player", watcher.name);
    if let Some(i) = (0..want).find(|&i| mine.unwrap()[i] != theirs.unwrap()[i]) {
        panic!(
            "{}'s message {i} differs: {:?} vs {:?}",
            watcher.name,
            mine.unwrap()[i],
            theirs.unwrap()[i]
        );
    }
    same_view(watcher, player);
}

/// Has `watcher` read every message `player` was sent so far (a good
/// watcher keeps reading, or its socket fills and the server rightly lets
/// it go); gives how many that is.
async fn catch_up(player: &SimClient, watcher: &mut SimClient) -> usize {
    let want = player.transcript.as_ref().expect("recording").len();
    while watcher.transcript.as_ref().expect("recording").len() < want {
        watcher.recv().await.expect("the watcher is fed");
    }
    want
}

/// Ann plays (explores, fights, takes the stairs); bob starts watching on
/// depth 1 while she looks at a sleeping rat, cy after she went down and
/// explored a while. Each watcher's first view is exactly hers at that
/// moment, and every message after is hers. Each hears of the other
/// watchers, and so does she.
#[tokio::test]
async fn a_watcher_sees_exactly_what_its_player_sees() {
    let data = tempfile::tempdir().unwrap();
    let config = config();
    let server = TestServer::start_with_store(config.clone(), Store::open(data.path()).unwrap())
        .await
        .expect("the server starts");
    let mut ann = join(&server, "ann").await;
    assert_eq!(ann.state.monsters.len(), 1, "the rat, in sight");

    let mut bob = watch(&server, "bob", &ann).await;
    assert_eq!(bob.state.watching.as_ref().map(|w| w.0.as_str()), Some("ann"));
    same_view(&bob, &ann);
    ann.record();
    bob.record();
    ann.explore(60).await.expect("ann explores");
    ann.find_and_descend(600).await.expect("ann goes down");
    assert_eq!(ann.state.depth, 2);
    same_stream(&ann, &mut bob).await;
    assert!(
        ann.state.log.iter().any(|l| l.text == "bob is watching you."),
        "ann is told: {:?}",
        ann.state.log
    );
    assert_eq!(ann.state.watchers, ["bob"]);

    ann.explore(15).await.expect("ann explores depth 2");
    ann.sync().await.unwrap();
    same_stream(&ann, &mut bob).await;
    let mut cy = watch(&server, "cy", &ann).await;
    same_view(&cy, &ann);
    cy.record();
    ann.record();
    bob.record();
    ann.explore(30).await.expect("ann explores depth 2");
    ann.sync().await.unwrap();
    same_stream(&ann, &mut bob).await;
    same_stream(&ann, &mut cy).await;
    assert_eq!(ann.state.watchers, ["bob", "cy"]);
    // Watchers lists come beside the game's messages: read to the latest.
    while bob.state.watchers.len() < 2 {
        bob.recv().await.unwrap();
    }
    assert!(bob.state.log.iter().any(|l| l.text == "cy is watching ann."));
    // A watcher reads of the others who watch, never of itself but as
    // "you", once.
    while cy.state.watchers.len() < 2 {
        cy.recv().await.unwrap();
    }
    for (sim, other) in [(&bob, "cy"), (&cy, "bob")] {
        let me = &sim.name;
        let log: Vec<&str> = sim.state.log.iter().map(|l| l.text.as_str()).collect();
        let mine = log.iter().filter(|l| **l == "You are watching ann.").count();
        assert_eq!(mine, 1, "{me}: {log:?}");
        assert!(!log.contains(&format!("{me} is watching ann.").as_str()), "{me}: {log:?}");
        assert!(log.contains(&format!("{other} is watching ann.").as_str()), "{me}: {log:?}");
    }
    // Watchers talk with each other and with ann, on her depth.
    cy.send(&ClientMsg::Chat { to: ChatTo::Depth, text: "she saw the stairs".into() })
        .await
        .unwrap();
    for sim in [&mut bob, &mut ann] {
        let heard = loop {
            if let ServerMsg::Chat { name, text, .. } = sim.recv().await.unwrap() {
                break format!("{name}: {text}");
            }
        };
        assert_eq!(heard, "cy: she saw the stairs", "{} hears cy", sim.name);
    }

    // Ann's going ends the watching, with a reason.
    let glimpses = ann.quit_with_oracle().await.unwrap().unwrap().glimpses;
    let ended = bob.closed().await.unwrap().expect("a close frame");
    assert_eq!((ended.code, ended.reason.as_str()), (CloseCode::Normal, "ann left the game"));
    told_in_the_second_person(&bob, "ann");
    server.stop(Duration::from_secs(10)).await.unwrap();
    let store = Store::open(data.path()).unwrap();
    let covered = history::check_every_depth(&config, &store, &glimpses).unwrap();
    assert!(covered.glimpses > 3, "ann's monsters were checked: {covered:?}");
}

/// What a player may say about its watchers, and the host's limits: at
/// most `max_watchers`; `/kick` sends one away, `/nowatch` all and keeps
/// them out until `/allowwatch`; nobody watches a name not playing, a
/// name in play cannot watch, and a watcher cannot act but may talk.
/// `/who` lists the players (not the watchers) with their watchers.
#[tokio::test]
async fn a_player_refuses_and_kicks_watchers_within_the_hosts_limit() {
    let server =
        TestServer::start(Config { max_watchers: 1, ..config() }).await.expect("the server starts");
    let mut ann = join(&server, "ann").await;
    let mut bob = watch(&server, "bob", &ann).await;
    let refused = |r: Result<SimClient, SimError>| match r {
        Err(SimError::Refused(Refusal::CannotWatch { reason })) => reason,
        other => panic!("expected a refusal to watch, got {other:?}"),
    };
    let url = server.url();
    let full = refused(SimClient::watch(&url, "cy", "ann", None).await);
    assert_eq!(full, "ann already has 1 watcher, as many as allowed");
    let nobody = refused(SimClient::watch(&url, "cy", "zed", None).await);
    assert_eq!(nobody, "nobody called zed is playing");
    let watcher = refused(SimClient::watch(&url, "eve", "bob", None).await);
    assert_eq!(watcher, "nobody called bob is playing", "a watcher cannot be watched");
    let dan = join(&server, "dan").await;
    let stranger = SimClient::watch(&url, "dan", "ann", None).await;
    assert!(matches!(stranger, Err(SimError::Refused(Refusal::WrongToken))), "{stranger:?}");
    let playing = SimClient::watch_with_token(&url, "dan", dan.token, "ann", None).await;
    assert!(matches!(playing, Err(SimError::Refused(Refusal::NameTaken))), "{playing:?}");

    // Who plays, for picking whom to watch: players only, never watchers.
    ann.send(&ClientMsg::Who).await.unwrap();
    let who = loop {
        if let ServerMsg::Who(all) = ann.recv().await.unwrap() {
            break all;
        }
    };
    let listed: Vec<(&str, u8, bool)> =
        who.iter().map(|p| (p.name.as_str(), p.watchers, p.watchable)).collect();
    assert_eq!(listed, [("ann", 1, true), ("dan", 0, true)]);

    // A watcher may talk where its player is, but not act.
    bob.send(&ClientMsg::Act(Action::Wait)).await.unwrap();
    bob.send(&ClientMsg::Chat { to: ChatTo::Depth, text: "nice dodge".into() }).await.unwrap();
    let mut heard_by_ann = None;
    while heard_by_ann.is_none() {
        if let ServerMsg::Chat { name, text, .. } = ann.recv().await.unwrap() {
            heard_by_ann = Some(format!("{name}: {text}"));
        }
    }
    assert_eq!(heard_by_ann.as_deref(), Some("bob: nice dodge"));
    let mut notes = notes_until_chat(&mut bob).await;
    // Dan's arrival reaches ann's shift of the still when its time comes:
    // before this or after it.
    notes.retain(|n| n != "dan arrives on this depth.");
    assert_eq!(notes, ["You are watching ann: you cannot act."]);
    // Told as "you" (a note in the second person about watching is the
    // watcher's own: its client does not tell it as ann's, "ann is
    // watching ann: ann cannot act.").
    assert!(
        bob.state.log.iter().any(|l| l.text == "You are watching ann: you cannot act."),
        "{:?}",
        bob.state.log
    );
    assert!(bob.state.log.iter().any(|l| l.text == "bob: nice dodge"), "{:?}", bob.state.log);

    // Kicked: told why; ann is told it worked.
    ann.send(&ClientMsg::Audience(AudienceCmd::Kick("bob".into()))).await.unwrap();
    let kicked = bob.closed().await.unwrap().expect("a close frame");
    assert_eq!((kicked.code, kicked.reason.as_str()), (CloseCode::Normal, "ann sent you away"));
    told_in_the_second_person(&bob, "ann");
    ann.sync().await.unwrap();
    assert!(ann.state.log.iter().any(|l| l.text == "bob no longer watches you."));
    assert!(ann.state.watchers.is_empty());

    // Refusing sends away those watching and keeps others out.
    let mut cy = watch(&server, "cy", &ann).await;
    ann.send(&ClientMsg::Audience(AudienceCmd::Refuse)).await.unwrap();
    let refusal = cy.closed().await.unwrap().expect("a close frame");
    assert_eq!(refusal.reason.as_str(), "ann stopped letting anyone watch");
    told_in_the_second_person(&cy, "ann");
    // Cy's first watching made its name a character: it comes back with its token.
    assert!(cy.token.is_some(), "a new name is kept, with a token");
    let again = SimClient::watch_with_token(&url, "cy", cy.token, "ann", None).await;
    assert_eq!(refused(again), "ann does not let anyone watch");
    ann.send(&ClientMsg::Audience(AudienceCmd::Allow)).await.unwrap();
    ann.sync().await.unwrap();
    let oracle = ann.oracle().map(Oracle::fork);
    let cy = SimClient::watch_with_token(&url, "cy", cy.token, "ann", oracle).await.unwrap();
    same_view(&cy, &ann);
    drop(dan);
}

/// Asserts that `watcher`, whose watching of `player` ended, was told so
/// as "you", and not as its player is told ("bob stopped watching ann.").
/// Regression: the watcher's own list of watchers, without it, came first.
fn told_in_the_second_person(watcher: &SimClient, player: &str) {
    let log: Vec<&str> = watcher.state.log.iter().map(|l| l.text.as_str()).collect();
    let me = &watcher.name;
    assert!(log.contains(&format!("You stop watching {player}.").as_str()), "{me}: {log:?}");
    let third = format!("{me} stopped watching {player}.");
    assert!(!log.contains(&third.as_str()), "{me}: {log:?}");
}

/// The notes and lines of others before the next line of chat, in order.
async fn notes_until_chat(sim: &mut SimClient) -> Vec<String> {
    let mut notes = Vec::new();
    loop {
        match sim.recv().await.expect("a line comes") {
            ServerMsg::Chat { .. } => return notes,
            ServerMsg::Note(text) | ServerMsg::Others(text) => notes.push(text),
            _ => {}
        }
    }
}

/// A host that denies watching by default: nobody watches a player until
/// it says `/allowwatch`.
#[tokio::test]
async fn a_host_can_make_players_refuse_watchers_until_they_allow_them() {
    let config = Config { watchers_allowed: false, ..config() };
    let server = TestServer::start(config).await.expect("the server starts");
    let mut ann = join(&server, "ann").await;
    let refused = SimClient::watch(&server.url(), "bob", "ann", None).await;
    assert!(
        matches!(&refused, Err(SimError::Refused(Refusal::CannotWatch { reason })) if reason == "ann does not let anyone watch"),
        "{refused:?}"
    );
    ann.send(&ClientMsg::Audience(AudienceCmd::Allow)).await.unwrap();
    ann.sync().await.unwrap();
    let bob = watch(&server, "bob", &ann).await;
    same_view(&bob, &ann);
}

/// A watcher whose connection stops reading loses its seat; ann is never
/// held up (every action answered as it comes) and the other watcher's
/// stream stays hers.
#[tokio::test]
async fn a_watcher_that_stops_reading_is_dropped_alone() {
    let config = Config { outbox_capacity: 8, send_timeout: Duration::from_secs(2), ..config() };
    let server = TestServer::start(config).await.expect("the server starts");
    let mut ann = join(&server, "ann").await;
    let mut bob = watch(&server, "bob", &ann).await;
    // A watcher that says it watches, then never reads a byte.
    let mut slow = raw::connect(server.addr, Some(2048)).await.unwrap();
    slow.write_all(raw::upgrade_request("13", "").as_bytes()).await.unwrap();
    let head = raw::read_head(&mut slow).await.unwrap();
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let watching = ClientMsg::Watch {
        version: gloam_protocol::PROTOCOL_VERSION,
        name: "slow".into(),
        token: None,
        player: "ann".into(),
    };
    slow.write_all(&raw::binary(&gloam_protocol::codec::encode(&watching))).await.unwrap();
    while !ann.state.watchers.contains(&"slow".to_owned()) {
        ann.recv().await.expect("ann hears slow come");
    }
    ann.record();
    bob.record();
    // Enough to fill slow's socket and its seat many times over.
    let mut went = false;
    for _ in 0..2_000 {
        ann.wander(|n| n / 2).await.expect("ann is answered");
        // Bob, the good watcher, reads as he goes.
        catch_up(&ann, &mut bob).await;
        if ann.state.log.iter().any(|l| l.text == "slow stopped watching you.") {
            went = true;
            break;
        }
    }
    assert!(went, "the slow watcher lost its seat");
    assert_eq!(ann.state.watchers, ["bob"]);
    ann.sync().await.unwrap();
    same_stream(&ann, &mut bob).await;
}

/// A player's death, watched: the watcher is shown the very blow and the
/// record ann's client gets, then the graveyard, then closed.
#[tokio::test]
async fn a_watcher_sees_its_player_die() {
    let (bestiary, placements) = gloam_tests::giant_beside_arrival(SEED, SETTING);
    let config = Config {
        bestiary: std::sync::Arc::new(bestiary.clone()),
        placements: placements.clone(),
        ..config()
    };
    let server = TestServer::start(config).await.expect("the server starts");
    let oracle = Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
        .with_monsters(bestiary, placements);
    let mut ann = SimClient::join(&server.url(), "ann", Some(oracle)).await.expect("join");
    let mut bob = watch(&server, "bob", &ann).await;
    ann.record();
    bob.record();
    let died = ann.act(Action::Wait).await;
    assert!(matches!(died, Err(SimError::Died(_))), "{died:?}");
    // The close after a death reads as the death, as it does for ann.
    let seen = match bob.closed().await {
        Err(SimError::Died(record)) => record,
        other => panic!("bob should have seen ann die: {other:?}"),
    };
    assert_eq!(Some(seen), ann.state.death, "bob saw ann's record");
    assert_eq!(bob.transcript, ann.transcript, "every message up to her death");
    // Shown the graveyard she joined, for its death page, and told as you.
    let graves = bob.state.graveyard.as_deref().unwrap_or_default();
    assert!(graves.iter().any(|r| r.name == "ann"), "{graves:?}");
    told_in_the_second_person(&bob, "ann");
}

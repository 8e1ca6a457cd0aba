//! Recordings over real WebSockets against a real server on loopback: two
//! players fight side by side while a third watches one of them, then each
//! asks for the recording of its own past, and it is, frame for frame and
//! byte for byte, what its connection was sent (but the welcome); a fall's
//! last rounds are anyone's to ask for; the oracle, playing a recording in
//! a mirror of its own, finds no cell or monster its player did not see
//! then; another's past is had only where the host allows it, on a depth
//! the asker has been to, and never another's time there now unless it
//! lets others watch; what may not be had is refused with a reason.

use gloam_client::ClientState;
use gloam_protocol::{Action, AudienceCmd, ClientMsg, RecordingAsk, Refusal, ServerMsg, codec};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::level::{MAP_HEIGHT, MAP_WIDTH};
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::{Reading, Store};
use gloam_tests::sim::{Recording, ask_recording};
use gloam_tests::{Oracle, SimClient, SimError, TestServer};

const SEED: u64 = 31;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);

/// The seed's monsters, and a rat and a kobold in sight of depth 1's
/// arrival, for the two to fight together.
fn config() -> Config {
    let near = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 4).1;
    let placed = |kind: &str, pos| Placement { kind: kind.into(), depth: 1, pos };
    Config {
        generator: SETTING,
        actions_per_second: 1_000,
        action_burst: 1_000,
        placements: vec![placed("rat", near[0]), placed("kobold", near[near.len() / 2])],
        ..Config::with_seed(SEED)
    }
}

fn oracle() -> Oracle {
    Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
        .with_monsters(Bestiary::default(), config().placements)
}

/// What `player`'s connection was sent of its game: its transcript but
/// the welcome before it and the record of its end after it (the grave
/// has that).
fn game_of(player: &SimClient) -> Vec<Vec<u8>> {
    let sent = player.transcript.as_deref().expect("recorded from the first message");
    assert!(matches!(sent.first(), Some(ServerMsg::Welcome { .. })), "{:?}", sent.first());
    let ended = matches!(sent.last(), Some(ServerMsg::Died(_) | ServerMsg::Escaped(_)));
    let game = &sent[1..sent.len() - usize::from(ended)];
    game.iter().map(codec::encode).collect()
}

/// A recording's messages, encoded as they travel.
fn frames_of(recording: &Recording) -> Vec<Vec<u8>> {
    recording.messages.iter().map(|(_, msg)| codec::encode(msg)).collect()
}

/// Asserts two streams are the same frames, naming the first that differs.
fn same_frames(what: &str, got: &[Vec<u8>], want: &[Vec<u8>]) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        let (a, b) = (codec::decode_server(&got[i]), codec::decode_server(&want[i]));
        panic!("{what}: frame {i} of {} differs: {a:?} vs {b:?}", want.len());
    }
    assert_eq!(got.len(), want.len(), "{what}: as many frames");
}

/// Plays `recording` in a mirror of its own, as a client's player would,
/// with `oracle` checking every message against the truth.
fn check_with_oracle(recording: &Recording, mut oracle: Oracle) {
    let ServerMsg::Recording { you, .. } = recording.head else { panic!("a recording's head") };
    let mut state = ClientState::new();
    let welcome = ServerMsg::Welcome {
        you,
        width: MAP_WIDTH,
        height: MAP_HEIGHT,
        sight_radius: gloam_protocol::SIGHT_RADIUS,
        actions_per_second: 10,
        token: None,
        world: String::new(),
    };
    state.apply(&welcome).expect("a welcome");
    for (i, (_, msg)) in recording.messages.iter().enumerate() {
        state.apply(msg).unwrap_or_else(|e| panic!("message {i} does not apply: {e}"));
        oracle.check(msg, &state).unwrap_or_else(|e| panic!("message {i}: {e}"));
    }
}

/// `player`'s own past on depth 1, from round `from`.
fn mine(player: &SimClient, from: u64) -> RecordingAsk {
    let token = player.token.expect("a joined player has its key");
    RecordingAsk::Mine { name: player.name.clone(), token, depth: 1, from, to: from + 499 }
}

/// Fights what stands beside it, else wanders: on depth 1 all along.
async fn fight_or_wander(player: &mut SimClient, turn: usize) -> Result<(), SimError> {
    let salt = player.name.len();
    match player.fight() {
        Some(blow) => player.act(blow).await.map(drop),
        None => player.wander(|n| (turn * 7 + salt) % n).await,
    }
}

/// Reads `player`'s stream until its game is at least `frames` long.
async fn catch_up(player: &mut SimClient, frames: usize) {
    while game_of(player).len() < frames {
        player.recv().await.expect("the rest of what was sent");
    }
}

#[tokio::test]
async fn each_recording_is_byte_for_byte_what_its_player_was_sent() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config(), store).await.expect("the server starts");
    let url = server.url();
    let mut ann = SimClient::join_recorded(&url, "ann", None, Some(oracle())).await.expect("ann");
    // Alone on the depth, she was sent nothing after her arrival's sight:
    // the watcher's view is hers as she read it.
    let fork = ann.oracle().map(Oracle::fork);
    let mut cy = SimClient::watch(&url, "cy", "ann", fork).await.expect("cy watches ann");
    let before_cy = game_of(&ann).len();
    cy.record();
    let mut bob = SimClient::join_recorded(&url, "bob", None, Some(oracle())).await.expect("bob");
    for turn in 0..120 {
        fight_or_wander(&mut ann, turn).await.expect("ann plays");
        fight_or_wander(&mut bob, turn).await.expect("bob plays");
    }
    let fought = |p: &SimClient| {
        p.transcript.as_deref().unwrap().iter().any(|m| matches!(m, ServerMsg::Combat(_)))
    };
    assert!(fought(&ann) && fought(&bob), "they fought: {:?}", ann.state.log);

    for player in [&mut ann, &mut bob] {
        let recording = ask_recording(&url, mine(player, 0)).await.expect("a recording");
        assert!(!recording.cut);
        let want = frames_of(&recording);
        catch_up(player, want.len()).await;
        same_frames(&player.name, &want, &game_of(player));
        check_with_oracle(&recording, oracle());
    }

    // The watcher was sent ann's game from its first view on: the same
    // frames as the end of her recording.
    let recording = ask_recording(&url, mine(&ann, 0)).await.expect("ann's again");
    let hers = frames_of(&recording);
    while cy.transcript.as_ref().unwrap().len() < hers.len() - before_cy {
        cy.recv().await.expect("cy is fed");
    }
    let watched: Vec<Vec<u8>> =
        cy.transcript.as_deref().unwrap().iter().map(codec::encode).collect();
    same_frames("cy, watching ann", &watched, &hers[before_cy..]);

    // Another's past is not to be had on this host.
    let token = bob.token.expect("bob's key");
    let past = RecordingAsk::Past {
        name: "bob".into(),
        token,
        player: "ann".into(),
        depth: 1,
        from: 0,
        to: 499,
    };
    let refused = ask_recording(&url, past).await;
    assert!(
        matches!(&refused, Err(SimError::Refused(Refusal::NoRecording { reason }))
        if reason.contains("to itself")),
        "{refused:?}"
    );

    // Begun later, a recording opens with the player's whole view then,
    // and the oracle (hers, which knows what she has seen, as a watcher's
    // coming late does) finds nothing in it she had not seen.
    let middle = recording.messages.last().expect("a message").0 / 2;
    assert!(middle > 10, "rounds were played: {middle}");
    let late = ask_recording(&url, mine(&ann, middle)).await.expect("a later part");
    assert!(late.messages.iter().all(|&(round, _)| round >= middle));
    assert!(late.messages.iter().any(|(_, m)| matches!(m, ServerMsg::EnterLevel { .. })));
    check_with_oracle(&late, ann.oracle().map(Oracle::fork).expect("ann's oracle"));
}

#[tokio::test]
async fn a_fall_is_anyones_to_watch_and_a_past_only_its_players() {
    let (bestiary, placements) = gloam_tests::giant_beside_arrival(SEED, SETTING);
    let config = Config {
        bestiary: std::sync::Arc::new(bestiary.clone()),
        placements: placements.clone(),
        ..config()
    };
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config, store).await.expect("the server starts");
    let url = server.url();
    let oracle = || {
        Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
            .with_monsters(bestiary.clone(), placements.clone())
    };
    let mut ann = SimClient::join_recorded(&url, "ann", None, Some(oracle())).await.expect("ann");
    let token = ann.token.expect("ann's key");
    let died = ann.act(Action::Wait).await;
    assert!(matches!(died, Err(SimError::Died(_))), "{died:?}");
    let life = ann.state.death.as_ref().expect("ann's record").morgue;

    // Anyone may watch her fall, asking by her grave.
    let grave = RecordingAsk::Grave { name: "ann".into(), life, rounds: 50 };
    let fall = ask_recording(&url, grave).await.expect("her fall");
    same_frames("ann's fall", &frames_of(&fall), &game_of(&ann));
    check_with_oracle(&fall, oracle());

    // Her past with a wrong key, a life that never was, and too many rounds
    // at once are refused, each with its reason.
    let mut wrong = token;
    wrong[0] ^= 1;
    let ask = RecordingAsk::Mine { name: "ann".into(), token: wrong, depth: 1, from: 0, to: 9 };
    let refused = ask_recording(&url, ask).await;
    assert!(matches!(refused, Err(SimError::Refused(Refusal::WrongToken))), "{refused:?}");
    let never = RecordingAsk::Grave { name: "ann".into(), life: life + 1, rounds: 50 };
    let refused = ask_recording(&url, never).await;
    assert!(matches!(refused, Err(SimError::Refused(Refusal::NoRecording { .. }))), "{refused:?}");
    let long = RecordingAsk::Mine { name: "ann".into(), token, depth: 1, from: 0, to: 10_000 };
    let refused = ask_recording(&url, long).await;
    assert!(matches!(refused, Err(SimError::Refused(Refusal::NoRecording { .. }))), "{refused:?}");
}

/// Where the host allows it, a player may watch another's past on a depth
/// it has been to: all of it while the other lets others watch it, and
/// never its time there now once it lets nobody watch.
#[tokio::test]
async fn anothers_past_is_had_where_the_host_allows_it() {
    let config = Config { recordings_of_others: true, ..config() };
    let server = TestServer::start(config).await.expect("the server starts");
    let url = server.url();
    let mut ann = SimClient::join_recorded(&url, "ann", None, Some(oracle())).await.expect("ann");
    let mut bob = SimClient::join_recorded(&url, "bob", None, Some(oracle())).await.expect("bob");
    for turn in 0..40 {
        fight_or_wander(&mut ann, turn).await.expect("ann plays");
        fight_or_wander(&mut bob, turn).await.expect("bob plays");
    }
    let token = bob.token.expect("bob's key");
    let past = |depth| RecordingAsk::Past {
        name: "bob".into(),
        token,
        player: "ann".into(),
        depth,
        from: 0,
        to: 499,
    };
    let hers = ask_recording(&url, past(1)).await.expect("ann's past, watchable");
    let want = frames_of(&hers);
    catch_up(&mut ann, want.len()).await;
    same_frames("ann's past, asked by bob", &want, &game_of(&ann));

    let refused = ask_recording(&url, past(2)).await;
    assert!(
        matches!(&refused, Err(SimError::Refused(Refusal::NoRecording { reason }))
        if reason.contains("not been")),
        "{refused:?}"
    );

    // Once she lets nobody watch, her time there now is hers alone.
    ann.send(&ClientMsg::Audience(AudienceCmd::Refuse)).await.expect("ann refuses watchers");
    ann.sync().await.expect("ann is answered");
    let refused = ask_recording(&url, past(1)).await;
    assert!(
        matches!(&refused, Err(SimError::Refused(Refusal::NoRecording { reason }))
        if reason.contains("lets nobody watch")),
        "{refused:?}"
    );
}

/// On a depth keeping a snapshot every few dozen commands, a recording of
/// late rounds starts from the newest snapshot before them, with what the
/// views had told each player then: it is what the whole history makes,
/// and the snapshots the server kept make it without the commands before.
#[tokio::test]
async fn a_late_recording_starts_from_a_snapshot_the_server_kept() {
    let config = Config { snapshot_every: 25, ..config() };
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config.clone(), store).await.expect("starts");
    let url = server.url();
    let mut ann = SimClient::join_recorded(&url, "ann", None, Some(oracle())).await.expect("ann");
    let mut bob = SimClient::join_recorded(&url, "bob", None, Some(oracle())).await.expect("bob");
    for turn in 0..120 {
        fight_or_wander(&mut ann, turn).await.expect("ann plays");
        fight_or_wander(&mut bob, turn).await.expect("bob plays");
        if turn % 30 == 29 {
            // A recording has the depth hand its log to the store first,
            // as its save tick does: with a snapshot every 25 entries.
            ask_recording(&url, mine(&ann, 0)).await.expect("ann's past so far");
        }
    }
    let whole = ask_recording(&url, mine(&ann, 0)).await.expect("all of ann's past");
    // A few rounds before the end: the store keeps the newest few
    // snapshots, and some kept must still come before the recording's
    // first round. After the play the depth goes on logging its still's
    // shifts for a while (no round closes), and the hand-over as the
    // server stops may add one more, so each of those snapshots, however
    // many a loaded machine makes, is at the last round: three quarters
    // in, two or three of them left none before it (6 runs in 8 with
    // both cores busy).
    let middle = whole.messages.last().expect("a message").0.saturating_sub(8);
    assert!(middle > 10, "rounds were played: {middle}");
    let late = ask_recording(&url, mine(&ann, middle)).await.expect("a later part");
    check_with_oracle(&late, ann.oracle().map(Oracle::fork).expect("ann's oracle"));
    // After its opening view (all told in its first round), the same
    // frames as the whole recording's.
    let start = late.messages[2].0;
    let after = |r: &Recording| -> Vec<Vec<u8>> {
        r.messages
            .iter()
            .filter(|(round, _)| *round > start)
            .map(|(_, m)| codec::encode(m))
            .collect()
    };
    let (late_after, whole_after) = (after(&late), after(&whole));
    assert!(!whole_after.is_empty(), "rounds after the first were recorded");
    // The depth went on between the two asks (a deadline, the still told).
    assert!(late_after.len() >= whole_after.len());
    same_frames("ann's late rounds", &late_after[..whole_after.len()], &whole_after);

    server.stop(std::time::Duration::from_secs(10)).await.expect("stops");
    let store = Store::open(data.path()).unwrap();
    let read = |reading| match reading {
        Reading::Whole => Err("the whole history is not to be read here".to_owned()),
        part => store.read_history(1, part).map_err(|e| e.to_string()),
    };
    let rounds = middle..=middle + 499;
    let made = gloam_server::world::record_stored(&config, 1, read, "ann", rounds)
        .expect("made from a snapshot alone");
    let made: Vec<Vec<u8>> = made.iter().map(|r| codec::encode(&r.msg)).collect();
    // The history went on after the recording was asked (ann was lost
    // when the server stopped): what was sent then comes after.
    let sent = &frames_of(&late)[2..];
    same_frames("from the kept snapshot", &made[..sent.len().min(made.len())], sent);
}

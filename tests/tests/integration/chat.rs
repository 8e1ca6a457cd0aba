//! Chat over real WebSockets against a real server on loopback: a line
//! reaches exactly those it should (the speaker's depth, everyone with
//! `/shout`, one player with `/w`), is cleaned on the way, costs no turn,
//! and a player who talks too fast is warned, then closed. Every message
//! each client receives is checked by the oracle.

use std::time::Duration;

use gloam_protocol::{Action, ChatTo, ClientMsg, MAX_CHAT_CHARS, ServerMsg};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_tests::{Oracle, SimClient, TestServer};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const SEED: u64 = 12;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);

async fn server() -> TestServer {
    let config = Config {
        generator: SETTING,
        actions_per_second: 1_000,
        action_burst: 1_000,
        ..Config::quiet(SEED)
    };
    TestServer::start(config).await.expect("the server starts")
}

async fn join(server: &TestServer, name: &str) -> SimClient {
    let oracle = Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS);
    SimClient::join(&server.url(), name, Some(oracle)).await.expect("join")
}

/// A line of chat as a client gets it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    name: String,
    to: ChatTo,
    text: String,
}

fn line(name: &str, to: ChatTo, text: &str) -> Line {
    Line { name: name.into(), to, text: text.into() }
}

async fn say(sim: &mut SimClient, to: ChatTo, text: &str) {
    sim.send(&ClientMsg::Chat { to, text: text.into() }).await.expect("sent");
}

/// Reads until the next line of chat (bounded by the client's receive
/// timeout), and any note that came before it.
async fn next_line(sim: &mut SimClient) -> (Line, Vec<String>) {
    let mut notes = Vec::new();
    loop {
        match sim.recv().await.expect("a line comes") {
            ServerMsg::Chat { name, to, text, .. } => return (Line { name, to, text }, notes),
            ServerMsg::Note(text) => notes.push(text),
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_line_reaches_its_depth_a_shout_everyone_and_a_whisper_one() {
    let server = server().await;
    let mut cy = join(&server, "cy").await;
    cy.find_and_descend(400).await.expect("cy finds the stairs");
    assert_eq!(cy.state.depth, 2, "cy is a depth below");
    let mut ann = join(&server, "ann").await;
    let mut bob = join(&server, "bob").await;

    // Said on depth 1: ann (its own line back) and bob hear it.
    say(&mut ann, ChatTo::Depth, "found the stairs").await;
    let said = line("ann", ChatTo::Depth, "found the stairs");
    assert_eq!(next_line(&mut ann).await.0, said);
    assert_eq!(next_line(&mut bob).await.0, said);

    // A whisper: bob and the speaker only.
    say(&mut ann, ChatTo::Player("bob".into()), "psst").await;
    let whisper = line("ann", ChatTo::Player("bob".into()), "psst");
    assert_eq!(next_line(&mut ann).await.0, whisper);
    assert_eq!(next_line(&mut bob).await.0, whisper);

    // A shout: everyone, cy on depth 2 included; it is the first line cy
    // hears, so neither the line for depth 1 nor the whisper reached it.
    say(&mut bob, ChatTo::Everyone, "anyone down there?").await;
    let shout = line("bob", ChatTo::Everyone, "anyone down there?");
    assert_eq!(next_line(&mut cy).await.0, shout);
    assert_eq!(next_line(&mut ann).await.0, shout);
    assert_eq!(next_line(&mut bob).await.0, shout);

    // Said on depth 2: cy hears itself; ann's next line is her own.
    say(&mut cy, ChatTo::Depth, "only me here").await;
    assert_eq!(next_line(&mut cy).await.0, line("cy", ChatTo::Depth, "only me here"));
    say(&mut ann, ChatTo::Depth, "after").await;
    assert_eq!(next_line(&mut ann).await.0, line("ann", ChatTo::Depth, "after"));
    assert_eq!(next_line(&mut bob).await.0, line("ann", ChatTo::Depth, "after"));

    // A whisper to nobody is a note to the speaker and goes nowhere.
    say(&mut bob, ChatTo::Player("zed".into()), "hello?").await;
    say(&mut bob, ChatTo::Depth, "never mind").await;
    let (heard, notes) = next_line(&mut bob).await;
    assert_eq!(heard, line("bob", ChatTo::Depth, "never mind"));
    assert_eq!(notes, ["Nobody called zed is playing."]);
    assert_eq!(next_line(&mut ann).await.0, line("bob", ChatTo::Depth, "never mind"));
    // Not a name at all: the note does not repeat it.
    say(&mut cy, ChatTo::Player("\u{1b}[2J\u{202E}x".repeat(20)), "hello?").await;
    say(&mut cy, ChatTo::Depth, "oh well").await;
    let (_, notes) = next_line(&mut cy).await;
    assert_eq!(notes, ["Nobody by that name is playing."]);
    for sim in [&ann, &bob, &cy] {
        assert!(sim.checked() > 0);
    }
}

#[tokio::test]
async fn a_line_is_cleaned_and_costs_no_turn() {
    let server = server().await;
    let mut ann = join(&server, "ann").await;
    let mut bob = join(&server, "bob").await;
    // Blank lines are dropped; control characters and bidirectional
    // overrides go; a long line is cut.
    say(&mut ann, ChatTo::Depth, "  \t \u{202E} ").await;
    say(&mut ann, ChatTo::Depth, " \u{202E}evil\u{202C} \u{1b}[2Jwave ").await;
    assert_eq!(next_line(&mut bob).await.0, line("ann", ChatTo::Depth, "evil [2Jwave"));
    let long = "x".repeat(MAX_CHAT_CHARS + 50);
    say(&mut ann, ChatTo::Depth, &long).await;
    let (cut, _) = next_line(&mut bob).await;
    assert_eq!(cut.text.chars().count(), MAX_CHAT_CHARS);

    // Talking takes no turn: bob's position and the rounds are untouched,
    // and his next action is answered as always.
    let at = bob.at();
    let msgs = bob.act(Action::Wait).await.expect("answered");
    assert!(msgs.iter().filter(|m| matches!(m, ServerMsg::Sight(_))).count() == 1);
    assert_eq!(bob.at(), at);
}

#[tokio::test]
async fn a_player_who_talks_too_fast_is_warned_then_closed_and_the_others_play_on() {
    let server = server().await;
    let mut ann = join(&server, "ann").await;
    let mut bob = join(&server, "bob").await;
    for i in 0..5 {
        say(&mut bob, ChatTo::Depth, &format!("line {i}")).await;
    }
    for i in 0..5 {
        assert_eq!(next_line(&mut ann).await.0.text, format!("line {i}"), "a burst of five passes");
    }
    say(&mut bob, ChatTo::Depth, "one too many").await;
    say(&mut bob, ChatTo::Depth, "and another").await;
    let close = bob.closed().await.expect("closed cleanly").expect("with a reason");
    assert_eq!(close.code, CloseCode::Policy);
    assert!(close.reason.contains("flooding"), "{close:?}");
    let warned = bob.state.log.iter().any(|l| l.text.starts_with("You are talking too fast"));
    assert!(warned, "warned first: {:?}", bob.state.log);
    // Neither of bob's last lines reached ann, and she plays on.
    say(&mut ann, ChatTo::Depth, "still here").await;
    assert_eq!(next_line(&mut ann).await.0, line("ann", ChatTo::Depth, "still here"));
    tokio::time::timeout(Duration::from_secs(5), ann.act(Action::Wait))
        .await
        .expect("in time")
        .expect("answered");
}

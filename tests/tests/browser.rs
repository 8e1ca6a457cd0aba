//! The web client in a real browser (headless Chromium, see
//! `gloam_tests::browser`), served by the server it plays on: a browser
//! player and a simulated one (the SDL window's protocol, checked by the
//! oracle) meet on one depth, see each other, talk both ways; keys move;
//! a reload resumes the character where it stood; death shows the death
//! page. The page is read as text (`window.gloam.screenText()`, what the
//! window's F12 writes), not as pixels.

use std::time::Duration;

use gloam_protocol::{Action, ChatTo, ClientMsg, Dir, PlayerChange, Pos, ServerMsg};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_tests::browser::{Browser, Page};
use gloam_tests::{Oracle, SimClient, TestServer};

const SEED: u64 = 77;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);
/// How long the page may take to show what a test waits for.
const SHOWN_WITHIN: Duration = Duration::from_secs(30);

/// The page's address on `server` (the game's own port).
fn page_url(server: &TestServer) -> String {
    server.url().replacen("ws://", "http://", 1) + "/"
}

/// Opens the page on `server` in a page of its own and joins as `name`
/// (the form a first visit shows); waits until the map is drawn.
async fn join(browser: &mut Browser, server: &TestServer, name: &str) -> Page {
    let page = browser.open(&page_url(server), 1280, 800).await.expect("the page opens");
    browser
        .wait(page, "!document.getElementById('join').hidden", SHOWN_WITHIN)
        .await
        .expect("a first visit asks the name");
    let submit = format!(
        "document.getElementById('name').value = {name:?}; \
         document.getElementById('join').requestSubmit(); true"
    );
    browser.eval(page, &submit).await.unwrap();
    shown(browser, page, "Depth 1").await;
    page
}

/// Waits until the page's screen holds `text`; gives the screen.
async fn shown(browser: &mut Browser, page: Page, text: &str) -> String {
    let expr = format!("window.gloam.screenText().includes({text:?}) && window.gloam.screenText()");
    match browser.wait(page, &expr, SHOWN_WITHIN).await {
        Ok(screen) => screen.as_str().unwrap_or_default().to_owned(),
        Err(e) => {
            let now = browser.eval(page, "window.gloam.screenText()").await;
            panic!("the page never showed {text:?} ({e}); it shows:\n{}", screen_of(now));
        }
    }
}

fn screen_of(value: Result<serde_json::Value, gloam_tests::browser::BrowserError>) -> String {
    match value {
        Ok(v) => v.as_str().unwrap_or_default().to_owned(),
        Err(e) => e.to_string(),
    }
}

/// Reads `sim`'s messages until `found` picks one out, within the deadline.
async fn heard<T>(sim: &mut SimClient, mut found: impl FnMut(&ServerMsg) -> Option<T>) -> T {
    tokio::time::timeout(SHOWN_WITHIN, async {
        loop {
            match sim.recv().await {
                Ok(msg) => {
                    if let Some(t) = found(&msg) {
                        return t;
                    }
                }
                Err(gloam_tests::SimError::Timeout(_)) => {}
                Err(e) => panic!("{e}"),
            }
        }
    })
    .await
    .expect("heard in time")
}

/// Where `sim` last saw the player called `name`, once it sees it there.
async fn seen_at(sim: &mut SimClient, name: &str) -> Pos {
    let named = |sim: &SimClient| sim.state.others.values().find(|o| o.name == name).map(|o| o.at);
    if let Some(at) = named(sim) {
        return at;
    }
    heard(sim, |msg| match msg {
        ServerMsg::Sight(_) | ServerMsg::Players(_) => Some(()),
        _ => None,
    })
    .await;
    tokio::time::timeout(SHOWN_WITHIN, async {
        loop {
            if let Some(at) = named(sim) {
                return at;
            }
            let _ = sim.recv().await;
        }
    })
    .await
    .expect("seen in time")
}

fn quiet() -> Config {
    Config {
        generator: SETTING,
        actions_per_second: 1000,
        action_burst: 1000,
        ..Config::quiet(SEED)
    }
}

fn vi_key(d: Dir) -> &'static str {
    match d {
        Dir::N => "k",
        Dir::NE => "u",
        Dir::E => "l",
        Dir::SE => "n",
        Dir::S => "j",
        Dir::SW => "b",
        Dir::W => "h",
        Dir::NW => "y",
    }
}

/// A browser player and a simulated one on one depth: each sees the
/// other, a line of chat crosses each way, and a key pressed in the page
/// moves its player as the simulated client (and its oracle) sees.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_player_meets_a_simulated_one_talks_and_moves() {
    let server = TestServer::start(quiet()).await.unwrap();
    let oracle = Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS);
    let mut sim = SimClient::join(&server.url(), "sim", Some(oracle)).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;

    let start = seen_at(&mut sim, "webby").await;
    let screen = shown(&mut browser, page, "sim").await;
    assert!(!screen.contains("you are alone here"), "{screen}");

    // sim to the page.
    let hello = ClientMsg::Chat { to: ChatTo::Depth, text: "hello, browser".into() };
    sim.send(&hello).await.unwrap();
    shown(&mut browser, page, "hello, browser").await;

    // The page to sim: Enter opens the line, Enter sends it.
    browser.key(page, "Enter").await.unwrap();
    browser.type_text(page, "hi from the web").await.unwrap();
    browser.key(page, "Enter").await.unwrap();
    let said = heard(&mut sim, |msg| match msg {
        ServerMsg::Chat { name, text, .. } if name == "webby" => Some(text.clone()),
        _ => None,
    })
    .await;
    assert_eq!(said, "hi from the web");

    // A step the page's player can take: onto open floor nobody stands on.
    let level = gloam_server::mapgen::build_level(SEED, 1, SETTING);
    let dir = Dir::ALL
        .into_iter()
        .find(|&d| {
            start.step(d).is_some_and(|p| {
                level.terrain(p) == gloam_protocol::Terrain::Floor && p != sim.at()
            })
        })
        .expect("open floor beside the browser's player");
    let to = start.step(dir).unwrap();
    browser.key(page, vi_key(dir)).await.unwrap();
    let moved = heard(&mut sim, |msg| {
        let changes: &[PlayerChange] = match msg {
            ServerMsg::Sight(d) | ServerMsg::Displaced(d) => &d.players,
            ServerMsg::Players(p) => p,
            _ => return None,
        };
        changes.iter().find_map(|c| match c {
            PlayerChange::Moved { at, .. } => Some(*at),
            _ => None,
        })
    })
    .await;
    assert_eq!(moved, to, "the page's key moved its player one step {dir:?}");

    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
    sim.quit().await.unwrap();
}

/// A reload of the page resumes the same character where it stood: the
/// name and key kept in the browser's storage join it again without
/// asking, and the simulated player sees it back on the same cell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_resumes_the_character_where_it_stood() {
    let server = TestServer::start(quiet()).await.unwrap();
    let mut sim = SimClient::join(&server.url(), "sim", None).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;
    let before = seen_at(&mut sim, "webby").await;

    browser.reload(page).await.unwrap();
    // Gone, then back: the second sighting is the resumed character.
    heard(&mut sim, |msg| match msg {
        ServerMsg::Left(names) if names.iter().any(|n| n == "webby") => Some(()),
        _ => None,
    })
    .await;
    let screen = shown(&mut browser, page, "Depth 1").await;
    assert!(!screen.contains("Your name"), "no name asked again: {screen}");
    let after = seen_at(&mut sim, "webby").await;
    assert_eq!(after, before, "resumed where it stood");
    sim.act(Action::Wait).await.unwrap();

    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
    sim.quit().await.unwrap();
}

/// A giant beside the arrival kills the page's player: the page shows the
/// death page (who, where, by what), not an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn death_shows_the_death_page() {
    let (_, cells) = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 1);
    let arena = std::path::Path::new(gloam_tests::ARENA_BESTIARY);
    let config = Config {
        seed: SEED,
        generator: SETTING,
        actions_per_second: 1000,
        action_burst: 1000,
        bestiary: std::sync::Arc::new(gloam_server::bestiary::Bestiary::load(arena).unwrap()),
        placements: vec![gloam_server::config::Placement {
            kind: "giant".into(),
            depth: 1,
            pos: cells[0],
        }],
        ..Config::default()
    };
    let server = TestServer::start(config).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;
    for _ in 0..3 {
        browser.key(page, "5").await.unwrap();
    }
    let screen = shown(&mut browser, page, "killed by a giant").await;
    assert!(screen.contains("webby died on depth 1"), "{screen}");
    assert!(!screen.contains("Disconnected"), "a death is not a network error: {screen}");

    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
}

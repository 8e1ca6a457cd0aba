//! The web client in a real browser (headless Chromium, see
//! `gloam_tests::browser`), served by the server it plays on: a browser
//! player and a simulated one (the SDL window's protocol, checked by the
//! oracle) meet on one depth, see each other, talk both ways; keys move;
//! a reload resumes the character where it stood; death shows the death
//! page; a fall plays at its `/replay/NAME/LIFE` link, and from the
//! graveyard by its letter while the page's player plays. The page is read
//! as text (`window.gloam.screenText()`, what the window's F12 writes),
//! not as pixels.

use std::time::Duration;

use gloam_protocol::{Action, ChatTo, ClientMsg, Dir, PlayerChange, Pos, ServerMsg};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_tests::browser::{Browser, Page};
use gloam_tests::{Oracle, SimClient, TestServer, vi_key};

const SEED: u64 = 77;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);
/// How long the page may take to show what a test waits for.
const SHOWN_WITHIN: Duration = Duration::from_secs(30);

/// The page's address on `server` (the game's own port).
fn page_url(server: &TestServer) -> String {
    server.url().replacen("ws://", "http://", 1) + "/"
}

/// Opens `url` in a page of its own and waits for the name form a first
/// visit shows.
async fn open_form(browser: &mut Browser, url: &str) -> Page {
    let page = browser.open(url, 1280, 800).await.expect("the page opens");
    browser
        .wait(page, "!document.getElementById('join').hidden", SHOWN_WITHIN)
        .await
        .expect("a first visit asks the name");
    page
}

/// Fills the name form with `name` and sends it.
async fn submit_name(browser: &mut Browser, page: Page, name: &str) {
    let submit = format!(
        "document.getElementById('name').value = {name:?}; \
         document.getElementById('join').requestSubmit(); true"
    );
    browser.eval(page, &submit).await.unwrap();
}

/// Opens the page on `server` in a page of its own and joins as `name`;
/// waits until the map is drawn.
async fn join(browser: &mut Browser, server: &TestServer, name: &str) -> Page {
    join_as(browser, server, name, "a").await
}

/// [`join`], choosing the background of `letter` on the first screen
/// (`a` a fighter, `d` an adept).
async fn join_as(browser: &mut Browser, server: &TestServer, name: &str, letter: &str) -> Page {
    let page = open_form(browser, &page_url(server)).await;
    submit_name(browser, page, name).await;
    choose_background(browser, page, letter).await;
    shown(browser, page, "Depth 1").await;
    page
}

/// A new name's first screen: `letter` chooses its background.
async fn choose_background(browser: &mut Browser, page: Page, letter: &str) {
    shown(browser, page, "Choose a background").await;
    browser.key(page, letter).await.unwrap();
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
async fn heard<T>(sim: &mut SimClient, found: impl FnMut(&ServerMsg) -> Option<T>) -> T {
    sim.expect(SHOWN_WITHIN, found).await
}

/// Where `sim` sees the player called `name`, once it sees it.
async fn seen_at(sim: &mut SimClient, name: &str) -> Pos {
    let named = |sim: &SimClient| sim.state.others.values().find(|o| o.name == name).map(|o| o.at);
    // Each message read is applied to `sim`'s mirror, then looked at.
    tokio::time::timeout(SHOWN_WITHIN, async {
        loop {
            if let Some(at) = named(sim) {
                return at;
            }
            heard(sim, |_| Some(())).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{name} seen in time"))
}

fn quiet() -> Config {
    Config {
        generator: SETTING,
        actions_per_second: 1000,
        action_burst: 1000,
        ..Config::quiet(SEED)
    }
}

/// A browser player and a simulated one on one depth: each sees the
/// other, a line of chat crosses each way, `/who` lists both, `G` shows
/// the graveyard, and a key pressed in the page moves its player as the
/// simulated client (and its oracle) sees.
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

    // `/who` lists both; `G` shows the graveyard, any key puts it away.
    browser.key(page, "Enter").await.unwrap();
    browser.type_text(page, "/who").await.unwrap();
    browser.key(page, "Enter").await.unwrap();
    let who = shown(&mut browser, page, "Playing now (2)").await;
    let line = who.lines().find(|l| l.contains("Playing now (2)")).unwrap();
    assert!(line.contains("sim") && line.contains("webby"), "{line}");
    browser.key(page, "Shift+G").await.unwrap();
    shown(&mut browser, page, "Nobody has died in this world yet.").await;
    browser.key(page, "Escape").await.unwrap();
    shown(&mut browser, page, "Depth 1").await;

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

/// A key towards a giant beside the arrival is a blow, and the giant's
/// answer kills the page's player: the page shows the death page (who,
/// where, by what, and its morgue file, as a line and a link, and a link
/// to its last rounds), not an error, and Enter starts a new character.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn death_shows_the_death_page() {
    let (arrival, cells) = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 1);
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
    // An adept: fewer hit points than the giant's blow takes.
    let page = join_as(&mut browser, &server, "webby", "d").await;
    let towards = Dir::ALL.into_iter().find(|&d| arrival.step(d) == Some(cells[0])).unwrap();
    browser.key(page, vi_key(towards)).await.unwrap();
    let screen = shown(&mut browser, page, "killed by a giant").await;
    assert!(screen.contains("You died on depth 1"), "{screen}");
    assert!(!screen.contains("Disconnected"), "a death is not a network error: {screen}");
    let blow = screen.contains("You miss the giant.") || screen.contains("You hit the giant.");
    assert!(blow, "the key towards the giant was a blow: {screen}");
    // The morgue file, named on the canvas and linked beside it.
    let url = format!("http://{}/morgue/webby/1.txt", server.addr);
    assert!(screen.contains(&format!("Morgue file:           {url}")), "{screen}");
    // The links follow the frame drawn after the page's text is there: waited for.
    let link =
        "(() => { const a = document.getElementById('morgue'); return a.hidden ? '' : a.href; })()";
    let linked = browser.wait(page, &format!("{link} === {url:?}"), SHOWN_WITHIN).await;
    assert!(linked.is_ok(), "{:?}", browser.eval(page, link).await);
    // Its last rounds, at a link a friend can open, and `r` among the keys.
    let replay = format!("http://{}/replay/webby/1", server.addr);
    let replay_link = "document.getElementById('replay').textContent";
    let said = format!("Watch the last rounds: {replay}");
    let linked = browser.wait(page, &format!("{replay_link} === {said:?}"), SHOWN_WITHIN).await;
    assert!(linked.is_ok(), "{:?}", browser.eval(page, replay_link).await);
    assert!(screen.contains("r: watch your last rounds"), "{screen}");

    // Enter: the name's next life chooses its background again (a fighter).
    browser.key(page, "Enter").await.unwrap();
    choose_background(&mut browser, page, "a").await;
    shown(&mut browser, page, "HP 36/36").await;
    let hidden = browser.wait(page, &format!("{link} === ''"), SHOWN_WITHIN).await;
    assert!(hidden.is_ok(), "hidden in play: {:?}", browser.eval(page, link).await);

    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
}

/// A server with a giant beside depth 1's arrival (a store in the folder
/// given back), where a simulated ann has just been crushed by it: her
/// first life's grave, with its morgue file and recording.
async fn ann_fell() -> (tempfile::TempDir, TestServer) {
    let (_, cells) = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 1);
    let arena = std::path::Path::new(gloam_tests::ARENA_BESTIARY);
    let config = Config {
        bestiary: std::sync::Arc::new(gloam_server::bestiary::Bestiary::load(arena).unwrap()),
        placements: vec![gloam_server::config::Placement {
            kind: "giant".into(),
            depth: 1,
            pos: cells[0],
        }],
        ..quiet()
    };
    let data = tempfile::tempdir().unwrap();
    let store = gloam_server::store::Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config, store).await.unwrap();
    let mut ann = SimClient::join(&server.url(), "ann", None).await.expect("ann joins");
    let died = ann.act(Action::Wait).await;
    assert!(matches!(died, Err(gloam_tests::SimError::Died(_))), "{died:?}");
    assert_eq!(ann.state.death.as_ref().expect("ann's record").morgue, 1);
    (data, server)
}

/// A fall is anyone's to watch at its link: a simulated ann is killed by a
/// giant beside her arrival (as in recordings.rs), and a browser that
/// opens `/replay/ann/1` asks for her last rounds at once, with no name
/// form, and plays them on the player page (its status line and keys, the
/// giant's blow in the log) to the end. A screenshot of the end is kept
/// (in `GLOAM_SCREENSHOTS`, when set) and is the page's size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fall_plays_at_its_replay_link() {
    let (_data, server) = ann_fell().await;

    let mut browser = Browser::start().await.expect("the browser starts");
    let url = page_url(&server) + "replay/ann/1";
    let page = browser.open(&url, 1280, 800).await.expect("the page opens");
    // Her fall is one round: it may have ended by the first frame read.
    let screen = shown(&mut browser, page, "Recording: ann on depth 1, round ").await;
    assert!(screen.contains("    +/-: faster, slower    "), "{screen}");
    let hidden = browser.eval(page, "document.getElementById('join').hidden").await.unwrap();
    assert_eq!(hidden, serde_json::json!(true), "no name form");
    let screen = shown(&mut browser, page, ", x1, ended").await;
    assert!(screen.contains("Space: play again    +/-: faster, slower    Esc: back"), "{screen}");
    assert!(screen.contains("The giant crushes you"), "{screen}");
    assert!(screen.contains("You die..."), "{screen}");

    let kept = std::env::var_os("GLOAM_SCREENSHOTS").map(std::path::PathBuf::from);
    let temp = tempfile::NamedTempFile::new().unwrap();
    let shot = kept.map_or_else(|| temp.path().to_owned(), |dir| dir.join("replay-ended.png"));
    browser.screenshot(page, &shot).await.unwrap();
    let (width, height, _) = rgb_of(&std::fs::read(&shot).unwrap());
    assert_eq!((width, height), (1280, 800));

    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
}

/// A fall watched from the graveyard while playing: a simulated ann is
/// killed by the giant beside the arrival; webby, in play beside it (alone
/// on the depth: nothing moves until she acts), opens the graveyard (`G`),
/// where ann's grave has the letter `a`, and `a` plays ann's fall on the
/// player page to its end; a game key then is the player's, not the
/// game's; Esc goes back to the graveyard, and Esc again to webby's map,
/// where she still plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fall_plays_from_the_graveyard_in_play() {
    let (_data, server) = ann_fell().await;

    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;
    browser.key(page, "Shift+G").await.unwrap();
    let screen = shown(&mut browser, page, "a: watch a fall    any other key: back").await;
    assert!(screen.contains("  a) ann "), "{screen}");
    browser.key(page, "a").await.unwrap();
    let screen = shown(&mut browser, page, ", x1, ended").await;
    assert!(screen.contains("Recording: ann on depth 1, round "), "{screen}");
    assert!(screen.contains("Space: play again    +/-: faster, slower    Esc: back"), "{screen}");
    assert!(screen.contains("The giant crushes you"), "{screen}");
    // `?` would show the help over the game: while the fall shows, it is
    // the player's key (none), and the player page stays.
    browser.key(page, "?").await.unwrap();
    browser.key(page, "Escape").await.unwrap();
    let screen = shown(&mut browser, page, "a: watch a fall    any other key: back").await;
    assert!(!screen.contains("Recording:"), "{screen}");
    browser.key(page, "Escape").await.unwrap();
    let screen = shown(&mut browser, page, "Depth 1   HP ").await;
    assert!(!screen.contains("a: watch a fall"), "the graveyard put away: {screen}");
    assert!(!screen.contains("Keys"), "no help: the ? was the player's: {screen}");

    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
}

/// A server that serves the real page (by passing page requests through to
/// `real`) but answers the game's connection with `frames`, then keeps the
/// connection open: a hostile server, as the page meets it.
async fn hostile_server(
    real: std::net::SocketAddr,
    frames: Vec<tokio_tungstenite::tungstenite::Message>,
) -> std::net::SocketAddr {
    use futures_util::{SinkExt, StreamExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let frames = frames.clone();
            tokio::spawn(async move {
                // The head, peeked (a browser sends it whole), tells a page
                // request from the game's upgrade.
                stream.readable().await.unwrap();
                let mut head = [0u8; 4096];
                let n = stream.peek(&mut head).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&head[..n]).to_ascii_lowercase();
                if !head.contains("upgrade: websocket") {
                    let mut page = tokio::net::TcpStream::connect(real).await.unwrap();
                    let _ = tokio::io::copy_bidirectional(&mut stream, &mut page).await;
                    return;
                }
                let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else { return };
                let _hello = ws.next().await;
                for frame in frames {
                    if ws.send(frame).await.is_err() {
                        return;
                    }
                }
                let _ = tokio::time::timeout(SHOWN_WITHIN, async {
                    while let Some(Ok(_)) = ws.next().await {}
                })
                .await;
            });
        }
    });
    addr
}

/// The page against a hostile server: a map of 65535 x 65535, a message
/// of no known kind, a text frame. Each is shown as the reason the game
/// ended, the tab stays responsive (it answers at once after), and nothing
/// is thrown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_survives_a_hostile_server() {
    use tokio_tungstenite::tungstenite::Message;
    let server = TestServer::start(quiet()).await.unwrap();
    let real: std::net::SocketAddr = server.url().trim_start_matches("ws://").parse().unwrap();
    let welcome = gloam_protocol::codec::encode(&gloam_tests::fake_welcome(10));
    let huge = gloam_protocol::codec::encode(&ServerMsg::EnterLevel {
        depth: 1,
        width: u16::MAX,
        height: u16::MAX,
        remembered: Vec::new(),
        terrain: Vec::new(),
    });
    let cases: [(&str, Vec<Message>, &str); 3] = [
        (
            "a map of 65535 x 65535",
            vec![welcome.clone().into(), huge.into()],
            "larger than the protocol allows",
        ),
        (
            "an unknown kind of message",
            vec![welcome.clone().into(), vec![200u8, 0, 0].into()],
            "unknown ServerMsg variant 200",
        ),
        ("a text frame", vec![welcome.into(), Message::text("hello")], "sent a text frame"),
    ];
    let mut browser = Browser::start().await.expect("the browser starts");
    for (what, frames, said) in cases {
        let hostile = hostile_server(real, frames).await;
        let url = format!("http://{hostile}/");
        let page = open_form(&mut browser, &url).await;
        submit_name(&mut browser, page, "webby").await;
        let screen = shown(&mut browser, page, said).await;
        assert!(screen.contains("Disconnected: "), "{what}: said as the game's end: {screen}");
        let answered = tokio::time::timeout(Duration::from_secs(5), browser.eval(page, "1 + 1"))
            .await
            .expect("the tab answers at once after the hostile message")
            .unwrap();
        assert_eq!(answered, serde_json::json!(2));
        assert!(browser.errors(page).await.unwrap().is_empty(), "{what}: nothing thrown");
        browser.close(page).await.unwrap();
    }
    browser.stop().await;
}

/// The map part of a screen: its rows above the HUD's first ("Depth 1
/// HP ..."), the empty rows below the map left out.
fn map_rows(screen: &str) -> String {
    let rows: Vec<_> = screen.lines().take_while(|l| !l.contains("   HP ")).collect();
    rows.join("\n").trim_end().to_owned()
}

/// A page opened at `?watch=NAME` says whom its name form is for, then
/// follows that player: its HUD speaks of
/// the player by name, and after the player's step it draws the same map
/// as the player's own page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_page_follows_a_player() {
    let server = TestServer::start(quiet()).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let player = join(&mut browser, &server, "webby").await;
    let url = format!("{}?watch=webby", page_url(&server));
    let eye = open_form(&mut browser, &url).await;
    let told = browser.eval(eye, "document.getElementById('join-why').textContent").await;
    let told = told.unwrap();
    assert!(told.as_str().unwrap_or_default().contains("You will watch webby"), "{told}");
    submit_name(&mut browser, eye, "eye").await;
    let watching = shown(&mut browser, eye, "webby is alone here").await;
    assert!(!watching.contains("you are alone"), "{watching}");

    // A step the player can take, found from what its page shows: `o`
    // explores one step at least; then both pages settle on one map.
    browser.key(player, "o").await.unwrap();
    let mut same = false;
    let deadline = std::time::Instant::now() + SHOWN_WITHIN;
    while std::time::Instant::now() < deadline {
        let mine = map_rows(&shown(&mut browser, player, "Depth 1").await);
        let theirs = map_rows(&shown(&mut browser, eye, "Depth 1").await);
        if mine == theirs && mine.contains('@') {
            same = true;
            break;
        }
        tokio::task::yield_now().await;
    }
    if !same {
        let theirs = shown(&mut browser, eye, "Depth 1").await;
        panic!("the watcher's page never drew the player's map; it shows:\n{theirs}");
    }
    assert!(browser.errors(eye).await.unwrap().is_empty());
    browser.stop().await;
}

/// A named world in a real browser: the page's tab is titled with the
/// world's name (a hostile one, as text); the host's `/status` page opens,
/// lists the player and makes no element of the hostile name; and a
/// server that stops tells the page it is restarting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_world_its_status_page_and_its_restart_in_a_browser() {
    let world_name = "<b>Gloamhold</b>".to_owned();
    let server = TestServer::start(Config { world_name, ..quiet() }).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;
    let title = browser.eval(page, "document.title").await.unwrap();
    assert_eq!(title.as_str(), Some("<b>Gloamhold</b> - Gloam - webby"));

    let status = browser.open(&format!("{}status", page_url(&server)), 1280, 800).await.unwrap();
    let listed = "document.querySelector('li')?.textContent === 'webby'";
    browser.wait(status, listed, SHOWN_WITHIN).await.expect("the status lists webby");
    let title = browser.eval(status, "document.title").await.unwrap();
    assert_eq!(title.as_str(), Some("Gloam: <b>Gloamhold</b>"));
    let made = browser.eval(status, "document.querySelectorAll('b, script, img').length").await;
    assert_eq!(made.unwrap().as_u64(), Some(0), "no element made of a name");
    let text = browser.eval(status, "document.body.innerText").await.unwrap();
    let text = text.as_str().unwrap_or_default();
    assert!(text.contains("Depth 1") && text.contains("Nobody has died yet."), "{text}");
    assert!(browser.errors(status).await.unwrap().is_empty());

    server.stop(SHOWN_WITHIN).await.expect("the server stops");
    let screen = shown(&mut browser, page, "the server is restarting: come back in a moment").await;
    assert!(screen.contains("The server is restarting."), "{screen}");
    browser.stop().await;
}

/// The gzip -9 size of a file (a measure's figure, so `gzip` is run).
fn gzipped(path: &std::path::Path) -> usize {
    let out = std::process::Command::new("gzip").arg("-9c").arg(path).output().expect("gzip runs");
    out.stdout.len()
}

/// The measures of the page, printed: its weight (raw and gzip -9,
/// the font apart); the time from opening the address to the first frame
/// drawn, on a return visit (the name kept), in headless Chromium on
/// loopback; one full redraw; and the bytes a move costs the page, beside
/// what the same walk costs a simulated client (the window's protocol) on
/// a world of the same seed: the two must be equal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measure, printed: run with --ignored --nocapture"]
async fn measure_the_page() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/dist");
    let (mut raw, mut packed) = (0, 0);
    for file in ["index.html", "app.js", "app.css"] {
        raw += std::fs::metadata(dist.join(file)).unwrap().len() as usize;
        packed += gzipped(&dist.join(file));
    }
    let font =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/DejaVuSansMono.ttf");
    println!(
        "page weight, font aside: {raw} B raw, {packed} B gzip -9 (the font: {} B, {} B gzip -9)",
        std::fs::metadata(&font).unwrap().len(),
        gzipped(&font)
    );

    let server = TestServer::start(quiet()).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;
    let mut first = Vec::new();
    for _ in 0..7 {
        browser.reload(page).await.unwrap();
        let mark = "performance.getEntriesByName('gloam:first-frame')[0]?.startTime";
        let at = browser.wait(page, mark, SHOWN_WITHIN).await.unwrap();
        first.push(at.as_f64().unwrap());
    }
    first.sort_by(f64::total_cmp);
    println!(
        "opening the address to the first frame drawn (return visit, 7 loads): median {:.0} ms, range {:.0} to {:.0} ms",
        first[3], first[0], first[6]
    );
    shown(&mut browser, page, "Depth 1").await;
    let mut redraws = Vec::new();
    for _ in 0..5 {
        redraws.push(
            browser.eval(page, "window.gloam.timeRedraws(50)").await.unwrap().as_f64().unwrap(),
        );
    }
    redraws.sort_by(f64::total_cmp);
    println!(
        "one full redraw at 1280x800 (5 runs of 50): median {:.2} ms, range {:.2} to {:.2} ms",
        redraws[2], redraws[0], redraws[4]
    );
    browser.close(page).await.unwrap();

    // The same walk on two fresh worlds of one seed: a simulated client's,
    // then the page's, each from the arrival towards the stairs down.
    let level = gloam_server::mapgen::build_level(SEED, 1, SETTING);
    let walk: Vec<Dir> = level.grid.walk_from(level.arrival).path_to(level.stairs_down).unwrap();
    let walk = &walk[..walk.len().min(30)];
    let sim_world = TestServer::start(quiet()).await.unwrap();
    let mut sim = SimClient::join(&sim_world.url(), "webby", None).await.unwrap();
    sim.sync().await.unwrap();
    let joined = sim.stats.bytes;
    for &d in walk {
        sim.act(Action::Move(d)).await.unwrap();
    }
    let sim_total = sim.stats.bytes;
    let page_world = TestServer::start(quiet()).await.unwrap();
    let page = join(&mut browser, &page_world, "webby").await;
    // The wait the simulated client took to read all of its join.
    browser.key(page, "5").await.unwrap();
    for &d in walk {
        browser.key(page, vi_key(d)).await.unwrap();
    }
    let until = format!("window.gloam.received().bytes >= {sim_total}");
    let _ = browser.wait(page, &until, SHOWN_WITHIN).await;
    let got = browser.eval(page, "window.gloam.received().bytes").await.unwrap();
    let page_total = got.as_u64().unwrap();
    let moves = walk.len() as f64;
    println!(
        "bytes received for joining and {} moves: page {page_total}, simulated client {sim_total}; \
         per move {:.1} B (simulated client {:.1} B)",
        walk.len(),
        (page_total as f64 - joined as f64) / moves,
        (sim_total - joined) as f64 / moves
    );
    assert_eq!(page_total, sim_total, "the page is sent what the window is sent");
    browser.stop().await;
}

/// An image's pixels as RGB rows: `(width, height, bytes)`.
fn rgb_of(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()].chunks(channels).flat_map(|p| [p[0], p[1], p[2]]).collect();
    (info.width, info.height, rgb)
}

fn write_rgb(path: &std::path::Path, width: u32, height: u32, rgb: &[u8]) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(rgb).unwrap();
}

/// The page's map and first HUD rows at the arrival of seed 77's depth 1,
/// against `tests/golden/web-arrival.png` (the top 700 of 1280 x 800
/// pixels: the rows below name the server's port, which changes). A pixel
/// differs when a channel is off by more than 32 (the font's edges may
/// shift a little with Chromium's version); at most 0.05% may (448 pixels:
/// fewer than the walls of the room in sight hold). `GLOAM_BLESS=1`
/// writes the golden anew (look at it before committing it); a failure
/// leaves what was drawn beside it as `web-arrival.actual.png`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_at_the_arrival_matches_its_golden_image() {
    const TOP: u32 = 700;
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/web-arrival.png");
    let server = TestServer::start(quiet()).await.unwrap();
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = join(&mut browser, &server, "webby").await;
    shown(&mut browser, page, "Chat shows here").await;
    let shot = tempfile::NamedTempFile::new().unwrap();
    browser.screenshot(page, shot.path()).await.unwrap();
    browser.stop().await;
    let (width, height, rgb) = rgb_of(&std::fs::read(shot.path()).unwrap());
    assert_eq!((width, height), (1280, 800));
    let top = &rgb[..(width * TOP * 3) as usize];
    if std::env::var_os("GLOAM_BLESS").is_some() {
        write_rgb(&golden, width, TOP, top);
        return;
    }
    let (gw, gh, want) = rgb_of(&std::fs::read(&golden).expect("the golden image"));
    assert_eq!((gw, gh), (width, TOP), "the golden's size");
    let off = top
        .chunks(3)
        .zip(want.chunks(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 32))
        .count();
    let share = off as f64 / f64::from(width * TOP);
    if share > 0.0005 {
        write_rgb(&golden.with_file_name("web-arrival.actual.png"), width, TOP, top);
        panic!("{off} pixels ({:.2}%) differ from {}", share * 100.0, golden.display());
    }
}

/// A friend on another machine (a network namespace of its own, see
/// `gloam_tests::netns`) opens the host's address, `http://HOST-IP:PORT/`,
/// on a server bound to every interface, and plays beside a player of the
/// window's protocol on this machine: each sees the other, and the
/// friend's line of chat reaches the host's player. Needs root for the
/// namespace (CI runs as root; the test says so otherwise).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_on_another_machine_joins_by_the_hosts_address() {
    let friend = gloam_tests::netns::Friend::new().expect("a network namespace (needs root)");
    let store = gloam_server::store::Store::in_memory();
    let server = TestServer::start_on("0.0.0.0:0", quiet(), store).await.unwrap();
    let port = server.addr.port();
    let local = format!("ws://127.0.0.1:{port}");
    let mut host = SimClient::join(&local, "host", None).await.unwrap();

    let mut browser = Browser::start_in(Some(&friend.name)).await.expect("the browser starts");
    let url = format!("http://{}:{port}/", friend.host_ip);
    let page = open_form(&mut browser, &url).await;
    submit_name(&mut browser, page, "friend").await;
    choose_background(&mut browser, page, "a").await;
    shown(&mut browser, page, "also here: host").await;
    seen_at(&mut host, "friend").await;

    browser.key(page, "Enter").await.unwrap();
    browser.type_text(page, "hello from afar").await.unwrap();
    browser.key(page, "Enter").await.unwrap();
    let said = heard(&mut host, |msg| match msg {
        ServerMsg::Chat { name, text, .. } if name == "friend" => Some(text.clone()),
        _ => None,
    })
    .await;
    assert_eq!(said, "hello from afar");
    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
    host.quit().await.unwrap();
}

/// A game connection to a fake server: its socket, its hello, and when it
/// came.
type Game =
    (tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>, ClientMsg, std::time::Instant);

/// The next game connection, within the deadline.
async fn next_game(games: &mut tokio::sync::mpsc::UnboundedReceiver<Game>) -> Game {
    tokio::time::timeout(SHOWN_WITHIN, games.recv()).await.expect("a connection").unwrap()
}

/// A fake server that serves the real page (passing page requests through
/// to `real`) and hands each game connection to the test, with its hello
/// and when it came: the page's tries again, seen from the server's side.
async fn game_connections(
    real: std::net::SocketAddr,
) -> (std::net::SocketAddr, tokio::sync::mpsc::UnboundedReceiver<Game>) {
    use futures_util::StreamExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tell, games) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let came = std::time::Instant::now();
            let tell = tell.clone();
            tokio::spawn(async move {
                stream.readable().await.unwrap();
                let mut head = [0u8; 4096];
                let n = stream.peek(&mut head).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&head[..n]).to_ascii_lowercase();
                if !head.contains("upgrade: websocket") {
                    let mut page = tokio::net::TcpStream::connect(real).await.unwrap();
                    let _ = tokio::io::copy_bidirectional(&mut stream, &mut page).await;
                    return;
                }
                let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else { return };
                let Some(Ok(hello)) = ws.next().await else { return };
                let hello = gloam_protocol::codec::decode_client(&hello.into_data()).unwrap();
                let _ = tell.send((ws, hello, came));
            });
        }
    });
    (addr, games)
}

/// The page closed on by a restarting server (1012) comes back at once,
/// with the key its first welcome gave; refused then with a wrong key, it
/// shows the refusal and makes no try again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_comes_back_at_once_after_a_restart_and_never_after_a_wrong_key() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    let server = TestServer::start(quiet()).await.unwrap();
    let real: std::net::SocketAddr = server.url().trim_start_matches("ws://").parse().unwrap();
    let (fake, mut games) = game_connections(real).await;
    let mut browser = Browser::start().await.expect("the browser starts");
    let page = browser.open(&format!("http://{fake}/?name=webby"), 1280, 800).await.unwrap();
    let frame = |msg: ServerMsg| Message::Binary(gloam_protocol::codec::encode(&msg).into());

    let (mut first, hello, _) = next_game(&mut games).await;
    assert_eq!(hello, ClientMsg::Backgrounds, "a new name: the first screen");
    let fighter = gloam_protocol::BackgroundInfo {
        name: "fighter".into(),
        about: "Sword and leather.".into(),
        hp: 36,
        to_hit: 5,
        damage: 2,
        stealth: 0,
        throwing: 0,
        kit: vec!["a short sword (wielded)".into()],
    };
    first.send(frame(ServerMsg::Backgrounds(vec![fighter]))).await.unwrap();
    shown(&mut browser, page, "Choose a background").await;
    browser.key(page, "a").await.unwrap();
    let create = loop {
        let msg = first.next().await.expect("the choice").unwrap();
        if let Message::Binary(bytes) = msg {
            break gloam_protocol::codec::decode_client(&bytes).unwrap();
        }
    };
    assert!(
        matches!(create, ClientMsg::Create { ref name, ref background, .. }
        if name == "webby" && background == "fighter"),
        "{create:?}"
    );
    first.send(frame(gloam_tests::fake_welcome(20))).await.unwrap();
    shown(&mut browser, page, "Joining...").await;
    let restart = CloseFrame { code: CloseCode::from(1012), reason: "restarting".into() };
    first.close(Some(restart)).await.unwrap();
    let closed = std::time::Instant::now();
    // As a server does: it reads on until the client answers the close.
    tokio::spawn(async move { while let Some(Ok(_)) = first.next().await {} });

    let (mut second, hello, came) = next_game(&mut games).await;
    let after = came.saturating_duration_since(closed);
    assert!(after < Duration::from_millis(500), "a restart is tried again at once: {after:?}");
    let kept =
        matches!(hello, ClientMsg::Hello { token: Some(t), .. } if t == gloam_tests::FAKE_KEY);
    assert!(kept, "with the key the first welcome gave: {hello:?}");
    let refused = ServerMsg::Refused(gloam_protocol::Refusal::WrongToken);
    second.send(frame(refused)).await.unwrap();
    let policy = CloseFrame { code: CloseCode::Policy, reason: "refused".into() };
    let _ = second.close(Some(policy)).await;
    let screen = shown(&mut browser, page, "Disconnected: refused: that name belongs").await;
    assert!(!screen.contains("Trying again"), "{screen}");

    // A try again would come within 1 s (the first wait): none in 3 s.
    let third = tokio::time::timeout(Duration::from_secs(3), games.recv()).await;
    assert!(third.is_err(), "a wrong key is not tried again");
    assert!(browser.errors(page).await.unwrap().is_empty());
    browser.stop().await;
}

//! The web client's page, served on the game's own port over real sockets:
//! GET and HEAD of the files built in, with the headers a careful host
//! sends, a 304 for a copy still current, 404 and 405 for anything else;
//! and game connections beside page requests, as before. The hostile side
//! (heads too large, too slow, the server full) is in `hostile.rs`. Every
//! answer here is checked for its `Date`.

use std::net::SocketAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use gloam_protocol::{Action, calendar};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::raw::{self, HttpAnswer};
use gloam_tests::{SimClient, TestServer};

/// The page as the server was built with it.
const INDEX: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/dist/index.html"));
const FONT: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/DejaVuSansMono.ttf"));

fn config() -> Config {
    Config { seed: 99, generator: GeneratorSetting::One(Generator::Bsp), ..Config::default() }
}

async fn request(addr: SocketAddr, method: &str, target: &str, extra: &str) -> HttpAnswer {
    let head = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n");
    let before = seconds_now();
    let answer = raw::http(addr, head.as_bytes()).await;
    assert_dated(&answer, before, seconds_now());
    answer
}

fn seconds_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_secs()
}

/// Asserts that `answer` carries a `Date` in RFC 9110's IMF-fixdate form
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), of a second between `before` and
/// `after`.
fn assert_dated(answer: &HttpAnswer, before: u64, after: u64) {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let date = answer.header("Date").unwrap_or_else(|| panic!("a Date header in {answer:?}"));
    let dated = (before..=after).any(|t| {
        let days = (t / 86_400) as i64;
        let (year, month, day) = calendar::civil_from_days(days);
        let weekday = DAYS[calendar::weekday(days) as usize];
        let (h, m, s) = (t % 86_400 / 3600, t % 3600 / 60, t % 60);
        let month = MONTHS[month as usize - 1];
        date == format!("{weekday}, {day:02} {month} {year} {h:02}:{m:02}:{s:02} GMT")
    });
    assert!(dated, "Date: {date:?} is not an IMF-fixdate between {before} and {after}");
}

/// Asserts every header a served file carries, whatever the file.
fn assert_careful_headers(answer: &HttpAnswer, addr: SocketAddr) {
    let policy = answer.header("Content-Security-Policy").expect("a content security policy");
    for part in [
        "default-src 'self'".to_owned(),
        format!("connect-src 'self' ws://{addr} wss://{addr}"),
        "img-src 'self' data:".into(),
        "style-src 'self'".into(),
        "script-src 'self'".into(),
        "font-src 'self'".into(),
        "frame-ancestors 'none'".into(),
        "base-uri 'none'".into(),
        "form-action 'none'".into(),
    ] {
        assert!(policy.contains(&part), "{part} in {policy}");
    }
    assert_eq!(answer.header("X-Content-Type-Options"), Some("nosniff"));
    assert_eq!(answer.header("Referrer-Policy"), Some("no-referrer"));
    assert_eq!(answer.header("Cross-Origin-Opener-Policy"), Some("same-origin"));
    assert_eq!(answer.header("Connection"), Some("close"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_gives_the_page_and_the_font_with_careful_headers() {
    let server = TestServer::start(config()).await.unwrap();
    let addr = server.addr;
    for target in ["/", "/index.html"] {
        let page = request(addr, "GET", target, "").await;
        assert_eq!(page.status, 200, "{target}: {page:?}");
        assert_eq!(page.body, INDEX, "{target}");
        assert_eq!(page.header("Content-Type"), Some("text/html; charset=utf-8"));
        assert_eq!(page.header("Content-Length"), Some(INDEX.len().to_string().as_str()));
        assert_eq!(page.header("Cache-Control"), Some("no-cache"));
        let etag = page.header("ETag").expect("an ETag");
        assert!(etag.len() > 2 && etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        assert_careful_headers(&page, addr);
    }
    let font = request(addr, "GET", "/font.ttf", "").await;
    assert_eq!(font.status, 200);
    assert_eq!(font.header("Content-Type"), Some("font/ttf"));
    assert!(font.body == FONT, "the font, whole");
    assert_careful_headers(&font, addr);
    assert_ne!(font.header("ETag"), request(addr, "GET", "/", "").await.header("ETag"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn head_gives_the_headers_without_the_body() {
    let server = TestServer::start(config()).await.unwrap();
    let get = request(server.addr, "GET", "/", "").await;
    let head = request(server.addr, "HEAD", "/", "").await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "{} bytes of body", head.body.len());
    assert_eq!(head.header("Content-Length"), Some(INDEX.len().to_string().as_str()));
    // The same headers but the Date, which may be a second later.
    let undated = |a: &HttpAnswer| {
        a.headers
            .iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("Date"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(undated(&head), undated(&get));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_files_built_in_are_served_and_only_to_get_and_head() {
    let server = TestServer::start(config()).await.unwrap();
    for target in ["/favicon.ico", "/../Cargo.toml", "/%2e%2e/Cargo.toml", "/assets/bestiary.toml"]
    {
        let answer = request(server.addr, "GET", target, "").await;
        assert_eq!(answer.status, 404, "{target}");
        assert_eq!(answer.header("Content-Length"), Some(answer.body.len().to_string().as_str()));
    }
    for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
        let answer = request(server.addr, method, "/", "Content-Length: 0\r\n").await;
        assert_eq!(answer.status, 405, "{method}");
        assert_eq!(answer.header("Allow"), Some("GET, HEAD"), "{method}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copy_still_current_is_not_sent_again() {
    let server = TestServer::start(config()).await.unwrap();
    let first = request(server.addr, "GET", "/", "").await;
    let etag = first.header("ETag").expect("an ETag");
    let again = request(server.addr, "GET", "/", &format!("If-None-Match: {etag}\r\n")).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("ETag"), Some(etag));
    assert_eq!(again.header("Cache-Control"), Some("no-cache"));
    let other = request(server.addr, "GET", "/", "If-None-Match: \"another build\"\r\n").await;
    assert_eq!(other.status, 200);
    assert_eq!(other.body, INDEX);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_connections_play_beside_page_requests() {
    let server = TestServer::start(config()).await.unwrap();
    let mut ann = SimClient::join(&server.url(), "ann", None).await.unwrap();
    let page = request(server.addr, "GET", "/", "").await;
    assert_eq!(page.status, 200);
    // A player who joins after a page request on another socket plays, and
    // so does the one who was there before it.
    let mut bob = SimClient::join(&server.url(), "bob", None).await.unwrap();
    bob.act(Action::Wait).await.unwrap();
    ann.act(Action::Wait).await.unwrap();
    // Once a game connection has ended: a page request, and one more game.
    drop(bob);
    assert_eq!(request(server.addr, "HEAD", "/", "").await.status, 200);
    let mut cat = SimClient::join(&server.url(), "cat", None).await.unwrap();
    cat.act(Action::Wait).await.unwrap();
    ann.act(Action::Wait).await.unwrap();
    assert!(server.is_running());
}

/// A grave the store keeps, for `/status` to list.
fn grave(name: &str, killed_by: &str, when: u64, escaped: bool) -> gloam_protocol::DeathRecord {
    gloam_protocol::DeathRecord {
        name: name.into(),
        depth: 2,
        rounds: 77,
        kills: 3,
        killed_by: killed_by.into(),
        when,
        level: 2,
        escaped,
        morgue: 0,
    }
}

/// A world whose store holds hostile names (names a client can never
/// pick, as a hand-edited or hostile store could hold), a hostile world
/// name and bestiary words, and ann playing on depth 1.
async fn hostile_world() -> (TestServer, SimClient, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    {
        let (writer, _) = Store::open(data.path()).unwrap().start();
        let handle = writer.handle();
        handle.bury(grave("<script>alert(1)</script>", "a <b>jackal</b>", 100, false));
        handle.bury(grave("hero\"'&", "the Gloamstone", 50, true));
        handle.flush().await;
        drop(handle);
        tokio::task::spawn_blocking(move || writer.close()).await.unwrap();
    }
    let world_name = "<img src=x onerror=alert(1)>".to_owned();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(Config { world_name, ..config() }, store).await;
    let server = server.unwrap();
    let ann = SimClient::join(&server.url(), "ann", None).await.unwrap();
    (server, ann, data)
}

/// `/status` is the host's page of the world, made from the live world and
/// the store: who plays on each depth, the hall of the living, the last
/// dead; plain HTML that runs and loads nothing, every name and word
/// escaped; dated, typed and sized as the page's answers, never cached.
#[tokio::test]
async fn the_status_page_lists_the_world_with_every_name_escaped() {
    let (server, _ann, _data) = hostile_world().await;
    let answer = request(server.addr, "GET", "/status", "").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("Content-Type"), Some("text/html; charset=utf-8"));
    assert_eq!(answer.header("Cache-Control"), Some("no-store"));
    assert_eq!(answer.header("Content-Length"), Some(answer.body.len().to_string().as_str()));
    assert_eq!(answer.header("X-Content-Type-Options"), Some("nosniff"));
    let policy = answer.header("Content-Security-Policy").unwrap();
    assert!(policy.starts_with("default-src 'none'") && policy.contains("frame-ancestors 'none'"));
    let html = String::from_utf8(answer.body).unwrap();
    for part in [
        "<title>Gloam: &lt;img src=x onerror=alert(1)&gt;</title>",
        "<h2>Playing now: 1</h2>",
        "<h3>Depth 1</h3>\n<ul>\n<li>ann</li>\n</ul>",
        "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>",
        "<td>a &lt;b&gt;jackal&lt;/b&gt;</td>",
        "<h2>The hall of the living</h2>",
        "<td>hero&quot;&#39;&amp;</td>",
    ] {
        assert!(html.contains(part), "no {part:?} in {html}");
    }
    for hostile in ["<script", "<img", "<b>", "hero\""] {
        assert!(!html.contains(hostile), "{hostile:?} left unescaped in {html}");
    }
}

/// `/status.json` says the same for tools; HEAD gives the headers alone;
/// any other method is the page's 405.
#[tokio::test]
async fn the_status_is_json_for_tools_and_head_gives_its_headers() {
    let (server, _ann, _data) = hostile_world().await;
    let answer = request(server.addr, "GET", "/status.json", "").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("Content-Type"), Some("application/json"));
    assert_eq!(answer.header("Cache-Control"), Some("no-store"));
    let json: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(json["world"], "<img src=x onerror=alert(1)>");
    assert_eq!(json["players"], 1);
    assert_eq!(json["depths"], serde_json::json!([{ "depth": 1, "players": ["ann"] }]));
    assert_eq!(json["graveyard"][0]["name"], "<script>alert(1)</script>");
    assert_eq!(json["living"][0]["name"], "hero\"'&");
    let head = request(server.addr, "HEAD", "/status", "").await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert!(head.header("Content-Length").is_some_and(|n| n != "0"));
    assert_eq!(request(server.addr, "POST", "/status", "").await.status, 405);
}

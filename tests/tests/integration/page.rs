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

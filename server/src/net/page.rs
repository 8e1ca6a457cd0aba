//! The web client's page, served on the game's own port: the files of
//! `web/dist/` and the map font, built into the binary (`build.rs` lists
//! the folder), for GET and HEAD (the index at `/` and at
//! `/replay/NAME/LIFE`, where the page plays a life's last rounds), with the headers a careful host sends;
//! and the plain HTTP refusals of a connection (a head too large or
//! malformed, the server full). One answer per connection, then
//! `Connection: close`. Nothing is read from disk at run time: a request's
//! path is only ever looked up in [`FILES`], so no percent-encoding or `..`
//! can reach the filesystem.

use std::io;
use std::net::SocketAddr;
use std::sync::LazyLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use gloam_protocol::calendar;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tracing::{debug, info};

use super::head::{HeadError, PageRequest};
use super::session::rules::check_name;

/// The files of `web/dist/` when the server was built: (name there, bytes).
const DIST: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_dist.rs"));

/// The font the window draws the map with, for the page to draw the same.
const FONT: (&str, &[u8]) = ("font.ttf", include_bytes!("../../../assets/DejaVuSansMono.ttf"));

/// What a file is, by the end of its name. Text says its charset, so a
/// browser never guesses it.
const CONTENT_TYPES: &[(&str, &str)] = &[
    ("html", "text/html; charset=utf-8"),
    ("js", "text/javascript; charset=utf-8"),
    ("mjs", "text/javascript; charset=utf-8"),
    ("css", "text/css; charset=utf-8"),
    ("txt", "text/plain; charset=utf-8"),
    ("json", "application/json"),
    ("map", "application/json"),
    ("wasm", "application/wasm"),
    ("ttf", "font/ttf"),
    ("woff2", "font/woff2"),
    ("png", "image/png"),
    ("svg", "image/svg+xml"),
];

/// How long, and how much, is read from a client after its answer (see
/// `send_and_close`).
const LINGER: Duration = Duration::from_secs(1);
const LINGER_BYTES: u64 = 64 * 1024;

/// What one write of an answer holds (see `send_and_close`): half the
/// kernel's send buffer of a connection (`Config::socket_send_buffer`).
const SEND_PIECE: usize = 16 * 1024;

/// How long a page request refused because the server is full is asked to
/// wait: about as long as a game connection takes to be let go.
const RETRY_AFTER_SECONDS: u32 = 5;

/// A file served, and what is said of it.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct File {
    /// The path it is asked for by: `/` and its name in `web/dist/`.
    path: String,
    content_type: &'static str,
    bytes: &'static [u8],
    /// The quoted start of the SHA-256 of `bytes`: the same for every run
    /// of one build, and another when a file changes.
    etag: String,
}

/// Every file served; the first with a path wins.
static FILES: LazyLock<Vec<File>> = LazyLock::new(|| {
    DIST.iter().chain([&FONT]).map(|&(name, bytes)| File::new(name, bytes)).collect()
});

impl File {
    fn new(name: &str, bytes: &'static [u8]) -> Self {
        let hash: String = Sha256::digest(bytes)[..16].iter().map(|b| format!("{b:02x}")).collect();
        let content_type = content_type(name).unwrap_or("application/octet-stream");
        Self { path: format!("/{name}"), content_type, bytes, etag: format!("\"{hash}\"") }
    }
}

/// The content type of a file called `name`, if this server knows it (a
/// test checks that it knows every file's).
fn content_type(name: &str) -> Option<&'static str> {
    let (_, extension) = name.rsplit_once('.')?;
    CONTENT_TYPES.iter().find(|(e, _)| e.eq_ignore_ascii_case(extension)).map(|&(_, t)| t)
}

/// What a page request (or a connection refused) is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// 200: the file.
    File(&'static File),
    /// 304: the client's copy, named by its `If-None-Match`, is this file.
    NotModified(&'static File),
    /// 404: no such file.
    NotFound,
    /// 405: a method other than GET and HEAD.
    NotAllowed,
    /// 400: a head `httparse` could not read.
    BadRequest,
    /// 431: a head over the limit.
    TooLarge,
    /// 503: the server serves as many connections as it may.
    Full,
}

impl Answer {
    fn status(self) -> (u16, &'static str) {
        match self {
            Answer::File(_) => (200, "OK"),
            Answer::NotModified(_) => (304, "Not Modified"),
            Answer::NotFound => (404, "Not Found"),
            Answer::NotAllowed => (405, "Method Not Allowed"),
            Answer::BadRequest => (400, "Bad Request"),
            Answer::TooLarge => (431, "Request Header Fields Too Large"),
            Answer::Full => (503, "Service Unavailable"),
        }
    }

    /// The body of an answer that is not a file.
    fn text(self) -> &'static str {
        match self {
            Answer::File(_) | Answer::NotModified(_) => "",
            Answer::NotFound => "Gloam serves its web client on / and nothing else here.\n",
            Answer::NotAllowed => "Gloam's page is read with GET or HEAD.\n",
            Answer::BadRequest => "Gloam could not read this request.\n",
            Answer::TooLarge => "The request's head is over 8 KiB.\n",
            Answer::Full => "Gloam is full: try again later.\n",
        }
    }
}

/// What `request` is answered; `/` and a life's last rounds
/// (`/replay/NAME/LIFE`) are `/index.html`.
pub(super) fn route(request: &PageRequest) -> Answer {
    if request.method != "GET" && request.method != "HEAD" {
        return Answer::NotAllowed;
    }
    // A query (`/app.js?v=2`) names the same file.
    let path = request.target.split('?').next().unwrap_or_default();
    let path = if path == "/" || is_replay(path) { "/index.html" } else { path };
    let Some(file) = FILES.iter().find(|f| f.path == path) else {
        return Answer::NotFound;
    };
    match &request.if_none_match {
        Some(tags) if names_tag(tags, &file.etag) => Answer::NotModified(file),
        _ => Answer::File(file),
    }
}

/// Whether `path` is the page of a life's last rounds, `/replay/NAME/LIFE`:
/// a name as the handshake takes it (percent-encoded as a browser sends
/// it) and a life's number from 1, without a sign or a leading zero, as
/// the page reads it (`web/src/session/replay.ts` `replayPath`).
fn is_replay(path: &str) -> bool {
    let Some((name, life)) = path.strip_prefix("/replay/").and_then(|rest| rest.split_once('/'))
    else {
        return false;
    };
    let named = percent_decoded(name).is_some_and(|name| check_name(&name).is_ok());
    let numbered = !life.starts_with('0')
        && life.bytes().all(|b| b.is_ascii_digit())
        && life.parse::<u32>().is_ok();
    named && numbered
}

/// `text` with each `%XX` as the byte it stands for, if that is UTF-8 (as
/// `morgue.rs` reads its names).
fn percent_decoded(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, after)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(after.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &after[2..];
        } else {
            bytes.push(b);
            rest = after;
        }
    }
    String::from_utf8(bytes).ok()
}

/// Whether an `If-None-Match` list names `etag` (or any file, `*`). The
/// comparison is the weak one RFC 9110 asks for here: `W/` is ignored.
fn names_tag(tags: &str, etag: &str) -> bool {
    tags.split(',').map(str::trim).any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
}

/// The bytes of `answer`: its head and, unless `with_body` is false (a HEAD
/// request) or it is a 304, its body. `host` is the request's `Host`.
pub(super) fn response(answer: Answer, host: Option<&str>, with_body: bool) -> Vec<u8> {
    let (code, reason) = answer.status();
    let mut head = format!("HTTP/1.1 {code} {reason}\r\n");
    // RFC 9110 asks a server with a clock to date every answer.
    header(&mut head, "Date", &http_date(SystemTime::now()));
    let body = describe(answer, &mut head);
    guard(&content_security_policy(host), &mut head);
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if with_body {
        bytes.extend_from_slice(body);
    }
    bytes
}

/// `time` as an HTTP date (RFC 9110's IMF-fixdate), always in GMT:
/// `Sun, 06 Nov 1994 08:49:37 GMT`. A clock set before 1970 says 1970.
fn http_date(time: SystemTime) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, of_day) = ((seconds / 86_400) as i64, seconds % 86_400);
    let (year, month, day) = calendar::civil_from_days(days);
    let weekday = DAYS[calendar::weekday(days) as usize];
    let month = MONTHS[month as usize - 1];
    let (h, m, s) = (of_day / 3600, of_day % 3600 / 60, of_day % 60);
    format!("{weekday}, {day:02} {month} {year:04} {h:02}:{m:02}:{s:02} GMT")
}

/// Writes one header line into `head`.
fn header(head: &mut String, name: &str, value: &str) {
    head.push_str(&format!("{name}: {value}\r\n"));
}

/// Writes the headers that say what `answer` holds, and how long to keep
/// it; gives its body.
fn describe(answer: Answer, head: &mut String) -> &'static [u8] {
    let body = match answer {
        Answer::File(file) | Answer::NotModified(file) => {
            // The browser may keep a copy but asks each time whether it is
            // still current (a 304 without a body when it is): a new build's
            // files are taken at once, never mixed with the old ones.
            header(head, "Cache-Control", "no-cache");
            header(head, "ETag", &file.etag);
            if let Answer::NotModified(_) = answer {
                // A 304 says only what updates the browser's copy.
                return &[];
            }
            header(head, "Content-Type", file.content_type);
            file.bytes
        }
        _ => {
            header(head, "Content-Type", "text/plain; charset=utf-8");
            // An error is about this request only: never kept.
            header(head, "Cache-Control", "no-store");
            answer.text().as_bytes()
        }
    };
    // HEAD gets the length of what GET would get.
    header(head, "Content-Length", &body.len().to_string());
    if answer == Answer::NotAllowed {
        header(head, "Allow", "GET, HEAD");
    }
    if answer == Answer::Full {
        header(head, "Retry-After", &RETRY_AFTER_SECONDS.to_string());
    }
    body
}

/// The bytes of a page made now from the live world (`/status`): dated,
/// typed and sized as every answer, never kept by a browser or a proxy
/// (it is stale a moment later), under `policy` and the other headers
/// every answer carries; its body unless `with_body` is false (HEAD).
pub(super) fn live_response(
    content_type: &str,
    body: &[u8],
    policy: &str,
    with_body: bool,
) -> Vec<u8> {
    made_response((200, "OK"), content_type, body, policy, with_body)
}

/// The bytes of an answer made at the request, of status `status`, as
/// [`live_response`] makes them.
pub(super) fn made_response(
    (code, reason): (u16, &str),
    content_type: &str,
    body: &[u8],
    policy: &str,
    with_body: bool,
) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {code} {reason}\r\n");
    header(&mut head, "Date", &http_date(SystemTime::now()));
    header(&mut head, "Content-Type", content_type);
    header(&mut head, "Cache-Control", "no-store");
    header(&mut head, "Content-Length", &body.len().to_string());
    guard(policy, &mut head);
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if with_body {
        bytes.extend_from_slice(body);
    }
    bytes
}

/// Writes the headers that keep the page (and whoever opens it) safe; every
/// answer carries them, with the content security policy `policy`.
fn guard(policy: &str, head: &mut String) {
    // The page may load only its own files and talk only to this server's
    // WebSocket: injected script, style or a form has nowhere to come from
    // or send to, and no other site may frame the page (clickjacking).
    header(head, "Content-Security-Policy", policy);
    // A file is only ever what its Content-Type says (a text file is never
    // run as a script).
    header(head, "X-Content-Type-Options", "nosniff");
    // Links out of the page tell nobody where they came from (a host's
    // address is its players' business).
    header(head, "Referrer-Policy", "no-referrer");
    // A page that opens this one (or one it opens) gets no handle on its
    // window.
    header(head, "Cross-Origin-Opener-Policy", "same-origin");
    // One answer per connection: the page's few files cost a connection
    // each, and no idle connection holds a place among `max_connections`.
    header(head, "Connection", "close");
}

/// The page's policy. `connect-src` names this host's WebSocket (and its
/// TLS form, behind a proxy) besides `'self'`, which older browsers do not
/// take to cover `ws:`; a `Host` that is not a plain host name and port is
/// left out rather than echoed.
fn content_security_policy(host: Option<&str>) -> String {
    let plain = |h: &&str| {
        !h.is_empty()
            && h.len() <= 255
            && h.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
    };
    let sockets = host.filter(plain).map(|h| format!(" ws://{h} wss://{h}")).unwrap_or_default();
    format!(
        "default-src 'self'; connect-src 'self'{sockets}; img-src 'self' data:; \
         style-src 'self'; script-src 'self'; font-src 'self'; frame-ancestors 'none'; \
         base-uri 'none'; form-action 'none'"
    )
}

/// Answers a page request, or with `full` says the server is full; then
/// closes the connection.
pub(super) async fn serve<S>(
    stream: S,
    peer: SocketAddr,
    request: &PageRequest,
    full: bool,
    send_timeout: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let answer = if full { Answer::Full } else { route(request) };
    let bytes = response(answer, request.host.as_deref(), request.method != "HEAD");
    let (status, _) = answer.status();
    if full {
        info!(%peer, status, "page request turned away: the server is full");
    }
    match send_and_close(stream, &bytes, send_timeout).await {
        Ok(()) => debug!(%peer, status, target = %request.target, "page request answered"),
        Err(e) => debug!(%peer, status, error = %e, "page request: the answer was not sent"),
    }
}

/// Answers a connection whose request head did not come: a 431 or a 400
/// where it was too large or unreadable; a client too slow or gone is
/// dropped without a word.
pub(super) async fn refuse<S>(stream: S, peer: SocketAddr, error: HeadError, send_timeout: Duration)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let answer = match error {
        HeadError::TooLarge => Answer::TooLarge,
        HeadError::Malformed(_) => Answer::BadRequest,
        HeadError::TooSlow => return info!(%peer, reason = %error, "connection cut off"),
        HeadError::Closed | HeadError::Io(_) => return debug!(%peer, reason = %error, "no request"),
    };
    let (status, _) = answer.status();
    info!(%peer, status, reason = %error, "request refused");
    let _ = send_and_close(stream, &response(answer, None, true), send_timeout).await;
}

/// Writes `bytes`, each piece within `send_timeout`, and closes the
/// sending side; then reads what the client still sends (the rest of a
/// head too large, a body, a second request) for up to a second and drops
/// it, as a web server's lingering close does: closing a socket with unread
/// input makes the kernel reset the connection, and the reset can destroy
/// the answer before the client reads it.
pub(super) async fn send_and_close<S>(
    mut stream: S,
    bytes: &[u8],
    send_timeout: Duration,
) -> io::Result<()>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let too_slow = |_| io::Error::new(io::ErrorKind::TimedOut, "the client stopped reading");
    // The deadline is per piece, as a game connection's is per write: a
    // client that stops reading is let go after it, while a browser on a
    // slow line that keeps reading gets the whole font (a third of a MiB).
    for piece in bytes.chunks(SEND_PIECE) {
        tokio::time::timeout(send_timeout, stream.write_all(piece)).await.map_err(too_slow)??;
    }
    tokio::time::timeout(send_timeout, stream.shutdown()).await.map_err(too_slow)??;
    let (mut rest, mut sink) = ((&mut stream).take(LINGER_BYTES), tokio::io::sink());
    let _ = tokio::time::timeout(LINGER, tokio::io::copy(&mut rest, &mut sink)).await;
    Ok(())
}

/// Where friends open the web client of a server listening on `addr`. An
/// address that stands for every interface (`0.0.0.0`, `::`) is no address
/// to open, so the host is asked to put in the machine's own.
pub fn page_url(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        format!("http://THIS-MACHINE'S-ADDRESS:{}/", addr.port())
    } else {
        format!("http://{addr}/")
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    fn request(method: &str, target: &str, if_none_match: Option<&str>) -> PageRequest {
        PageRequest {
            method: method.into(),
            target: target.into(),
            host: Some("127.0.0.1:7777".into()),
            if_none_match: if_none_match.map(Into::into),
        }
    }

    fn get(target: &str) -> Answer {
        route(&request("GET", target, None))
    }

    fn served_path(answer: Answer) -> Option<&'static str> {
        match answer {
            Answer::File(file) => Some(&file.path),
            _ => None,
        }
    }

    fn file(path: &str) -> &'static File {
        FILES.iter().find(|f| f.path == path).expect("built in")
    }

    /// The head of a response as text, and its body.
    fn split(bytes: &[u8]) -> (String, Vec<u8>) {
        let end = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("a head") + 4;
        (String::from_utf8(bytes[..end].to_vec()).unwrap(), bytes[end..].to_vec())
    }

    #[test]
    fn every_file_built_in_has_a_content_type_and_a_path_of_its_own() {
        for (name, _) in DIST.iter().chain([&FONT]) {
            assert!(content_type(name).is_some(), "web/dist/{name}: add its type to CONTENT_TYPES");
        }
        let mut paths: Vec<&str> = FILES.iter().map(|f| f.path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), FILES.len(), "two files served at one path");
    }

    #[test]
    fn the_root_is_the_index_and_only_built_in_files_are_served() {
        assert_eq!(served_path(get("/")), Some("/index.html"));
        assert_eq!(served_path(get("/index.html")), Some("/index.html"));
        assert_eq!(served_path(get("/?from=friend")), Some("/index.html"));
        assert_eq!(served_path(get("/font.ttf")), Some("/font.ttf"));
        for nowhere in [
            "/favicon.ico",
            "/../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "//etc/passwd",
            "/index.html/",
            "/INDEX.HTML",
            "index.html",
            "*",
            "http://elsewhere/",
        ] {
            assert_eq!(get(nowhere), Answer::NotFound, "{nowhere}");
        }
    }

    #[test]
    fn a_lifes_last_rounds_are_the_index_and_a_malformed_path_is_not_found() {
        for replay in
            ["/replay/ann/3", "/replay/Zo%C3%AB/12?from=friend", "/replay/a-b_9/4294967295"]
        {
            assert_eq!(served_path(get(replay)), Some("/index.html"), "{replay}");
        }
        let (head, _) = split(&response(get("/replay/ann/3"), Some("127.0.0.1:7777"), true));
        assert!(head.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"), "{head}");
        let policy = content_security_policy(Some("127.0.0.1:7777"));
        assert!(head.contains(&format!("\r\nContent-Security-Policy: {policy}\r\n")), "{head}");
        for malformed in [
            "/replay",
            "/replay/",
            "/replay/ann",
            "/replay/ann/",
            "/replay//3",
            "/replay/ann/0",
            "/replay/ann/03",
            "/replay/ann/-3",
            "/replay/ann/+3",
            "/replay/ann/x",
            "/replay/ann/4294967296",
            "/replay/ann/3/",
            "/replay/ann/3/app.js",
            "/replay/../3",
            "/replay/a%2Fb/3",
            "/replay/%zz/3",
            "/replay/seventeen_letters/3",
            "/REPLAY/ann/3",
        ] {
            assert_eq!(get(malformed), Answer::NotFound, "{malformed}");
        }
    }

    #[test]
    fn only_get_and_head_are_allowed() {
        assert_eq!(served_path(route(&request("HEAD", "/", None))), Some("/index.html"));
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "get", "BREW"] {
            assert_eq!(route(&request(method, "/", None)), Answer::NotAllowed, "{method}");
            assert_eq!(route(&request(method, "/nope", None)), Answer::NotAllowed, "{method}");
        }
        let (head, _) = split(&response(Answer::NotAllowed, None, true));
        assert!(head.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"), "{head}");
        assert!(head.contains("\r\nAllow: GET, HEAD\r\n"), "{head}");
    }

    #[test]
    fn a_copy_named_by_its_etag_is_not_sent_again() {
        let index = file("/index.html");
        let etag = index.etag.as_str();
        assert!(etag.starts_with('"') && etag.ends_with('"') && etag.len() == 34, "{etag}");
        for named in [etag.to_owned(), format!("W/{etag}"), format!("\"x\", {etag}"), "*".into()] {
            let answer = route(&request("GET", "/", Some(&named)));
            assert_eq!(answer, Answer::NotModified(index), "{named}");
        }
        for other in ["\"x\"", &file("/font.ttf").etag, &etag[..33]] {
            assert_eq!(route(&request("GET", "/", Some(other))), Answer::File(index), "{other}");
        }
        let (head, body) = split(&response(Answer::NotModified(index), None, true));
        assert!(head.starts_with("HTTP/1.1 304 Not Modified\r\n"), "{head}");
        assert!(head.contains(&format!("\r\nETag: {etag}\r\n")), "{head}");
        assert!(!head.contains("\r\nContent-Length:"), "{head}");
        assert!(!head.contains("\r\nContent-Type:"), "{head}");
        assert!(body.is_empty());
    }

    #[test]
    fn a_file_is_sent_with_the_headers_a_careful_host_sends() {
        let index = file("/index.html");
        let bytes = response(Answer::File(index), Some("127.0.0.1:7777"), true);
        let (head, body) = split(&bytes);
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert_eq!(body, index.bytes);
        for line in [
            "Content-Type: text/html; charset=utf-8".to_owned(),
            format!("Content-Length: {}", index.bytes.len()),
            "Cache-Control: no-cache".into(),
            format!("ETag: {}", index.etag),
            "X-Content-Type-Options: nosniff".into(),
            "Referrer-Policy: no-referrer".into(),
            "Cross-Origin-Opener-Policy: same-origin".into(),
            "Connection: close".into(),
            format!("Content-Security-Policy: {}", content_security_policy(Some("127.0.0.1:7777"))),
        ] {
            assert!(head.contains(&format!("\r\n{line}\r\n")), "{line} in {head}");
        }
        // HEAD: the same head, no body.
        let (head_only, body) =
            split(&response(Answer::File(index), Some("127.0.0.1:7777"), false));
        assert_eq!(head_only, head);
        assert!(body.is_empty());
        let font = response(Answer::File(file("/font.ttf")), None, true);
        assert!(split(&font).0.contains("\r\nContent-Type: font/ttf\r\n"));
    }

    #[test]
    fn the_policy_names_this_hosts_websocket_and_nothing_echoed() {
        let policy = content_security_policy(Some("[::1]:7777"));
        assert!(
            policy.contains("connect-src 'self' ws://[::1]:7777 wss://[::1]:7777;"),
            "{policy}"
        );
        for part in [
            "default-src 'self'",
            "img-src 'self' data:",
            "style-src 'self'",
            "script-src 'self'",
            "font-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ] {
            assert!(policy.contains(part), "{part} in {policy}");
        }
        for odd in [None, Some(""), Some("evil; script-src *"), Some("a b"), Some("x'y")] {
            let policy = content_security_policy(odd);
            assert!(policy.contains("connect-src 'self';"), "{odd:?}: {policy}");
        }
    }

    #[test]
    fn http_dates_are_imf_fixdates_in_gmt() {
        let at = |seconds| http_date(UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        // RFC 9110's own example.
        assert_eq!(at(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(at(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(at(1_796_342_399), "Thu, 03 Dec 2026 23:59:59 GMT");
        assert_eq!(at(4_102_444_800), "Fri, 01 Jan 2100 00:00:00 GMT");
        assert_eq!(http_date(UNIX_EPOCH - Duration::from_secs(5)), at(0));
    }

    #[test]
    fn every_answer_is_dated() {
        let index = file("/index.html");
        let refusals = [Answer::NotFound, Answer::NotAllowed, Answer::BadRequest, Answer::TooLarge];
        let answers = [Answer::File(index), Answer::NotModified(index), Answer::Full];
        for answer in answers.into_iter().chain(refusals) {
            let (head, _) = split(&response(answer, None, false));
            let date = head.lines().find_map(|l| l.strip_prefix("Date: ")).expect("a Date");
            assert!(date.ends_with(" GMT") && date.len() == 29, "{date}");
        }
    }

    #[test]
    fn refusals_say_why_and_are_never_kept() {
        for (answer, status) in [
            (Answer::NotFound, "404 Not Found"),
            (Answer::BadRequest, "400 Bad Request"),
            (Answer::TooLarge, "431 Request Header Fields Too Large"),
            (Answer::Full, "503 Service Unavailable"),
        ] {
            let bytes = response(answer, None, true);
            let (head, body) = split(&bytes);
            assert!(head.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{head}");
            assert!(head.contains("\r\nCache-Control: no-store\r\n"), "{head}");
            assert!(head.contains(&format!("\r\nContent-Length: {}\r\n", body.len())), "{head}");
            assert!(!body.is_empty());
        }
        let (head, _) = split(&response(Answer::Full, None, true));
        assert!(head.contains(&format!("\r\nRetry-After: {RETRY_AFTER_SECONDS}\r\n")), "{head}");
    }

    /// A client reading `piece` bytes every `pause` until the end of the
    /// stream; gives how much it read.
    async fn read_slowly(
        mut client: tokio::io::DuplexStream,
        piece: usize,
        pause: Duration,
    ) -> usize {
        let (mut buf, mut read) = (vec![0; piece], 0);
        loop {
            tokio::time::sleep(pause).await;
            match client.read(&mut buf).await {
                Ok(0) | Err(_) => return read,
                Ok(n) => read += n,
            }
        }
    }

    // Paused time: the slow reader's pauses and the deadlines pass at once,
    // in order.
    #[tokio::test(start_paused = true)]
    async fn a_slow_reader_gets_the_whole_font_and_one_that_stops_is_let_go() {
        let send_timeout = Duration::from_secs(5);
        let font = FONT.1;
        // Five kilobytes a second: the font takes a minute, a piece 3 s.
        let (client, server) = tokio::io::duplex(1024);
        let reader = tokio::spawn(read_slowly(client, 1024, Duration::from_millis(200)));
        send_and_close(server, font, send_timeout).await.expect("sent whole");
        assert_eq!(reader.await.unwrap(), font.len());
        // A client that never reads.
        let (client, server) = tokio::io::duplex(1024);
        let started = tokio::time::Instant::now();
        let sent = send_and_close(server, font, send_timeout).await;
        assert_eq!(sent.unwrap_err().kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), send_timeout);
        drop(client);
    }

    #[test]
    fn the_page_address_is_one_a_friend_can_open() {
        assert_eq!(page_url("127.0.0.1:7777".parse().unwrap()), "http://127.0.0.1:7777/");
        assert_eq!(page_url("[::1]:7777".parse().unwrap()), "http://[::1]:7777/");
        assert_eq!(
            page_url("0.0.0.0:7777".parse().unwrap()),
            "http://THIS-MACHINE'S-ADDRESS:7777/"
        );
        assert_eq!(page_url("[::]:80".parse().unwrap()), "http://THIS-MACHINE'S-ADDRESS:80/");
    }
}

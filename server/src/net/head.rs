//! The head of a new connection's request, read once, into a bounded
//! buffer, and parsed with `httparse`: it tells a WebSocket upgrade (a game
//! connection) from a request for the web client's page. An upgrade is then
//! handed to tungstenite through a [`Replay`] of the same bytes, so that
//! every check of its handshake still applies; nothing here answers one.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};

/// The most a request head may take. A browser's is under 2 KiB; nginx
/// refuses heads over 8 KiB too.
pub(super) const HEAD_LIMIT: usize = 8 * 1024;

/// Header lines a head may have; more is refused as too large. A browser
/// sends about twenty.
const MAX_HEADERS: usize = 64;

/// A request head, and every byte read to get it.
#[derive(Debug)]
pub(super) struct Head {
    /// The head, and whatever followed it in the same reads (for an
    /// upgrade, tungstenite reads them all again).
    pub(super) bytes: Vec<u8>,
    pub(super) request: Request,
}

/// What a connection asks for first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Request {
    /// A WebSocket upgrade: a game connection, for tungstenite to check.
    Upgrade,
    /// Anything else: a request for the web client's page.
    Page(PageRequest),
}

/// The parts of a page request that decide its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PageRequest {
    pub(super) method: String,
    /// The request target as sent: a path, perhaps with a query.
    pub(super) target: String,
    /// The `Host` header, if any: the content security policy names it.
    pub(super) host: Option<String>,
    /// Every `If-None-Match` header, joined with commas.
    pub(super) if_none_match: Option<String>,
}

/// Why no request came.
#[derive(Debug, thiserror::Error)]
pub(super) enum HeadError {
    #[error("request head over {HEAD_LIMIT} bytes or {MAX_HEADERS} header lines")]
    TooLarge,
    #[error("malformed request head: {0}")]
    Malformed(httparse::Error),
    #[error("no complete request head in time")]
    TooSlow,
    #[error("the client went away before its request head was complete")]
    Closed,
    #[error("reading the request head failed: {0}")]
    Io(io::Error),
}

/// Reads a request head from `stream` within `limit`.
pub(super) async fn read_head<S>(stream: &mut S, limit: Duration) -> Result<Head, HeadError>
where
    S: AsyncRead + Unpin,
{
    tokio::time::timeout(limit, read_until_complete(stream))
        .await
        .unwrap_or(Err(HeadError::TooSlow))
}

async fn read_until_complete<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Head, HeadError> {
    let mut bytes = vec![0; HEAD_LIMIT];
    let mut filled = 0;
    loop {
        let n = stream.read(&mut bytes[filled..]).await.map_err(HeadError::Io)?;
        if n == 0 {
            return Err(HeadError::Closed);
        }
        filled += n;
        // Parsed from the start after every read, as tungstenite and hyper
        // do: a head is small, and most arrive in one read.
        if let Some(request) = parse(&bytes[..filled])? {
            bytes.truncate(filled);
            return Ok(Head { bytes, request });
        }
        if filled == HEAD_LIMIT {
            return Err(HeadError::TooLarge);
        }
    }
}

/// The request whose head starts `bytes`, once the head is complete.
pub(super) fn parse(bytes: &[u8]) -> Result<Option<Request>, HeadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(bytes) {
        Ok(httparse::Status::Partial) => Ok(None),
        Ok(httparse::Status::Complete(_)) => Ok(Some(Request::from_parsed(&request))),
        Err(httparse::Error::TooManyHeaders) => Err(HeadError::TooLarge),
        Err(e) => Err(HeadError::Malformed(e)),
    }
}

impl Request {
    fn from_parsed(request: &httparse::Request<'_, '_>) -> Self {
        let headers = &*request.headers;
        // RFC 6455 asks for `Upgrade: websocket`; tungstenite checks the
        // rest of the handshake (method, version, key, `Connection`).
        let upgrade = values(headers, "upgrade")
            .any(|v| v.split(',').any(|p| p.trim().eq_ignore_ascii_case("websocket")));
        if upgrade {
            return Request::Upgrade;
        }
        let if_none_match: Vec<&str> = values(headers, "if-none-match").collect();
        Request::Page(PageRequest {
            method: request.method.unwrap_or_default().to_owned(),
            target: request.path.unwrap_or_default().to_owned(),
            host: values(headers, "host").next().map(str::to_owned),
            if_none_match: (!if_none_match.is_empty()).then(|| if_none_match.join(",")),
        })
    }
}

/// The values of the headers called `name` that are text.
fn values<'a>(headers: &'a [httparse::Header<'_>], name: &'a str) -> impl Iterator<Item = &'a str> {
    headers
        .iter()
        .filter(move |h| h.name.eq_ignore_ascii_case(name))
        .filter_map(|h| std::str::from_utf8(h.value).ok())
}

/// A stream that gives the bytes already read from it again before reading
/// on, so that tungstenite parses the upgrade this module looked at.
#[derive(Debug)]
pub(super) struct Replay<S> {
    read: Vec<u8>,
    at: usize,
    stream: S,
}

impl<S> Replay<S> {
    pub(super) fn new(read: Vec<u8>, stream: S) -> Self {
        Self { read, at: 0, stream }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Replay<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let left = &this.read[this.at..];
        if left.is_empty() {
            return Pin::new(&mut this.stream).poll_read(cx, buf);
        }
        let n = left.len().min(buf.remaining());
        buf.put_slice(&left[..n]);
        this.at += n;
        if this.at == this.read.len() {
            // The buffer is not needed for the rest of the connection.
            (this.read, this.at) = (Vec::new(), 0);
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Replay<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    const PATIENCE: Duration = Duration::from_secs(10);

    const UPGRADE: &[u8] = b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n\
        Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
        Sec-WebSocket-Version: 13\r\n\r\n";

    fn page(method: &str, target: &str) -> Request {
        Request::Page(PageRequest {
            method: method.into(),
            target: target.into(),
            host: Some("gloam.example:7777".into()),
            if_none_match: None,
        })
    }

    #[test]
    fn an_upgrade_is_told_from_a_page_request() {
        assert_eq!(parse(UPGRADE).unwrap(), Some(Request::Upgrade));
        let get = b"GET /app.js?v=2 HTTP/1.1\r\nHost: gloam.example:7777\r\n\r\n";
        assert_eq!(parse(get).unwrap(), Some(page("GET", "/app.js?v=2")));
        // Header names in any case, and `websocket` among other protocols.
        let shouted = b"GET / HTTP/1.1\r\nUPGRADE: h2c, WebSocket\r\n\r\n";
        assert_eq!(parse(shouted).unwrap(), Some(Request::Upgrade));
        // Another protocol is no upgrade this server makes: a page request.
        let h2c = b"HEAD / HTTP/1.1\r\nHost: gloam.example:7777\r\nUpgrade: h2c\r\n\r\n";
        assert_eq!(parse(h2c).unwrap(), Some(page("HEAD", "/")));
    }

    #[test]
    fn every_if_none_match_is_kept() {
        let get = b"GET / HTTP/1.1\r\nIf-None-Match: \"a\"\r\nif-none-match: W/\"b\"\r\n\r\n";
        let Some(Request::Page(request)) = parse(get).unwrap() else { panic!("a page request") };
        assert_eq!(request.if_none_match.as_deref(), Some("\"a\",W/\"b\""));
        assert_eq!(request.host, None);
    }

    #[test]
    fn a_head_is_complete_only_at_its_blank_line() {
        for end in 0..UPGRADE.len() {
            assert_eq!(parse(&UPGRADE[..end]).unwrap(), None, "{end} bytes");
        }
    }

    #[test]
    fn garbage_and_too_many_headers_are_refused() {
        let tls = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03";
        assert!(matches!(parse(tls), Err(HeadError::Malformed(_))));
        let h2 = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        assert!(matches!(parse(h2), Err(HeadError::Malformed(_))));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "a: b\r\n".repeat(MAX_HEADERS + 1));
        assert!(matches!(parse(many.as_bytes()), Err(HeadError::TooLarge)));
    }

    #[tokio::test]
    async fn a_head_and_what_followed_it_are_read_and_replayed() {
        let (mut client, mut server) = tokio::io::duplex(64 * 1024);
        let sent = [UPGRADE, b"\x82\x80rest"].concat();
        // In two writes, the first ending inside the head.
        client.write_all(&sent[..10]).await.unwrap();
        let write_rest = async { client.write_all(&sent[10..]).await.unwrap() };
        let (head, ()) = tokio::join!(read_head(&mut server, PATIENCE), write_rest);
        let head = head.unwrap();
        assert_eq!(head.request, Request::Upgrade);
        assert!(head.bytes.starts_with(UPGRADE));
        // The replay gives every byte sent, then what the client sends next.
        client.write_all(b" and more").await.unwrap();
        drop(client);
        let mut replayed = Vec::new();
        let mut replay = Replay::new(head.bytes, server);
        tokio::time::timeout(PATIENCE, replay.read_to_end(&mut replayed)).await.unwrap().unwrap();
        assert_eq!(replayed, [sent.as_slice(), b" and more"].concat());
    }

    #[tokio::test]
    async fn a_head_of_8_kib_is_read_and_a_byte_more_refused() {
        let head = |len: usize| {
            let start = b"GET / HTTP/1.1\r\nX-Pad: ";
            let pad = "a".repeat(len - start.len() - 4);
            [start.as_slice(), pad.as_bytes(), b"\r\n\r\n"].concat()
        };
        // The limit as the issue and the README say it, not as the constant.
        let (exactly, over) = (head(8 * 1024), head(8 * 1024 + 1));
        assert!(read_head(&mut exactly.as_slice(), PATIENCE).await.is_ok());
        let read = read_head(&mut over.as_slice(), PATIENCE).await;
        assert!(matches!(read, Err(HeadError::TooLarge)), "{read:?}");
    }

    // Paused time: the timeout passes as soon as nothing else can happen.
    #[tokio::test(start_paused = true)]
    async fn a_head_never_finished_is_given_up_on() {
        let (mut client, mut server) = tokio::io::duplex(1024);
        client.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        let limit = Duration::from_millis(100);
        let read = tokio::time::timeout(PATIENCE, read_head(&mut server, limit)).await;
        assert!(matches!(read, Ok(Err(HeadError::TooSlow))), "{read:?}");
        drop(client);
        let mut cut = b"GET / HTTP/1.1\r\nHost:".as_slice();
        assert!(matches!(read_head(&mut cut, PATIENCE).await, Err(HeadError::Closed)));
    }
}

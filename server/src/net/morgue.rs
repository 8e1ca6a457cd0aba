//! Morgue files on the game's port: `/morgue/NAME/N.txt`, the plain-text
//! record of NAME's life number N (see `crate::morgue`), as the store
//! keeps it. The path is only ever parsed into a name the handshake would
//! take (letters, digits, `-` and `_`) and a number, and the store is
//! asked for that pair: nothing of the request reaches a file path, so no
//! `..` or percent-encoding can lead out of the morgue folder. A path
//! under `/morgue/` that is not of that form is a 400, a file that is not
//! kept a 404.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tracing::debug;

use super::head::PageRequest;
use super::page;
use super::session::rules::check_name;
use crate::world::World;

/// It loads nothing, runs nothing, and is framed by nobody.
const POLICY: &str =
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const TEXT: &str = "text/plain; charset=utf-8";

/// What a request under `/morgue/` asks for: a name and a life's number,
/// or why it names none.
pub(super) type Asked = Result<(String, u32), &'static str>;

/// The morgue file asked for by `request`, if it asks for one (a GET or
/// HEAD under `/morgue/`, any query ignored); anything else is the page's.
pub(super) fn asked(request: &PageRequest) -> Option<Asked> {
    if request.method != "GET" && request.method != "HEAD" {
        return None;
    }
    let path = request.target.split('?').next().unwrap_or_default();
    Some(parse(path.strip_prefix("/morgue/")?))
}

/// `NAME/N.txt`: a name as the handshake takes it (percent-encoded as a
/// browser sends it) and a number from 1, written without a sign or a
/// leading zero.
fn parse(rest: &str) -> Asked {
    let Some((name, file)) = rest.split_once('/') else {
        return Err("a morgue file is /morgue/NAME/N.txt");
    };
    let name = percent_decoded(name).ok_or("the name is not well encoded")?;
    check_name(&name).map_err(|_| "no character has that name")?;
    let number = file.strip_suffix(".txt").ok_or("a morgue file is /morgue/NAME/N.txt")?;
    let plain = !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && !number.starts_with('0');
    let number = number.parse::<u32>().ok().filter(|_| plain);
    Ok((name, number.ok_or("N is a life's number: 1, 2, 3, ...")?))
}

/// `text` with each `%XX` as the byte it stands for, if that is UTF-8.
fn percent_decoded(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, after)) = rest.split_first() {
        if b == b'%' {
            let hex = after.get(..2)?;
            bytes.push(u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?);
            rest = &after[2..];
        } else {
            bytes.push(b);
            rest = after;
        }
    }
    String::from_utf8(bytes).ok()
}

/// Answers a request for a morgue file; then closes the connection.
pub(super) async fn serve<S>(
    stream: S,
    peer: SocketAddr,
    request: &PageRequest,
    asked: Asked,
    world: &World,
    send_timeout: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let (status, body) = match asked {
        Err(why) => ((400, "Bad Request"), format!("{why}\n")),
        Ok((name, number)) => match world.morgue(&name, number).await {
            Ok(Some(text)) => ((200, "OK"), text),
            Ok(None) => ((404, "Not Found"), "No such morgue file.\n".to_owned()),
            Err(e) => ((503, "Service Unavailable"), format!("{e}\n")),
        },
    };
    let with_body = request.method != "HEAD";
    let bytes = page::made_response(status, TEXT, body.as_bytes(), POLICY, with_body);
    match page::send_and_close(stream, &bytes, send_timeout).await {
        Ok(()) => debug!(%peer, status = status.0, target = %request.target, "morgue answered"),
        Err(e) => debug!(%peer, error = %e, "morgue: the answer was not sent"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(target: &str) -> PageRequest {
        PageRequest { method: "GET".into(), target: target.into(), host: None, if_none_match: None }
    }

    #[test]
    fn a_morgue_path_names_a_character_and_a_life() {
        assert_eq!(asked(&get("/morgue/ann/3.txt")), Some(Ok(("ann".into(), 3))));
        assert_eq!(asked(&get("/morgue/Zo%C3%AB/12.txt?x=1")), Some(Ok(("Zoë".into(), 12))));
        assert_eq!(
            asked(&get("/morgue/a-b_9/4294967295.txt")),
            Some(Ok(("a-b_9".into(), u32::MAX)))
        );
    }

    #[test]
    fn other_paths_are_not_the_morgues() {
        assert_eq!(asked(&get("/morgue")), None);
        assert_eq!(asked(&get("/status")), None);
        assert_eq!(asked(&get("/index.html")), None);
        let post = PageRequest { method: "POST".into(), ..get("/morgue/ann/1.txt") };
        assert_eq!(asked(&post), None);
    }

    #[test]
    fn a_bad_morgue_path_is_refused_whatever_it_tries() {
        for bad in [
            "/morgue/",
            "/morgue/ann",
            "/morgue/ann/",
            "/morgue/../1.txt",
            "/morgue/../world.redb",
            "/morgue/ann/../../world.redb",
            "/morgue/%2e%2e/1.txt",
            "/morgue/ann%2F..%2F/1.txt",
            "/morgue/ann/1.txt/x",
            "/morgue/ann/0.txt",
            "/morgue/ann/01.txt",
            "/morgue/ann/+1.txt",
            "/morgue/ann/-1.txt",
            "/morgue/ann/1",
            "/morgue/ann/1.TXT",
            "/morgue/ann/4294967296.txt",
            "/morgue/ann/.txt",
            "/morgue/an n/1.txt",
            "/morgue/%ff/1.txt",
            "/morgue/%4/1.txt",
            "/morgue/seventeen_letters/1.txt",
        ] {
            assert!(matches!(asked(&get(bad)), Some(Err(_))), "{bad} is refused");
        }
    }
}

//! The host's page of the world on the game's port: `/status`, plain HTML
//! with no script, and the same as JSON at `/status.json` for tools. Each
//! is made at the request from the live world (who plays, on which depth)
//! and the store (the hall of the living and the graveyard's last
//! [`LAST_DEAD`], read at most once a second: see `World::all_graves`), and
//! answered with the page's headers (a date, its type and length, and its
//! limits, being a page request), never to be cached, under a policy that
//! lets it load nothing at all. Every name and word in it is escaped
//! ([`escape`]): a world's name and a bestiary's words are the host's, a
//! character's name a player's.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::net::SocketAddr;
use std::time::Duration;

use gloam_protocol::DeathRecord;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tracing::debug;

use super::head::PageRequest;
use super::page;
use crate::world::World;

/// The dead the page lists: the most recent.
pub(super) const LAST_DEAD: usize = 20;

/// The living it lists at most (the first to escape first).
const MOST_LIVING: usize = gloam_protocol::MAX_GRAVEYARD;

/// It loads nothing, runs nothing, and is framed by nobody.
const POLICY: &str =
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// Which of the two a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    Html,
    Json,
}

/// The status asked for by `request`, if it asks for it (a GET or HEAD of
/// `/status` or `/status.json`, any query ignored); anything else is the
/// page's to answer.
pub(super) fn asked(request: &PageRequest) -> Option<Form> {
    if request.method != "GET" && request.method != "HEAD" {
        return None;
    }
    match request.target.split('?').next().unwrap_or_default() {
        "/status" => Some(Form::Html),
        "/status.json" => Some(Form::Json),
        _ => None,
    }
}

/// The world as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Status {
    /// The world's name (empty: none).
    world: String,
    /// How many play now.
    players: usize,
    /// Who plays on each depth, shallowest first.
    depths: Vec<Depth>,
    /// The hall of the living, the first to escape first.
    living: Vec<DeathRecord>,
    /// The last [`LAST_DEAD`] to die, the latest first.
    graveyard: Vec<DeathRecord>,
    /// Why the store could not be read, when it could not.
    unreadable: Option<String>,
}

/// One depth with players on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Depth {
    depth: u16,
    players: Vec<String>,
}

impl Status {
    /// The world `name` with `depths` played and `graves` in the store's
    /// order (the living first, then the dead deepest first), or why
    /// those could not be read.
    pub(super) fn new(
        name: &str,
        depths: BTreeMap<u16, Vec<String>>,
        graves: Result<&[DeathRecord], String>,
    ) -> Self {
        let depths: Vec<Depth> =
            depths.into_iter().map(|(depth, players)| Depth { depth, players }).collect();
        let players = depths.iter().map(|d| d.players.len()).sum();
        let (graves, unreadable) = match graves {
            Ok(graves) => (graves, None),
            Err(why) => (&[][..], Some(why)),
        };
        let living = graves.iter().filter(|g| g.escaped).take(MOST_LIVING).cloned().collect();
        let mut dead: Vec<DeathRecord> = graves.iter().filter(|g| !g.escaped).cloned().collect();
        // The latest first; the same second keeps the store's order.
        dead.sort_by_key(|g| std::cmp::Reverse(g.when));
        dead.truncate(LAST_DEAD);
        Self { world: name.to_owned(), players, depths, living, graveyard: dead, unreadable }
    }

    /// The page, every name and word escaped.
    pub(super) fn html(&self) -> String {
        let title = match self.world.as_str() {
            "" => "Gloam".to_owned(),
            name => format!("Gloam: {}", escape(name)),
        };
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>{title}</title>\n</head>\n<body>\n<h1>{title}</h1>\n"
        );
        self.write_players(&mut out);
        if let Some(why) = &self.unreadable {
            let _ = writeln!(out, "<p>The graveyard cannot be read now: {}</p>", escape(why));
        }
        write_records(&mut out, "The hall of the living", "Nobody has escaped yet.", &self.living);
        let dead_title = format!("The graveyard: the last {LAST_DEAD}");
        write_records(&mut out, &dead_title, "Nobody has died yet.", &self.graveyard);
        out.push_str("</body>\n</html>\n");
        out
    }

    /// Who plays, a list a depth.
    fn write_players(&self, out: &mut String) {
        let _ = writeln!(out, "<h2>Playing now: {}</h2>", self.players);
        if self.depths.is_empty() {
            out.push_str("<p>Nobody is playing.</p>\n");
        }
        for Depth { depth, players } in &self.depths {
            let _ = writeln!(out, "<h3>Depth {depth}</h3>\n<ul>");
            for name in players {
                let _ = writeln!(out, "<li>{}</li>", escape(name));
            }
            out.push_str("</ul>\n");
        }
    }

    /// The same, as JSON.
    pub(super) fn json(&self) -> String {
        // Plain data of strings and numbers: it always serializes.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// A table of records under `title`, or `none` when there are none.
fn write_records(out: &mut String, title: &str, none: &str, records: &[DeathRecord]) {
    let _ = writeln!(out, "<h2>{}</h2>", escape(title));
    if records.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", escape(none));
        return;
    }
    out.push_str(
        "<table>\n<tr><th>name</th><th>depth</th><th>level</th><th>rounds</th>\
         <th>kills</th><th>killed by</th><th>when</th></tr>\n",
    );
    for r in records {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.name),
            r.depth,
            r.level,
            r.rounds,
            r.kills,
            escape(&r.killed_by),
            r.when_utc(),
        );
    }
    out.push_str("</table>\n");
}

/// `text` safe anywhere in HTML text or a quoted attribute: the five
/// characters that could end either, or start markup, as references.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Answers a request for the status in `form`, made now from `world`;
/// then closes the connection.
pub(super) async fn serve<S>(
    stream: S,
    peer: SocketAddr,
    request: &PageRequest,
    form: Form,
    world: &World,
    send_timeout: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let graves = world.all_graves().await;
    let graves = graves.as_deref().map(Vec::as_slice).map_err(Clone::clone);
    let status = Status::new(&world.config().world_name, world.players_by_depth(), graves);
    let (body, content_type) = match form {
        Form::Html => (status.html(), "text/html; charset=utf-8"),
        Form::Json => (status.json(), "application/json"),
    };
    let with_body = request.method != "HEAD";
    let bytes = page::live_response(content_type, body.as_bytes(), POLICY, with_body);
    match page::send_and_close(stream, &bytes, send_timeout).await {
        Ok(()) => {
            debug!(%peer, players = status.players, target = %request.target, "status answered")
        }
        Err(e) => debug!(%peer, error = %e, "status: the answer was not sent"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, killed_by: &str, when: u64, escaped: bool) -> DeathRecord {
        DeathRecord {
            name: name.into(),
            depth: 3,
            rounds: 40,
            kills: 2,
            killed_by: killed_by.into(),
            when,
            level: 2,
            escaped,
            morgue: 0,
        }
    }

    #[test]
    fn escape_leaves_no_markup_and_no_way_out_of_an_attribute() {
        let hostile = "<script>alert('x')</script> & \"quoted\" <img src=x onerror=alert(1)>";
        let safe = escape(hostile);
        assert_eq!(
            safe,
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; \
             &lt;img src=x onerror=alert(1)&gt;"
        );
        for c in ['<', '>', '"', '\''] {
            assert!(!safe.contains(c), "{c} left in {safe}");
        }
        assert_eq!(escape("Zoë_1-ann"), "Zoë_1-ann");
        assert_eq!(escape("&amp;"), "&amp;amp;", "escaped again, not taken as escaped");
    }

    #[test]
    fn the_page_lists_depths_the_living_and_the_latest_dead_escaped() {
        let depths =
            BTreeMap::from([(1, vec!["ann".into(), "bob".into()]), (4, vec!["cy".into()])]);
        let mut graves = vec![record("hero", "the Gloamstone", 5, true)];
        graves.extend((0..30).map(|i| record(&format!("dead{i}"), "a <b>jackal</b>", i, false)));
        let status = Status::new("<script>alert(1)</script>", depths, Ok(graves.as_slice()));
        let html = status.html();
        assert!(html.contains("<title>Gloam: &lt;script&gt;alert(1)&lt;/script&gt;</title>"));
        assert!(!html.contains("<script") && !html.contains("<b>"), "{html}");
        assert!(html.contains("<h2>Playing now: 3</h2>"));
        assert!(html.contains("<h3>Depth 4</h3>\n<ul>\n<li>cy</li>"));
        assert!(html.contains("<td>hero</td>"));
        assert!(html.contains("a &lt;b&gt;jackal&lt;/b&gt;"));
        // The last 20: the latest (29) first, the 10 earliest left out.
        assert_eq!(status.graveyard.len(), LAST_DEAD);
        assert_eq!(status.graveyard[0].name, "dead29");
        assert!(html.contains("<td>dead10</td>") && !html.contains("<td>dead9</td>"));
    }

    #[test]
    fn an_empty_world_says_so_and_its_json_has_every_part() {
        let status = Status::new("", BTreeMap::new(), Ok(&[][..]));
        let html = status.html();
        assert!(html.contains("<title>Gloam</title>"));
        assert!(html.contains("Nobody is playing.") && html.contains("Nobody has died yet."));
        let json: serde_json::Value = serde_json::from_str(&status.json()).unwrap();
        assert_eq!(json["players"], 0);
        assert_eq!(json["depths"], serde_json::json!([]));
        assert_eq!(json["unreadable"], serde_json::Value::Null);
    }

    #[test]
    fn a_store_that_cannot_be_read_is_said_and_the_players_still_listed() {
        let depths = BTreeMap::from([(2, vec!["ann".into()])]);
        let status = Status::new("w", depths, Err("the store <failed>".into()));
        let html = status.html();
        assert!(html.contains("cannot be read now: the store &lt;failed&gt;"));
        assert!(html.contains("<li>ann</li>"));
    }

    #[test]
    fn only_a_get_or_head_of_the_two_paths_asks_for_the_status() {
        let ask = |method: &str, target: &str| {
            asked(&PageRequest {
                method: method.into(),
                target: target.into(),
                host: None,
                if_none_match: None,
            })
        };
        assert_eq!(ask("GET", "/status"), Some(Form::Html));
        assert_eq!(ask("HEAD", "/status?x=1"), Some(Form::Html));
        assert_eq!(ask("GET", "/status.json"), Some(Form::Json));
        assert_eq!(ask("POST", "/status"), None);
        assert_eq!(ask("GET", "/status/"), None);
        assert_eq!(ask("GET", "/"), None);
    }
}

//! What a player or a watcher asks for that is not an action: a line of
//! chat, its say over its watchers, who plays, the graveyard. The first
//! three are paced as chat is (see `net::chat`): one over the pace is
//! dropped with a warning, and one more while warned ends the connection.
//! The graveyard, which the store reads whole, is sent at most once every
//! [`GRAVEYARD_EVERY`].

use std::time::Duration;

use gloam_protocol::{AudienceCmd, ChatTo, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::Session;
use super::rules;
use crate::net::chat::{self, ChatGuard, Verdict};
use crate::net::connection::Ending;
use crate::world::Presence;

/// The graveyard is sent to one connection at most this often.
const GRAVEYARD_EVERY: Duration = Duration::from_secs(2);

impl<S: AsyncRead + AsyncWrite + Unpin> Session<S> {
    /// A line of chat from this player: paced, cleaned, and said at once
    /// (see `net::chat`). Paced before it is cleaned: a line with nothing
    /// left once cleaned is dropped, but counts as a line.
    pub(super) async fn speak(
        &mut self,
        say: impl FnOnce(&ChatTo, &str) -> Result<(), String>,
        guard: &mut ChatGuard,
        to: &ChatTo,
        text: &str,
    ) -> Result<(), Ending> {
        self.paced(guard, async |session: &mut Self| {
            let Some(text) = chat::clean(text) else { return Ok(()) };
            let said = match to {
                // Not a name anyone can have: nothing of it is echoed back.
                ChatTo::Player(name) if rules::check_name(name).is_err() => {
                    Err("Nobody by that name is playing.".to_owned())
                }
                _ => say(to, &text),
            };
            match said {
                Ok(()) => Ok(()),
                Err(note) => session.conn.send(&ServerMsg::Note(note)).await,
            }
        })
        .await
    }

    /// A player's say over its watchers: refusing them all, letting them
    /// back, or sending one away, each answered with a note.
    pub(super) async fn rule_audience(
        &mut self,
        presence: &Presence,
        guard: &mut ChatGuard,
        cmd: AudienceCmd,
    ) -> Result<(), Ending> {
        let audience = presence.audience();
        let note = match cmd {
            AudienceCmd::Refuse => {
                audience.set_open(false);
                "Nobody may watch you now (/allowwatch lets them again).".to_owned()
            }
            AudienceCmd::Allow => {
                audience.set_open(true);
                "Others may watch you now (/nowatch stops them).".to_owned()
            }
            AudienceCmd::Kick(name) if audience.kick(&name) => {
                format!("{name} no longer watches you.")
            }
            AudienceCmd::Kick(_) => "Nobody by that name is watching you.".to_owned(),
        };
        let note = ServerMsg::Note(note);
        self.paced(guard, async |session: &mut Self| session.conn.send(&note).await).await
    }

    /// Who is playing (paced: the list is built under a lock every
    /// connection's chat takes).
    pub(super) async fn who(&mut self, guard: &mut ChatGuard) -> Result<(), Ending> {
        self.paced(guard, async |session: &mut Self| {
            let who = ServerMsg::Who(session.world.playing());
            session.conn.send(&who).await
        })
        .await
    }

    /// Does `what` if the chat pace allows; one over the pace is dropped
    /// with a warning, and one more while warned ends the connection.
    async fn paced(
        &mut self,
        guard: &mut ChatGuard,
        what: impl AsyncFnOnce(&mut Self) -> Result<(), Ending>,
    ) -> Result<(), Ending> {
        match guard.admit(Instant::now()) {
            Verdict::Pass => what(self).await,
            Verdict::TooFast => self.conn.send(&ServerMsg::Note(chat::TOO_FAST.into())).await,
            Verdict::Flood => Err(Ending::new(
                CloseCode::Policy,
                format!("flooding: more than {} chat line a second", chat::LINES_PER_SECOND),
            )),
        }
    }

    /// Sends the graveyard, at most once every [`GRAVEYARD_EVERY`]: the
    /// store reads it whole each time.
    pub(super) async fn show_graveyard(&mut self) -> Result<(), Ending> {
        let now = Instant::now();
        if self.graveyard_shown.is_some_and(|t| now - t < GRAVEYARD_EVERY) {
            let note = "The graveyard was shown a moment ago: ask again in a few seconds.";
            return self.conn.send(&ServerMsg::Note(note.into())).await;
        }
        self.graveyard_shown = Some(now);
        let msg = match self.world.graveyard().await {
            Ok(dead) => ServerMsg::Graveyard(dead),
            Err(e) => ServerMsg::Note(format!("The graveyard cannot be read now: {e}")),
        };
        self.conn.send(&msg).await
    }
}

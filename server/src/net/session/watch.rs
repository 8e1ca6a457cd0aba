//! A watcher's session: what its player's client is sent, passed on as
//! it comes (see `world::watch`), beside the chat said where that player
//! is; the watcher may talk and ask for the graveyard, never act. When
//! the watching ends, the watcher is shown the graveyard (its player may
//! have just joined it: the watcher's death page lists it, as its
//! player's does) and told so in its own words ("You stop watching
//! ann."), never in the words its player hears of it. The watcher's own
//! words are notes: its client tells a note in the second person about
//! watching as its own, not as its player's (`client/src/state/person.rs`).

use gloam_protocol::{Action, ChatTo, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::Session;
use super::play::REPLIES_PER_WRITE;
use super::rules::{self, Request};
use crate::net::chat::ChatGuard;
use crate::net::connection::Ending;
use crate::world::{StreamPart, Watcher};

impl<S: AsyncRead + AsyncWrite + Unpin> Session<S> {
    /// The loop of one watcher: whatever comes first of the server
    /// stopping, its name claimed by another connection, its stream, a line of chat, a
    /// change among those watching, a message from its client, and a ping.
    pub(super) async fn watch(&mut self, watcher: &mut Watcher) -> Ending {
        let mut chat = ChatGuard::new(Instant::now());
        let Some(mut inbox) = watcher.inbox() else {
            return Ending::new(CloseCode::Error, "the watcher is already being served");
        };
        let (stop, kicked) = (self.stop.clone(), watcher.kicked());
        let mut watchers = watcher.audience().names();
        // The list as it is now: a watcher sees who else watches.
        let now = watchers.borrow_and_update().clone();
        if let Err(ending) = self.conn.send(&ServerMsg::Watchers(now)).await {
            return ending;
        }
        let mut told_not_to_act = false;
        loop {
            let next_check = self.conn.next_check();
            let result = tokio::select! {
                () = stop.cancelled() => Err(self.stopping()),
                () = kicked.cancelled() => Err(Ending::new(
                    CloseCode::Policy,
                    "another connection took this name over, to play or to watch",
                )),
                stream = watcher.next() => self.pass_stream(stream, watcher).await,
                Some(line) = inbox.next() => self.conn.write(line.into()).await,
                Ok(()) = watchers.changed() => {
                    let names = watchers.borrow_and_update().clone();
                    match seen_by_watcher(watcher.name(), names) {
                        Some(msg) => self.conn.send(&msg).await,
                        None => Ok(()),
                    }
                }
                msg = self.conn.next_msg() => match msg.map(rules::play) {
                    Err(ending) => Err(ending),
                    Ok(Err(why)) => Err(Ending::new(CloseCode::Protocol, why)),
                    Ok(Ok(Request::Graveyard)) => self.show_graveyard().await,
                    Ok(Ok(Request::Who)) => self.who(&mut chat).await,
                    // A watcher's player's orders are its player's own.
                    Ok(Ok(Request::Stop)) => Ok(()),
                    Ok(Ok(Request::Chat(to, text))) => {
                        let say = |to: &ChatTo, text: &str| watcher.say(to, text);
                        self.speak(say, &mut chat, &to, &text).await
                    }
                    Ok(Ok(Request::Act(Action::Quit))) => {
                        Err(Ending::new(CloseCode::Normal, "goodbye"))
                    }
                    Ok(Ok(Request::Act(_) | Request::Audience(_))) => {
                        self.not_yours(watcher, &mut told_not_to_act).await
                    }
                },
                () = sleep_until(next_check) => self.conn.keep_alive().await,
            };
            if let Err(ending) = result {
                return ending;
            }
        }
    }

    /// Writes what the player's client was sent (with the rest of the stream
    /// already waiting, in one write); the end of the watching ends the
    /// connection, with its reason.
    async fn pass_stream(
        &mut self,
        stream: Option<StreamPart>,
        watcher: &mut Watcher,
    ) -> Result<(), Ending> {
        let mut batches = Vec::new();
        let mut next = stream;
        let ending = loop {
            match next {
                Some(StreamPart::Frames(frames)) => batches.push(frames),
                Some(StreamPart::End(why)) => break Some(Ending::new(CloseCode::Normal, why)),
                None => {
                    let why = "too slow: the game went on without you";
                    break Some(Ending::new(CloseCode::Policy, why));
                }
            }
            if batches.len() >= REPLIES_PER_WRITE {
                break None;
            }
            match watcher.try_next() {
                Some(stream) => next = Some(stream),
                None => break None,
            }
        };
        let frames = batches.iter().flat_map(|b| b.iter().cloned());
        self.conn.write_all(frames).await?;
        let Some(ending) = ending else { return Ok(()) };
        let stopping = self.stop.is_cancelled().then(|| self.stopping());
        let ending = match stream_ended(ending, stopping) {
            Ended::Stopping(ending) => return Err(ending),
            Ended::SentAway(ending) => ending,
        };
        // Its player's game may have ended: the graveyard it joined, for
        // the death page (asked a moment ago or not).
        self.graveyard_shown = None;
        self.show_graveyard().await?;
        // (A watcher's transcript leaves it out as the connection's own:
        // see `tests/src/sim.rs`.)
        let note = format!("You stop watching {}.", watcher.player_name());
        self.conn.send(&ServerMsg::Note(note)).await?;
        Err(ending)
    }

    /// A watcher's client tried to play: told once, then ignored.
    async fn not_yours(&mut self, watcher: &Watcher, told: &mut bool) -> Result<(), Ending> {
        if std::mem::replace(told, true) {
            return Ok(());
        }
        let note = format!("You are watching {}: you cannot act.", watcher.player_name());
        self.conn.send(&ServerMsg::Note(note)).await
    }
}

/// How a watching ends when its stream does.
#[derive(Debug, PartialEq)]
enum Ended {
    /// The server stops (its player left because of that, or at the same
    /// moment): the watcher is told so, as every connection is, and comes
    /// back after the restart to watch again, not sent away for good.
    Stopping(Ending),
    /// Its player left, died or sent it away: it is shown why.
    SentAway(Ending),
}

/// The end of a watcher's stream, `ending` as the stream says, while the
/// server is `stopping` (with that ending) or not. Apart so that it is
/// tested: a watcher's session may see its player leave before it sees
/// the server stop that made it leave, on a busy machine.
fn stream_ended(ending: Ending, stopping: Option<Ending>) -> Ended {
    match stopping {
        Some(stopping) => Ended::Stopping(stopping),
        None => Ended::SentAway(ending),
    }
}

/// What a watcher is told of a change among those watching its player:
/// the list, unless the list no longer holds the watcher itself. Then its
/// seat is gone and its stream is ending, which tells it in the second
/// person; the list would have its client say "bob stopped watching ann."
/// to bob.
fn seen_by_watcher(me: &str, names: Vec<String>) -> Option<ServerMsg> {
    names.iter().any(|n| n == me).then_some(ServerMsg::Watchers(names))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Its player's leaving, seen when the server already stops, is the
    /// server's restart to the watcher (which its client comes back
    /// from), not its player's going (which it does not).
    #[test]
    fn a_watcher_whose_player_left_as_the_server_stops_is_told_it_restarts() {
        let left = || Ending::new(CloseCode::Normal, "ann left the game");
        let restart = Ending::stopping(crate::config::Farewell::Restart);
        assert!(restart.is_restart());
        assert_eq!(stream_ended(left(), Some(restart.clone())), Ended::Stopping(restart));
        assert_eq!(stream_ended(left(), None), Ended::SentAway(left()));
    }

    #[test]
    fn a_watcher_is_not_shown_the_list_it_left() {
        let list = |names: &[&str]| names.iter().map(|&n| n.to_owned()).collect::<Vec<_>>();
        assert_eq!(
            seen_by_watcher("bob", list(&["bob", "cy"])),
            Some(ServerMsg::Watchers(list(&["bob", "cy"])))
        );
        assert_eq!(seen_by_watcher("bob", list(&["cy"])), None);
        assert_eq!(seen_by_watcher("bob", Vec::new()), None);
    }
}

//! One player's session, apart from any window: what a key press sends,
//! what a message from the network changes (the state mirror, the link
//! shown in the HUD, the character's kept key), and when a held key may
//! repeat. The window turns its events into calls here and draws the result.

use std::time::{Duration, Instant};

use gloam_protocol::{ClientMsg, ServerMsg, Token};

use crate::input::{Intent, Key, intent, should_send};
use crate::net::NetEvent;
use crate::state::ClientState;
use crate::tokens::TokenStore;
use crate::view::Link;

/// What a key press asks of the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOutcome {
    /// Send this to the server (then call [`Session::sent`]).
    Send(ClientMsg),
    Quit,
    /// Nothing: an unbound key, no connection, or a repeat too soon.
    Ignore,
}

/// Where the character's secret key is kept: the store and the names it is
/// filed under (the server, or a hosted world's id, and the player's name).
#[derive(Debug)]
pub struct KeyRing {
    pub store: Option<TokenStore>,
    pub server: String,
    pub name: String,
}

impl KeyRing {
    /// The kept key, if there is one.
    pub fn load(&self) -> Option<Token> {
        self.store.as_ref().and_then(|s| s.load(&self.server, &self.name))
    }

    /// Keeps a new key; says where, or why not, for the message log.
    fn keep(&self, token: &Token) -> String {
        match self.store.as_ref().map(|s| s.save(&self.server, &self.name, token)) {
            Some(Ok(path)) => format!("Your character's key is kept in {}.", path.display()),
            Some(Err(e)) => format!("Could not keep your character's key: {e}"),
            None => "No config directory: your character's key is not kept.".into(),
        }
    }
}

#[derive(Debug)]
pub struct Session {
    pub state: ClientState,
    pub link: Link,
    keys: KeyRing,
    /// Actions sent and not yet answered: key repeats wait for the answer,
    /// so holding a key never queues up moves the player cannot stop.
    in_flight: u32,
    last_sent: Option<Instant>,
}

impl Session {
    /// A session connecting to `url`.
    pub fn new(url: String, keys: KeyRing) -> Self {
        let link = Link::Connecting(url);
        Self { state: ClientState::new(), link, keys, in_flight: 0, last_sent: None }
    }

    /// A key pressed (`repeat` when held down) at `now`.
    pub fn on_key(&mut self, key: Key, shift: bool, repeat: bool, now: Instant) -> KeyOutcome {
        match intent(key, shift) {
            Some(Intent::Quit) => KeyOutcome::Quit,
            Some(Intent::Act(action)) if self.link == Link::Playing => {
                let since =
                    self.last_sent.map_or(Duration::MAX, |t| now.saturating_duration_since(t));
                if should_send(repeat, self.in_flight, since, self.state.actions_per_second) {
                    KeyOutcome::Send(ClientMsg::Act(action))
                } else {
                    KeyOutcome::Ignore
                }
            }
            _ => KeyOutcome::Ignore,
        }
    }

    /// The message [`on_key`](Self::on_key) asked for went out at `now`.
    pub fn sent(&mut self, now: Instant) {
        self.in_flight += 1;
        self.last_sent = Some(now);
    }

    /// What the connection said.
    pub fn on_net(&mut self, event: NetEvent) {
        match event {
            NetEvent::Msg(msg) => self.on_message(&msg),
            NetEvent::Closed(reason) => {
                let reason = match &self.state.refused {
                    Some(refusal) => format!("refused: {refusal}"),
                    None => reason,
                };
                self.link = Link::Lost(reason);
            }
        }
    }

    fn on_message(&mut self, msg: &ServerMsg) {
        if let Err(e) = self.state.apply(msg) {
            tracing::warn!(error = %e, "ignored a message that does not fit");
        }
        match msg {
            ServerMsg::Welcome { token, .. } => {
                self.link = Link::Playing;
                // After the welcome is applied, which starts a fresh log.
                if let Some(fresh) = token {
                    let note = self.keys.keep(fresh);
                    self.note(note);
                }
            }
            ServerMsg::Sight(_) => self.in_flight = self.in_flight.saturating_sub(1),
            _ => {}
        }
    }

    /// A line of the client's own for the message log.
    pub fn note(&mut self, text: String) {
        let _ = self.state.apply(&ServerMsg::Note(text));
    }
}

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
    /// The character died: connect again for a new one.
    Again,
    /// Only the screen changed.
    Redraw,
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

/// What the area above the HUD shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Page {
    #[default]
    Map,
    /// The graveyard, asked for with `g`.
    Graveyard,
    /// The character died: its record, and the graveyard.
    Death,
}

#[derive(Debug)]
pub struct Session {
    pub state: ClientState,
    pub link: Link,
    /// The graveyard was asked for (it shows once it comes).
    graveyard_asked: bool,
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
        let state = ClientState::new();
        Self { state, link, keys, in_flight: 0, last_sent: None, graveyard_asked: false }
    }

    /// What the area above the HUD shows now.
    pub fn page(&self) -> Page {
        if self.state.death.is_some() {
            Page::Death
        } else if self.graveyard_asked && self.state.graveyard.is_some() {
            Page::Graveyard
        } else {
            Page::Map
        }
    }

    /// Gives the character's key ring back, to connect again.
    pub fn into_keys(self) -> KeyRing {
        self.keys
    }

    /// A key pressed (`repeat` when held down) at `now`.
    pub fn on_key(&mut self, key: Key, shift: bool, repeat: bool, now: Instant) -> KeyOutcome {
        let intent = intent(key, shift);
        if self.page() == Page::Death {
            return match intent {
                Some(Intent::Quit) => KeyOutcome::Quit,
                Some(Intent::Again) => KeyOutcome::Again,
                _ => KeyOutcome::Ignore,
            };
        }
        if self.page() == Page::Graveyard && intent != Some(Intent::Quit) {
            // Any key puts the graveyard away.
            self.graveyard_asked = false;
            return KeyOutcome::Redraw;
        }
        match intent {
            Some(Intent::Quit) => KeyOutcome::Quit,
            Some(Intent::Graveyard) if self.link == Link::Playing => {
                self.graveyard_asked = true;
                self.state.graveyard = None;
                KeyOutcome::Send(ClientMsg::Graveyard)
            }
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
    pub fn sent(&mut self, msg: &ClientMsg, now: Instant) {
        if let ClientMsg::Act(_) = msg {
            self.in_flight += 1;
            self.last_sent = Some(now);
        }
    }

    /// What the connection said.
    pub fn on_net(&mut self, event: NetEvent) {
        match event {
            NetEvent::Msg(msg) => self.on_message(&msg),
            NetEvent::Closed(_) if matches!(self.link, Link::Lost(_)) => {}
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
        if matches!(self.link, Link::Lost(_)) {
            // A server that broke the protocol is not listened to again.
            return;
        }
        if let Err(e) = self.state.apply(msg) {
            tracing::warn!(error = %e, "the server sent a message that does not fit");
            self.link = Link::Lost(format!("the server is broken or hostile: {e}"));
            return;
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

#[cfg(test)]
mod tests {
    use gloam_protocol::{Action, Dir, PlayerId, Refusal, SightDiff};

    use super::*;

    fn session(tokens: Option<TokenStore>) -> Session {
        let keys = KeyRing { store: tokens, server: "ws://here".into(), name: "ann".into() };
        Session::new("ws://here".into(), keys)
    }

    /// Welcomed, and on a level the server has described.
    fn playing() -> Session {
        let mut s = session(None);
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        s.on_net(NetEvent::Msg(crate::testing::enter_level(1, 20, 10)));
        s
    }

    const STEP: ClientMsg = ClientMsg::Act(Action::Move(Dir::N));

    #[test]
    fn keys_send_nothing_until_welcomed_and_escape_always_quits() {
        let mut s = session(None);
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        assert_eq!(s.link, Link::Playing);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP));
    }

    #[test]
    fn a_held_key_repeats_only_once_answered_and_at_the_servers_pace() {
        let mut s = playing();
        let t0 = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, t0), KeyOutcome::Send(STEP));
        s.sent(&STEP, t0);
        let later = t0 + Duration::from_secs(1);
        assert_eq!(s.on_key(Key::Up, false, true, later), KeyOutcome::Ignore, "unanswered");
        assert_eq!(s.on_key(Key::Up, false, false, later), KeyOutcome::Send(STEP), "a fresh press");
        s.on_net(NetEvent::Msg(ServerMsg::Sight(SightDiff::default())));
        let soon = t0 + Duration::from_millis(10);
        assert_eq!(s.on_key(Key::Up, false, true, soon), KeyOutcome::Ignore, "faster than 20/s");
        assert_eq!(s.on_key(Key::Up, false, true, later), KeyOutcome::Send(STEP));
    }

    fn record() -> gloam_protocol::DeathRecord {
        gloam_protocol::DeathRecord {
            name: "ann".into(),
            depth: 4,
            rounds: 300,
            kills: 9,
            killed_by: "an orc".into(),
            when: 0,
        }
    }

    #[test]
    fn g_asks_for_the_graveyard_which_shows_when_it_comes_and_any_key_puts_away() {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(
            s.on_key(Key::Char('g'), false, false, now),
            KeyOutcome::Send(ClientMsg::Graveyard)
        );
        s.sent(&ClientMsg::Graveyard, now);
        assert_eq!(s.page(), Page::Map, "not yet come");
        s.on_net(NetEvent::Msg(ServerMsg::Graveyard(vec![record()])));
        assert_eq!(s.page(), Page::Graveyard);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Map);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP), "walking again");
    }

    #[test]
    fn after_a_death_enter_starts_again_and_nothing_else_is_sent() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Died(record())));
        s.on_net(NetEvent::Closed("your character died".into()));
        assert_eq!(s.page(), Page::Death);
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Char('g'), false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Enter, false, false, now), KeyOutcome::Again);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
    }

    #[test]
    fn a_new_key_is_kept_and_the_log_says_where() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(Some(TokenStore::at(dir.path())));
        let mut welcome = crate::testing::welcome(PlayerId(1), 20, 10);
        if let ServerMsg::Welcome { token, .. } = &mut welcome {
            *token = Some([7; 16]);
        }
        s.on_net(NetEvent::Msg(welcome));
        assert_eq!(s.keys.load(), Some([7; 16]));
        let last = s.state.log.back().expect("a line about the key");
        assert!(last.starts_with("Your character's key is kept in"), "{last}");
    }

    #[test]
    fn a_refusal_is_the_reason_the_link_was_lost() {
        let mut s = session(None);
        s.on_net(NetEvent::Msg(ServerMsg::Refused(Refusal::WrongToken)));
        s.on_net(NetEvent::Closed("closed by the server".into()));
        match &s.link {
            Link::Lost(why) => assert!(why.starts_with("refused: that name belongs"), "{why}"),
            other => panic!("{other:?}"),
        }
        let mut lost = playing();
        lost.on_net(NetEvent::Closed("connection reset".into()));
        assert_eq!(lost.link, Link::Lost("connection reset".into()));
    }

    #[test]
    fn a_message_that_does_not_fit_shows_in_the_hud_and_ends_the_listening() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(crate::testing::enter_level(1, u16::MAX, u16::MAX)));
        match &s.link {
            Link::Lost(why) => assert!(why.contains("larger than the protocol allows"), "{why}"),
            other => panic!("{other:?}"),
        }
        let before = s.state.clone();
        s.on_net(NetEvent::Msg(ServerMsg::Note("and more".into())));
        s.on_net(NetEvent::Closed("closed".into()));
        assert_eq!(s.state, before, "nothing more is taken from it");
        assert!(matches!(&s.link, Link::Lost(why) if why.contains("hostile")));
        assert_eq!(s.on_key(Key::Up, false, false, Instant::now()), KeyOutcome::Ignore);
    }
}

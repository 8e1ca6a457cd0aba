//! The end page's player: `r` asks the server for the character's last
//! rounds on a connection of its own ([`KeyOutcome::Ask`]); what that
//! connection says comes to [`Session::on_recording`], and the end page
//! shows the ask under way, or why it failed, on a line of its own. A
//! recording come whole plays on the player page: the map and the HUD of
//! a mirror of its own, fed a group of messages at a time by the playback
//! core ([`crate::replay`]) from the window's clock ([`Session::tick`]).
//! Esc goes back to the end page as it was; the recording is kept, so `r`
//! plays it again without asking. The graveyard page (`G`, in play or
//! over the end page) gives each grave a letter that plays its last
//! rounds alike, and Esc goes back to the graveyard; meanwhile the live
//! game's messages keep coming to the session's own mirror, and its keys
//! are the player's. Space at the end plays the recording again.

use std::time::Instant;

use gloam_protocol::{ClientMsg, PROTOCOL_VERSION, RecordingAsk, ServerMsg};

use super::{KeyOutcome, Session, Tick};
use crate::chat::Chat;
use crate::input::Key;
use crate::net::NetEvent;
use crate::replay::{Control, Recording, Replay, control};
use crate::scene::{Link, Page, Scene};
use crate::state::ClientState;

/// How many of its last rounds `r` asks for.
pub const LAST_ROUNDS: u32 = 100;

/// What the end page's line says while the server is asked.
pub const ASKING: &str = "asking the server...";

/// A life whose last rounds can be asked for: its name, and its number
/// (its morgue file's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Grave {
    name: String,
    life: u32,
}

impl Grave {
    fn of(record: &gloam_protocol::DeathRecord) -> Self {
        Self { name: record.name.clone(), life: record.morgue }
    }

    /// The first message of the connection that asks for its last rounds.
    fn ask(&self) -> ClientMsg {
        let ask =
            RecordingAsk::Grave { name: self.name.clone(), life: self.life, rounds: LAST_ROUNDS };
        ClientMsg::Recording { version: PROTOCOL_VERSION, ask }
    }
}

/// Where asking for a grave's last rounds stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) enum Asked {
    /// Not asked (or not since the player came back from watching).
    #[default]
    Not,
    /// Asked, and what came so far (the recording's head starts it).
    Asking(Option<Recording>),
    /// Refused, or the connection failed: why.
    Failed(String),
    /// Come whole: kept to play again.
    Got(Recording),
}

/// A recording playing on the player page: the playback and the mirror it
/// feeds, drawn as the game draws its own.
#[derive(Debug)]
pub(super) struct Player {
    replay: Replay,
    mirror: ClientState,
    /// Nothing is typed on the player page; the scene wants a chat.
    chat: Chat,
    link: Link,
}

impl Player {
    /// `recording` from its start, its mirror welcomed as the game's was
    /// (the map's size from its first level, the world's name `world`);
    /// why not, when it enters no level.
    fn new(recording: Recording, world: &str) -> Result<Self, String> {
        let mirror = welcomed(&recording, world)?;
        let replay = Replay::new(recording);
        Ok(Self { replay, mirror, chat: Chat::default(), link: Link::Playing })
    }

    /// Applies the groups in `range` to the mirror, each as the answer to
    /// an action (what was said before it is old news). A message that
    /// does not fit ends the playback there, saying why.
    fn apply(&mut self, range: std::ops::Range<usize>) {
        for group in self.replay.groups(range) {
            self.mirror.age_log();
            for msg in &group.msgs {
                if let Err(e) = self.mirror.apply(msg) {
                    self.mirror.own_note(&format!("The recording does not fit: {e}."));
                    self.replay.stop();
                    return;
                }
            }
        }
    }

    /// Space at the end: from the start again, at the speed it had, in a
    /// mirror welcomed afresh.
    fn again(&mut self, world: &str) {
        if let Ok(mirror) = welcomed(self.replay.recording(), world) {
            self.mirror = mirror;
            self.replay.restart();
        }
    }

    /// Time passed: the groups due are applied.
    fn tick(&mut self, now: Instant) -> Tick {
        let tick = self.replay.tick(now);
        let moved = !tick.apply.is_empty();
        self.apply(tick.apply);
        match (moved, tick.next) {
            (true, next) => Tick::Moved(next),
            (false, Some(wait)) => Tick::Within(wait),
            (false, None) => Tick::Idle,
        }
    }
}

/// A mirror for `recording`, welcomed as the game's was (the map's size
/// from its first level, the world's name `world`); why not, when it
/// enters no level.
fn welcomed(recording: &Recording, world: &str) -> Result<ClientState, String> {
    let (width, height) = recording.map_size().ok_or("the recording holds no level to show")?;
    let mut mirror = ClientState::named(&recording.player);
    let welcome = ServerMsg::Welcome {
        you: recording.you,
        width,
        height,
        sight_radius: gloam_protocol::SIGHT_RADIUS,
        actions_per_second: 10,
        token: None,
        world: world.to_owned(),
    };
    mirror.apply(&welcome).map_err(|e| format!("the recording does not fit: {e}"))?;
    Ok(mirror)
}

impl Session {
    /// The grave this session's End page offers, if any: the player's own
    /// life that ended with a morgue file (not a watcher's player's).
    fn own_grave(&self) -> Option<Grave> {
        let record =
            self.state.ending().filter(|d| d.morgue > 0 && self.state.watched().is_none())?;
        Some(Grave::of(record))
    }

    /// `r` on the end page: plays the character's last rounds (see
    /// [`Self::watch`]).
    pub(super) fn watch_last_rounds(&mut self) -> KeyOutcome {
        match self.own_grave() {
            Some(grave) => self.watch(grave),
            None => KeyOutcome::Ignore,
        }
    }

    /// A letter on the graveyard page: plays that grave's last rounds (see
    /// [`Self::watch`]); none when no grave has the letter.
    pub(super) fn watch_a_fall(&mut self, letter: char) -> Option<KeyOutcome> {
        let records = self.state.graveyard.as_deref().unwrap_or_default();
        let index = (letter as usize).checked_sub('a' as usize)?;
        let grave = Grave::of(crate::pages::lettered(records).get(index)?);
        Some(self.watch(grave))
    }

    /// Plays `grave`'s last rounds: the recording kept, when it is that
    /// grave's, else asked for (on a connection of its own); nothing while
    /// an ask is under way.
    fn watch(&mut self, grave: Grave) -> KeyOutcome {
        match &self.asked {
            Asked::Asking(_) => KeyOutcome::Ignore,
            Asked::Got(recording) if self.asked_for.as_ref() == Some(&grave) => {
                self.show(recording.clone());
                KeyOutcome::Redraw
            }
            Asked::Not | Asked::Failed(_) | Asked::Got(_) => {
                let ask = grave.ask();
                self.asked = Asked::Asking(None);
                self.asked_for = Some(grave);
                KeyOutcome::Ask(ask)
            }
        }
    }

    /// The graveyard page was put away: a fall asked for from it is given
    /// up (it would start playing over the game later), and why the last
    /// one failed is forgotten. The character's own, asked for with `r`,
    /// goes on: the end page shows it.
    pub(super) fn give_up_asking(&mut self) {
        let own = self.asked_for.is_some() && self.asked_for == self.own_grave();
        if matches!(self.asked, Asked::Asking(_) | Asked::Failed(_)) && !own {
            self.asked = Asked::Not;
        }
    }

    /// Shows `recording` on the player page, from its start.
    fn show(&mut self, recording: Recording) {
        match Player::new(recording.clone(), &self.state.world) {
            Ok(player) => {
                self.player = Some(player);
                self.asked = Asked::Got(recording);
            }
            Err(why) => self.asked = Asked::Failed(why),
        }
    }

    /// What the recording's connection said: its head, its messages, its
    /// end (then it plays), a refusal, or its close before the end.
    pub fn on_recording(&mut self, event: NetEvent) {
        let Asked::Asking(got) = &mut self.asked else { return };
        match (event, got) {
            (NetEvent::Msg(ServerMsg::Recording { player, you, depth, from, to }), got @ None) => {
                *got = Some(Recording::new(player, you, depth, from, to));
            }
            (NetEvent::Msg(ServerMsg::Recorded { round, msg }), Some(recording)) => {
                recording.push(round, *msg);
            }
            (NetEvent::Msg(ServerMsg::RecordingEnd { cut }), Some(recording)) => {
                recording.cut = cut;
                let recording = recording.clone();
                self.show(recording);
            }
            (NetEvent::Msg(ServerMsg::Refused(refusal)), _) => {
                self.asked = Asked::Failed(refusal.to_string());
            }
            (NetEvent::Closed { reason, .. }, _) => self.asked = Asked::Failed(reason),
            (NetEvent::Msg(_), _) => {
                let why = "the server sent something else than a recording";
                self.asked = Asked::Failed(why.into());
            }
        }
    }

    /// Whether the recording's connection is still wanted: false once the
    /// recording came whole or failed (the window then closes it).
    pub fn asking(&self) -> bool {
        matches!(self.asked, Asked::Asking(_))
    }

    /// Whether the player page shows (a recording plays).
    pub fn playing_back(&self) -> bool {
        self.player.is_some()
    }

    /// The line about the recording on `page`: being asked for, or why it
    /// could not be had; on the end page, only the character's own.
    pub(super) fn recording_line(&self, page: Page) -> Option<&str> {
        let own = self.asked_for.is_some() && self.asked_for == self.own_grave();
        if !(page == Page::Graveyard || page == Page::End && own) {
            return None;
        }
        match &self.asked {
            Asked::Asking(_) => Some(ASKING),
            Asked::Failed(why) => Some(why),
            Asked::Not | Asked::Got(_) => None,
        }
    }

    /// A key on the player page: the playback's keys (Space at the end
    /// plays it again), Esc back to the page it was played from, Ctrl and
    /// a key the zoom.
    pub(super) fn on_player_key(&mut self, key: Key, shift: bool, now: Instant) -> KeyOutcome {
        let Some(player) = &mut self.player else { return KeyOutcome::Ignore };
        if let Key::Ctrl(c) = key {
            return match crate::input::ctrl_intent(c) {
                Some(crate::input::Intent::Zoom(by)) => KeyOutcome::Zoom(by),
                _ => KeyOutcome::Ignore,
            };
        }
        match control(key, shift) {
            Some(Control::Leave) => {
                self.player = None;
                KeyOutcome::Redraw
            }
            Some(Control::Pause) if player.replay.ended() => {
                player.again(&self.state.world);
                KeyOutcome::Redraw
            }
            Some(control) => {
                let range = player.replay.press(control, now);
                player.apply(range);
                KeyOutcome::Redraw
            }
            None => KeyOutcome::Ignore,
        }
    }

    /// The player page's scene, when it shows.
    pub(super) fn player_scene(&self) -> Option<Scene<'_>> {
        let player = self.player.as_ref()?;
        let mut scene = Scene::new(&player.mirror, &player.chat, &player.link, Page::Map);
        scene.palette = self.palette;
        scene.replay = Some(&player.replay);
        Some(scene)
    }

    /// The playback's tick, while the player page shows.
    pub(super) fn player_tick(&mut self, now: Instant) -> Option<Tick> {
        self.player.as_mut().map(|player| player.tick(now))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use gloam_protocol::{DeathRecord, PlayerId, Refusal};

    use super::*;
    use crate::session::tests::playing;

    fn record(morgue: u32) -> DeathRecord {
        DeathRecord {
            name: "ann".into(),
            depth: 1,
            rounds: 40,
            kills: 0,
            killed_by: "a giant".into(),
            when: 0,
            level: 1,
            escaped: false,
            morgue,
        }
    }

    /// A session whose character died (its record with morgue number
    /// `morgue`) and whose connection closed.
    fn dead(morgue: u32) -> Session {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Died(record(morgue))));
        s.on_net(NetEvent::Closed {
            reason: "your character died".into(),
            ending: crate::net::Ending::Code(1000),
        });
        s
    }

    fn page_text(s: &Session) -> Vec<String> {
        let scene = s.scene();
        crate::pages::page_lines(&scene, (120, 40)).into_iter().map(|(t, _)| t).collect()
    }

    fn hud_text(s: &Session) -> Vec<String> {
        crate::hud::hud(&s.scene()).into_iter().map(|l| l.text).collect()
    }

    fn msg(m: ServerMsg) -> NetEvent {
        NetEvent::Msg(m)
    }

    /// The server's answer: a head, the kinds, a level of 20 x 10, a note
    /// in each of rounds 5, 7 and 8, and the end.
    fn answer(s: &mut Session) {
        let head = ServerMsg::Recording {
            player: "ann".into(),
            you: PlayerId(1),
            depth: 1,
            from: 4,
            to: 8,
        };
        s.on_recording(msg(head));
        let recorded = |round, m| msg(ServerMsg::Recorded { round, msg: Box::new(m) });
        s.on_recording(recorded(4, ServerMsg::Kinds(vec![])));
        s.on_recording(recorded(4, ServerMsg::ItemKinds(vec![])));
        s.on_recording(recorded(5, crate::testing::enter_level(1, 20, 10)));
        s.on_recording(recorded(5, ServerMsg::Note("You arrive.".into())));
        s.on_recording(recorded(7, ServerMsg::Note("The giant hits you.".into())));
        s.on_recording(recorded(8, ServerMsg::Note("The giant kills you.".into())));
        s.on_recording(msg(ServerMsg::RecordingEnd { cut: false }));
    }

    const KEYS: &str = "Space: pause    +/-: faster, slower    .: one round    Esc: back";

    #[test]
    fn the_end_page_offers_r_only_with_a_morgue_file() {
        let keys = |s: &Session| page_text(s).last().cloned().unwrap();
        assert_eq!(
            keys(&dead(3)),
            "  Enter: a new character named ann    r: watch your last rounds    G: the graveyard    Esc: quit"
        );
        let none = "  Enter: a new character named ann    G: the graveyard    Esc: quit";
        assert_eq!(keys(&dead(0)), none);
        let mut s = dead(0);
        assert_eq!(s.on_key(Key::Char('r'), false, false, Instant::now()), KeyOutcome::Ignore);
    }

    #[test]
    fn r_asks_for_the_last_rounds_on_a_connection_of_its_own() {
        let mut s = dead(3);
        let now = Instant::now();
        let ask = RecordingAsk::Grave { name: "ann".into(), life: 3, rounds: 100 };
        let want = ClientMsg::Recording { version: PROTOCOL_VERSION, ask };
        assert_eq!(s.on_key(Key::Char('r'), false, false, now), KeyOutcome::Ask(want));
        assert!(s.asking());
        let text = page_text(&s);
        let morgue = text.iter().position(|l| l.starts_with("  Morgue file:")).unwrap();
        assert_eq!(text[morgue + 1], "  Recording:             asking the server...");
        assert_eq!(s.on_key(Key::Char('r'), false, false, now), KeyOutcome::Ignore, "once");
    }

    #[test]
    fn a_refusal_is_shown_on_the_end_page_and_r_asks_again() {
        let mut s = dead(3);
        let now = Instant::now();
        s.on_key(Key::Char('r'), false, false, now);
        let reason = "ann's life 3 ended before recordings were kept".to_owned();
        s.on_recording(msg(ServerMsg::Refused(Refusal::NoRecording { reason })));
        s.on_recording(NetEvent::Closed {
            reason: "the server closed the connection".into(),
            ending: crate::net::Ending::Code(1000),
        });
        assert!(!s.asking() && !s.playing_back());
        let line =
            "  Recording:             no recording: ann's life 3 ended before recordings were kept";
        assert!(page_text(&s).contains(&line.to_owned()), "{:#?}", page_text(&s));
        assert!(matches!(s.on_key(Key::Char('r'), false, false, now), KeyOutcome::Ask(_)));
    }

    #[test]
    fn a_connection_that_fails_is_shown() {
        let mut s = dead(3);
        s.on_key(Key::Char('r'), false, false, Instant::now());
        s.on_recording(NetEvent::Closed {
            reason: "cannot connect to ws://here: refused".into(),
            ending: crate::net::Ending::Dropped,
        });
        let line = "  Recording:             cannot connect to ws://here: refused";
        assert!(page_text(&s).contains(&line.to_owned()));
        assert_eq!(s.page(), Page::End);
    }

    #[test]
    fn a_recording_plays_a_round_at_a_time_and_esc_comes_back() {
        let mut s = dead(3);
        let t0 = Instant::now();
        s.on_key(Key::Char('r'), false, false, t0);
        answer(&mut s);
        assert!(s.playing_back() && !s.asking());
        assert_eq!(s.tick(t0), Tick::Moved(Some(Duration::from_millis(250))), "the first at once");
        let hud = hud_text(&s);
        assert_eq!(hud[0], "Joining...", "as the game says it before its first level");
        assert_eq!(hud[1], KEYS);
        assert_eq!(hud[2], "Recording: ann on depth 1, round 4 (4 to 8), x1, playing");
        assert_eq!(s.scene().page, Page::Map, "the map is drawn");
        s.tick(t0 + Duration::from_millis(250));
        let hud = hud_text(&s);
        assert_eq!(hud[0], "Depth 1   you are alone here", "the game's first row");
        assert_eq!(hud[2], "Recording: ann on depth 1, round 5 (4 to 8), x1, playing");
        assert!(hud.contains(&"You arrive.".to_owned()), "{hud:#?}");
        assert_eq!(s.on_key(Key::Char(' '), false, false, t0), KeyOutcome::Redraw);
        assert_eq!(s.tick(t0 + Duration::from_secs(9)), Tick::Idle, "paused");
        s.on_key(Key::Char('.'), true, false, t0);
        s.on_key(Key::Char('.'), false, false, t0);
        let hud = hud_text(&s);
        assert_eq!(hud[2], "Recording: ann on depth 1, round 7 (4 to 8), x2, paused");
        s.on_key(Key::Char('.'), false, false, t0);
        assert_eq!(hud_text(&s)[2], "Recording: ann on depth 1, round 8 (4 to 8), x2, ended");
        assert!(hud_text(&s).contains(&"The giant kills you.".to_owned()));
        assert_eq!(s.on_key(Key::Escape, false, false, t0), KeyOutcome::Redraw);
        assert!(!s.playing_back());
        assert_eq!(s.page(), Page::End);
        assert!(!page_text(&s).iter().any(|l| l.contains("Recording:")), "as it was");
        // Played again from the start, without asking.
        assert_eq!(s.on_key(Key::Char('r'), false, false, t0), KeyOutcome::Redraw);
        assert_eq!(s.tick(t0), Tick::Moved(Some(Duration::from_millis(250))));
        assert_eq!(hud_text(&s)[2], "Recording: ann on depth 1, round 4 (4 to 8), x1, playing");
    }

    /// A resize while the recording plays is no reason to scroll the end
    /// page under it back to its top.
    #[test]
    fn the_end_page_comes_back_scrolled_as_it_was() {
        let mut s = playing();
        s.resize(120, 12);
        s.on_net(NetEvent::Msg(ServerMsg::Died(record(3))));
        s.on_net(NetEvent::Msg(ServerMsg::Graveyard(vec![record(3); 30])));
        let now = Instant::now();
        s.on_key(Key::PageDown, false, false, now);
        let scrolled = s.scene().page_scroll;
        assert!(scrolled > 0);
        s.on_key(Key::Char('r'), false, false, now);
        answer(&mut s);
        s.resize(120, 12);
        s.on_key(Key::Escape, false, false, now);
        assert_eq!((s.page(), s.scene().page_scroll), (Page::End, scrolled));
    }

    #[test]
    fn a_recording_without_a_level_is_not_played() {
        let mut s = dead(3);
        s.on_key(Key::Char('r'), false, false, Instant::now());
        let head = ServerMsg::Recording {
            player: "ann".into(),
            you: PlayerId(1),
            depth: 1,
            from: 1,
            to: 2,
        };
        s.on_recording(msg(head));
        s.on_recording(msg(ServerMsg::RecordingEnd { cut: false }));
        assert!(!s.playing_back());
        let line = "  Recording:             the recording holds no level to show";
        assert!(page_text(&s).contains(&line.to_owned()));
    }

    /// The graveyard as the server sends it: bob (life 4) and eve (life
    /// 2, escaped), and old, whose life ended before morgue files.
    fn graves() -> Vec<DeathRecord> {
        let bob = DeathRecord { name: "bob".into(), ..record(4) };
        let old = DeathRecord { name: "old".into(), ..record(0) };
        let eve = DeathRecord { name: "eve".into(), escaped: true, ..record(2) };
        vec![bob, old, eve]
    }

    fn grave_ask(name: &str, life: u32) -> KeyOutcome {
        let ask = RecordingAsk::Grave { name: name.into(), life, rounds: LAST_ROUNDS };
        KeyOutcome::Ask(ClientMsg::Recording { version: PROTOCOL_VERSION, ask })
    }

    /// In play, `G` and the graveyard came.
    fn at_the_graveyard() -> Session {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(
            s.on_key(Key::Char('G'), false, false, now),
            KeyOutcome::Send(ClientMsg::Graveyard)
        );
        s.on_net(msg(ServerMsg::Graveyard(graves())));
        assert_eq!(s.page(), Page::Graveyard);
        s
    }

    fn last_line(s: &Session) -> String {
        page_text(s).last().cloned().unwrap()
    }

    #[test]
    fn a_graveyard_letter_asks_for_that_fall_and_other_keys_put_the_page_away() {
        let mut s = at_the_graveyard();
        let now = Instant::now();
        assert_eq!(last_line(&s), "  a-b: watch a fall    any other key: back");
        assert_eq!(s.on_key(Key::Char('c'), false, false, now), KeyOutcome::Redraw, "no grave c");
        assert_eq!(s.page(), Page::Map);
        s.on_key(Key::Char('G'), false, false, now);
        s.on_net(msg(ServerMsg::Graveyard(graves())));
        assert_eq!(s.on_key(Key::Char('b'), false, false, now), grave_ask("bob", 4));
        assert!(s.asking());
        let asking =
            "  Recording: asking the server...    a-b: watch a fall    any other key: back";
        assert_eq!(last_line(&s), asking);
        assert_eq!(s.on_key(Key::Char('a'), false, false, now), KeyOutcome::Ignore, "once");
        // Put away: the ask is given up, not played over the game later.
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Map);
        assert!(!s.asking());
        s.on_key(Key::Char('G'), false, false, now);
        s.on_net(msg(ServerMsg::Graveyard(graves())));
        assert_eq!(s.on_key(Key::Char('a'), false, false, now), grave_ask("eve", 2));
        let reason = "eve's life 2 ended before recordings were kept".to_owned();
        s.on_recording(msg(ServerMsg::Refused(Refusal::NoRecording { reason })));
        let refused = "  Recording: no recording: eve's life 2 ended before recordings were kept    a-b: watch a fall    any other key: back";
        assert_eq!(last_line(&s), refused);
        assert_eq!(s.on_key(Key::Char('a'), true, false, now), KeyOutcome::Redraw, "A: no letter");
        assert_eq!(s.page(), Page::Map);
    }

    /// While alive: the recording plays over the game, the game's keys do
    /// not reach it, the live game's messages keep coming to its own
    /// mirror, and Esc goes back to the graveyard page, then the map.
    #[test]
    fn a_fall_watched_in_play_keeps_the_game_and_esc_comes_back_to_the_graveyard() {
        let mut s = at_the_graveyard();
        let t0 = Instant::now();
        s.on_key(Key::Char('b'), false, false, t0);
        answer(&mut s);
        assert!(s.playing_back());
        s.tick(t0);
        s.tick(t0 + Duration::from_millis(250));
        assert_eq!(hud_text(&s)[2], "Recording: ann on depth 1, round 5 (4 to 8), x1, playing");
        for key in [Key::Char('h'), Key::Char('G'), Key::Enter, Key::Char('i')] {
            assert_eq!(s.on_key(key, false, false, t0), KeyOutcome::Ignore, "{key:?}");
        }
        s.on_net(msg(ServerMsg::Note("A bat flutters by.".into())));
        assert!(!hud_text(&s).contains(&"A bat flutters by.".to_owned()), "not the recording's");
        assert_eq!(s.on_key(Key::Escape, false, false, t0), KeyOutcome::Redraw);
        assert!(!s.playing_back());
        assert_eq!(s.page(), Page::Graveyard);
        assert_eq!(s.on_key(Key::Escape, false, false, t0), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Map);
        assert!(hud_text(&s).contains(&"A bat flutters by.".to_owned()), "{:#?}", hud_text(&s));
        // Kept: the same fall plays again without asking; another is asked for.
        s.on_key(Key::Char('G'), false, false, t0);
        s.on_net(msg(ServerMsg::Graveyard(graves())));
        assert_eq!(s.on_key(Key::Char('b'), false, false, t0), KeyOutcome::Redraw);
        assert!(s.playing_back());
        s.on_key(Key::Escape, false, false, t0);
        assert_eq!(s.on_key(Key::Char('a'), false, false, t0), grave_ask("eve", 2));
    }

    /// A death while the recording plays: the end page shows once it is
    /// left (the graveyard page first, as it was).
    #[test]
    fn a_death_while_watching_shows_the_end_once_back() {
        let mut s = at_the_graveyard();
        let t0 = Instant::now();
        s.on_key(Key::Char('b'), false, false, t0);
        answer(&mut s);
        s.on_net(msg(ServerMsg::Died(record(3))));
        assert!(s.playing_back());
        s.on_key(Key::Escape, false, false, t0);
        assert_eq!(s.page(), Page::Graveyard);
        s.on_key(Key::Escape, false, false, t0);
        assert_eq!(s.page(), Page::End);
    }

    #[test]
    fn after_a_death_g_shows_the_graveyard_over_the_end_page() {
        let mut s = playing();
        s.on_net(msg(ServerMsg::Died(record(3))));
        s.on_net(msg(ServerMsg::Graveyard(graves())));
        s.on_net(NetEvent::Closed {
            reason: "your character died".into(),
            ending: crate::net::Ending::Code(1000),
        });
        let t0 = Instant::now();
        assert_eq!(s.on_key(Key::Char('g'), true, false, t0), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Graveyard);
        assert_eq!(s.on_key(Key::Char('a'), false, false, t0), grave_ask("eve", 2));
        assert!(!page_text(&s).iter().any(|l| l.starts_with("  Recording:   ")));
        answer(&mut s);
        assert!(s.playing_back());
        s.tick(t0);
        assert_eq!(s.on_key(Key::Escape, false, false, t0), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Graveyard);
        assert_eq!(s.on_key(Key::Char('x'), false, false, t0), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::End);
        assert!(!page_text(&s).iter().any(|l| l.contains("Recording:")), "not the own life's");
        // `r` asks for the character's own: the one kept is eve's.
        assert_eq!(s.on_key(Key::Char('r'), false, false, t0), grave_ask("ann", 3));
        // Its ask goes on over the graveyard page, and shows on both.
        s.on_key(Key::Char('G'), false, false, t0);
        s.on_key(Key::Escape, false, false, t0);
        assert!(s.asking());
        let text = page_text(&s);
        assert!(text.contains(&"  Recording:             asking the server...".to_owned()));
    }

    #[test]
    fn a_watcher_at_the_end_has_no_graveyard_key() {
        let mut s = playing();
        s.state.watching = Some(("bob".into(), PlayerId(9)));
        s.on_net(NetEvent::Msg(ServerMsg::Died(record(3))));
        assert_eq!(s.on_key(Key::Char('G'), false, false, Instant::now()), KeyOutcome::Ignore);
        assert_eq!(s.page(), Page::End);
    }

    #[test]
    fn space_at_the_end_plays_the_recording_again_from_its_start() {
        let mut s = dead(3);
        let t0 = Instant::now();
        s.on_key(Key::Char('r'), false, false, t0);
        answer(&mut s);
        s.on_key(Key::Char('+'), false, false, t0);
        for _ in 0..4 {
            s.on_key(Key::Char('.'), false, false, t0);
        }
        let ended = "Space: play again    +/-: faster, slower    Esc: back";
        assert_eq!(hud_text(&s)[1], ended);
        assert_eq!(hud_text(&s)[2], "Recording: ann on depth 1, round 8 (4 to 8), x2, ended");
        assert_eq!(s.on_key(Key::Char(' '), false, false, t0), KeyOutcome::Redraw);
        assert_eq!(hud_text(&s)[1], KEYS);
        assert_eq!(hud_text(&s)[2], "Recording: ann on depth 1, round 4 (4 to 8), x2, playing");
        assert_eq!(hud_text(&s)[0], "Joining...", "a mirror afresh");
        assert!(!hud_text(&s).contains(&"The giant kills you.".to_owned()));
        assert_eq!(s.tick(t0), Tick::Moved(Some(Duration::from_millis(125))));
    }

    /// A lost link counts down under the player page: its tries are not
    /// held up by the playback's ticks, nor the playback by them.
    #[test]
    fn the_live_link_is_tried_again_while_a_fall_plays() {
        let mut s = at_the_graveyard();
        let t0 = Instant::now();
        s.on_key(Key::Char('b'), false, false, t0);
        answer(&mut s);
        s.on_net(NetEvent::Closed { reason: "gone".into(), ending: crate::net::Ending::Dropped });
        assert_eq!(s.tick(t0), Tick::Moved(Some(Duration::from_millis(250))), "the first group");
        let mut at = t0;
        let tried = (0..100).find(|_| {
            at += Duration::from_millis(250);
            s.tick(at) == Tick::Connect
        });
        assert!(tried.is_some(), "tried again while the recording played");
        assert!(matches!(s.scene().link, Link::Playing), "the player page's own link");
        assert_eq!(s.tick(at), Tick::Idle, "the recording ended meanwhile, the try under way");
    }

    #[test]
    fn a_watcher_is_not_offered_its_players_rounds() {
        let mut s = playing();
        s.state.watching = Some(("bob".into(), PlayerId(9)));
        s.on_net(NetEvent::Msg(ServerMsg::Died(record(3))));
        assert_eq!(s.on_key(Key::Char('r'), false, false, Instant::now()), KeyOutcome::Ignore);
    }
}

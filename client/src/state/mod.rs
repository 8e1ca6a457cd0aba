//! The client's mirror of its player's knowledge, built only from what the
//! server says: `apply` is the only way it changes. What the window does
//! with it (the line being typed, the scroll, the page shown, the names
//! muted) is the session's.
//!
//! Every message is checked whole before anything changes, against the
//! limits in `limits.rs`. Each file keeps its own part of the mirror:
//! - `map.rs`: the level as known (each cell's terrain once seen), what is
//!   in sight now and where the player stands;
//! - `in_sight.rs`: the other players and the monsters in sight, and the
//!   kinds of monster;
//! - `items.rs`: the kinds of item, the piles seen on this level and the
//!   pack;
//! - `roster.rs`: who else is on this depth, and whom the round waits for;
//! - `watching.rs`: whom this client watches, who watches its player, and
//!   who plays anywhere (`/who`);
//! - `party.rs`: the player's party, those it shares a round with;
//! - `life.rs`: the character's hit points and experience, its death or
//!   escape, and the graveyard;
//! - `log.rs`: the message log, chat included.

use std::collections::{BTreeMap, VecDeque};

use gloam_protocol::{
    BackgroundInfo, Carried, DeathRecord, Disc, ItemInfo, KindInfo, Lying, Member, MonsterId,
    PlayerId, Pos, Refusal, ServerMsg, Terrain,
};

mod in_sight;
mod items;
mod life;
pub(crate) mod limits;
mod log;
mod map;
mod party;
mod person;
pub(crate) mod reasons;
mod roster;
pub(crate) mod watching;

pub use in_sight::{OtherPlayer, SeenMonster};
pub use life::Experience;
pub use limits::{LOG_LINES, MAX_NOTE_CHARS, MAX_ROSTER};
pub use log::{LogLine, Topic};

use limits::check_size;
use map::Level;

/// A message that does not fit what the client knows: a server bug or a
/// corrupted stream, never something to draw from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    #[error("a game message arrived before the welcome")]
    NotWelcomed,
    #[error("cell ({}, {}) is off the map", .0.x, .0.y)]
    OffTheMap(Pos),
    #[error("sight index {0} is outside the sight disc")]
    OutsideDisc(u8),
    #[error("a map of {width} x {height} cells is larger than the protocol allows")]
    TooLarge { width: u16, height: u16 },
    #[error("{0}")]
    Inconsistent(&'static str),
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClientState {
    pub me: Option<PlayerId>,
    /// The pace the server applies this player's actions at.
    pub actions_per_second: u16,
    pub width: u16,
    pub height: u16,
    disc: Option<Disc>,
    /// The depth the player is on; 0 before the first level.
    pub depth: u16,
    /// Where the player stands, once its first sight arrived on this level.
    pub at: Option<Pos>,
    /// What is known of each cell of this level, row-major.
    known: Vec<Option<Terrain>>,
    /// Which cells are in sight now, row-major.
    visible: Vec<bool>,
    /// Other players in sight.
    pub others: BTreeMap<PlayerId, OtherPlayer>,
    /// The names of the other players on this depth.
    pub roster: Vec<String>,
    /// Monsters in sight.
    pub monsters: BTreeMap<MonsterId, SeenMonster>,
    /// The kinds of monster, as the server named them.
    pub kinds: Vec<KindInfo>,
    /// The kinds of item, as the server named them.
    pub item_kinds: Vec<ItemInfo>,
    /// The top of every pile the player saw on this level, by cell.
    pub floor: BTreeMap<Pos, Lying>,
    /// What the player carries, `a` first.
    pub pack: Vec<Carried>,
    /// The player's own hit points and their most, once told.
    pub hp: Option<(u16, u16)>,
    /// The player's experience, once told.
    pub experience: Option<Experience>,
    /// The player's party, itself first (empty until told).
    pub party: Vec<Member>,
    /// Whom the round waits for.
    pub waiting: Vec<String>,
    /// The message log, oldest first.
    pub log: VecDeque<LogLine>,
    /// Lines said since the session began (a repeat counts): the next line's
    /// [`LogLine::said`].
    said: u64,
    /// The first line (by `said`) that is news: the player acted since
    /// those before it were said (see `log.rs`).
    news_from: u64,
    /// `said` when the last answer to an action ended.
    last_answer: u64,
    /// Set when the server turned the handshake down.
    pub refused: Option<Refusal>,
    /// Set when the character died.
    pub death: Option<DeathRecord>,
    /// Set when the character escaped with the artifact (and won).
    pub escape: Option<DeathRecord>,
    /// The graveyard, as the server last sent it.
    pub graveyard: Option<Vec<DeathRecord>>,
    /// Set when this client watches another player rather than plays:
    /// that player's name, and the watcher's own id as its chat carries it.
    pub watching: Option<(String, PlayerId)>,
    /// Who watches the player (this one, or the one watched).
    pub watchers: Vec<String>,
    /// The name this client joined under, as its hello said (a watcher's
    /// own, not its player's): a watcher finds itself among its player's
    /// watchers by it.
    pub name: Option<String>,
    /// The world's name, as the welcome gave it (empty: none).
    pub world: String,
    /// The server said it is restarting (its close follows): a client
    /// may come back soon.
    pub restarting: bool,
    /// The backgrounds a new character may take, as the server last
    /// listed them (empty until asked for), for the first screen.
    pub backgrounds: Vec<BackgroundInfo>,
}

/// What the log says when the server says it is restarting.
pub const RESTARTING: &str = "The server is restarting.";

impl ClientState {
    pub fn new() -> Self {
        Self::default()
    }

    /// A mirror for a client that joins under `name`.
    pub fn named(name: &str) -> Self {
        Self { name: Some(name.to_owned()), ..Self::default() }
    }

    /// Updates the mirror with one message from the server. A message that
    /// does not fit (a broken or hostile server) changes nothing: every
    /// message is checked whole before anything is changed or allocated,
    /// and no message can make the mirror grow past the protocol's limits.
    pub fn apply(&mut self, msg: &ServerMsg) -> Result<(), StateError> {
        match msg {
            ServerMsg::Welcome { .. } => self.welcome(msg)?,
            ServerMsg::Backgrounds(list) => {
                if list.len() > limits::MAX_BACKGROUNDS {
                    return Err(StateError::Inconsistent(
                        reasons::LONGER_LIST_OF_BACKGROUNDS_THAN_ANY_SENT,
                    ));
                }
                self.backgrounds.clone_from(list);
            }
            ServerMsg::Restarting => {
                self.restarting = true;
                self.own_note(RESTARTING);
            }
            ServerMsg::Refused(refusal) => {
                self.refused = Some(refusal.clone());
                self.note(Topic::Note, &format!("Refused: {refusal}"));
            }
            ServerMsg::EnterLevel { depth, width, height, remembered, terrain } => {
                let (depth, width, height) = (*depth, *width, *height);
                self.enter_level(&Level { depth, width, height, remembered, terrain })?
            }
            ServerMsg::Mapped { remembered, terrain } => self.add_mapped(remembered, terrain)?,
            ServerMsg::Sight(diff) => {
                self.apply_sight(diff)?;
                self.answered();
            }
            ServerMsg::Displaced(diff) => self.apply_sight(diff)?,
            ServerMsg::Players(changes) => self.apply_players(changes)?,
            ServerMsg::Monsters(changes) => self.apply_monsters(changes)?,
            ServerMsg::Kinds(kinds) => self.name_kinds(kinds)?,
            ServerMsg::ItemKinds(kinds) => self.name_item_kinds(kinds)?,
            ServerMsg::Floor(changes) => self.apply_floor(changes)?,
            ServerMsg::Pack(pack) => self.set_pack(pack)?,
            ServerMsg::Roster(names) => self.set_roster(names)?,
            ServerMsg::Joined(names) => self.join(names)?,
            ServerMsg::Left(names) => self.leave(names),
            ServerMsg::Waiting(names) => self.wait_for(names)?,
            ServerMsg::Stopped => {}
            ServerMsg::Watching { player, you } => self.watch(player, *you)?,
            ServerMsg::Watchers(names) => self.set_watchers(names)?,
            ServerMsg::Who(playing) => self.list_players(playing)?,
            ServerMsg::Vitals { hp, max } => self.set_vitals(*hp, *max)?,
            ServerMsg::Experience { level, xp, next } => {
                self.experience = Some(Experience { level: *level, xp: *xp, next: *next })
            }
            ServerMsg::Party(members) => self.set_party(members)?,
            ServerMsg::Died(record) => self.die(record)?,
            ServerMsg::Escaped(record) => self.escape(record)?,
            ServerMsg::Graveyard(records) => self.keep_graveyard(records)?,
            ServerMsg::Note(text) => self.told(Topic::Note, text),
            ServerMsg::Combat(text) => self.told(Topic::Combat, text),
            ServerMsg::Others(text) => self.told(Topic::Others, text),
            ServerMsg::Chat { from, name, to, text } => self.hear(*from, name, to, text)?,
            // A recording's, sent only to a connection that asked for one:
            // its messages are played in a mirror of their own.
            ServerMsg::Recording { .. }
            | ServerMsg::Recorded { .. }
            | ServerMsg::RecordingEnd { .. } => {}
        }
        Ok(())
    }

    /// A fresh mirror for the welcome's player `you` on a map of `width` x
    /// `height`, seeing as far as `sight_radius`, in the world it names.
    fn welcome(&mut self, msg: &ServerMsg) -> Result<(), StateError> {
        let ServerMsg::Welcome {
            you, width, height, sight_radius, actions_per_second, world, ..
        } = msg
        else {
            return Ok(());
        };
        if *sight_radius > Disc::MAX_RADIUS {
            return Err(StateError::Inconsistent(reasons::SIGHT_RADIUS_TOO_LARGE));
        }
        check_size(*width, *height)?;
        limits::check_world_name(world)?;
        // What was live is forgotten: the map, who and what is in sight,
        // the pack, the vitals, the party, the watching, the graveyard.
        // After a connection lost and made again the server tells all of
        // it afresh, and nothing from before may be drawn as if still
        // there. The log is kept (all of it old news now), so that what
        // was said before the link was lost can still be read back, and
        // the name joined under.
        let said = self.said;
        *self = ClientState {
            me: Some(*you),
            width: *width,
            height: *height,
            disc: Some(Disc::new(*sight_radius)),
            actions_per_second: *actions_per_second,
            name: self.name.take(),
            log: std::mem::take(&mut self.log),
            said,
            news_from: said,
            last_answer: said,
            world: world.clone(),
            ..ClientState::default()
        };
        Ok(())
    }

    /// A new level: its map, and nobody known on it yet.
    fn enter_level(&mut self, level: &Level<'_>) -> Result<(), StateError> {
        self.sight_disc()?;
        self.load_level(level)?;
        self.others.clear();
        self.monsters.clear();
        self.floor.clear();
        self.roster.clear();
        self.waiting.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{PlayerChange, SightDiff};

    use super::*;

    #[test]
    fn welcome_sets_identity_and_size() {
        let s = crate::testing::welcomed(PlayerId(1), 20, 10);
        assert_eq!(s.me, Some(PlayerId(1)));
        assert_eq!((s.width, s.height), (20, 10));
    }

    #[test]
    fn the_welcome_names_the_world_and_a_name_no_host_could_give_is_refused() {
        let named = |world: &str| match crate::testing::welcome(PlayerId(1), 20, 10) {
            ServerMsg::Welcome { you, width, height, sight_radius, actions_per_second, .. } => {
                let (token, world) = (None, world.to_owned());
                ServerMsg::Welcome {
                    you,
                    width,
                    height,
                    sight_radius,
                    actions_per_second,
                    token,
                    world,
                }
            }
            _ => unreachable!("a welcome"),
        };
        let mut s = ClientState::new();
        s.apply(&named("Gloamhold")).unwrap();
        assert_eq!(s.world, "Gloamhold");
        for hostile in ["x".repeat(gloam_protocol::MAX_WORLD_NAME_CHARS + 1), "a\u{1b}[2Jb".into()]
        {
            let before = s.clone();
            let refused = s.apply(&named(&hostile));
            assert_eq!(
                refused,
                Err(StateError::Inconsistent(reasons::WORLD_NAME_THE_SERVER_WOULD_NEVER_ALLOW))
            );
            assert_eq!(s, before, "a refused welcome changes nothing");
        }
    }

    #[test]
    fn the_server_restarting_is_kept_and_said_until_a_new_welcome() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        assert!(!s.restarting);
        s.apply(&ServerMsg::Restarting).unwrap();
        assert!(s.restarting);
        assert_eq!(s.log.back().map(|l| l.text.as_str()), Some(RESTARTING));
        s.apply(&crate::testing::welcome(PlayerId(1), 20, 10)).unwrap();
        assert!(!s.restarting, "a new connection's welcome starts afresh");
    }

    #[test]
    fn a_game_message_before_the_welcome_is_an_error() {
        let mut s = ClientState::new();
        let sight = ServerMsg::Sight(SightDiff::default());
        assert_eq!(s.apply(&sight), Err(StateError::NotWelcomed));
    }

    #[test]
    fn entering_a_level_forgets_the_players_of_the_last() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Players(vec![PlayerChange::Appeared {
            id: PlayerId(2),
            name: "bob".into(),
            at: Pos::new(3, 3),
        }]))
        .unwrap();
        s.apply(&ServerMsg::Roster(vec!["bob".into()])).unwrap();
        s.apply(&ServerMsg::Waiting(vec!["bob".into()])).unwrap();
        s.apply(&crate::testing::enter_level(2, 20, 10)).unwrap();
        assert!(s.others.is_empty() && s.roster.is_empty() && s.waiting.is_empty());
        assert_eq!(s.depth, 2);
    }
}

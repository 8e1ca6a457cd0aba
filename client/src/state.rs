//! The client's mirror of its player's knowledge: the remembered map of the
//! current level, what is in sight now, the other players in sight, and the
//! message log. `apply` is the only way it changes; what the window does
//! with it (the line being typed, the scroll, the page shown, the names
//! muted) is the session's.

use std::collections::{BTreeMap, VecDeque};

use gloam_protocol::{
    CellSet, ChatTo, DeathRecord, Disc, KindInfo, MAX_CHAT_CHARS, MAX_MAP_HEIGHT, MAX_MAP_WIDTH,
    MAX_NAME_CHARS, MonsterChange, MonsterId, PlayerChange, PlayerId, Pos, Refusal, ServerMsg,
    SightDiff, Terrain, Wound,
};

/// How many lines of the message log are kept.
pub const LOG_LINES: usize = 200;

/// The longest line of the log kept, in characters; longer ones are cut.
pub const MAX_NOTE_CHARS: usize = 500;

/// The most players a client keeps on its roster or in sight: far more
/// than a server lets onto one depth, so only a broken or hostile server
/// ever reaches it.
pub const MAX_ROSTER: usize = 4096;

/// The most kinds of monster a client keeps.
pub const MAX_KINDS: usize = 1024;

/// The longest monster name (or cause of death) a client keeps, in characters.
pub const MAX_KIND_NAME_CHARS: usize = 40;

/// The most graveyard records a client keeps.
pub const MAX_GRAVEYARD: usize = 2000;

/// A map a client will hold: not empty, and no larger than the protocol allows.
fn check_size(width: u16, height: u16) -> Result<(), StateError> {
    if width == 0 || height == 0 {
        return Err(StateError::Inconsistent("a map with no cells"));
    }
    if width > MAX_MAP_WIDTH || height > MAX_MAP_HEIGHT {
        return Err(StateError::TooLarge { width, height });
    }
    Ok(())
}

/// A player's name as the server allows them.
fn check_name(name: &str) -> Result<(), StateError> {
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(StateError::Inconsistent("a player name the server would never allow"));
    }
    Ok(())
}

/// A monster in sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeenMonster {
    /// Its place in [`ClientState::kinds`].
    pub kind: u16,
    pub at: Pos,
    pub wound: Wound,
}

/// What a line of the message log is about, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// The server and the level.
    Note,
    /// A fight.
    Combat,
    /// What another player did.
    Others,
    /// A line of chat.
    Chat,
}

/// One line of the message log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub topic: Topic,
    pub text: String,
    /// In a line of chat, who spoke and where its name stands in `text`
    /// (first character and length), to draw it in that player's colour.
    pub speaker: Option<(PlayerId, usize, usize)>,
}

impl std::ops::Deref for LogLine {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for LogLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq<str> for LogLine {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

/// One change to who is in sight, as [`ClientState::check_steps`] sees it.
#[derive(Debug, Clone, Copy)]
enum Step {
    Appears(Pos),
    Moves(Pos),
    Stays,
    Vanishes,
}

/// Text a server may send: some, and no longer than `most` characters.
fn check_text(text: &str, most: usize) -> Result<(), StateError> {
    if text.is_empty() || text.chars().count() > most {
        return Err(StateError::Inconsistent("a name empty or longer than the protocol allows"));
    }
    Ok(())
}

/// A graveyard record a server could have kept.
fn check_record(record: &DeathRecord) -> Result<(), StateError> {
    check_name(&record.name)?;
    check_text(&record.killed_by, MAX_KIND_NAME_CHARS)
}

/// Another player, as last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherPlayer {
    pub name: String,
    pub at: Pos,
}

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
    /// The player's own hit points and their most, once told.
    pub hp: Option<(u16, u16)>,
    /// Whom the round waits for.
    pub waiting: Vec<String>,
    /// The message log, oldest first.
    pub log: VecDeque<LogLine>,
    /// Set when the server turned the handshake down.
    pub refused: Option<Refusal>,
    /// Set when the character died.
    pub death: Option<DeathRecord>,
    /// The graveyard, as last sent.
    pub graveyard: Option<Vec<DeathRecord>>,
    /// Set when this client watches another player rather than plays:
    /// that player's name, and the watcher's own id as its chat carries it.
    pub watching: Option<(String, PlayerId)>,
    /// Who watches the player (this one, or the one watched).
    pub watchers: Vec<String>,
}

/// The widest line of the `/who` list, in characters (a HUD row of the
/// default window holds 80).
const WHO_LINE_CHARS: usize = 78;

/// The most watchers a client keeps in its list: far more than a server
/// seats, so only a broken or hostile server reaches it.
pub const MAX_WATCHERS: usize = 256;

impl ClientState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Updates the mirror with one message from the server. A message that
    /// does not fit (a broken or hostile server) changes nothing: every
    /// message is checked whole before anything is changed or allocated,
    /// and no message can make the mirror grow past the protocol's limits.
    pub fn apply(&mut self, msg: &ServerMsg) -> Result<(), StateError> {
        match msg {
            ServerMsg::Welcome { you, width, height, sight_radius, actions_per_second, .. } => {
                if *sight_radius > Disc::MAX_RADIUS {
                    return Err(StateError::Inconsistent("sight radius too large"));
                }
                check_size(*width, *height)?;
                *self = ClientState {
                    me: Some(*you),
                    width: *width,
                    height: *height,
                    disc: Some(Disc::new(*sight_radius)),
                    actions_per_second: *actions_per_second,
                    ..ClientState::default()
                };
            }
            ServerMsg::Refused(refusal) => {
                self.refused = Some(refusal.clone());
                self.note(Topic::Note, &format!("Refused: {refusal}"));
            }
            ServerMsg::EnterLevel { depth, width, height, remembered, terrain } => {
                self.welcomed()?;
                self.enter(*depth, *width, *height, remembered, terrain)?;
            }
            ServerMsg::Sight(diff) | ServerMsg::Displaced(diff) => self.apply_sight(diff)?,
            ServerMsg::Players(changes) => {
                self.welcomed()?;
                self.check_players(changes)?;
                changes.iter().for_each(|c| self.apply_player(c));
            }
            ServerMsg::Roster(_) | ServerMsg::Joined(_) | ServerMsg::Left(_) => {
                self.apply_roster(msg)?
            }
            ServerMsg::Note(text) => self.note(Topic::Note, text),
            ServerMsg::Combat(text) => self.note(Topic::Combat, text),
            ServerMsg::Others(text) => self.note(Topic::Others, text),
            ServerMsg::Chat { from, name, to, text } => self.hear(*from, name, to, text)?,
            ServerMsg::Monsters(changes) => {
                self.welcomed()?;
                self.check_monsters(changes)?;
                changes.iter().for_each(|c| self.apply_monster(c));
            }
            ServerMsg::Watching { .. } | ServerMsg::Watchers(_) | ServerMsg::Who(_) => {
                self.apply_watch(msg)?
            }
            _ => self.apply_fight(msg)?,
        }
        Ok(())
    }

    /// Who else is on this depth: the roster, an arrival, a departure.
    fn apply_roster(&mut self, msg: &ServerMsg) -> Result<(), StateError> {
        match msg {
            ServerMsg::Roster(names) => {
                if names.len() > MAX_ROSTER {
                    return Err(StateError::Inconsistent("a roster longer than any depth holds"));
                }
                names.iter().try_for_each(|n| check_name(n))?;
                self.roster = names.clone();
                self.roster.sort();
                self.roster.dedup();
            }
            // A crowd's comings and goings come hundreds to a message: the
            // sorted roster is merged with them in one pass, not shifted
            // along for each name.
            ServerMsg::Joined(names) => {
                names.iter().try_for_each(|n| check_name(n))?;
                let mut came: Vec<&String> =
                    names.iter().filter(|n| self.roster.binary_search(n).is_err()).collect();
                came.sort_unstable();
                came.dedup();
                if self.roster.len() + came.len() > MAX_ROSTER {
                    return Err(StateError::Inconsistent("more arrivals than any depth holds"));
                }
                self.roster.extend(came.into_iter().cloned());
                // Two sorted runs: the sort merges them.
                self.roster.sort();
            }
            ServerMsg::Left(names) => {
                let mut went: Vec<&String> = names.iter().collect();
                went.sort_unstable();
                let mut went = went.into_iter().peekable();
                self.roster.retain(|name| {
                    while went.next_if(|gone| *gone < name).is_some() {}
                    went.next_if(|gone| *gone == name).is_none()
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// Whom this client watches, and who watches: a watcher coming or
    /// going is a line of the log.
    fn apply_watch(&mut self, msg: &ServerMsg) -> Result<(), StateError> {
        self.welcomed()?;
        match msg {
            ServerMsg::Watching { player, you } => {
                check_name(player)?;
                self.note(Topic::Note, &format!("You are watching {player}."));
                self.watching = Some((player.clone(), *you));
            }
            ServerMsg::Watchers(names) => {
                if names.len() > MAX_WATCHERS {
                    return Err(StateError::Inconsistent("more watchers than a client keeps"));
                }
                names.iter().try_for_each(|n| check_name(n))?;
                let whom = match &self.watching {
                    Some((player, _)) => player.clone(),
                    None => "you".to_owned(),
                };
                let came: Vec<String> =
                    names.iter().filter(|n| !self.watchers.contains(n)).cloned().collect();
                let went: Vec<String> =
                    self.watchers.iter().filter(|n| !names.contains(n)).cloned().collect();
                for name in came {
                    self.note(Topic::Others, &format!("{name} is watching {whom}."));
                }
                for name in went {
                    self.note(Topic::Others, &format!("{name} stopped watching {whom}."));
                }
                self.watchers = names.clone();
            }
            ServerMsg::Who(playing) => {
                if playing.len() > gloam_protocol::MAX_WHO {
                    return Err(StateError::Inconsistent("a longer list of players than any sent"));
                }
                playing.iter().try_for_each(|p| check_name(&p.name))?;
                self.list_players(playing);
            }
            _ => {}
        }
        Ok(())
    }

    /// The kinds of monster, hit points, whom the round waits for, a death
    /// and the graveyard.
    fn apply_fight(&mut self, msg: &ServerMsg) -> Result<(), StateError> {
        match msg {
            ServerMsg::Kinds(kinds) => {
                if kinds.len() > MAX_KINDS {
                    return Err(StateError::Inconsistent(
                        "more kinds of monster than a client keeps",
                    ));
                }
                for kind in kinds {
                    check_text(&kind.name, MAX_KIND_NAME_CHARS)?;
                    if kind.glyph.is_control() {
                        return Err(StateError::Inconsistent(
                            "a monster drawn as a control character",
                        ));
                    }
                }
                if self.monsters.values().any(|m| usize::from(m.kind) >= kinds.len()) {
                    return Err(StateError::Inconsistent("a monster in sight lost its kind"));
                }
                self.kinds = kinds.clone();
            }
            ServerMsg::Vitals { hp, max } => {
                if *max == 0 || hp > max {
                    return Err(StateError::Inconsistent("hit points over their most"));
                }
                self.hp = Some((*hp, *max));
            }
            ServerMsg::Waiting(names) => {
                if names.len() > MAX_ROSTER {
                    return Err(StateError::Inconsistent("waiting for more than any depth holds"));
                }
                names.iter().try_for_each(|n| check_name(n))?;
                self.waiting = names.clone();
            }
            ServerMsg::Died(record) => {
                check_record(record)?;
                self.death = Some(record.clone());
                self.hp = Some((0, self.hp.map_or(1, |(_, max)| max)));
                self.waiting.clear();
            }
            ServerMsg::Graveyard(records) => {
                if records.len() > MAX_GRAVEYARD {
                    return Err(StateError::Inconsistent("a graveyard longer than a client keeps"));
                }
                records.iter().try_for_each(check_record)?;
                self.graveyard = Some(records.clone());
            }
            _ => {}
        }
        Ok(())
    }

    /// The kind of a monster in sight.
    pub fn kind_of(&self, monster: &SeenMonster) -> Option<&KindInfo> {
        self.kinds.get(usize::from(monster.kind))
    }

    fn welcomed(&self) -> Result<&Disc, StateError> {
        self.disc.as_ref().ok_or(StateError::NotWelcomed)
    }

    fn enter(
        &mut self,
        depth: u16,
        width: u16,
        height: u16,
        remembered: &[u8],
        terrain: &[Terrain],
    ) -> Result<(), StateError> {
        check_size(width, height)?;
        let cells = usize::from(width) * usize::from(height);
        if remembered.len() > cells.div_ceil(8) {
            return Err(StateError::Inconsistent("remembered bitset longer than the map"));
        }
        let remembered = CellSet::from_bytes(remembered);
        if remembered.iter().any(|i| i >= cells) {
            return Err(StateError::Inconsistent("remembered cell off the map"));
        }
        if remembered.iter().count() != terrain.len() {
            return Err(StateError::Inconsistent("not one terrain entry per remembered cell"));
        }
        self.depth = depth;
        self.width = width;
        self.height = height;
        self.at = None;
        self.others.clear();
        self.monsters.clear();
        self.roster.clear();
        self.waiting.clear();
        self.known = vec![None; cells];
        self.visible = vec![false; cells];
        for (i, &t) in remembered.iter().zip(terrain) {
            self.known[i] = Some(t);
        }
        Ok(())
    }

    /// The map index of the cell `index` names in the sight disc around `centre`.
    fn disc_cell(&self, disc: &Disc, centre: Pos, index: u8) -> Result<usize, StateError> {
        let (dx, dy) = disc.offset(index).ok_or(StateError::OutsideDisc(index))?;
        let pos = centre.offset(dx, dy).ok_or(StateError::OutsideDisc(index))?;
        self.index(pos).ok_or(StateError::OffTheMap(pos))
    }

    fn apply_sight(&mut self, diff: &SightDiff) -> Result<(), StateError> {
        let disc = self.welcomed()?;
        self.index(diff.at).ok_or(StateError::OffTheMap(diff.at))?;
        let hidden: Vec<usize> = match self.at {
            Some(before) => diff.hidden.iter().map(|&i| self.disc_cell(disc, before, i)).collect(),
            None if diff.hidden.is_empty() => Ok(Vec::new()),
            None => Err(StateError::Inconsistent("cells hidden before any sight")),
        }?;
        let shown: Vec<usize> = diff
            .shown
            .iter()
            .map(|&i| self.disc_cell(disc, diff.at, i))
            .collect::<Result<_, _>>()?;
        if shown.iter().any(|&c| self.known[c].is_none()) {
            return Err(StateError::Inconsistent("a cell shown again was never revealed"));
        }
        let revealed: Vec<(usize, Terrain)> = diff
            .revealed
            .iter()
            .map(|&(i, t)| Ok((self.disc_cell(disc, diff.at, i)?, t)))
            .collect::<Result<_, StateError>>()?;
        self.check_players(&diff.players)?;
        self.check_monsters(&diff.monsters)?;
        // Checked whole: from here on nothing fails.
        hidden.into_iter().for_each(|c| self.visible[c] = false);
        shown.into_iter().for_each(|c| self.visible[c] = true);
        for (c, t) in revealed {
            self.known[c] = Some(t);
            self.visible[c] = true;
        }
        self.at = Some(diff.at);
        diff.players.iter().for_each(|c| self.apply_player(c));
        diff.monsters.iter().for_each(|c| self.apply_monster(c));
        Ok(())
    }

    /// Checks that `changes` fit the players in sight, in order, without
    /// changing anything.
    fn check_players(&self, changes: &[PlayerChange]) -> Result<(), StateError> {
        let steps = changes.iter().map(|change| match change {
            PlayerChange::Appeared { id, name, at } => {
                check_name(name)?;
                Ok((*id, Step::Appears(*at)))
            }
            PlayerChange::Moved { id, at } => Ok((*id, Step::Moves(*at))),
            PlayerChange::Vanished { id } => Ok((*id, Step::Vanishes)),
        });
        self.check_steps(steps, |id| self.others.contains_key(id), self.others.len())
    }

    /// Checks that `changes` fit the monsters in sight, in order, without
    /// changing anything.
    fn check_monsters(&self, changes: &[MonsterChange]) -> Result<(), StateError> {
        let steps = changes.iter().map(|change| match change {
            MonsterChange::Appeared { id, kind, at, .. } => {
                if usize::from(*kind) >= self.kinds.len() {
                    return Err(StateError::Inconsistent("a monster of a kind never named"));
                }
                Ok((*id, Step::Appears(*at)))
            }
            MonsterChange::Moved { id, at } => Ok((*id, Step::Moves(*at))),
            MonsterChange::Hurt { id, .. } => Ok((*id, Step::Stays)),
            MonsterChange::Vanished { id } => Ok((*id, Step::Vanishes)),
        });
        self.check_steps(steps, |id| self.monsters.contains_key(id), self.monsters.len())
    }

    /// Checks a run of changes to who is in sight: every place on the map,
    /// nothing moving, hurt or vanishing that is not in sight, and never
    /// more in sight than any depth holds.
    ///
    /// Each one's changes are followed in the message's order by sorting
    /// them by who and where in the message (a crowd's messages carry
    /// hundreds, and this runs for every one of them).
    fn check_steps<Id: Ord + Copy>(
        &self,
        steps: impl Iterator<Item = Result<(Id, Step), StateError>>,
        in_sight: impl Fn(&Id) -> bool,
        count: usize,
    ) -> Result<(), StateError> {
        let steps: Vec<(Id, Step)> = steps.collect::<Result<_, _>>()?;
        for (_, step) in &steps {
            if let Step::Appears(at) | Step::Moves(at) = *step {
                self.index(at).ok_or(StateError::OffTheMap(at))?;
            }
        }
        let mut by_who: Vec<(Id, usize)> =
            steps.iter().enumerate().map(|(i, s)| (s.0, i)).collect();
        by_who.sort_unstable();
        // How each change moves the count of those in sight.
        let mut counted = vec![0isize; steps.len()];
        let mut last: Option<(Id, bool)> = None;
        for (id, i) in by_who {
            let before = match last {
                Some((seen, after)) if seen == id => after,
                _ => in_sight(&id),
            };
            let after = !matches!(steps[i].1, Step::Vanishes);
            if !before && !matches!(steps[i].1, Step::Appears(_)) {
                return Err(StateError::Inconsistent("a change to something not in sight"));
            }
            counted[i] = isize::from(after) - isize::from(before);
            last = Some((id, after));
        }
        let mut count = count as isize;
        for change in counted {
            count += change;
            if count > MAX_ROSTER as isize {
                return Err(StateError::Inconsistent("more in sight than any depth holds"));
            }
        }
        Ok(())
    }

    /// Applies one change that [`check_players`](Self::check_players) passed.
    fn apply_player(&mut self, change: &PlayerChange) {
        match change {
            PlayerChange::Appeared { id, name, at } => {
                self.others.insert(*id, OtherPlayer { name: name.clone(), at: *at });
            }
            PlayerChange::Moved { id, at } => {
                if let Some(other) = self.others.get_mut(id) {
                    other.at = *at;
                }
            }
            PlayerChange::Vanished { id } => {
                self.others.remove(id);
            }
        }
    }

    /// Applies one change that [`check_monsters`](Self::check_monsters) passed.
    fn apply_monster(&mut self, change: &MonsterChange) {
        match *change {
            MonsterChange::Appeared { id, kind, at, wound } => {
                self.monsters.insert(id, SeenMonster { kind, at, wound });
            }
            MonsterChange::Moved { id, at } => {
                if let Some(m) = self.monsters.get_mut(&id) {
                    m.at = at;
                }
            }
            MonsterChange::Hurt { id, wound } => {
                if let Some(m) = self.monsters.get_mut(&id) {
                    m.wound = wound;
                }
            }
            MonsterChange::Vanished { id } => {
                self.monsters.remove(&id);
            }
        }
    }

    /// The answer to `/who`: everyone playing, as lines of the log no
    /// wider than a HUD row, each name with how many watch it or that it
    /// cannot be watched.
    fn list_players(&mut self, playing: &[gloam_protocol::Playing]) {
        let entries = playing.iter().map(|p| match (p.watchable, p.watchers) {
            (false, _) => format!("{} (not to be watched)", p.name),
            (true, 0) => p.name.clone(),
            (true, n) => format!("{} ({n} watching)", p.name),
        });
        let mut line = format!("Playing now ({}), watch with --watch NAME:", playing.len());
        for entry in entries {
            if line.chars().count() + entry.chars().count() + 1 > WHO_LINE_CHARS {
                self.note(Topic::Note, &std::mem::take(&mut line));
                line.push(' ');
            }
            line.push(' ');
            line.push_str(&entry);
        }
        self.note(Topic::Note, &line);
    }

    /// True when `id` is who this client speaks as: its player, or for a
    /// watcher, the watcher itself.
    pub fn is_me(&self, id: PlayerId) -> bool {
        match &self.watching {
            Some((_, you)) => *you == id,
            None => self.me == Some(id),
        }
    }

    fn note(&mut self, topic: Topic, text: &str) {
        let text = text.chars().take(MAX_NOTE_CHARS).collect();
        self.log_line(LogLine { topic, text, speaker: None });
    }

    fn log_line(&mut self, line: LogLine) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Checks a line of chat as [`apply`](Self::apply) would, without
    /// keeping it: the session checks a muted speaker's lines so.
    pub fn check_chat(&self, name: &str, to: &ChatTo, text: &str) -> Result<(), StateError> {
        self.welcomed()?;
        check_name(name)?;
        if let ChatTo::Player(other) = to {
            check_name(other)?;
        }
        if text.chars().count() > MAX_CHAT_CHARS || text.chars().any(char::is_control) {
            return Err(StateError::Inconsistent("a line of chat no server sends"));
        }
        Ok(())
    }

    /// A line of chat: "bob: ...", "bob shouts: ...", "bob whispers: ...",
    /// or "You whisper to bob: ..." for this player's own whisper.
    fn hear(
        &mut self,
        from: PlayerId,
        name: &str,
        to: &ChatTo,
        text: &str,
    ) -> Result<(), StateError> {
        self.check_chat(name, to, text)?;
        // A watcher's own lines carry its own id, not its player's.
        let mine = self.is_me(from);
        let (text, speaker) = match to {
            ChatTo::Player(other) if mine => (format!("You whisper to {other}: {text}"), None),
            ChatTo::Player(_) => (format!("{name} whispers: {text}"), Some(from)),
            ChatTo::Everyone => (format!("{name} shouts: {text}"), Some(from)),
            ChatTo::Depth => (format!("{name}: {text}"), Some(from)),
        };
        let speaker = speaker.map(|id| (id, 0, name.chars().count()));
        self.log_line(LogLine { topic: Topic::Chat, text, speaker });
        Ok(())
    }

    fn index(&self, pos: Pos) -> Option<usize> {
        (pos.x < self.width && pos.y < self.height && !self.known.is_empty())
            .then(|| usize::from(pos.y) * usize::from(self.width) + usize::from(pos.x))
    }

    /// What the player knows of a cell: `None` when never seen.
    pub fn terrain(&self, pos: Pos) -> Option<Terrain> {
        self.index(pos).and_then(|i| self.known[i])
    }

    /// True when the cell is in sight now.
    pub fn is_visible(&self, pos: Pos) -> bool {
        self.index(pos).is_some_and(|i| self.visible[i])
    }

    /// Every known cell with its terrain, row by row.
    pub fn known_cells(&self) -> impl Iterator<Item = (Pos, Terrain)> + '_ {
        let w = usize::from(self.width.max(1));
        self.known
            .iter()
            .enumerate()
            .filter_map(move |(i, t)| t.map(|t| (Pos::new((i % w) as u16, (i / w) as u16), t)))
    }

    /// Every cell in sight now.
    pub fn visible_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        let w = usize::from(self.width.max(1));
        self.visible
            .iter()
            .enumerate()
            .filter(|(_, v)| **v)
            .map(move |(i, _)| Pos::new((i % w) as u16, (i / w) as u16))
    }

    /// The first known cell of `terrain`, row by row (the down staircase,
    /// once seen).
    pub fn find(&self, terrain: Terrain) -> Option<Pos> {
        // A plain scan of the map (a crowd's bots ask on every action).
        let i = self.known.iter().position(|&t| t == Some(terrain))?;
        let w = usize::from(self.width.max(1));
        Some(Pos::new((i % w) as u16, (i / w) as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn welcomed() -> ClientState {
        crate::testing::welcomed(PlayerId(1), 20, 10)
    }

    fn enter(s: &mut ClientState, remembered: Vec<u8>, terrain: Vec<Terrain>) {
        s.apply(&ServerMsg::EnterLevel { depth: 1, width: 20, height: 10, remembered, terrain })
            .unwrap();
    }

    fn idx(dx: i32, dy: i32) -> u8 {
        Disc::new(8).index(dx, dy).unwrap()
    }

    #[test]
    fn welcome_sets_identity_and_size() {
        let s = welcomed();
        assert_eq!(s.me, Some(PlayerId(1)));
        assert_eq!((s.width, s.height), (20, 10));
    }

    #[test]
    fn a_game_message_before_the_welcome_is_an_error() {
        let mut s = ClientState::new();
        let sight = ServerMsg::Sight(SightDiff::default());
        assert_eq!(s.apply(&sight), Err(StateError::NotWelcomed));
    }

    #[test]
    fn entering_a_level_restores_what_was_remembered() {
        let mut s = welcomed();
        // Cells 0 and 2 of the first row.
        enter(&mut s, vec![0b101], vec![Terrain::Wall, Terrain::Floor]);
        assert_eq!(s.terrain(Pos::new(0, 0)), Some(Terrain::Wall));
        assert_eq!(s.terrain(Pos::new(1, 0)), None);
        assert_eq!(s.terrain(Pos::new(2, 0)), Some(Terrain::Floor));
        assert_eq!(s.visible_cells().count(), 0);
    }

    #[test]
    fn a_bitset_and_terrain_list_that_disagree_are_refused() {
        let mut s = welcomed();
        let msg = ServerMsg::EnterLevel {
            depth: 1,
            width: 20,
            height: 10,
            remembered: vec![0b11],
            terrain: vec![Terrain::Wall],
        };
        assert!(s.apply(&msg).is_err());
    }

    #[test]
    fn sight_reveals_shows_and_hides_relative_to_the_right_centre() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let first = SightDiff {
            at: Pos::new(5, 5),
            revealed: vec![(idx(0, 0), Terrain::Floor), (idx(1, 0), Terrain::StairsDown)],
            ..SightDiff::default()
        };
        s.apply(&ServerMsg::Sight(first)).unwrap();
        assert_eq!(s.at, Some(Pos::new(5, 5)));
        assert!(s.is_visible(Pos::new(6, 5)));
        assert_eq!(s.find(Terrain::StairsDown), Some(Pos::new(6, 5)));
        // Step east: (5, 5) leaves sight, named from the old centre; (6, 5) stays.
        let second = SightDiff {
            at: Pos::new(6, 5),
            hidden: vec![idx(0, 0)],
            revealed: vec![(idx(1, 0), Terrain::Wall)],
            ..SightDiff::default()
        };
        s.apply(&ServerMsg::Sight(second)).unwrap();
        assert!(!s.is_visible(Pos::new(5, 5)));
        assert_eq!(s.terrain(Pos::new(5, 5)), Some(Terrain::Floor), "remembered");
        assert!(s.is_visible(Pos::new(7, 5)));
        // Step back: (5, 5) is shown again without its terrain.
        let third =
            SightDiff { at: Pos::new(5, 5), shown: vec![idx(0, 0)], ..SightDiff::default() };
        s.apply(&ServerMsg::Displaced(third)).unwrap();
        assert!(s.is_visible(Pos::new(5, 5)));
    }

    #[test]
    fn showing_a_cell_never_revealed_is_an_error() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let diff = SightDiff { at: Pos::new(5, 5), shown: vec![idx(0, 0)], ..SightDiff::default() };
        assert!(s.apply(&ServerMsg::Sight(diff)).is_err());
    }

    #[test]
    fn indices_off_the_map_are_errors() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let diff = SightDiff {
            at: Pos::new(0, 0),
            revealed: vec![(idx(-1, 0), Terrain::Wall)],
            ..SightDiff::default()
        };
        assert!(s.apply(&ServerMsg::Sight(diff)).is_err());
        let far = SightDiff { at: Pos::new(50, 0), ..SightDiff::default() };
        assert_eq!(s.apply(&ServerMsg::Sight(far)), Err(StateError::OffTheMap(Pos::new(50, 0))));
    }

    #[test]
    fn players_appear_move_and_vanish() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let bob = PlayerId(2);
        s.apply(&ServerMsg::Players(vec![PlayerChange::Appeared {
            id: bob,
            name: "bob".into(),
            at: Pos::new(3, 3),
        }]))
        .unwrap();
        s.apply(&ServerMsg::Players(vec![PlayerChange::Moved { id: bob, at: Pos::new(4, 3) }]))
            .unwrap();
        assert_eq!(s.others[&bob], OtherPlayer { name: "bob".into(), at: Pos::new(4, 3) });
        s.apply(&ServerMsg::Players(vec![PlayerChange::Vanished { id: bob }])).unwrap();
        assert!(s.others.is_empty());
        let again = ServerMsg::Players(vec![PlayerChange::Vanished { id: bob }]);
        assert!(s.apply(&again).is_err());
    }

    #[test]
    fn entering_a_level_forgets_the_players_of_the_last() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        s.apply(&ServerMsg::Players(vec![PlayerChange::Appeared {
            id: PlayerId(2),
            name: "bob".into(),
            at: Pos::new(3, 3),
        }]))
        .unwrap();
        s.apply(&ServerMsg::Roster(vec!["bob".into()])).unwrap();
        enter(&mut s, vec![], vec![]);
        assert!(s.others.is_empty() && s.roster.is_empty());
    }

    #[test]
    fn the_roster_follows_arrivals_and_departures_in_order() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        s.apply(&ServerMsg::Roster(vec!["cat".into(), "ann".into()])).unwrap();
        s.apply(&ServerMsg::Joined(vec!["bob".into()])).unwrap();
        assert_eq!(s.roster, ["ann", "bob", "cat"]);
        s.apply(&ServerMsg::Joined(vec!["eve".into(), "dan".into(), "bob".into()])).unwrap();
        assert_eq!(s.roster, ["ann", "bob", "cat", "dan", "eve"]);
        s.apply(&ServerMsg::Left(vec!["ann".into()])).unwrap();
        s.apply(&ServerMsg::Left(vec!["zed".into(), "dan".into(), "eve".into()])).unwrap();
        assert_eq!(s.roster, ["bob", "cat"]);
    }

    /// The rule `check_steps` keeps, followed change by change.
    fn steps_fit_one_by_one(
        steps: &[(u8, Step)],
        in_sight: impl Fn(&u8) -> bool,
        mut count: usize,
        on_map: impl Fn(Pos) -> bool,
    ) -> bool {
        let mut now: BTreeMap<u8, bool> = BTreeMap::new();
        for &(id, step) in steps {
            if let Step::Appears(at) | Step::Moves(at) = step
                && !on_map(at)
            {
                return false;
            }
            let before = now.get(&id).copied().unwrap_or_else(|| in_sight(&id));
            let after = !matches!(step, Step::Vanishes);
            if !before && !matches!(step, Step::Appears(_)) {
                return false;
            }
            count = count + usize::from(after && !before) - usize::from(before && !after);
            if count > MAX_ROSTER {
                return false;
            }
            now.insert(id, after);
        }
        true
    }

    fn step() -> impl proptest::strategy::Strategy<Value = Step> {
        use proptest::prelude::*;
        // On the 20 x 10 map, now and then off it.
        let at = prop_oneof![
            19 => (0u16..20, 0u16..10).prop_map(|(x, y)| Pos::new(x, y)),
            1 => Just(Pos::new(20, 3)),
        ];
        prop_oneof![
            at.clone().prop_map(Step::Appears),
            at.prop_map(Step::Moves),
            Just(Step::Stays),
            Just(Step::Vanishes),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]
        #[test]
        fn a_run_of_changes_is_judged_as_one_by_one(
            steps in proptest::collection::vec((0u8..4, step()), 0..16),
            seen in proptest::collection::vec(proptest::prelude::any::<bool>(), 4),
            below_the_most in 0..6usize,
        ) {
            let s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
            let in_sight = |id: &u8| seen[usize::from(*id)];
            let count = MAX_ROSTER - below_the_most;
            let on_map = |p: Pos| s.index(p).is_some();
            let sorted = s.check_steps(steps.iter().map(|&s| Ok(s)), in_sight, count);
            proptest::prop_assert_eq!(
                sorted.is_ok(),
                steps_fit_one_by_one(&steps, in_sight, count, on_map),
                "{:?}", sorted
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn the_roster_is_everyone_who_came_and_has_not_left(
            news in proptest::collection::vec(
                (proptest::prelude::any::<bool>(), proptest::collection::vec("[a-e]{1,2}", 0..8)),
                0..12,
            )
        ) {
            let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
            let mut here = std::collections::BTreeSet::new();
            for (came, names) in news {
                if came {
                    here.extend(names.iter().cloned());
                    s.apply(&ServerMsg::Joined(names)).unwrap();
                } else {
                    names.iter().for_each(|n| { here.remove(n); });
                    s.apply(&ServerMsg::Left(names)).unwrap();
                }
                proptest::prop_assert!(s.roster.iter().eq(here.iter()), "{:?} {:?}", s.roster, here);
            }
        }
    }

    #[test]
    fn notes_and_refusals_go_to_the_log() {
        let mut s = ClientState::new();
        s.apply(&ServerMsg::Refused(Refusal::NameTaken)).unwrap();
        assert_eq!(s.refused, Some(Refusal::NameTaken));
        s.apply(&ServerMsg::Note("hello".into())).unwrap();
        assert_eq!(s.log.back().map(|l| &l.text[..]), Some("hello"));
        for i in 0..(LOG_LINES + 5) {
            s.apply(&ServerMsg::Note(i.to_string())).unwrap();
        }
        assert_eq!(s.log.len(), LOG_LINES);
    }
}

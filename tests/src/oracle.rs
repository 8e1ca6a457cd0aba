//! The truth a simulated client is checked against: levels rebuilt from the
//! world seed, and sight recomputed by a second, independent implementation
//! of symmetric shadowcasting (exact fractions and recursion, written
//! straight from Albert Ford's description rather than the server's integer
//! version).

use std::collections::{BTreeMap, HashMap, HashSet};

use gloam_client::ClientState;
use gloam_protocol::{Lying, MonsterId, Pos, ServerMsg};

use crate::history::Glimpse;
use gloam_server::bestiary::{Bestiary, KindId};
use gloam_server::config::Placement;
use gloam_server::items::Catalogue;
use gloam_server::level::Level;
use gloam_server::mapgen::populate::populate;
use gloam_server::mapgen::{self, GeneratorSetting};

/// A fraction with a positive denominator.
#[derive(Debug, Clone, Copy)]
struct Frac {
    n: i64,
    d: i64,
}

impl Frac {
    fn new(n: i64, d: i64) -> Self {
        Self { n, d }
    }
    /// `k · self` compared with an integer `c`: the sign of k·n/d − c.
    fn times_cmp(self, k: i64, c: i64) -> std::cmp::Ordering {
        (k * self.n).cmp(&(c * self.d))
    }
    /// floor(k · self + 1/2)
    fn round_ties_up(self, k: i64) -> i64 {
        (2 * k * self.n + self.d).div_euclid(2 * self.d)
    }
    /// ceil(k · self − 1/2)
    fn round_ties_down(self, k: i64) -> i64 {
        -(self.d - 2 * k * self.n).div_euclid(2 * self.d)
    }
}

/// The cells seen from `origin` within `radius` (dx² + dy² ≤ r²), where
/// `opaque` says which cells block sight.
pub fn reference_fov(origin: Pos, radius: i64, opaque: &dyn Fn(i64, i64) -> bool) -> HashSet<Pos> {
    let mut seen = HashSet::new();
    let (ox, oy) = (i64::from(origin.x), i64::from(origin.y));
    let mut reveal = |x: i64, y: i64| {
        if let (Ok(x), Ok(y)) = (u16::try_from(x), u16::try_from(y)) {
            seen.insert(Pos::new(x, y));
        }
    };
    reveal(ox, oy);
    for quadrant in 0..4 {
        let transform = move |depth: i64, col: i64| match quadrant {
            0 => (ox + col, oy - depth),
            1 => (ox + col, oy + depth),
            2 => (ox + depth, oy + col),
            _ => (ox - depth, oy + col),
        };
        scan(1, Frac::new(-1, 1), Frac::new(1, 1), radius, &transform, opaque, &mut reveal);
    }
    seen
}

fn scan(
    depth: i64,
    mut start: Frac,
    end: Frac,
    radius: i64,
    transform: &dyn Fn(i64, i64) -> (i64, i64),
    opaque: &dyn Fn(i64, i64) -> bool,
    reveal: &mut dyn FnMut(i64, i64),
) {
    if depth > radius {
        return;
    }
    let mut prev: Option<bool> = None;
    for col in start.round_ties_up(depth)..=end.round_ties_down(depth) {
        let (x, y) = transform(depth, col);
        let wall = opaque(x, y);
        let symmetric = start.times_cmp(depth, col).is_le() && end.times_cmp(depth, col).is_ge();
        if (wall || symmetric) && col * col + depth * depth <= radius * radius {
            reveal(x, y);
        }
        let slope = Frac::new(2 * col - 1, 2 * depth);
        if prev == Some(true) && !wall {
            start = slope;
        }
        if prev == Some(false) && wall {
            scan(depth + 1, start, slope, radius, transform, opaque, reveal);
        }
        prev = Some(wall);
    }
    if prev == Some(false) {
        scan(depth + 1, start, end, radius, transform, opaque, reveal);
    }
}

/// Checks a client's mirror after every message it receives.
#[derive(Debug, Clone)]
pub struct Oracle {
    seed: u64,
    setting: GeneratorSetting,
    radius: i64,
    /// The dungeon's last depth, whose level has no stairs down.
    bottom: u16,
    levels: HashMap<u16, Level>,
    /// Every cell that was ever in this player's sight, per depth.
    ever_seen: HashMap<u16, HashSet<Pos>>,
    /// The kinds of monster, and those placed by hand (`--place`).
    bestiary: Bestiary,
    placements: Vec<Placement>,
    /// Per depth, the kind of each monster id as the level's seed (then the
    /// hand placements) made it; the ids after those are monsters the depth
    /// regained when left alone (see [`Oracle::check_monsters`]).
    kinds: HashMap<u16, Vec<KindId>>,
    /// The kinds of item, and per depth the top of each pile as the
    /// level's seed laid them.
    items: Catalogue,
    piles: HashMap<u16, BTreeMap<Pos, Lying>>,
    /// Cells whose pile the client was told is not as the seed laid it (a
    /// monster dropped something, a player took or threw it): there the
    /// truth is the depth's replayed history (see [`crate::history`]).
    disturbed: HashSet<(u16, Pos)>,
    /// Whether piles may change out of this client's sight (other players
    /// handle items): then only the history tells their truth.
    floor_changes_unseen: bool,
    /// What the client showed of the monsters around it, each time that
    /// changed: checked after play against the depth's replayed history
    /// (see [`crate::history`]).
    pub glimpses: Vec<Glimpse>,
    /// The uniques this client was told were slain, each with the ids of
    /// those of its kind its mirror still showed then (on their way out):
    /// no other may ever be shown, nor these once gone.
    slain: HashMap<KindId, HashSet<MonsterId>>,
    /// How many messages were checked.
    pub checked: u64,
    /// The server said it is restarting on this connection: nothing more
    /// may come on it (a welcome starts a new one).
    restarting: bool,
}

impl Oracle {
    pub fn new(seed: u64, setting: GeneratorSetting, radius: u8) -> Self {
        Self {
            seed,
            setting,
            radius: i64::from(radius),
            bottom: gloam_server::config::DEFAULT_MAX_DEPTH,
            levels: HashMap::new(),
            ever_seen: HashMap::new(),
            bestiary: Bestiary::default(),
            placements: Vec::new(),
            kinds: HashMap::new(),
            // A world made now: its potions and scrolls look as its seed
            // draws them until known.
            items: Catalogue::built_in().disguised(seed),
            piles: HashMap::new(),
            disturbed: HashSet::new(),
            floor_changes_unseen: false,
            glimpses: Vec::new(),
            slain: HashMap::new(),
            checked: 0,
            restarting: false,
        }
    }

    /// The truth for a server with this bestiary and these monsters placed
    /// by hand.
    pub fn with_monsters(self, bestiary: Bestiary, placements: Vec<Placement>) -> Self {
        Self { bestiary, placements, kinds: HashMap::new(), ..self }
    }

    /// The kind of every monster id on `depth`, in the order the server
    /// makes them: the seed's, then those placed by hand that fit.
    fn kinds(&mut self, depth: u16) -> &[KindId] {
        if !self.kinds.contains_key(&depth) {
            let level = self.level(depth).clone();
            let seeds = gloam_server::seeds::Seeds::of_world(self.seed).depth(depth);
            let world = gloam_server::seeds::Seeds::of_world(self.seed);
            let uniques = mapgen::uniques::living_at(&self.bestiary, &world, depth);
            let placed = populate(&level, &self.bestiary, seeds, depth, &uniques);
            let mut kinds: Vec<KindId> = placed.iter().map(|p| p.kind).collect();
            let mut taken: HashSet<Pos> = placed.iter().map(|p| p.pos).collect();
            for p in self.placements.iter().filter(|p| p.depth == depth) {
                let Some(kind) = self.bestiary.find(&p.kind) else { continue };
                if level.terrain(p.pos).is_open() && taken.insert(p.pos) {
                    kinds.push(kind);
                }
            }
            self.kinds.insert(depth, kinds);
        }
        &self.kinds[&depth]
    }

    /// The oracle of someone who comes to watch this oracle's player: it
    /// knows what the player has seen so far (a watcher is sent all the
    /// player remembers), and keeps its own count and glimpses.
    pub fn fork(&self) -> Self {
        Self { glimpses: Vec::new(), checked: 0, ..self.clone() }
    }

    /// The truth for a server whose items are `items` (`--items`).
    pub fn with_items(self, items: Catalogue) -> Self {
        Self { items, piles: HashMap::new(), ..self }
    }

    /// The truth for a world where players pick up, drop and throw items:
    /// a pile may change out of this client's sight, so what it shows of
    /// the floor is checked against the replayed history, not the seed.
    pub fn with_changing_floor(self) -> Self {
        Self { floor_changes_unseen: true, ..self }
    }

    /// The truth for a server whose dungeon ends at `bottom` (`--max-depth`).
    pub fn with_bottom(self, bottom: u16) -> Self {
        Self { bottom, ..self }
    }

    pub fn level(&mut self, depth: u16) -> &Level {
        let (seed, setting, bottom) = (self.seed, self.setting, self.bottom);
        self.levels.entry(depth).or_insert_with(|| {
            let mut level = mapgen::build_level(seed, depth, setting);
            if depth >= bottom {
                mapgen::make_bottom(&mut level);
            }
            level
        })
    }

    /// The cells seen from `at` on `depth`, by the reference implementation.
    pub fn sight(&mut self, depth: u16, at: Pos) -> HashSet<Pos> {
        let radius = self.radius;
        let level = self.level(depth);
        reference_fov(at, radius, &|x, y| match (u16::try_from(x), u16::try_from(y)) {
            (Ok(x), Ok(y)) => !level.terrain(Pos::new(x, y)).is_open(),
            _ => true,
        })
    }

    /// Checks the mirror `state` just after it applied `msg`: every cell it
    /// knows has its true terrain and was once in sight; what it shows in
    /// sight is exactly what the player sees; every player and monster it
    /// reports stands in sight, no two on one cell nor on the player, and
    /// every monster is of its true kind.
    pub fn check(&mut self, msg: &ServerMsg, state: &ClientState) -> Result<(), String> {
        self.checked += 1;
        self.check_restarting(msg, state)?;
        if let ServerMsg::Chat { text, .. } = msg {
            check_chat(text)?;
        }
        if let ServerMsg::Died(record) | ServerMsg::Escaped(record) = msg
            && record.morgue == 0
        {
            return Err(format!("{}'s life ended with no morgue file", record.name));
        }
        let depth = state.depth;
        if depth == 0 {
            return Ok(());
        }
        let sight = match state.at {
            Some(at) => self.sight(depth, at),
            None => HashSet::new(),
        };
        if matches!(msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_)) {
            self.ever_seen.entry(depth).or_default().extend(sight.iter().copied());
        }
        let level = self.level(depth).clone();
        let ever = self.ever_seen.entry(depth).or_default();
        for (pos, terrain) in state.known_cells() {
            if !ever.contains(&pos) {
                return Err(format!("depth {depth}: {pos:?} was sent but never in sight"));
            }
            if level.terrain(pos) != terrain {
                return Err(format!(
                    "depth {depth}: {pos:?} sent as {terrain:?}, is {:?}",
                    level.terrain(pos)
                ));
            }
        }
        let visible: HashSet<Pos> = state.visible_cells().collect();
        if visible != sight {
            let extra: Vec<_> = visible.difference(&sight).collect();
            let missing: Vec<_> = sight.difference(&visible).collect();
            return Err(format!(
                "depth {depth} at {:?}: shown in sight but not seen {extra:?}; seen but not shown {missing:?}",
                state.at
            ));
        }
        let mut taken: HashSet<Pos> = state.at.into_iter().collect();
        for (id, other) in &state.others {
            if !sight.contains(&other.at) {
                return Err(format!("player {id} reported at {:?}, out of sight", other.at));
            }
            if !taken.insert(other.at) {
                return Err(format!("player {id} reported on a cell taken at {:?}", other.at));
            }
        }
        self.note_slain(msg, state);
        self.check_monsters(depth, &sight, &level, state)?;
        self.check_uniques(depth, state)?;
        self.note_disturbed(depth, msg);
        // The kinds change only when told again; checked then, and on arriving.
        if matches!(msg, ServerMsg::ItemKinds(_) | ServerMsg::EnterLevel { .. }) {
            self.check_item_kinds(state)?;
        }
        self.check_floor(depth, &sight, state)?;
        self.glimpse(msg, state);
        Ok(())
    }

    /// The server's word that it restarts is the last of a connection, and
    /// the mirror keeps it.
    fn check_restarting(&mut self, msg: &ServerMsg, state: &ClientState) -> Result<(), String> {
        match msg {
            ServerMsg::Welcome { .. } => self.restarting = false,
            _ if self.restarting => {
                return Err(format!("{msg:?} came after the server said it restarts"));
            }
            ServerMsg::Restarting if !state.restarting => {
                return Err("the mirror forgot that the server restarts".into());
            }
            ServerMsg::Restarting => self.restarting = true,
            _ => {}
        }
        Ok(())
    }

    /// Each kind of item the client holds is told as it looks until known
    /// or, once learnt, by its name: never anything else (a look or a name
    /// of another kind); and it is told as known exactly when it is told
    /// by its own name. When each was learnt is the history's to check.
    fn check_item_kinds(&self, state: &ClientState) -> Result<(), String> {
        if state.item_kinds.is_empty() {
            return Ok(());
        }
        let unknown = self.items.infos();
        let everything: crate::history::Known = (0..unknown.len() as u16).collect();
        let named = self.items.infos_for(&everything);
        if state.item_kinds.len() != named.len() {
            return Err("the kinds of item differ from the catalogue's".into());
        }
        for (i, told) in state.item_kinds.iter().enumerate() {
            let own = told.name == self.items.kind(i as u16).name;
            if told.known != own {
                return Err(format!("kind {i} told as {told:?}: known is not whether it is named"));
            }
            if *told != unknown[i] && *told != named[i] {
                return Err(format!("kind {i} told as {told:?}: neither its look nor its name"));
            }
        }
        Ok(())
    }

    /// The kinds of item the client shows by name of those that have a
    /// look (those it learnt).
    pub fn known_shown(&self, state: &ClientState) -> std::collections::BTreeSet<u16> {
        let learnt = |&(i, told): &(usize, &gloam_protocol::ItemInfo)| {
            let id = i as u16;
            self.items.look(id).is_some() && told.name == self.items.kind(id).name
        };
        state.item_kinds.iter().enumerate().filter(learnt).map(|(i, _)| i as u16).collect()
    }

    /// Keeps what the client shows of the monsters and of who else is on
    /// its depth after a message that may change either, when it changed.
    fn glimpse(&mut self, msg: &ServerMsg, state: &ClientState) {
        let Some(player) = state.me else { return };
        let glimpses = match msg {
            ServerMsg::Sight(_) | ServerMsg::Displaced(_) => {
                vec![Glimpse::of_monsters(player, state), Glimpse::of_floor(player, state)]
            }
            ServerMsg::Monsters(_) => vec![Glimpse::of_monsters(player, state)],
            ServerMsg::Floor(_) => vec![Glimpse::of_floor(player, state)],
            ServerMsg::Roster(_) | ServerMsg::Joined(_) | ServerMsg::Left(_) => {
                vec![Glimpse::of_roster(player, state)]
            }
            // On arriving, and whenever they are told again.
            ServerMsg::ItemKinds(_) | ServerMsg::EnterLevel { .. } if state.depth > 0 => {
                vec![Glimpse::of_known(player, state, self.known_shown(state))]
            }
            _ => return,
        };
        for glimpse in glimpses {
            if self.glimpses.last() != Some(&glimpse) {
                self.glimpses.push(glimpse);
            }
        }
    }

    /// The piles the mirror holds lie on cells once in sight, each as the
    /// seed laid it, and every pile in sight is among them: an item is told
    /// only where it was seen, and remembered there.
    fn check_floor(
        &mut self,
        depth: u16,
        sight: &HashSet<Pos>,
        state: &ClientState,
    ) -> Result<(), String> {
        let piles = self.piles(depth).clone();
        let ever = self.ever_seen.entry(depth).or_default();
        for (pos, top) in &state.floor {
            if !ever.contains(pos) {
                return Err(format!("depth {depth}: a pile told on {pos:?}, never in sight"));
            }
            if usize::from(top.kind) >= self.items.kinds().len() || top.count == 0 {
                return Err(format!("depth {depth}: {pos:?} told as {top:?}, no such item"));
            }
        }
        if self.floor_changes_unseen {
            return Ok(());
        }
        let undisturbed = |p: &Pos| !self.disturbed.contains(&(depth, *p));
        for (pos, top) in state.floor.iter().filter(|(p, _)| undisturbed(p)) {
            if piles.get(pos) != Some(top) {
                return Err(format!(
                    "depth {depth}: {pos:?} told as {top:?}, holds {:?}",
                    piles.get(pos)
                ));
            }
        }
        for (pos, top) in piles.iter().filter(|(p, _)| sight.contains(p) && undisturbed(p)) {
            if state.floor.get(pos) != Some(top) {
                return Err(format!(
                    "depth {depth}: the pile {top:?} on {pos:?} is in sight, untold"
                ));
            }
        }
        Ok(())
    }

    /// Notes the cells `msg` tells a pile on that is not as the seed laid it.
    fn note_disturbed(&mut self, depth: u16, msg: &ServerMsg) {
        let changes = match msg {
            ServerMsg::Floor(changes) => changes.as_slice(),
            ServerMsg::Sight(diff) | ServerMsg::Displaced(diff) => diff.floor.as_slice(),
            _ => return,
        };
        let piles = self.piles(depth).clone();
        for change in changes {
            if piles.get(&change.at) != change.top.as_ref() {
                self.disturbed.insert((depth, change.at));
            }
        }
    }

    /// The top of every pile on `depth` as its seed laid them.
    fn piles(&mut self, depth: u16) -> &BTreeMap<Pos, Lying> {
        if !self.piles.contains_key(&depth) {
            let level = self.level(depth).clone();
            let seeds = gloam_server::seeds::Seeds::of_world(self.seed).depth(depth);
            let bottom = depth >= self.bottom;
            let tops = gloam_server::mapgen::stock::tops(&level, &self.items, seeds, depth, bottom);
            self.piles.insert(depth, tops);
        }
        &self.piles[&depth]
    }

    /// Every monster the mirror holds stands in sight, on open ground and
    /// on no player (and, if its kind hides, next to the player: it is
    /// never told earlier), and is of the kind the level's seed made it; or, past
    /// those the seed and the host made, one the depth regained when left
    /// alone, which is of a kind living at that depth (the kinds a restock
    /// draws from). Which kind and where depend on what happened on the
    /// depth, which no client knows: after play, `history` checks each
    /// against the depth replayed from its log, restocks and all.
    fn check_monsters(
        &mut self,
        depth: u16,
        sight: &HashSet<Pos>,
        level: &Level,
        state: &ClientState,
    ) -> Result<(), String> {
        let expected = self.bestiary.kinds_info();
        if !state.monsters.is_empty() && state.kinds != expected {
            return Err("the kinds of monster differ from the bestiary's".into());
        }
        let kinds = self.kinds(depth).to_vec();
        for (id, m) in &state.monsters {
            if !sight.contains(&m.at) {
                return Err(format!("monster {id:?} reported at {:?}, out of sight", m.at));
            }
            if !level.terrain(m.at).is_open() || Some(m.at) == state.at {
                return Err(format!(
                    "monster {id:?} reported in a wall or on the player: {:?}",
                    m.at
                ));
            }
            if state.others.values().any(|o| o.at == m.at) {
                return Err(format!("monster {id:?} reported on another player at {:?}", m.at));
            }
            let hides = self.bestiary.kinds().get(usize::from(m.kind)).is_some_and(|k| k.hides);
            let next_to = |at: Pos| at.x.abs_diff(m.at.x).max(at.y.abs_diff(m.at.y)) <= 1;
            if hides && !state.at.is_some_and(next_to) {
                return Err(format!(
                    "monster {id:?}, of a kind that hides, told at {:?}, not next to the player at {:?}",
                    m.at, state.at
                ));
            }
            let made = usize::try_from(id.0).ok().and_then(|i| kinds.get(i.checked_sub(1)?));
            match made {
                Some(&kind) if kind == m.kind => {}
                Some(made) => {
                    return Err(format!(
                        "monster {id:?} is a kind {}, the seed made {made}",
                        m.kind
                    ));
                }
                None => self.check_regained(depth, *id, m.kind)?,
            }
        }
        Ok(())
    }

    /// Notes a unique the client is told was slain: by it ("You kill
    /// ..."), or by another ("... is slain by ann!").
    fn note_slain(&mut self, msg: &ServerMsg, state: &ClientState) {
        let (ServerMsg::Combat(text) | ServerMsg::Note(text)) = msg else { return };
        for (kind, k) in self.bestiary.uniques() {
            let seen = text.contains(&format!("kill {}", k.name))
                || text.contains(&format!("kills {}", k.name));
            if seen || text.starts_with(&format!("{} is slain by ", k.name)) {
                let dying = state.monsters.iter().filter(|(_, m)| m.kind == kind);
                let dying: HashSet<MonsterId> = dying.map(|(&id, _)| id).collect();
                self.slain.entry(kind).or_insert(dying);
            }
        }
    }

    /// Every unique shown stands on the one depth the world's seed gave
    /// it, and none is shown after it was slain (but the one dying then,
    /// until it is gone).
    fn check_uniques(&mut self, depth: u16, state: &ClientState) -> Result<(), String> {
        let world = gloam_server::seeds::Seeds::of_world(self.seed);
        for (id, m) in &state.monsters {
            let Some(k) = self.bestiary.kinds().get(usize::from(m.kind)).filter(|k| k.unique)
            else {
                continue;
            };
            let home = mapgen::uniques::depth_of(&world, m.kind, k.depths);
            if home != depth {
                return Err(format!(
                    "{} ({id:?}) shown on depth {depth}, its depth is {home}",
                    k.name
                ));
            }
            if self.slain.get(&m.kind).is_some_and(|dying| !dying.contains(id)) {
                return Err(format!("{} ({id:?}) shown again after it was slain", k.name));
            }
        }
        for dying in self.slain.values_mut() {
            dying.retain(|id| state.monsters.contains_key(id));
        }
        Ok(())
    }

    /// A monster past those a depth's seed and host made: one it regained
    /// (`rules::restock`), so of a kind living at `depth`, never a unique.
    fn check_regained(&self, depth: u16, id: MonsterId, kind: KindId) -> Result<(), String> {
        let lives_here = self
            .bestiary
            .kinds()
            .get(usize::from(kind))
            .is_some_and(|k| k.lives_at(depth) && !k.unique);
        if !lives_here {
            return Err(format!(
                "monster {id:?}, past those depth {depth}'s seed made, is a kind {kind}, which does not live there"
            ));
        }
        Ok(())
    }
}

/// A line of chat as the server must pass it on: trimmed, not empty, at
/// most [`gloam_protocol::MAX_CHAT_CHARS`] characters, with no control
/// character and nothing that reorders the text around it.
/// Checks a morgue file's map against the mirror of the player whose life
/// it tells, as it stood when that life ended: the map is the cells the
/// client knew and nothing else, each in its terrain's glyph or the glyph
/// of the pile it remembered there, and the player as `@` where it stood.
/// The map is cut to the known cells' rows and columns, and its rows'
/// trailing blanks are left off.
pub fn check_morgue_map(text: &str, state: &ClientState) -> Result<(), String> {
    let (_, map) = text.split_once("remembered it:\n\n").ok_or("the file has no map")?;
    let known: HashMap<Pos, gloam_protocol::Terrain> = state.known_cells().collect();
    let left = known.keys().map(|p| p.x).min().ok_or("the client knew no cell")?;
    let top = known.keys().map(|p| p.y).min().unwrap_or(0);
    let mut drawn = HashSet::new();
    for (row, line) in map.lines().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            let pos = Pos { x: left + col as u16, y: top + row as u16 };
            let want = if Some(pos) == state.at {
                '@'
            } else if let Some(pile) = state.floor.get(&pos).filter(|_| known.contains_key(&pos)) {
                state.item_kinds.get(usize::from(pile.kind)).map_or('?', |k| k.glyph)
            } else {
                known.get(&pos).map_or(' ', |t| t.glyph())
            };
            if ch != want {
                return Err(format!("the morgue map shows {ch:?} on {pos:?}, the client {want:?}"));
            }
            if ch != ' ' {
                drawn.insert(pos);
            }
        }
    }
    match known.keys().find(|p| !drawn.contains(p)) {
        Some(missing) => Err(format!("the morgue map leaves out {missing:?}, which was known")),
        None => Ok(()),
    }
}

fn check_chat(text: &str) -> Result<(), String> {
    let reorders =
        |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}');
    if text.is_empty() || text.trim() != text {
        return Err(format!("a line of chat untrimmed or empty: {text:?}"));
    }
    if text.chars().count() > gloam_protocol::MAX_CHAT_CHARS {
        return Err(format!("a line of chat of {} characters", text.chars().count()));
    }
    if text.chars().any(|c| c.is_control() || reorders(c)) {
        return Err(format!("a line of chat with a control or reordering character: {text:?}"));
    }
    Ok(())
}

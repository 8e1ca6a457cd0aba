//! Who may play which name: every character the store knows, its secret
//! token (kept only as a hash) and whether it is online. Where an offline
//! character stands and what it remembers live in the store. A character
//! is in the world at most once: a second connection with the right token
//! takes over and the first is closed.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use gloam_protocol::{CellSet, Lying, PlayerId, Refusal, Token};
use sha2::{Digest, Sha256};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tracing::{error, info, warn};

use crate::character::{Credential, KeptPile, Memory, Player, Progress};
use crate::items::{Catalogue, Class, Item, Pack};
use crate::store::StoreHandle;

/// A character as it was when it left the world.
#[derive(Debug)]
pub(crate) struct Saved {
    pub depth: u16,
    pub player: Player,
}

/// What joining under a name gave.
#[derive(Debug)]
pub(crate) struct Claim {
    pub id: PlayerId,
    /// A brand-new character: the token its client must keep.
    pub new_token: Option<Token>,
    /// A returning character: where it was and what it remembered.
    pub saved: Option<Saved>,
    /// Cancelled when another connection takes this character over.
    pub kicked: CancellationToken,
}

#[derive(Debug)]
struct Character {
    id: PlayerId,
    token_hash: [u8; 32],
    online: Option<Online>,
    /// A connection with its key is taking it over: the place among the
    /// players the old one held is kept for it (see `--max-players`).
    taking_over: bool,
    left: Arc<Notify>,
}

/// A character's connection: cancelled when another takes it over; and
/// whether it plays (counted among the players) or watches.
#[derive(Debug)]
struct Online {
    kicked: CancellationToken,
    playing: bool,
}

/// What claiming a name to watch gave.
#[derive(Debug)]
pub(crate) struct WatchClaim {
    pub id: PlayerId,
    /// Cancelled when the name is claimed to play, or to watch from
    /// another connection.
    pub kicked: CancellationToken,
    /// A new name: the token it will have, and its hash.
    fresh: Option<(Token, [u8; 32])>,
    /// The address it came from, whose quota of new characters a new name
    /// spent.
    from: IpAddr,
}

/// What a claim does once the lock is let go.
enum Next {
    Ready(Ready),
    /// Another connection has it and was told to go: wait for it to leave.
    Wait(Arc<Notify>),
}

/// The name is the claim's: as a new character, or an old one resumed.
enum Ready {
    Create { id: PlayerId, token: Token, token_hash: [u8; 32], kicked: CancellationToken },
    Resume { id: PlayerId, kicked: CancellationToken },
}

/// What a name is claimed for: to play takes it over from a connection
/// that has it; to watch is refused while one plays it, and takes it over
/// from one that watches under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Play,
    Watch,
}

/// How many characters may be made.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) per_address_per_hour: u32,
    pub(crate) total: usize,
    /// The most players online at once (`None`: no limit).
    pub(crate) players: Option<u32>,
}

#[derive(Debug)]
pub(crate) struct Characters {
    by_name: Mutex<HashMap<String, Character>>,
    next_id: AtomicU32,
    store: StoreHandle,
    limits: Limits,
    /// How many characters are online to play (not to watch), kept under
    /// `by_name`'s lock.
    playing: AtomicUsize,
    /// Told each time a place among the players is given back.
    place_freed: Notify,
    /// Set once the host drains the world (under `by_name`'s lock): the
    /// address newcomers are sent to, if any. It is never unset.
    draining: OnceLock<Option<String>>,
    /// The kinds of item, to turn a stored pack's names back into items.
    items: Arc<Catalogue>,
    /// When each client address made its characters of the last hour.
    made_from: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

/// The window the per-address limit counts over.
const HOUR: Duration = Duration::from_secs(3600);

fn hash(token: &Token) -> [u8; 32] {
    let digest = Sha256::digest(token);
    let mut out = [0u8; 32];
    out.copy_from_slice(digest.as_slice());
    out
}

/// How long a taking-over connection waits for the old one to leave.
const TAKEOVER_WAIT: Duration = Duration::from_secs(3);

/// The refusal of a key holder whose character's old connection has not
/// left within [`TAKEOVER_WAIT`]: one a client tries again (the server is
/// busy, as in a reconnect storm, where the old connection may be the
/// player's own last try, given up on but still joining). Never
/// `NameTaken`, which says the name is someone else's and which a client
/// does not try again: that locked a player out of its own character.
fn still_leaving() -> Refusal {
    Refusal::Unavailable {
        reason: "your character is still leaving its last connection; try again".into(),
    }
}

impl Characters {
    /// The characters `known` to the store, all offline.
    pub(crate) fn new(
        store: StoreHandle,
        known: Vec<Credential>,
        limits: Limits,
        items: Arc<Catalogue>,
    ) -> Self {
        let by_name = known
            .into_iter()
            .enumerate()
            .map(|(i, Credential { name, token_hash })| {
                let id = PlayerId(i as u32 + 1);
                let left = Arc::default();
                (name, Character { id, token_hash, online: None, taking_over: false, left })
            })
            .collect::<HashMap<_, _>>();
        let next_id = AtomicU32::new(by_name.len() as u32);
        let made_from = Mutex::new(HashMap::new());
        let playing = AtomicUsize::new(0);
        Self {
            by_name: Mutex::new(by_name),
            next_id,
            store,
            limits,
            playing,
            place_freed: Notify::new(),
            draining: OnceLock::new(),
            made_from,
            items,
        }
    }

    /// Joins as `name`: creates the character (with a fresh token, recorded
    /// in the store before it is handed out) the first time, lets its token
    /// holder back in afterwards where the store says it was, and takes it
    /// over from a connection still playing it.
    pub(crate) async fn claim(
        &self,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
    ) -> Result<Claim, Refusal> {
        match self.decide_once_left(name, token, from, Purpose::Play).await? {
            Ready::Create { id, token, token_hash, kicked } => {
                self.create(name, id, token, token_hash, kicked).await
            }
            Ready::Resume { id, kicked } => self.resume(name, id, kicked).await,
        }
    }

    /// [`decide`](Self::decide), and again each time the connection that
    /// holds the name is told to make way and leaves, until it has (a name
    /// still held after [`TAKEOVER_WAIT`] is taken).
    async fn decide_once_left(
        &self,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
        purpose: Purpose,
    ) -> Result<Ready, Refusal> {
        let deadline = tokio::time::Instant::now() + TAKEOVER_WAIT;
        loop {
            let waiting = match self.decide(name, token, from, purpose)? {
                Next::Wait(left) => left,
                Next::Ready(ready) => return Ok(ready),
            };
            // The old connection saves and leaves; look again when it has (or
            // soon, in case its notice came before we listened).
            if tokio::time::Instant::now() >= deadline {
                self.give_up_takeover(name);
                return Err(still_leaving());
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), waiting.notified()).await;
        }
    }

    /// Takes `name` to watch another player: its token checked if it is a
    /// character, and marked online like a player, so that claiming it to
    /// play takes it over. A name in the game cannot watch; a name already
    /// watching is taken over as a player's is, by its key: a watcher that
    /// comes back after its link broke finds its old connection still
    /// held (the server notices a dead link only at its next ping or
    /// write), and that connection makes way. A new name is held but not
    /// stored: [`Characters::keep`] makes it a character once the watching
    /// has begun (so nobody else can speak under it later),
    /// [`Characters::abandon`] lets it go if not.
    pub(crate) async fn claim_to_watch(
        &self,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
    ) -> Result<WatchClaim, Refusal> {
        match self.decide_once_left(name, token, from, Purpose::Watch).await? {
            Ready::Create { id, token, token_hash, kicked } => {
                Ok(WatchClaim { id, kicked, fresh: Some((token, token_hash)), from })
            }
            Ready::Resume { id, kicked } => Ok(WatchClaim { id, kicked, fresh: None, from }),
        }
    }

    /// A watch that did not begin: its name is let go (a new one forgotten,
    /// and its address given back the new character it counted).
    pub(crate) fn abandon(&self, name: &str, claim: &WatchClaim) {
        if claim.fresh.is_some() {
            self.by_name.lock().unwrap_or_else(PoisonError::into_inner).remove(name);
            let mut made = self.made_from.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(recent) = made.get_mut(&claim.from) {
                recent.pop_back();
            }
        } else {
            self.release(name);
        }
    }

    /// Keeps a watcher's new name as a character (stored before its token
    /// is handed out); gives that token, or `None` for a known name.
    pub(crate) async fn keep(
        &self,
        name: &str,
        claim: &WatchClaim,
    ) -> Result<Option<Token>, Refusal> {
        let Some((token, token_hash)) = claim.fresh else { return Ok(None) };
        let made = self.create(name, claim.id, token, token_hash, claim.kicked.clone()).await?;
        Ok(made.new_token)
    }

    /// What a claim does next, decided under the lock: the character is
    /// marked online for it at once, so no other claim can get in between.
    /// Whether `token` is the key of the character called `name`.
    pub(crate) fn owns(&self, name: &str, token: &Token) -> bool {
        let all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        all.get(name).is_some_and(|c| c.token_hash == hash(token))
    }

    fn decide(
        &self,
        name: &str,
        token: Option<Token>,
        from: IpAddr,
        purpose: Purpose,
    ) -> Result<Next, Refusal> {
        let mut all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(c) = all.get_mut(name) else {
            let (ready, character) = self.make(all.len(), from, purpose)?;
            all.insert(name.to_owned(), character);
            return Ok(Next::Ready(ready));
        };
        if token.as_ref().map(hash) != Some(c.token_hash) {
            return Err(Refusal::WrongToken);
        }
        match &c.online {
            None => {
                // A takeover's place was kept for it while the old
                // connection left.
                let kept = purpose == Purpose::Play && std::mem::take(&mut c.taking_over);
                if !kept {
                    self.check_open()?;
                    self.take_place(purpose)?;
                }
                let kicked = CancellationToken::new();
                c.online =
                    Some(Online { kicked: kicked.clone(), playing: purpose == Purpose::Play });
                Ok(Next::Ready(Ready::Resume { id: c.id, kicked }))
            }
            Some(old) if purpose == Purpose::Watch && old.playing => Err(Refusal::NameTaken),
            Some(old) => {
                if purpose == Purpose::Watch {
                    // Its own watching, from another connection: no place
                    // among the players is at stake.
                } else if old.playing {
                    // The same player again: its place is its own.
                    c.taking_over = true;
                } else if !c.taking_over {
                    // A watcher that comes to play is a new player.
                    self.check_open()?;
                    self.check_room()?;
                }
                old.kicked.cancel();
                Ok(Next::Wait(c.left.clone()))
            }
        }
    }

    /// A brand-new character, online for `purpose`, in a world that keeps
    /// `known` characters; or why not. Called under the lock.
    fn make(
        &self,
        known: usize,
        from: IpAddr,
        purpose: Purpose,
    ) -> Result<(Ready, Character), Refusal> {
        self.check_open()?;
        if known >= self.limits.total {
            return Err(Refusal::Unavailable {
                reason: "this world has all the characters it can keep".into(),
            });
        }
        if !self.store.is_saving() {
            return Err(Refusal::Unavailable {
                reason: "the server cannot save new characters right now".into(),
            });
        }
        if purpose == Purpose::Play {
            self.check_room()?;
        }
        self.count_new_from(from)?;
        let mut fresh = [0u8; 16];
        // Without OS randomness no secret can be made: refuse rather than
        // hand out a guessable one.
        getrandom::fill(&mut fresh).map_err(|_| Refusal::Unavailable {
            reason: "the server cannot make a secret token right now".into(),
        })?;
        self.take_place(purpose)?;
        let id = PlayerId(self.next_id.fetch_add(1, Ordering::Relaxed) + 1);
        let kicked = CancellationToken::new();
        let token_hash = hash(&fresh);
        let online = Online { kicked: kicked.clone(), playing: purpose == Purpose::Play };
        let character = Character {
            id,
            token_hash,
            online: Some(online),
            taking_over: false,
            left: Arc::default(),
        };
        Ok((Ready::Create { id, token: fresh, token_hash, kicked }, character))
    }

    /// Refuses a new player when as many play as the host allows. Called
    /// under the lock, as every change of the count is.
    fn check_room(&self) -> Result<(), Refusal> {
        match self.limits.players {
            Some(most) if self.playing.load(Ordering::SeqCst) >= most as usize => {
                Err(Refusal::Full { players: most })
            }
            _ => Ok(()),
        }
    }

    /// Refuses a newcomer (a new name, or a character not in play, to play
    /// or to watch) while the world drains; one already in play may come
    /// back on a new connection. Called under the lock.
    fn check_open(&self) -> Result<(), Refusal> {
        match self.draining.get() {
            Some(elsewhere) => Err(Refusal::Draining { elsewhere: elsewhere.clone() }),
            None => Ok(()),
        }
    }

    /// Drains the world: from now on newcomers are refused, sent to
    /// `elsewhere`. False if it was draining already.
    pub(crate) fn drain(&self, elsewhere: Option<String>) -> bool {
        // Under the lock: a claim decided before this counts among the
        // players `until_nobody_plays` waits for, one after it is refused.
        let _all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        self.draining.set(elsewhere).is_ok()
    }

    /// Whether the world drains.
    pub(crate) fn is_draining(&self) -> bool {
        self.draining.get().is_some()
    }

    /// How many play now (watchers are not counted).
    pub(crate) fn players(&self) -> usize {
        self.playing.load(Ordering::SeqCst)
    }

    /// Completes once nobody plays.
    pub(crate) async fn until_nobody_plays(&self) {
        loop {
            let freed = self.place_freed.notified();
            tokio::pin!(freed);
            // Listening before looking: a place freed in between is heard.
            freed.as_mut().enable();
            if self.players() == 0 {
                return;
            }
            freed.await;
        }
    }

    /// Gives back one place among the players. Called under the lock.
    fn free_place(&self) {
        let left = self.playing.fetch_sub(1, Ordering::SeqCst) - 1;
        if self.is_draining() {
            info!(players = left, "draining: a player left");
        }
        self.place_freed.notify_waiters();
    }

    /// Counts a claim to play among those playing, when there is room.
    /// Called under the lock.
    fn take_place(&self, purpose: Purpose) -> Result<(), Refusal> {
        if purpose == Purpose::Play {
            self.check_room()?;
            self.playing.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Gives back the place of a character going offline, unless a
    /// takeover keeps it. Called under the lock.
    fn give_place(&self, c: &Character) {
        if c.online.as_ref().is_some_and(|o| o.playing) && !c.taking_over {
            self.free_place();
        }
    }

    /// A takeover that gave up waiting: the place kept for it is given
    /// back, unless the old connection still holds it.
    fn give_up_takeover(&self, name: &str) {
        let mut all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = all.get_mut(name)
            && std::mem::take(&mut c.taking_over)
            && !c.online.as_ref().is_some_and(|o| o.playing)
        {
            self.free_place();
        }
    }

    async fn create(
        &self,
        name: &str,
        id: PlayerId,
        token: Token,
        token_hash: [u8; 32],
        kicked: CancellationToken,
    ) -> Result<Claim, Refusal> {
        let known = Credential { name: name.to_owned(), token_hash };
        if let Err(e) = self.store.create(known).await {
            error!(player = name, error = %e, "cannot record a new character");
            let mut all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(c) = all.remove(name) {
                self.give_place(&c);
            }
            return Err(Refusal::Unavailable {
                reason: "the server cannot save characters".into(),
            });
        }
        Ok(Claim { id, new_token: Some(token), saved: None, kicked })
    }

    async fn resume(
        &self,
        name: &str,
        id: PlayerId,
        kicked: CancellationToken,
    ) -> Result<Claim, Refusal> {
        match self.store.load(name).await {
            Ok(snapshot) => {
                let saved = snapshot.map(|s| {
                    let mut player = Player::new(id, name.to_owned());
                    player.pos = s.pos;
                    player.vitals = s.vitals;
                    player.pack = self.unpack(name, &s.pack, s.progress);
                    player.xp = s.progress.xp;
                    player.known = s.known.iter().filter_map(|k| self.items.find(k)).collect();
                    player.slain = s.slain.into_iter().collect();
                    if let Some((background, skills)) = s.background {
                        player.background = Some(background);
                        player.skills = skills;
                    }
                    player.memories = self.remembered(name, s.explored, s.piles);
                    Saved { depth: s.depth, player }
                });
                Ok(Claim { id, new_token: None, saved, kicked })
            }
            Err(e) => {
                // Refused rather than started afresh, which would overwrite
                // the stored character at its first save.
                error!(player = name, error = %e, "cannot load a character");
                self.release(name);
                Err(Refusal::Unavailable { reason: "the server cannot load characters".into() })
            }
        }
    }

    /// A stored memory of every depth: the cells explored and the piles
    /// remembered there; a pile of a kind the items file no longer has is
    /// forgotten, and the host's log says so.
    fn remembered(
        &self,
        name: &str,
        explored: Vec<(u16, Vec<u8>)>,
        piles: Vec<(u16, Vec<KeptPile>)>,
    ) -> BTreeMap<u16, Memory> {
        let mut floors: BTreeMap<u16, Vec<KeptPile>> = piles.into_iter().collect();
        let mut memories = BTreeMap::new();
        for (depth, bits) in explored {
            let mut floor = BTreeMap::new();
            for pile in floors.remove(&depth).unwrap_or_default() {
                let Some(kind) = self.items.find(&pile.top) else {
                    warn!(player = name, depth, kind = %pile.top, "a remembered pile of a kind no longer known is forgotten");
                    continue;
                };
                floor.insert(pile.at, Lying { kind, count: pile.count, more: pile.more });
            }
            memories.insert(depth, Memory::from_kept(CellSet::from_bytes(&bits), floor));
        }
        memories
    }

    /// A stored pack, its weapon wielded and armour worn as they were; a
    /// kind the items file no longer has is left out, and the host's log
    /// says so, and a mark on what is no longer a weapon or armour is
    /// dropped.
    fn unpack(&self, name: &str, pack: &[(String, u16)], progress: Progress) -> Pack {
        let mut items = Vec::with_capacity(pack.len());
        let (mut wielded, mut worn) = (None, None);
        for (slot, (kind, count)) in pack.iter().enumerate().take(gloam_protocol::PACK_SLOTS) {
            match self.items.find(kind) {
                Some(kind) if *count > 0 => {
                    let here = Some(items.len() as u8);
                    match self.items.kind(kind).class {
                        Class::Weapon { .. } if progress.wielded == Some(slot as u8) => {
                            wielded = here
                        }
                        Class::Armour { .. } if progress.worn == Some(slot as u8) => worn = here,
                        _ => {}
                    }
                    items.push(Item { kind, count: *count });
                }
                Some(_) => {}
                None => {
                    warn!(player = name, item = %kind, count, "a stored item of no kind the items file has: left out")
                }
            }
        }
        Pack::with_gear(items, wielded, worn)
    }

    /// Counts a new character made from `from`, or refuses it when that
    /// address made its hour's worth already. The host's own machine
    /// (loopback) is not counted: its disk is the host's to fill, and its
    /// load tools and tests make many characters.
    fn count_new_from(&self, from: IpAddr) -> Result<(), Refusal> {
        if from.is_loopback() {
            return Ok(());
        }
        let now = Instant::now();
        let mut made = self.made_from.lock().unwrap_or_else(PoisonError::into_inner);
        let recent = made.entry(from).or_default();
        while recent.front().is_some_and(|&t| now.duration_since(t) >= HOUR) {
            recent.pop_front();
        }
        if recent.len() >= self.limits.per_address_per_hour as usize {
            return Err(Refusal::Unavailable {
                reason: format!(
                    "{} new characters an hour from one address at most; play one you have, or try later",
                    self.limits.per_address_per_hour
                ),
            });
        }
        recent.push_back(now);
        // Addresses whose hour has passed are forgotten, so the map stays small.
        made.retain(|_, times| times.back().is_some_and(|&t| now.duration_since(t) < HOUR));
        Ok(())
    }

    /// The connection playing `name` ended (its depth has saved it).
    pub(crate) fn release(&self, name: &str) {
        let mut all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = all.get_mut(name) {
            self.give_place(c);
            c.online = None;
            c.left.notify_waiters();
        }
    }
}

//! One depth in play: its level, the players and monsters on it, the
//! rules that decide what happens there and the views that tell each
//! player what it sees of it. Plain synchronous code: commands go in,
//! messages for players come out; nothing here knows of time, so the same
//! commands in the same order give the same depth (see `docs/turns.md`
//! for the clock).
//!
//! [`DepthState`] is the pair: `rules` decide and tell nobody, handing
//! each event (moved, struck, killed, woke, arrived, left, ...) to the
//! `views` as it happens, and handing back from each command its [`Flow`]:
//! who was answered, who came, who went and how, who died of what, and
//! what a player on a standing order noticed. The views make each player's
//! messages and word everything (`views::lines`); the depth's task acts on
//! the flow. A replay, or the balance run, is the rules alone, with nobody
//! listening.
//!
//! # One action, from key to pixels
//! This is the one telling of the pipeline; README's "The order of one
//! action" and the task's phases (`world::task`) point here.
//!
//! 1. The window turns a key into an action (`Session::on_key`) and the
//!    connection task sends `ClientMsg::Act`.
//! 2. The server's connection task (`net::session`) decodes it into its
//!    `Pacer`, which lets it go once the previous action was answered and
//!    the player's rate allows (at once when it does: not by a timer set
//!    for now, which tokio fires on its next millisecond);
//!    `Presence::act` hands it to the player's depth.
//! 3. The depth's task (`world::task`) takes commands in arrival order,
//!    the actions queued behind one another (up to 64) as one batch, and
//!    calls [`DepthState::act_all`], which gives each action in turn to
//!    the rules (`rules`), which:
//!    - hold the action if the player already acted in its party's current
//!      round (it is applied when that round closes), else apply it: a
//!      step (into a monster: an attack; into a player: the two swap, or
//!      with `--pvp` an attack), waiting, an item's use, or the stairs (the
//!      player is removed here and handed on); or refuse it (a wall, no
//!      stairs, nothing to pick up: nothing happens and no time passes);
//!    - recompute sight for whoever moved and record newly seen cells in
//!      their memories;
//!    - close every round that has all it waits for (`rules::clock`): the
//!      monsters that concern that party act, its players regenerate, and
//!      held actions apply, which may close more rounds.
//!
//!    The views (`views`) hear each event as it happens: a player's new
//!    sight is diffed against what its client was told, with the players
//!    and monsters seen from there at that moment. At the end of each
//!    command (`Views::tell_changes`) they
//!    work out once, for every player the command may have changed
//!    something for, what changed since among the monsters it sees, its
//!    hit points and whom its round waits for, riding in its last sight
//!    diff when it has one. Those near a monster that changed are found by
//!    their cells, and only those who wait or were told they wait are asked
//!    whom for, so a command in a crowd does not look at every player.
//! 4. Those who stood still (the still) hear what the movers did in one
//!    list, at most every 50 ms: in 25 shifts by player id told 2 ms
//!    apart, with a batch when a shift's time has come, else by the depth's
//!    timer; beyond a hundred players on a depth less often, up to 250 ms
//!    (`views::still`). So a watcher in a crowd gets one message for many
//!    moves, and the answer to any action of its own (a wait too) shows the
//!    others as they stand then. Arrivals and departures are told the same
//!    way (`views::comings`): a leaver vanishes, a newcomer appears, and a
//!    burst of them is one line ("ann, bob and 12 others arrive on this
//!    depth.") and one roster change for each player.
//! 5. The task encodes the messages and sends each player all of its own
//!    from the batch as one reply; a reply that answers the player's action
//!    ends with its `Sight` and is marked done. A player whose reply does
//!    not fit its queue is dropped (and saved). Then the task acts on the
//!    [`Flow`]: a player who took the stairs is saved and handed to the
//!    next depth's task, whose arrival answers the action; one who died
//!    goes to the graveyard, gets its record and the graveyard, and is
//!    closed.
//! 6. Once the player's queue has taken them, the depth hands the same
//!    frames to the player's audience: each watcher's connection writes
//!    them too (a watcher too far behind loses its seat). A reply the full
//!    queue turned back reaches no watcher; and when a player leaves (a
//!    quit, bad input), what its depth sent it until it was off the level
//!    is written to it before its close, so that a watcher never sees what
//!    its player did not.
//! 7. The connection writes the frames (one flush for the reply); the
//!    client's `ClientState::apply` mirrors each, and the window redraws.
//!
//! Sight diffs name cells by their index in the radius-8 sight disc (197
//! cells), and their lists of cells travel packed as bits
//! (`protocol/src/packed.rs`: the first index of a list in a byte, then the
//! gaps between rising indices in Rice code), a few bits a cell; a cell's
//! terrain is sent only the first time it is seen.

mod orders;
mod recording;
pub(crate) mod rules;
pub(super) mod views;

use std::sync::Arc;

use gloam_protocol::{Action, MonsterId, PlayerId, Pos, ServerMsg};

pub use orders::may_start as may_start_order;
pub use recording::Recorded;
pub(crate) use rules::events::Nobody;
pub use rules::{
    Command, Death, End, Entry, Leaving, Monster, RULES_VERSION, SNAPSHOT_FORMAT, decode_history,
};
pub(crate) use rules::{
    Departure, Flow, HostRules, Killer, LogPart, Notice, Phase, Rules, Slaying,
};
pub(crate) use views::still::{Shift, StillSchedule};

use crate::bestiary::{Bestiary, KindId};
use crate::character::Player;
use crate::level::Level;
use crate::seeds::DepthSeeds;
use orders::Order;
use rules::events::Observer;
use views::{Telling, Views};

/// How many bytes of a snapshot are written between two calls of the pause
/// it is given (see [`DepthState::snapshot_later`]): a thousand players'
/// depth is about half a megabyte, written in about 5 ms (the
/// `long_history` example), so 8 KiB is a tenth of a millisecond or less.
pub(crate) const PAUSE_EVERY: usize = 8 * 1024;

/// Where an arriving player is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Arrival {
    /// Joining the game: the level's arrival point.
    Join,
    /// Down the stairs from the depth above: onto this level's up staircase.
    FromAbove,
    /// Up the stairs from the depth below: onto this level's down staircase.
    FromBelow,
    /// Back where the player was when it left the game.
    Resume(Pos),
}

/// A message for one player.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub to: PlayerId,
    pub msg: ServerMsg,
}

/// What one or more commands produced: the messages for players, and
/// what the rules handed back of the game's flow.
#[derive(Debug, Default)]
pub struct Outcome {
    pub out: Vec<Outgoing>,
    /// Who was answered, came, went and died (see `rules::flow`).
    pub flow: Flow,
    /// Of those answered, players whose standing order goes on: their
    /// connection sends it again, at their pace (see `orders`).
    pub going_on: Vec<PlayerId>,
}

impl Outcome {
    /// A message for `to`.
    pub(crate) fn tell(&mut self, to: PlayerId, msg: ServerMsg) {
        self.out.push(Outgoing { to, msg });
    }

    /// What `then` produced, after this.
    pub fn append(&mut self, then: Outcome) {
        rules::flow::join(&mut self.out, then.out);
        self.flow.append(then.flow);
        rules::flow::join(&mut self.going_on, then.going_on);
    }
}

/// A depth: its rules, and the views that tell its players.
#[derive(Debug)]
pub struct DepthState {
    pub(crate) rules: Rules,
    pub(crate) views: Views,
}

impl DepthState {
    /// A depth with nobody on it yet, and no monsters.
    pub fn new(depth: u16, level: Arc<Level>, sight_radius: u8) -> Self {
        let seeds = DepthSeeds::from_level_seed(0);
        Self::with_bestiary(depth, level, sight_radius, Arc::new(Bestiary::default()), seeds)
    }

    /// A depth whose monsters will be of `bestiary`'s kinds, rolling dice
    /// from its `seeds`.
    pub fn with_bestiary(
        depth: u16,
        level: Arc<Level>,
        sight_radius: u8,
        bestiary: Arc<Bestiary>,
        seeds: DepthSeeds,
    ) -> Self {
        let rules = Rules::new(depth, level, sight_radius, bestiary, seeds);
        Self { rules, views: Views::default() }
    }

    pub fn set_rules(&mut self, host: HostRules) {
        self.rules.host = host;
    }

    /// The kinds of item this depth's items are of.
    pub fn set_items(&mut self, items: Arc<crate::items::Catalogue>) {
        self.rules.set_items(items);
    }

    /// Lays `item` on the pile on `pos` of a depth being built.
    pub fn lay(&mut self, pos: Pos, item: crate::items::Item) {
        self.rules.lay(pos, item);
    }

    /// Puts a monster of `kind` on `pos` (an open cell nobody stands on),
    /// asleep if its kind sleeps. Gives its id, or `None` if the cell is
    /// taken. Those who see it are told with the next command.
    pub fn spawn(&mut self, kind: KindId, pos: Pos) -> Option<MonsterId> {
        self.run(&mut Outcome::default(), |rules, obs| (rules.spawn(kind, pos, obs), None))
    }

    /// Takes off the depth the uniques of the kinds in `slain` (slain in
    /// the world before), logged: the kinds it took off.
    pub fn clear_slain(&mut self, slain: &[KindId]) -> Vec<KindId> {
        self.rules.clear_slain(slain)
    }

    /// The depth as it stands is full: restocks never bring it past this
    /// many monsters (see `rules::restock`).
    pub fn mark_full(&mut self) {
        self.rules.mark_full();
    }

    /// The depth stood empty for `periods` restock periods and regains
    /// monsters (see `rules::restock`): how many came. Those who see them
    /// (nobody, when the depth's task asks) are told with the next command.
    pub fn restock(&mut self, periods: u32) -> usize {
        self.run(&mut Outcome::default(), |rules, obs| (rules.restock(periods, obs), None))
    }

    /// Runs one command of the rules with the views listening, telling
    /// into `outcome`. When the command hands back a flow (it changed the
    /// depth), the views work out what each player is told of it and the
    /// flow joins the outcome; a command that hands back none leaves what
    /// it did to be told with the next.
    fn run<T>(
        &mut self,
        outcome: &mut Outcome,
        command: impl FnOnce(&mut Rules, &mut dyn Observer) -> (T, Option<Flow>),
    ) -> T {
        let mut telling = Telling { views: &mut self.views, outcome };
        let (value, flow) = command(&mut self.rules, &mut telling);
        if let Some(flow) = flow {
            self.views.tell_changes(&self.rules, &flow.answered, outcome);
            outcome.flow.append(flow);
        }
        value
    }

    /// Puts a player on this level and tells it what it remembers and
    /// sees; the others see it with the next news of movers, and hear of
    /// it with the news (see [`tell_the_still`](Self::tell_the_still)).
    /// One who comes up to the first depth with the artifact escapes with
    /// it, in a command of its own.
    pub fn arrive(&mut self, player: Player, via: Arrival) -> Outcome {
        let id = player.id;
        let memory = player.memory(self.depth()).map(gloam_protocol::codec::encode);
        self.rules.mark(Command::Remembered { memory });
        let mut outcome = Outcome::default();
        self.run(&mut outcome, |rules, obs| ((), Some(rules.arrive(player, via, obs))));
        if self.rules.wins(id, via) {
            self.run(&mut outcome, |rules, obs| ((), Some(rules.escape(id, obs))));
        }
        outcome
    }

    /// A player's action. Applied now if the player has not acted yet in
    /// its party's round, else held until that round closes; every action
    /// applied is answered with a `Sight` message to its player.
    pub fn act(&mut self, id: PlayerId, action: Action) -> Outcome {
        self.act_all([(id, action)])
    }

    /// Several players' actions, one after the other, as [`act`](Self::act)
    /// applies each. Those who stood still are not told of the movers yet:
    /// they hear of them all in one list when told (see
    /// [`tell_the_still`](Self::tell_the_still)), or with the first news
    /// of a monster they see, so that what a client shows is always one
    /// moment's truth. In a crowd that is what keeps an action's cost from
    /// growing with the number who watch it.
    pub fn act_all(&mut self, actions: impl IntoIterator<Item = (PlayerId, Action)>) -> Outcome {
        let mut outcome = Outcome::default();
        for (id, action) in actions {
            let one = match Order::of(&self.rules, id, action) {
                Some(order) => {
                    self.rules.mark(Command::Ordered { id, action });
                    self.carry_out(id, order)
                }
                None => self.act_one(id, action),
            };
            outcome.append(one);
        }
        // One who died or left after its action was applied (by another's,
        // later in the batch) is not answered.
        outcome.flow.answered.retain(|&id| self.rules.player(id).is_some());
        outcome
    }

    fn act_one(&mut self, id: PlayerId, action: Action) -> Outcome {
        let mut one = Outcome::default();
        self.run(&mut one, |rules, obs| ((), rules.act(id, action, obs)));
        one
    }

    /// One step of a standing order (see `orders`): the step applied as
    /// the action it is, and the order going on unless it is done or the
    /// step showed the player something; or, when no step can be taken,
    /// why, answered at once with no action spent.
    fn carry_out(&mut self, id: PlayerId, order: Order) -> Outcome {
        let step = match self.rules.clock.phase(id) {
            Phase::Ready => order.step(&self.rules, id),
            Phase::Acted | Phase::Away => Err(orders::Balk::Waiting),
        };
        let action = match step {
            Ok(action) => action,
            Err(why) => return self.balk(id, why),
        };
        let mut one = Outcome::default();
        let told = self.views.monsters_told(id);
        self.run(&mut one, |rules, obs| ((), rules.act_watched(id, action, told, obs)));
        // A step refused would be refused again, at no cost, for ever.
        if !one.flow.answered.contains(&id) || one.flow.refused.contains(&id) {
            return one;
        }
        // Hurt, it needs no line: the blow's says so.
        let noticed: Vec<Notice> =
            one.flow.notices.iter().filter(|(to, _)| *to == id).map(|&(_, n)| n).collect();
        let notice = noticed.iter().find(|&&n| n == Notice::Hurt).or(noticed.first()).copied();
        match notice {
            Some(notice) => {
                if let Some(line) = views::lines::notice(&self.rules, id, notice) {
                    one.tell(id, ServerMsg::Note(line));
                }
            }
            None if order.is_done(&self.rules, id) => {
                if let Some(line) = views::lines::order_done(order) {
                    one.tell(id, ServerMsg::Note(line.into()));
                }
            }
            None => one.going_on.push(id),
        }
        one
    }

    /// An order that can take no step: why, with the player's sight as
    /// the answer every action gets.
    fn balk(&mut self, id: PlayerId, why: orders::Balk) -> Outcome {
        let mut one = Outcome::default();
        let Some(at) = self.rules.player(id).map(|p| p.pos) else { return one };
        let mut diff = gloam_protocol::SightDiff { at, ..Default::default() };
        self.views.tell_now(&self.rules, id, &mut diff);
        one.tell(id, ServerMsg::Note(views::lines::balk(&self.rules, why)));
        one.tell(id, ServerMsg::Sight(diff));
        one.flow = Flow::answering(id);
        one
    }

    /// The deadline of the round `id` acted in has passed: those it still
    /// waits for are counted away and it closes without them.
    pub fn deadline(&mut self, id: PlayerId) -> Outcome {
        let mut outcome = Outcome::default();
        self.run(&mut outcome, |rules, obs| ((), rules.deadline(id, obs)));
        outcome
    }

    /// Takes a player off this level (it left the game, its connection
    /// fell behind, or it is being moved): returns the player with its
    /// memories, and what its going set off (a round that waited only for
    /// it closes). Those who saw it see it vanish with the next news of
    /// movers, and everyone hears why with the news.
    pub fn leave(&mut self, id: PlayerId, how: Leaving) -> (Option<Player>, Outcome) {
        let mut outcome = Outcome::default();
        let player = self.run(&mut outcome, |rules, obs| {
            let (player, flow) = rules.leave(id, how, obs);
            (player, Some(flow))
        });
        (player, outcome)
    }

    /// How a life that ended here ended, in words: "a jackal", another
    /// player's name, or the artifact one escaped with.
    pub fn end_in_words(&self, end: &End) -> String {
        views::lines::end(&self.rules, end)
    }

    /// Tells those who stood still (all, or those of one shift, see
    /// [`Shift`]) what the movers since they were last told did, and
    /// the comings and goings they have not heard of, into `outcome`:
    /// riding in a player's last sight diff there when it has one.
    pub(crate) fn tell_the_still(&mut self, outcome: &mut Outcome, shift: Option<Shift>) {
        if !self.has_untold() {
            return;
        }
        let joined = !outcome.out.is_empty();
        self.rules.mark(Command::told(shift, joined));
        self.views.tell_untold(&self.rules, outcome, shift);
    }

    /// [`tell_the_still`](Self::tell_the_still), all of them: what a depth
    /// does after a deadline (and the examples, which keep no shifts).
    pub fn tell_all_the_still(&mut self, outcome: &mut Outcome) {
        self.tell_the_still(outcome, None);
    }

    /// Whether `id`'s shift of the still passed it by (see
    /// `Views::tell_movers`).
    #[cfg(test)]
    pub(crate) fn passed_by(&self, id: PlayerId) -> bool {
        self.views.passed_by(id)
    }

    /// True when some movers are not yet told to some of those who stood
    /// still, or some comings and goings to anyone.
    pub(crate) fn has_untold(&self) -> bool {
        self.views.has_untold()
    }

    /// A line for everyone on this depth.
    pub(crate) fn tell_everyone(&mut self, text: &str) -> Vec<Outgoing> {
        self.rules.mark(Command::Announced { text: text.to_owned() });
        Views::tell_everyone(&self.rules, text)
    }

    /// Everything `id`'s client holds of this depth, as the messages that
    /// build it from nothing (see `views`); `None`: the player is not here.
    pub(crate) fn view_of(&self, id: PlayerId) -> Option<Vec<ServerMsg>> {
        self.views.view_of(&self.rules, id)
    }

    /// The names of everyone on this depth but `id`, sorted.
    pub fn roster_for(&self, id: PlayerId) -> Vec<String> {
        views::roster_for(&self.rules, id)
    }

    pub(crate) fn depth(&self) -> u16 {
        self.rules.depth
    }

    pub fn level(&self) -> &Level {
        &self.rules.level
    }

    /// How many players are on this depth.
    pub fn player_count(&self) -> usize {
        self.rules.occupancy.len()
    }

    /// True when nobody is on this depth.
    pub(crate) fn is_empty(&self) -> bool {
        self.player_count() == 0
    }

    pub(crate) fn contains(&self, id: PlayerId) -> bool {
        self.rules.player(id).is_some()
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.rules.player(id)
    }

    /// The top of the pile on `pos`, as a player who sees it is told.
    pub fn pile_top(&self, pos: Pos) -> Option<gloam_protocol::Lying> {
        self.rules.floor.top(pos, &self.rules.items)
    }

    pub fn monsters(&self) -> impl Iterator<Item = &Monster> {
        self.rules.monsters.values()
    }

    pub fn phase(&self, id: PlayerId) -> Phase {
        self.rules.clock.phase(id)
    }

    /// Rounds closed on this depth so far.
    pub fn rounds(&self) -> u64 {
        self.rules.clock.rounds
    }

    /// The players who acted and wait for their round to close.
    pub fn waiting(&self) -> Vec<PlayerId> {
        self.rules.clock.waiting().collect()
    }

    /// The players who share a danger with `id` (see `rules::parties`).
    pub fn party_of(&self, id: PlayerId) -> Vec<PlayerId> {
        self.rules.party_of(id)
    }

    /// Keeps the log of every command from now on (see `rules::log`).
    pub fn keep_log(&mut self) {
        self.rules.keep_log();
    }

    /// What this depth has applied and not yet handed over, in order.
    pub fn log(&self) -> &[Entry] {
        self.rules.log()
    }

    /// Hands over the entries not yet handed over (see `rules::log`).
    pub fn take_log(&mut self) -> Option<LogPart> {
        self.rules.take_log()
    }

    /// [`take_log`](Self::take_log) without the checksum: the number of
    /// the first entry and the entries (see `keeping`).
    pub(crate) fn take_unsummed(&mut self) -> Option<(u64, Vec<Entry>)> {
        self.rules.take_unsummed()
    }

    /// How many entries were handed over, when the last checksum handed
    /// over counted fewer (see `rules::log`).
    pub(crate) fn owed_sum(&self) -> Option<u64> {
        self.rules.owed_sum()
    }

    /// Notes that the checksum after every entry handed over was handed
    /// over too.
    pub(crate) fn note_summed(&mut self) {
        self.rules.note_summed();
    }

    /// Numbers the next entry after `count` others (a history set aside).
    pub fn skip_log(&mut self, count: u64) {
        self.rules.skip_log(count);
    }

    /// Applies `log` to this depth, fresh from its seed, with nobody
    /// listening (see `rules::log`).
    pub fn replay(&mut self, log: &[Entry]) -> Result<(), String> {
        self.rules.replay(log)
    }

    /// Replays a depth's stored history, whose first entry is numbered
    /// `first`, and takes its place in it (see `rules::log`).
    pub fn resume(&mut self, first: u64, history: &[Entry]) -> Result<(), String> {
        self.rules.resume(first, history)
    }

    /// A checksum of everything that decides what happens next.
    pub fn checksum(&self) -> u64 {
        self.rules.checksum()
    }

    /// The depth's state as it stands, in bytes, with what its views had
    /// told each player (see `rules::snapshot`).
    pub fn snapshot(&self) -> Vec<u8> {
        self.snapshot_later()(&mut || {})
    }

    /// [`snapshot`](Self::snapshot), as the depth stands now, to be made
    /// later on another thread: the state is cloned now (a fraction of the
    /// time its bytes take to write, for a crowd), written when called,
    /// with a call to the `pause` it is given after every `PAUSE_EVERY`
    /// bytes or so (the store's thread lets the game run there).
    pub fn snapshot_later(
        &self,
    ) -> impl FnOnce(&mut dyn FnMut()) -> Vec<u8> + Send + Sync + 'static {
        let (rules, views) = (self.rules.frozen(), self.views.clone());
        move |pause| rules.snapshot(&views.to_bytes(pause), pause)
    }

    /// Puts this depth, fresh from its seed, in the state of a
    /// [`snapshot`](Self::snapshot) whose checksum was `checksum`; refused,
    /// changing nothing, when it does not prove itself (see
    /// `rules::snapshot`). Then [`resume`](Self::resume) the entries after it.
    pub fn restore(&mut self, bytes: &[u8], checksum: u64) -> Result<(), String> {
        self.rules.restore(bytes, checksum).map(drop)
    }

    /// As [`restore`](Self::restore), with the views as the snapshot kept
    /// them: for a recording that starts from it.
    pub(crate) fn restore_watched(&mut self, bytes: &[u8], checksum: u64) -> Result<(), String> {
        let views = self.rules.restore(bytes, checksum)?;
        self.views = Views::from_bytes(&views)?;
        Ok(())
    }
}

#[cfg(test)]
mod corridor_tests;
#[cfg(test)]
mod flow_tests;
#[cfg(test)]
mod item_tests;
#[cfg(test)]
mod monster_tests;
#[cfg(test)]
mod orders_tests;
#[cfg(test)]
mod recording_tests;
#[cfg(test)]
mod restock_tests;
#[cfg(test)]
mod round_tests;
#[cfg(test)]
mod skill_tests;
#[cfg(test)]
mod snapshot_tests;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unique_tests;
#[cfg(test)]
mod use_tests;
#[cfg(test)]
mod zap_tests;

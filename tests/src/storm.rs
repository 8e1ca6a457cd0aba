//! A reconnect storm: a crowd of simulated players, each with its key,
//! plays a server; the server restarts (the host's doing: a [`Storm`] only
//! watches); every player comes back by itself with the window's own rules
//! of when to try again (`gloam_client::session::retry`: at once after a
//! close with 1012, then backing off with jitter, each player drawing from
//! a seed of its own), and the storm tells who came back and when, whether
//! each came back as the same character where it stood (depth, cell, hit
//! points and pack as its client last knew them), and who was refused and
//! why. `gloam-bot --storm` and the server's storm test both run one.
//!
//! Every wait is bounded: joining, the loss and the return each have a
//! deadline, and a player still trying when the storm ends gives up.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gloam_client::session::retry::{self, Ending, Jitter, Next};
use gloam_protocol::{Carried, Pos, Refusal, Token};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;

use crate::{SimClient, SimError};

/// How a storm's players play.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How many players.
    pub clients: usize,
    /// Actions a second, each player (at its own phase of the period).
    pub rate: f64,
    /// Their names: this, then the player's number.
    pub prefix: String,
    /// Actions each player has answered before the storm counts it ready.
    pub warm_up: usize,
    /// The seed of the first player's jitter; the others' follow it.
    pub seed: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Self { clients: 100, rate: 2.0, prefix: "storm".into(), warm_up: 3, seed: 38 }
    }
}

/// How many players say hello at once while the crowd first joins (as
/// `gloam-bot` joins its players); coming back, each tries when its own
/// rules say.
const JOINS_AT_ONCE: usize = 32;

/// How long a player coming back waits for the answer to its hello once
/// its connection is open. The window waits for as long as the server
/// keeps the link; a player that gave up sooner and tried again would
/// leave the server a ghost of itself to serve, which a client never
/// does. Bounded all the same.
const PATIENCE: Duration = Duration::from_secs(120);

/// How long a player waits for the server to answer its goodbye.
const GOODBYE_WAIT: Duration = Duration::from_secs(10);

/// What a returning player must find again: where its client last saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub depth: u16,
    pub at: Option<Pos>,
    pub hp: Option<(u16, u16)>,
    pub pack: Vec<Carried>,
}

impl Place {
    fn of(sim: &SimClient) -> Self {
        let s = &sim.state;
        Self { depth: s.depth, at: s.at, hp: s.hp, pack: s.pack.clone() }
    }
}

/// What one player tells the storm.
#[derive(Debug)]
enum News {
    /// Joined, and its first actions were answered.
    Ready,
    /// Its link ended.
    Lost(Instant),
    /// A try to come back was refused (it may try again).
    Refused(Refusal),
    /// Back in the game after `tries` tries: `resumed` unless the server
    /// made it a new character, `moved` when it was not where it stood.
    /// `in_flight`: its link ended while an action of its awaited its
    /// answer.
    Back { at: Instant, tries: u32, resumed: bool, moved: Option<String>, in_flight: bool },
    /// Where its client last saw it stand, when its link was lost.
    Stood(u16, Option<Pos>),
    /// Gave up (or never joined), and why.
    Out(String),
}

/// One player's part.
#[derive(Debug, Clone)]
struct Player {
    url: String,
    name: String,
    /// When it acts: the first tick, then every period.
    first: Instant,
    period: Duration,
    warm_up: usize,
    seed: u32,
    news: mpsc::UnboundedSender<(usize, News)>,
    index: usize,
}

impl Player {
    fn tell(&self, news: News) {
        let _ = self.news.send((self.index, news));
    }

    fn ticker(&self) -> tokio::time::Interval {
        let start = self.first.max(Instant::now());
        let mut tick = tokio::time::interval_at(start.into(), self.period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick
    }
}

/// A crowd playing a server, each player ready to come back by itself.
#[derive(Debug)]
pub struct Storm {
    clients: usize,
    news: mpsc::UnboundedReceiver<(usize, News)>,
    stop: watch::Sender<bool>,
    players: JoinSet<()>,
}

impl Storm {
    /// Joins `settings.clients` players to `url` and waits (at most
    /// `within`) until every one has joined and had its first actions
    /// answered.
    pub async fn join(url: &str, settings: &Settings, within: Duration) -> anyhow::Result<Self> {
        anyhow::ensure!(settings.clients > 0 && settings.rate > 0.0, "no players, or no pace");
        let (tx, news) = mpsc::unbounded_channel();
        let (stop, _) = watch::channel(false);
        let joining = Arc::new(Semaphore::new(JOINS_AT_ONCE));
        let period = Duration::from_secs_f64(1.0 / settings.rate);
        let started = Instant::now();
        let mut players = JoinSet::new();
        for index in 0..settings.clients {
            let player = Player {
                url: url.to_owned(),
                name: format!("{}{index}", settings.prefix),
                first: started + period.mul_f64(index as f64 / settings.clients as f64),
                period,
                warm_up: settings.warm_up,
                seed: settings.seed.wrapping_add(index as u32),
                news: tx.clone(),
                index,
            };
            players.spawn(live(player, joining.clone(), stop.subscribe()));
        }
        let mut storm = Self { clients: settings.clients, news, stop, players };
        storm.until_ready(Instant::now() + within).await?;
        Ok(storm)
    }

    async fn until_ready(&mut self, deadline: Instant) -> anyhow::Result<()> {
        let mut ready = 0;
        while ready < self.clients {
            let next = tokio::time::timeout_at(deadline.into(), self.news.recv()).await;
            match next {
                Ok(Some((_, News::Ready))) => ready += 1,
                Ok(Some((i, News::Out(why)))) => anyhow::bail!("player {i} did not join: {why}"),
                Ok(Some(_)) => anyhow::bail!("a link was lost while the crowd joined"),
                Ok(None) => anyhow::bail!("the players ended"),
                Err(_) => anyhow::bail!("{ready} of {} ready in time", self.clients),
            }
        }
        Ok(())
    }

    /// Waits until every player has lost its link and come back (or given
    /// up), at most `wait_for_loss` for the first loss and then `within`
    /// from `since` (the restart's start, or else the first loss); then
    /// stops the crowd (each player quits) and reports.
    pub async fn until_back(
        mut self,
        since: Option<Instant>,
        wait_for_loss: Duration,
        within: Duration,
    ) -> StormReport {
        let mut tally = Tally::new(self.clients);
        let first_loss = Instant::now() + wait_for_loss;
        let mut deadline = since.map(|s| s + within);
        while !tally.settled() {
            let until = deadline.unwrap_or(first_loss);
            let Ok(Some((i, news))) = tokio::time::timeout_at(until.into(), self.news.recv()).await
            else {
                break;
            };
            if let News::Lost(at) = news
                && deadline.is_none()
            {
                deadline = Some(at + within);
            }
            tally.note(i, news);
        }
        let since = since.or(tally.lost.iter().flatten().min().copied());
        let _ = self.stop.send(true);
        while self.players.join_next().await.is_some() {}
        tally.report(since)
    }
}

/// A player's life in the storm: joins, plays until its link ends, comes
/// back, plays on until the storm stops, and quits.
async fn live(me: Player, joining: Arc<Semaphore>, mut stop: watch::Receiver<bool>) {
    let permit = joining.acquire_owned().await;
    let joined = SimClient::join(&me.url, &me.name, None).await;
    drop(permit);
    let mut sim = match joined {
        Ok(sim) => sim,
        Err(e) => return me.tell(News::Out(format!("could not join: {e}"))),
    };
    let mut tick = me.ticker();
    match play(&mut sim, &me, &mut tick, me.warm_up, &mut stop).await {
        Played::Acted => me.tell(News::Ready),
        Played::Lost(..) | Played::Stopped => {
            return me.tell(News::Out("lost its link while joining".into()));
        }
    }
    let (ending, in_flight) = match play(&mut sim, &me, &mut tick, usize::MAX, &mut stop).await {
        Played::Lost(ending, in_flight) => (ending, in_flight),
        Played::Acted | Played::Stopped => return goodbye(sim).await,
    };
    me.tell(News::Lost(Instant::now()));
    // The key of the character it plays now (one that died was made again).
    let (token, before) = (sim.token, Place::of(&sim));
    me.tell(News::Stood(before.depth, before.at));
    let Some((mut sim, tries)) = come_back(&me, token, ending, &mut stop).await else { return };
    // Its hit points are told after the sight that answers the hello.
    until_vitals(&mut sim).await;
    let moved = (Place::of(&sim) != before)
        .then(|| format!("was {before:?}, back at {:?}", Place::of(&sim)));
    let resumed = sim.token == token;
    me.tell(News::Back { at: Instant::now(), tries, resumed, moved, in_flight });
    // Back, it stands and reads until the storm ends: one that acted could
    // take the cell of another not back yet (walking, or letting the
    // monsters' rounds pass), who would then be put beside it, and the
    // storm could not tell that from a place lost.
    if let Played::Stopped = stand(&mut sim, &mut stop).await {
        goodbye(sim).await;
    }
}

/// Reads until the client knows its hit points, within a message's
/// timeout.
async fn until_vitals(sim: &mut SimClient) {
    let deadline = tokio::time::Instant::now() + crate::sim::RECV_TIMEOUT;
    while sim.state.hp.is_none() {
        match tokio::time::timeout_at(deadline, sim.recv()).await {
            Ok(Ok(_)) => {}
            Ok(Err(_)) | Err(_) => return,
        }
    }
}

async fn goodbye(sim: SimClient) {
    let _ = tokio::time::timeout(GOODBYE_WAIT, sim.quit()).await;
}

/// How a spell of play ended.
enum Played {
    /// It took the actions it was to take.
    Acted,
    /// The link ended so.
    /// The link ended so; true when an action awaited its answer.
    Lost(Ending, bool),
    /// The storm stopped.
    Stopped,
}

/// Reads (and answers pings) without acting, until the link ends or the
/// storm stops.
async fn stand(sim: &mut SimClient, stop: &mut watch::Receiver<bool>) -> Played {
    loop {
        tokio::select! {
            _ = stop.wait_for(|stopped| *stopped) => return Played::Stopped,
            read = sim.recv() => match read {
                Ok(_) | Err(SimError::Timeout(_)) => {}
                Err(e) => return Played::Lost(ending_of(&e), false),
            },
        }
    }
}

/// Plays `actions` explorer's actions (as `gloam-bot`'s players) at the
/// player's pace, reading whatever comes between them as a client does, so
/// that a close is seen when it comes. A character that dies is made
/// again under the same name and key.
async fn play(
    sim: &mut SimClient,
    me: &Player,
    tick: &mut tokio::time::Interval,
    actions: usize,
    stop: &mut watch::Receiver<bool>,
) -> Played {
    let mut turn = 0;
    while turn < actions {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.wait_for(|stopped| *stopped) => return Played::Stopped,
            read = sim.recv() => match read {
                Ok(_) | Err(SimError::Timeout(_)) => continue,
                Err(e) => return Played::Lost(ending_of(&e), false),
            },
        }
        let action = sim.explorer_action(turn);
        turn += 1;
        match sim.act(action).await {
            Ok(_) => {}
            Err(SimError::Died(_)) => {
                match SimClient::join_with_token(&me.url, &me.name, sim.token, None).await {
                    Ok(again) => *sim = again,
                    Err(e) => return Played::Lost(ending_of(&e), false),
                }
            }
            Err(e) => return Played::Lost(ending_of(&e), true),
        }
    }
    Played::Acted
}

/// How a connection's error reads to the rules of trying again.
fn ending_of(error: &SimError) -> Ending {
    match error {
        SimError::Closed(Some(frame)) => Ending::Code(frame.code.into()),
        // The stream ended without a close frame, or could not be opened or
        // read: the network's or a crash's doing.
        SimError::Closed(None) | SimError::Net(_) | SimError::Timeout(_) => Ending::Dropped,
        SimError::Died(_) => Ending::Code(1000),
        SimError::Refused(_) => Ending::Code(1008),
        SimError::Decode(_) | SimError::State(_) | SimError::Oracle(_) | SimError::Stuck(_) => {
            Ending::Unreadable
        }
    }
}

/// Tries to come back as the window does (`retry::next` and `retry::wait`
/// with a jitter of the player's own seed) until it is back, a refusal or
/// an ending says not to try again, or the storm stops. Gives the client
/// back and how many tries it took.
async fn come_back(
    me: &Player,
    token: Option<Token>,
    mut ending: Ending,
    stop: &mut watch::Receiver<bool>,
) -> Option<(SimClient, u32)> {
    let mut jitter = Jitter::seeded(me.seed);
    let (mut tries, mut waits) = (0u32, 0u32);
    let mut refused: Option<Refusal> = None;
    loop {
        let wait = match retry::next(refused.as_ref(), ending, tries) {
            Next::Stop => {
                let why = refused.map_or(format!("{ending:?}"), |r| format!("refused: {r}"));
                me.tell(News::Out(why));
                return None;
            }
            Next::AtOnce => Duration::ZERO,
            Next::Backoff => {
                waits += 1;
                retry::wait(waits - 1, jitter.draw())
            }
        };
        tries += 1;
        let trying = async {
            tokio::time::sleep(wait).await;
            SimClient::join_patiently(&me.url, &me.name, token, PATIENCE).await
        };
        let tried = tokio::select! {
            tried = trying => tried,
            _ = stop.wait_for(|stopped| *stopped) => {
                me.tell(News::Out(format!("still trying after {tries} tries")));
                return None;
            }
        };
        match tried {
            Ok(sim) => return Some((sim, tries)),
            Err(SimError::Refused(refusal)) => {
                me.tell(News::Refused(refusal.clone()));
                (refused, ending) = (Some(refusal), Ending::Code(1008));
            }
            Err(e) => (refused, ending) = (None, ending_of(&e)),
        }
    }
}

/// What the players told, as it came.
#[derive(Debug)]
struct Tally {
    lost: Vec<Option<Instant>>,
    back: Vec<Option<Instant>>,
    out: Vec<Option<String>>,
    /// How many clients believed they stood on each cell at the loss.
    stood: BTreeMap<(u16, Pos), usize>,
    /// Where each client believed it stood at the loss, and who moved.
    cells: Vec<Option<(u16, Pos)>>,
    moved: Vec<usize>,
    report: StormReport,
}

impl Tally {
    fn new(clients: usize) -> Self {
        let report = StormReport { clients, ..StormReport::default() };
        Self {
            lost: vec![None; clients],
            back: vec![None; clients],
            out: vec![None; clients],
            stood: BTreeMap::new(),
            cells: vec![None; clients],
            moved: Vec::new(),
            report,
        }
    }

    /// Every player is back or out.
    fn settled(&self) -> bool {
        self.back.iter().zip(&self.out).all(|(b, o)| b.is_some() || o.is_some())
    }

    fn note(&mut self, i: usize, news: News) {
        let r = &mut self.report;
        match news {
            News::Ready => {}
            News::Stood(depth, Some(at)) => {
                *self.stood.entry((depth, at)).or_default() += 1;
                self.cells[i] = Some((depth, at));
            }
            News::Stood(_, None) => {}
            News::Lost(at) => self.lost[i] = Some(at),
            News::Refused(refusal) => *r.refusals.entry(refusal.to_string()).or_default() += 1,
            News::Back { at, tries, resumed, moved, in_flight } => {
                self.back[i] = Some(at);
                r.most_tries = r.most_tries.max(tries);
                r.made_anew += usize::from(!resumed);
                if let Some(moved) = moved {
                    r.moved_in_flight += usize::from(in_flight);
                    self.moved.push(i);
                    r.moved.push(format!("player {i}: {moved}"));
                }
            }
            News::Out(why) => {
                *r.out.entry(why.clone()).or_default() += 1;
                self.out[i] = Some(why);
            }
        }
    }

    /// The report, its times counted from `since`.
    fn report(mut self, since: Option<Instant>) -> StormReport {
        let r = &mut self.report;
        r.lost = self.lost.iter().flatten().count();
        r.back = self.back.iter().flatten().count();
        r.sharing_a_cell = self.stood.values().filter(|&&n| n > 1).sum();
        let shared = |i: &&usize| self.cells[**i].is_some_and(|c| self.stood[&c] > 1);
        r.moved_sharing = self.moved.iter().filter(shared).count();
        let mut times: Vec<Duration> = match since {
            Some(since) => self.back.iter().flatten().map(|b| b.duration_since(since)).collect(),
            None => Vec::new(),
        };
        times.sort_unstable();
        let at = |p: f64| times.get(((times.len() as f64 * p) as usize).min(times.len() - 1));
        if !times.is_empty() {
            (r.p50, r.p99, r.last) = (at(0.5).copied(), at(0.99).copied(), times.last().copied());
        }
        let mut apart: Vec<Duration> = self
            .lost
            .iter()
            .zip(&self.back)
            .filter_map(|(l, b)| Some(b.as_ref()?.duration_since(*l.as_ref()?)))
            .collect();
        apart.sort_unstable();
        r.own_p99 =
            apart.get(((apart.len() as f64 * 0.99) as usize).min(apart.len().max(1) - 1)).copied();
        self.report
    }
}

/// What a storm came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StormReport {
    pub clients: usize,
    /// Players whose link ended.
    pub lost: usize,
    /// Players back in the game.
    pub back: usize,
    /// Of those back, how many the server made new characters (their key
    /// not taken for theirs).
    pub made_anew: usize,
    /// Of those back, who was not where its client last saw it.
    pub moved: Vec<String>,
    /// Of those, how many lost their link while an action awaited its
    /// answer.
    pub moved_in_flight: usize,
    /// Players whose client believed, at the loss, that it stood on a cell
    /// another client believed it stood on (not at the same moment: one
    /// may have stepped there after the other left, as a server stops).
    pub sharing_a_cell: usize,
    /// Of those not where they stood, how many had believed a shared cell
    /// theirs.
    pub moved_sharing: usize,
    /// Every refusal met on the way back, by its words (a player may meet
    /// several, and then come back).
    pub refusals: BTreeMap<String, usize>,
    /// Players who gave up, by why.
    pub out: BTreeMap<String, usize>,
    /// Time to be back, from the restart (or the first loss): the median,
    /// the 99th percentile and the last.
    pub p50: Option<Duration>,
    pub p99: Option<Duration>,
    pub last: Option<Duration>,
    /// The 99th percentile of each player's own time from its loss to its
    /// return.
    pub own_p99: Option<Duration>,
    /// The most tries any player took to come back.
    pub most_tries: u32,
}

impl StormReport {
    /// Players not back as themselves in their place: locked out, given
    /// up, made anew or moved.
    pub fn not_back_as_themselves(&self) -> usize {
        self.clients - self.back + self.made_anew + self.moved.len()
    }
}

impl std::fmt::Display for StormReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s =
            |d: Option<Duration>| d.map_or("-".to_owned(), |d| format!("{:.2} s", d.as_secs_f64()));
        writeln!(f, "{} players, {} lost their link, {} back", self.clients, self.lost, self.back)?;
        writeln!(
            f,
            "back after the restart: p50 {}, p99 {}, the last {}; each from its own loss p99 {}; at most {} tries",
            s(self.p50),
            s(self.p99),
            s(self.last),
            s(self.own_p99),
            self.most_tries
        )?;
        writeln!(
            f,
            "made anew {}, not where they stood {} ({} with an action in flight at the close, \
             {} on a cell another client believed its own)",
            self.made_anew,
            self.moved.len(),
            self.moved_in_flight,
            self.moved_sharing
        )?;
        writeln!(
            f,
            "at the loss, clients sharing a cell they believed theirs {}",
            self.sharing_a_cell
        )?;
        for line in self.moved.iter().take(5) {
            writeln!(f, "  {line}")?;
        }
        for (why, n) in &self.refusals {
            writeln!(f, "refused {n} times: {why}")?;
        }
        for (why, n) in &self.out {
            writeln!(f, "gave up, {n}: {why}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    use super::*;

    /// A restart's close is tried again at once; a network's drop after a
    /// wait; a wrong key never.
    #[test]
    fn a_restart_is_come_back_to_at_once_as_the_window_does() {
        let restart = CloseFrame { code: CloseCode::from(1012), reason: "restarting".into() };
        let ending = ending_of(&SimError::Closed(Some(restart)));
        assert_eq!(retry::next(None, ending, 0), Next::AtOnce);
        assert_eq!(retry::next(None, ending_of(&SimError::Closed(None)), 1), Next::Backoff);
        let wrong = SimError::Refused(Refusal::WrongToken);
        assert_eq!(retry::next(Some(&Refusal::WrongToken), ending_of(&wrong), 1), Next::Stop);
    }

    #[test]
    fn the_report_counts_from_the_restart_and_names_who_is_not_back_as_itself() {
        let since = Instant::now();
        let s = Duration::from_secs;
        let mut tally = Tally::new(4);
        for i in 0..4 {
            tally.note(i, News::Lost(since + s(1)));
        }
        assert!(!tally.settled());
        for (i, after) in [(0, 3), (1, 5), (2, 9)] {
            let moved = (i == 2).then(|| "one step off".to_owned());
            let in_flight = i == 2;
            let back =
                News::Back { at: since + s(after), tries: 2, resumed: true, moved, in_flight };
            tally.note(i, back);
        }
        tally.note(3, News::Refused(Refusal::NameTaken));
        tally.note(3, News::Out("refused: that name is taken".into()));
        assert!(tally.settled());
        let report = tally.report(Some(since));
        assert_eq!((report.lost, report.back, report.most_tries), (4, 3, 2));
        assert_eq!((report.p50, report.p99, report.last), (Some(s(5)), Some(s(9)), Some(s(9))));
        assert_eq!(report.own_p99, Some(s(8)));
        assert_eq!(report.refusals.values().sum::<usize>(), 1);
        assert_eq!(report.not_back_as_themselves(), 2, "one locked out, one moved");
        assert_eq!(report.moved_in_flight, 1);
    }
}

//! `gloam-bot`: load a Gloam server with simulated players, or measure the
//! bare socket stack for comparison.
//!
//! ```text
//! gloam-bot --connect ws://127.0.0.1:7777 --clients 100 --rate 5 --duration 30 [--json] [--server-pid PID]
//! gloam-bot --echo --clients 100 --rate 5 --duration 30
//! gloam-bot --connect ws://127.0.0.1:7777 --clients 20 --watchers 8
//! gloam-bot --serve-echo 127.0.0.1:7788 --echo-size 700 --echo-work-us 120
//! gloam-bot --echo --connect ws://127.0.0.1:7788 --clients 1000
//! ```
//! Each client explores, heads for the stairs it has seen and takes them,
//! fighting what stands beside it (and stepping away when badly hurt), one
//! action every 1/rate seconds, each client at its own phase of that period
//! (client i of n at i/n of it), so the load is even whether the clients
//! joined together or one by one; latency is from sending an action to the
//! `Sight` that answers it, read off the socket. What a client reads is
//! decoded as it comes and applied to its state before it next acts, so
//! that a thousand clients sharing one core do not time an answer behind
//! the others' news, as the echo's clients (which apply nothing) do not.
//! A client whose character dies joins again as a
//! new one; the report counts the deaths. `--echo` starts a bare tokio-tungstenite echo
//! server in this process that answers each 3-byte action with a frame of a
//! typical answer's size, and drives it the same way: what the offered
//! load gets when nothing but the socket stack stands behind it (at the
//! loads measured it keeps up easily, on a tenth of one core for both
//! ends). Both ends, and the simulated players, read through 4 KiB
//! buffers as the server does (see `sim::ws_config`). `--watchers N` has N watchers follow each
//! player (each reads everything its player is sent), to measure what
//! watching costs the server. `--depths N` spreads the players over the
//! first N depths before the run starts (the report says how many stood on
//! each when it did), to load N depths' tasks at once. `--stalls SECONDS`
//! measures the machine instead: how often the core it spins on is taken
//! away, to tell whether a tail's figure can be trusted.
//!
//! `--serve-echo ADDR` runs only the echo server, as a process of its own
//! (pinned where a server would be), until stopped; `--echo --connect URL`
//! drives it. `--echo-work-us` has it spend that much of its core on each
//! answer first: a model of a server that does a fixed amount of work an
//! action, smoothly, to tell what that work alone costs the tail.
//!
//! `--storm` measures a reconnect storm (see `gloam_tests::storm`):
//!
//! ```text
//! gloam-bot --storm --clients 1000 --data DIR -- taskset -c 0 target/release/gloam-server --seed 1
//! gloam-bot --storm --clients 1000 --connect ws://127.0.0.1:7777   # restarted by hand
//! ```

use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{Action, ClientMsg, codec};
use gloam_tests::{SimClient, SimError, sim};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Parser)]
#[command(about = "Load a Gloam server with simulated players")]
struct Args {
    /// The server to load (with `--echo`: an echo server started with
    /// `--serve-echo`, instead of one in this process).
    #[arg(long)]
    connect: Option<String>,
    /// How many simulated players.
    #[arg(long, default_value_t = 10)]
    clients: usize,
    /// Actions per second, per player.
    #[arg(long, default_value_t = 5.0)]
    rate: f64,
    /// How long to play, in seconds (after everyone has joined).
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// The server's process id, to report its memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Drive an in-process echo server instead: the offered load answered
    /// with nothing but the socket stack behind it.
    #[arg(long)]
    echo: bool,
    /// The size of the echo server's answers, in bytes.
    #[arg(long, default_value_t = 23)]
    echo_size: usize,
    /// Microseconds of work (a busy loop) the echo server does before each
    /// answer.
    #[arg(long, default_value_t = 0)]
    echo_work_us: u64,
    /// Only serve the echo at this address, until stopped (prints its URL).
    #[arg(long, value_name = "ADDR")]
    serve_echo: Option<String>,
    /// Make each simulated player a new character of this background
    /// (asking the server for its backgrounds first, as the window does);
    /// without it each joins with a plain hello, a character of none.
    #[arg(long, value_name = "NAME")]
    background: Option<String>,
    /// Watchers following each player (the server seats 8 by default).
    #[arg(long, default_value_t = 0)]
    watchers: usize,
    /// Also print the latency second by second of the run (by when each
    /// action was sent), to see when a tail happens.
    #[arg(long)]
    timeline: bool,
    /// Measure this machine instead: spin on one core for this many
    /// seconds, reading the clock, and report every gap over 10 µs between
    /// two readings (the core taken away: by the kernel, another thread or
    /// the host of a virtual machine), by size, and the time they lost.
    /// Run it pinned (`taskset -c 0`) with nothing else on that core.
    #[arg(long, value_name = "SECONDS")]
    stalls: Option<f64>,
    /// Spread the players over the first N depths before the run: client i
    /// goes down to depth 1 + i % N while the crowd joins, exploring and
    /// taking the stairs as fast as the server lets a player act, so that
    /// N depths' tasks share the load (on a server with N cores, each can
    /// have one). Not with `--echo`, `--storm` or `--watchers`.
    #[arg(long, default_value_t = 1)]
    depths: u16,
    /// A reconnect storm: the players join with their keys and play for
    /// `--duration`; the server restarts (this tool restarts the server
    /// command given after `--`, or else waits for the server at
    /// `--connect` to be restarted by hand); every player comes back by
    /// itself as the window does, and the report says who came back, when,
    /// as themselves, and who was refused and why.
    #[arg(long)]
    storm: bool,
    /// With `--storm` and a server command: the data folder the server is
    /// started on both times.
    #[arg(long, value_name = "DIR")]
    data: Option<std::path::PathBuf>,
    /// With `--storm` and a server command: where the server listens both
    /// times.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7777")]
    bind: String,
    /// With `--storm`: how long the players have to come back, in seconds
    /// from the restart (from the first lost link when restarted by hand).
    #[arg(long, default_value_t = 60.0)]
    back_within: f64,
    /// With `--storm` and no server command: how long to wait for the
    /// server to be restarted, in seconds.
    #[arg(long, default_value_t = 600.0)]
    wait_for_restart: f64,
    /// With `--storm`: the server command to start, stop with SIGTERM and
    /// start again (`-- target/release/gloam-server --seed 1`, or under
    /// `taskset -c 0`); `--bind ADDR --data DIR` are added to it.
    #[arg(last = true, value_name = "SERVER")]
    server: Vec<String>,
}

/// When one client acts: every `period`, at its own `phase` of it (counted
/// from the run's start), so that the clients' actions are spread evenly over
/// each period, however their joins bunched up.
#[derive(Debug, Clone, Copy)]
struct Pace {
    started: Instant,
    period: Duration,
    phase: Duration,
}

impl Pace {
    /// The pace of client `i` of `clients`, each acting `rate` times a second.
    fn of(i: usize, clients: usize, rate: f64, started: Instant) -> Self {
        let period = Duration::from_secs_f64(1.0 / rate);
        Self { started, period, phase: period.mul_f64(i as f64 / clients as f64) }
    }

    /// The first moment of this client's phase not before `now`.
    fn first_after(&self, now: Instant) -> Instant {
        let since = now.saturating_duration_since(self.started + self.phase);
        let periods = since.as_nanos().div_ceil(self.period.as_nanos().max(1));
        self.started + self.phase + self.period * u32::try_from(periods).unwrap_or(u32::MAX)
    }

    /// A ticker from the first moment of this client's phase not before now.
    fn ticker(&self) -> tokio::time::Interval {
        let first = self.first_after(Instant::now());
        let mut tick = tokio::time::interval_at(first.into(), self.period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick
    }
}

/// How many bots say hello at once.
const JOINS_AT_ONCE: usize = 32;

/// How long after the last client joined the timed run starts: time for
/// each client to hear that it starts and set its pace, so that those
/// wakings are not in the run.
const READY: Duration = Duration::from_millis(250);

/// Which client this is of how many, each acting how many times a second.
type Place = (usize, usize, f64);

/// When the timed run starts: set once every client has joined.
type Start = tokio::sync::watch::Receiver<Option<Instant>>;

/// Waits for the run's start, reading what `sim` is told meanwhile (if
/// there is one); gives the client's pace and the run's end, or `None`
/// when the run will never start or the client lost its link.
async fn run_start(
    mut sim: Option<&mut SimClient>,
    mut start: Start,
    (i, clients, rate): Place,
    length: Duration,
) -> Option<(Pace, Instant)> {
    let started = loop {
        if let Some(started) = *start.borrow_and_update() {
            break started;
        }
        let heard = async {
            match sim.as_deref_mut() {
                Some(sim) => sim.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            changed = start.changed() => changed.ok()?,
            heard = heard => match heard {
                Ok(_) | Err(SimError::Timeout(_)) => {}
                Err(_) => return None,
            },
        }
    };
    Some((Pace::of(i, clients, rate, started), started + length))
}

/// The gap sizes `--stalls` counts, each up to (not including) its bound.
const STALL_BOUNDS: [Duration; 6] = [
    Duration::from_micros(100),
    Duration::from_micros(500),
    Duration::from_millis(1),
    Duration::from_millis(2),
    Duration::from_millis(5),
    Duration::MAX,
];

/// Spins for `length` reading the clock, and says how often and how long
/// the core was taken away (see [`Gaps`]).
fn stalls(length: Duration) -> String {
    let start = Instant::now();
    let mut last = start;
    let mut gaps = Gaps::default();
    while last - start < length {
        let now = Instant::now();
        gaps.add(now - last);
        last = now;
    }
    gaps.report(last - start)
}

/// The gaps between two readings of the clock over 10 µs, by size
/// ([`STALL_BOUNDS`]), and the time they lost.
#[derive(Debug, Default)]
struct Gaps {
    counts: [u64; STALL_BOUNDS.len()],
    lost: Duration,
}

impl Gaps {
    fn add(&mut self, gap: Duration) {
        if gap > Duration::from_micros(10) {
            self.lost += gap;
            let size = STALL_BOUNDS.iter().position(|&bound| gap < bound);
            let size = size.unwrap_or(STALL_BOUNDS.len() - 1);
            self.counts[size] += 1;
        }
    }

    fn report(&self, length: Duration) -> String {
        let names = ["10-100 µs", "0.1-0.5 ms", "0.5-1 ms", "1-2 ms", "2-5 ms", "5 ms or more"];
        let each: Vec<String> =
            names.iter().zip(self.counts).map(|(n, c)| format!("{n}: {c}")).collect();
        let share = 100.0 * self.lost.as_secs_f64() / length.as_secs_f64().max(f64::EPSILON);
        let lost = self.lost;
        format!(
            "gaps over 10 µs in {length:.1?}: {}; lost {lost:.1?} ({share:.2}%)",
            each.join(", ")
        )
    }
}

/// How many actions a client may take to reach its depth before the run
/// (`--depths`): ample for the first few levels (a level is 80 by 50).
const DESCENT_STEPS: usize = 3_000;

/// How many actions of a client going down may go unanswered (each after
/// `sim::RECV_TIMEOUT`) before it gives up and plays where it stands.
const DESCENT_TIMEOUTS: usize = 3;

/// Takes `sim` down to `depth` before the run (`--depths`), exploring and
/// taking the stairs as the run's players do, as fast as the server lets a
/// player act (20 actions a second by default); a character that dies on
/// the way comes back as a new one and sets out again. Gives the client
/// wherever it got to in [`DESCENT_STEPS`] or [`DESCENT_TIMEOUTS`] (the
/// report counts the players on each depth), or why its link was lost.
async fn go_down(mut sim: SimClient, url: &str, depth: u16) -> Result<SimClient, SimError> {
    let mut timeouts = 0;
    for turn in 0..DESCENT_STEPS {
        if sim.state.depth >= depth || timeouts >= DESCENT_TIMEOUTS {
            break;
        }
        match sim.act(sim.explorer_action(turn)).await {
            Ok(_) => {}
            Err(SimError::Timeout(_)) => timeouts += 1,
            Err(SimError::Died(_)) => {
                let (name, token) = (sim.name.clone(), sim.token);
                sim = SimClient::join_with_token(url, &name, token, None).await?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(sim)
}

/// A watcher of the load: reads (and mirrors) what it is fed until the
/// watching ends or `until` passes; gives the bytes it read.
async fn follow(mut eye: SimClient, start: Start, length: Duration) -> (u64, SimClient) {
    let until = match run_start(Some(&mut eye), start, (0, 1, 1.0), length).await {
        Some((_, until)) => until,
        None => return (0, eye),
    };
    let start = eye.stats.bytes;
    while Instant::now() < until {
        match tokio::time::timeout_at(until.into(), eye.recv()).await {
            Ok(Ok(_)) | Ok(Err(gloam_tests::SimError::Timeout(_))) => {}
            Ok(Err(_)) | Err(_) => break,
        }
    }
    (eye.stats.bytes - start, eye)
}

/// What one client saw.
#[derive(Debug, Default)]
struct Tally {
    sent: u64,
    answered: u64,
    bytes: u64,
    latencies: Vec<Duration>,
    /// When each answered action was sent, beside its latency.
    sent_at: Vec<Instant>,
    errors: u64,
    disconnected: bool,
    deaths: u64,
    /// The depth the player stood on when the run started (0 for the
    /// echo's clients).
    depth: u16,
}

/// Plays until `until`; gives the tally, and the client unless it was
/// disconnected (to say goodbye once the figures are taken).
/// Joins as `name`: a new character of `background`, or with a plain hello.
async fn join(url: &str, name: &str, background: Option<&str>) -> Result<SimClient, SimError> {
    match background {
        Some(background) => SimClient::create(url, name, background, None).await,
        None => SimClient::join(url, name, None).await,
    }
}

async fn play(
    mut sim: SimClient,
    url: String,
    place: Place,
    length: Duration,
    start: Start,
) -> (Tally, Option<SimClient>) {
    let mut tally = Tally::default();
    let Some((pace, until)) = run_start(Some(&mut sim), start, place, length).await else {
        return (Tally { disconnected: true, ..tally }, None);
    };
    tally.depth = sim.state.depth;
    let mut tick = pace.ticker();
    let mut turn = 0;
    let start_bytes = sim.stats.bytes;
    while Instant::now() < until {
        // Between its actions a client reads what it is told as it comes,
        // so that its answer is not timed behind the news before it; the
        // news is applied when it next acts (see `SimClient::read_deferred`).
        let heard = tokio::select! {
            biased;
            _ = tick.tick() => None,
            heard = sim.read_deferred() => Some(heard),
        };
        let result = match heard {
            Some(Ok(_) | Err(SimError::Timeout(_))) => continue,
            Some(Err(e)) => Err(e),
            // A tick after the run's end sends nothing.
            None if Instant::now() >= until => break,
            None => {
                // What it read since it last acted, before it chooses.
                if sim.catch_up().is_err() {
                    tally.errors += 1;
                }
                let action = sim.explorer_action(turn);
                turn += 1;
                let t = Instant::now();
                tally.sent += 1;
                let answer = sim.act_deferred(action).await;
                if answer.is_ok() {
                    tally.answered += 1;
                    tally.latencies.push(t.elapsed());
                    tally.sent_at.push(t);
                }
                answer.map(drop)
            }
        };
        match result {
            Ok(()) => {}
            Err(SimError::Died(_)) => {
                tally.deaths += 1;
                // A new character under the same name and key.
                let (name, token) = (sim.name.clone(), sim.token);
                match SimClient::join_with_token(&url, &name, token, None).await {
                    Ok(again) => sim = again,
                    Err(_) => {
                        tally.disconnected = true;
                        break;
                    }
                }
            }
            Err(SimError::Closed(_) | SimError::Net(_)) => {
                tally.disconnected = true;
                break;
            }
            Err(_) => tally.errors += 1,
        }
    }
    tally.bytes = sim.stats.bytes - start_bytes;
    let connected = !tally.disconnected;
    (tally, connected.then_some(sim))
}

/// Starts a bare WebSocket echo server on `addr`: each binary frame is
/// answered with `answer_size` bytes, after `work` spent busy. Gives its URL
/// and the task serving it.
async fn echo_server(
    addr: &str,
    answer_size: usize,
    work: Duration,
) -> anyhow::Result<(String, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let url = format!("ws://{}", listener.local_addr()?);
    let serving = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let accepting =
                    tokio_tungstenite::accept_async_with_config(stream, Some(sim::ws_config()));
                let Ok(mut ws) = accepting.await else { return };
                let answer = vec![7u8; answer_size];
                while let Some(Ok(msg)) = ws.next().await {
                    if !msg.is_binary() {
                        continue;
                    }
                    let busy = Instant::now();
                    while busy.elapsed() < work {
                        std::hint::spin_loop();
                    }
                    if ws.send(Message::Binary(answer.clone().into())).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    Ok((url, serving))
}

async fn play_echo(
    url: String,
    place: Place,
    length: Duration,
    start: Start,
    joined: mpsc::UnboundedSender<()>,
) -> Tally {
    let mut tally = Tally::default();
    // Nagle's algorithm off, as the game's client and `SimClient` have it.
    let connecting =
        tokio_tungstenite::connect_async_with_config(&url, Some(sim::ws_config()), true);
    let connected = connecting.await;
    let _ = joined.send(());
    let Ok((mut ws, _)) = connected else {
        tally.disconnected = true;
        return tally;
    };
    let Some((pace, until)) = run_start(None, start, place, length).await else {
        tally.disconnected = true;
        return tally;
    };
    let action = codec::encode(&ClientMsg::Act(Action::Wait));
    let mut tick = pace.ticker();
    while Instant::now() < until {
        tick.tick().await;
        let t = Instant::now();
        if t >= until {
            break;
        }
        tally.sent += 1;
        if ws.send(Message::Binary(action.clone().into())).await.is_err() {
            tally.disconnected = true;
            break;
        }
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Binary(b)))) => {
                tally.answered += 1;
                tally.bytes += b.len() as u64;
                tally.latencies.push(t.elapsed());
                tally.sent_at.push(t);
            }
            _ => {
                tally.disconnected = true;
                break;
            }
        }
    }
    tally
}

/// Latency second by second of the run: how many actions were sent in
/// each second that were answered, and their p50, p99 and worst.
fn print_timeline(started: Instant, sent_at: &[Instant], latencies: &[Duration]) {
    let mut seconds: Vec<Vec<Duration>> = Vec::new();
    for (at, latency) in sent_at.iter().zip(latencies) {
        let second = at.duration_since(started).as_secs() as usize;
        if seconds.len() <= second {
            seconds.resize_with(second + 1, Vec::new);
        }
        seconds[second].push(*latency);
    }
    println!("second  answered  p50 ms  p99 ms  max ms");
    for (second, mut these) in seconds.into_iter().enumerate() {
        these.sort_unstable();
        let ms = |p: f64| percentile_ms(&these, p);
        println!(
            "{second:>6}  {:>8}  {:>6.1}  {:>6.1}  {:>6.1}",
            these.len(),
            ms(0.5),
            ms(0.99),
            ms(1.0)
        );
    }
}

/// The `p` quantile of `sorted`, in milliseconds (0 for none).
fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    let at = ((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(at).map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    anyhow::ensure!(
        args.rate > 0.0 && args.clients > 0 && args.depths > 0,
        "--rate, --clients and --depths must be positive"
    );
    anyhow::ensure!(
        args.depths == 1 || !(args.echo || args.storm || args.watchers > 0),
        "--depths is for a plain crowd: not with --echo, --storm or --watchers"
    );
    if args.storm {
        return storm::run(&args).await;
    }
    if let Some(seconds) = args.stalls {
        let length = Duration::try_from_secs_f64(seconds)
            .map_err(|_| anyhow::anyhow!("--stalls takes a number of seconds, not {seconds}"))?;
        println!("{}", stalls(length));
        return Ok(());
    }
    let work = Duration::from_micros(args.echo_work_us);
    if let Some(addr) = &args.serve_echo {
        let (url, serving) = echo_server(addr, args.echo_size, work).await?;
        println!("echo listening on {url}");
        serving.await?;
        return Ok(());
    }
    let url = match (&args.connect, args.echo) {
        (Some(url), _) => url.clone(),
        (None, true) => echo_server("127.0.0.1:0", args.echo_size, work).await?.0,
        (None, false) => "ws://127.0.0.1:7777".to_owned(),
    };
    run(&args, url).await
}

/// The timed run against `url` (a server, or an echo), then its report.
async fn run(args: &Args, url: String) -> anyhow::Result<()> {
    // The crowd joins first, each player reading what it is told while it
    // waits (one that does not read would be dropped as too slow); the
    // timed run starts for all at once when the last is in, so that its
    // figures are of the crowd playing, not of its joining (a joining
    // crowd's backlog, mirrored by this one core, was most of the slowest
    // answers). The echo's clients connect first the same way.
    let (tx, mut rx) = mpsc::unbounded_channel();
    let length = Duration::from_secs_f64(args.duration);
    let (go, start) = tokio::sync::watch::channel(None::<Instant>);
    let (joined_tx, mut joined_rx) = mpsc::unbounded_channel::<()>();
    let eyes = spawn_clients(args, &url, &tx, &start, &joined_tx).await?;
    drop(joined_tx);
    let mut joined = 0;
    while joined < args.clients && joined_rx.recv().await.is_some() {
        joined += 1;
    }
    // A moment ahead, so that every client has its pace set before its
    // first action falls due.
    let started = Instant::now() + READY;
    let _ = go.send(Some(started));
    drop(tx);
    let mut totals = Totals::default();
    let mut players = Vec::new();
    while let Some((t, player)) = rx.recv().await {
        players.extend(player);
        totals.add(t);
    }
    // Answers a second over the run's length: every action was sent within
    // it, and one answered after it (the last of a round that waited for
    // a partner whose client had stopped, answered by the deadline) counts
    // its latency but does not lengthen the run.
    let elapsed = length.as_secs_f64();
    let mut fed = 0u64;
    let mut watchers = Vec::new();
    for eye in eyes {
        if let Ok((bytes, eye)) = eye.await {
            fed += bytes;
            watchers.push(eye);
        }
    }
    if args.timeline {
        print_timeline(started, &totals.all.sent_at, &totals.all.latencies);
    }
    let target = match (args.echo, &args.connect) {
        (true, None) => "echo baseline".to_string(),
        (true, Some(url)) => format!("echo at {url}"),
        (false, _) => url.clone(),
    };
    totals.all.latencies.sort_unstable();
    if args.json {
        println!("{}", totals.json(args, &target, elapsed));
    } else {
        totals.print(args, &target, elapsed, fed);
    }
    say_goodbye(players, watchers).await;
    Ok(())
}

/// Where each client sends what it saw, and itself (to say goodbye).
type Reports = mpsc::UnboundedSender<(Tally, Option<SimClient>)>;

/// Starts every client (and each one's watchers, joined one after another
/// first); gives the watchers' tasks.
async fn spawn_clients(
    args: &Args,
    url: &str,
    tx: &Reports,
    start: &Start,
    joined_tx: &mpsc::UnboundedSender<()>,
) -> anyhow::Result<Vec<tokio::task::JoinHandle<(u64, SimClient)>>> {
    let crowd = Crowd::new(args, url);
    let length = crowd.length;
    let (clients, rate) = (args.clients, args.rate);
    let mut eyes = Vec::new();
    for i in 0..args.clients {
        let (tx, start, joined) = (tx.clone(), start.clone(), joined_tx.clone());
        if args.echo {
            let url = url.to_owned();
            tokio::spawn(async move {
                let tally = play_echo(url, (i, clients, rate), length, start, joined);
                let _ = tx.send((tally.await, None));
            });
        } else if args.watchers > 0 {
            // Watchers need their player in the game: one after another.
            let sim = join(url, &format!("bot{i}"), args.background.as_deref())
                .await
                .with_context(|| format!("bot{i} could not join {url}"))?;
            for j in 0..args.watchers {
                let eye = SimClient::watch(url, &format!("w{i}x{j}"), &sim.name, None)
                    .await
                    .with_context(|| format!("a watcher of bot{i} could not watch"))?;
                eyes.push(tokio::spawn(follow(eye, start.clone(), length)));
            }
            let url = url.to_owned();
            tokio::spawn(async move {
                let _ = joined.send(());
                let _ = tx.send(play(sim, url, (i, clients, rate), length, start).await);
            });
        } else {
            let crowd = crowd.clone();
            tokio::spawn(async move {
                let _ = tx.send(join_and_play(i, crowd, start, joined).await);
            });
        }
    }
    Ok(eyes)
}

/// What the plain crowd's clients share: where they join, the gate that
/// lets a few dozen hellos through at once, and with `--depths` how many
/// are yet to reach a depth below the first.
#[derive(Clone)]
struct Crowd {
    url: String,
    clients: usize,
    rate: f64,
    depths: u16,
    length: Duration,
    background: Option<String>,
    gate: std::sync::Arc<tokio::sync::Semaphore>,
    going_down: tokio::sync::watch::Sender<usize>,
}

impl Crowd {
    fn new(args: &Args, url: &str) -> Self {
        let deeper = (0..args.clients).filter(|&i| depth_of(i, args.depths) > 1).count();
        Self {
            url: url.to_owned(),
            clients: args.clients,
            rate: args.rate,
            depths: args.depths,
            length: Duration::from_secs_f64(args.duration),
            background: args.background.clone(),
            gate: std::sync::Arc::new(tokio::sync::Semaphore::new(JOINS_AT_ONCE)),
            going_down: tokio::sync::watch::channel(deeper).0,
        }
    }
}

/// The depth client `i` plays on with `--depths depths`: the first depths
/// in turn.
fn depth_of(i: usize, depths: u16) -> u16 {
    1 + (i % usize::from(depths)) as u16
}

/// Client `i` of the plain crowd: joins side by side with the others, as
/// the echo's clients connect, a few dozen at a time so no hello waits past
/// the server's limit; goes down to its depth (`--depths`), says it has
/// joined, and plays. Those bound deeper go first, and the others join once
/// they are down: an idle player that a monster links to one on its way
/// would hold each of its rounds to the deadline.
async fn join_and_play(
    i: usize,
    crowd: Crowd,
    start: Start,
    joined: mpsc::UnboundedSender<()>,
) -> (Tally, Option<SimClient>) {
    let depth = depth_of(i, crowd.depths);
    let url = crowd.url.clone();
    let sim = if depth == 1 {
        let _ = crowd.going_down.subscribe().wait_for(|going| *going == 0).await;
        join_gated(&crowd, i).await.map_err(|e| format!("could not join {url}: {e}"))
    } else {
        // Counted down however this ends, a panic too, so that those bound
        // for the first depth never wait for good.
        let _down = Down(&crowd.going_down);
        match join_gated(&crowd, i).await {
            Ok(sim) => {
                go_down(sim, &url, depth).await.map_err(|e| format!("lost on the way down: {e}"))
            }
            Err(e) => Err(format!("could not join {url}: {e}")),
        }
    };
    let _ = joined.send(());
    match sim {
        Ok(sim) => play(sim, url, (i, crowd.clients, crowd.rate), crowd.length, start).await,
        Err(why) => {
            eprintln!("bot{i} {why}");
            (Tally { disconnected: true, ..Tally::default() }, None)
        }
    }
}

/// Joins as client `i` of `crowd`, through its gate.
async fn join_gated(crowd: &Crowd, i: usize) -> Result<SimClient, SimError> {
    let _permit = crowd.gate.acquire().await;
    join(&crowd.url, &format!("bot{i}"), crowd.background.as_deref()).await
}

/// One fewer player to go down, when dropped.
struct Down<'a>(&'a tokio::sync::watch::Sender<usize>);

impl Drop for Down<'_> {
    fn drop(&mut self) {
        self.0.send_modify(|going| *going = going.saturating_sub(1));
    }
}

/// What all the clients saw, summed.
#[derive(Default)]
struct Totals {
    all: Tally,
    disconnects: u64,
    /// How many players stood on each depth when the run started.
    by_depth: std::collections::BTreeMap<u16, usize>,
}

impl Totals {
    fn add(&mut self, t: Tally) {
        if t.depth > 0 {
            *self.by_depth.entry(t.depth).or_default() += 1;
        }
        let all = &mut self.all;
        all.sent += t.sent;
        all.answered += t.answered;
        all.bytes += t.bytes;
        all.errors += t.errors;
        all.deaths += t.deaths;
        all.latencies.extend(t.latencies);
        all.sent_at.extend(t.sent_at);
        self.disconnects += u64::from(t.disconnected);
    }

    /// The `p` quantile of the latencies (sorted), in milliseconds.
    fn pct(&self, p: f64) -> f64 {
        percentile_ms(&self.all.latencies, p)
    }

    fn per_action(&self) -> f64 {
        self.all.bytes as f64 / self.all.answered.max(1) as f64
    }

    /// The report as one line of JSON, for tools.
    fn json(&self, args: &Args, target: &str, elapsed: f64) -> String {
        let (all, disconnects) = (&self.all, self.disconnects);
        let memory = args.server_pid.and_then(rss_kib).map_or("null".into(), |m| m.to_string());
        let depths: Vec<String> =
            self.by_depth.iter().map(|(d, n)| format!("\"{d}\":{n}")).collect();
        format!(
            "{{\"target\":\"{target}\",\"clients\":{},\"rate\":{},\"seconds\":{elapsed:.2},\"sent\":{},\"answered\":{},\
             \"answers_per_second\":{:.1},\"p50_ms\":{:.3},\"p95_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3},\
             \"bytes_per_action\":{:.1},\"errors\":{},\"disconnects\":{disconnects},\"deaths\":{},\"server_rss_kib\":{memory},\
             \"players_by_depth\":{{{}}}}}",
            args.clients,
            args.rate,
            all.sent,
            all.answered,
            all.answered as f64 / elapsed,
            self.pct(0.50),
            self.pct(0.95),
            self.pct(0.99),
            self.pct(1.0),
            self.per_action(),
            all.errors,
            all.deaths,
            depths.join(","),
        )
    }

    /// The report for a reader; `fed`: the bytes the watchers read.
    fn print(&self, args: &Args, target: &str, elapsed: f64, fed: u64) {
        let all = &self.all;
        println!("{target}: {} clients at {}/s for {elapsed:.1} s", args.clients, args.rate);
        println!(
            "actions sent {}, answered {} ({:.0}/s), errors {}, disconnects {}, deaths {}",
            all.sent,
            all.answered,
            all.answered as f64 / elapsed,
            all.errors,
            self.disconnects,
            all.deaths
        );
        println!(
            "latency p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.pct(0.50),
            self.pct(0.95),
            self.pct(0.99),
            self.pct(1.0)
        );
        println!("bytes received per action {:.1}", self.per_action());
        if args.depths > 1 {
            let each: Vec<String> =
                self.by_depth.iter().map(|(d, n)| format!("{n} on {d}")).collect();
            println!("players by depth at the start: {}", each.join(", "));
        }
        if args.watchers > 0 {
            println!(
                "watchers {} per player, bytes fed to them per action {:.1}",
                args.watchers,
                fed as f64 / all.answered.max(1) as f64
            );
        }
        if let Some(m) = args.server_pid.and_then(rss_kib) {
            println!("server memory {m} KiB");
        }
    }
}

/// How long each client waits for the server to answer its goodbye.
const GOODBYE_WAIT: Duration = Duration::from_secs(10);

/// Once the figures are taken: every player quits and every watcher
/// closes, each with a closing handshake, so the server logs normal closes
/// rather than a reset for each.
async fn say_goodbye(players: Vec<SimClient>, watchers: Vec<SimClient>) {
    let mut goodbyes = tokio::task::JoinSet::new();
    for player in players {
        goodbyes.spawn(async move {
            let _ = tokio::time::timeout(GOODBYE_WAIT, player.quit()).await;
        });
    }
    for watcher in watchers {
        goodbyes.spawn(async move {
            let _ = tokio::time::timeout(GOODBYE_WAIT, watcher.close_cleanly()).await;
        });
    }
    while goodbyes.join_next().await.is_some() {}
}

/// The reconnect storm (`--storm`): the crowd of `gloam_tests::storm`,
/// and the server this tool restarts for it, if it was given one.
mod storm {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    use gloam_tests::process::Running;
    use gloam_tests::storm::{Settings, Storm, StormReport};

    use super::Args;

    /// How long the crowd may take to join and play its first actions.
    const JOINING: Duration = Duration::from_secs(300);

    /// The server command this tool starts, stops and starts again, on
    /// one address and one data folder.
    #[derive(Debug, Clone)]
    struct Hosted {
        command: Vec<String>,
        bind: String,
        data: std::path::PathBuf,
    }

    impl Hosted {
        /// Starts the server and waits until it listens; gives its URL.
        fn start(&self) -> anyhow::Result<(Running, String)> {
            let mut command = Command::new(&self.command[0]);
            command.args(&self.command[1..]).args(["--bind", &self.bind, "--data"]);
            command.arg(&self.data).stderr(Stdio::inherit());
            if std::env::var_os("RUST_LOG").is_none() {
                command.env("RUST_LOG", "warn");
            }
            Running::start(command, |line| {
                line.strip_prefix("gloam-server listening on ").map(|url| url.trim().to_owned())
            })
            .map_err(|f| anyhow::anyhow!("the server did not start: {f:?}"))
        }
    }

    /// When the restart began, and how long the server took to stop and
    /// to listen again.
    struct Restart {
        began: Instant,
        stopped: Duration,
        listening: Duration,
    }

    /// SIGTERM, then the same command again once the server has exited.
    async fn restart(hosted: &Hosted, server: Running) -> anyhow::Result<(Restart, Running)> {
        let began = Instant::now();
        let status = tokio::task::spawn_blocking(move || server.signal("TERM")).await?;
        anyhow::ensure!(status.success(), "the server stopped with {status}");
        let stopped = began.elapsed();
        let again = hosted.clone();
        let (server, _) = tokio::task::spawn_blocking(move || again.start()).await??;
        Ok((Restart { began, stopped, listening: began.elapsed() }, server))
    }

    pub async fn run(args: &Args) -> anyhow::Result<()> {
        let settings = Settings { clients: args.clients, rate: args.rate, ..Settings::default() };
        let hosted = match (&args.data, args.server.is_empty()) {
            (_, true) => None,
            (Some(data), false) => Some(Hosted {
                command: args.server.clone(),
                bind: args.bind.clone(),
                data: data.clone(),
            }),
            (None, false) => anyhow::bail!("--storm with a server command needs --data DIR"),
        };
        let (server, url) = match &hosted {
            Some(hosted) => {
                let hosted = hosted.clone();
                let (server, url) = tokio::task::spawn_blocking(move || hosted.start()).await??;
                (Some(server), url)
            }
            None => (None, args.connect.clone().unwrap_or_else(|| "ws://127.0.0.1:7777".into())),
        };
        let joining = Instant::now();
        let storm = Storm::join(&url, &settings, JOINING).await?;
        let joined = joining.elapsed().as_secs_f64();
        println!(
            "storm: {} players joined {url} in {joined:.1} s, playing for {} s",
            args.clients, args.duration
        );
        // The crowd plays a while before the restart: the run's length.
        tokio::time::sleep(Duration::from_secs_f64(args.duration)).await;
        let (restart, server) = match (&hosted, server) {
            (Some(hosted), Some(server)) => {
                let (restart, server) = restart(hosted, server).await?;
                (Some(restart), Some(server))
            }
            _ => {
                println!("storm: waiting for the server at {url} to restart");
                (None, None)
            }
        };
        let within = Duration::from_secs_f64(args.back_within);
        let waiting = Duration::from_secs_f64(args.wait_for_restart);
        let report = storm.until_back(restart.as_ref().map(|r| r.began), waiting, within).await;
        print(args, &report, restart.as_ref());
        if let Some(server) = server {
            let status = tokio::task::spawn_blocking(move || server.signal("TERM")).await?;
            anyhow::ensure!(status.success(), "the restarted server stopped with {status}");
        }
        Ok(())
    }

    fn print(args: &Args, report: &StormReport, restart: Option<&Restart>) {
        let secs = |d: Option<Duration>| d.map(|d| d.as_secs_f64());
        if args.json {
            let json = serde_json::json!({
                "clients": report.clients,
                "lost": report.lost,
                "back": report.back,
                "made_anew": report.made_anew,
                "moved": report.moved.len(),
                "moved_in_flight": report.moved_in_flight,
                "sharing_a_cell": report.sharing_a_cell,
                "moved_sharing": report.moved_sharing,
                "not_back_as_themselves": report.not_back_as_themselves(),
                "refusals": report.refusals,
                "gave_up": report.out,
                "p50_s": secs(report.p50),
                "p99_s": secs(report.p99),
                "last_s": secs(report.last),
                "own_p99_s": secs(report.own_p99),
                "most_tries": report.most_tries,
                "server_stopped_s": secs(restart.map(|r| r.stopped)),
                "server_listening_s": secs(restart.map(|r| r.listening)),
            });
            println!("{json}");
            return;
        }
        if let Some(r) = restart {
            println!(
                "the server exited {:.2} s after SIGTERM and listened again after {:.2} s",
                r.stopped.as_secs_f64(),
                r.listening.as_secs_f64()
            );
        }
        print!("{report}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--stalls` counts each gap over 10 µs by its size, and adds up the
    /// time they lost; shorter ones are the loop's own pace.
    #[test]
    fn the_stalls_are_counted_by_size() {
        let us = Duration::from_micros;
        let mut gaps = Gaps::default();
        for gap in [us(5), us(10), us(50), us(700), us(3_000), us(7_000), us(7_000)] {
            gaps.add(gap);
        }
        assert_eq!(gaps.counts, [1, 0, 1, 0, 1, 2]);
        assert_eq!(gaps.lost, us(17_750));
        let report = gaps.report(Duration::from_secs(1));
        assert!(report.ends_with("5 ms or more: 2; lost 17.8ms (1.77%)"), "{report}");
    }

    #[test]
    fn the_clients_act_at_phases_spread_evenly_over_each_period() {
        let started = Instant::now();
        let ms = Duration::from_millis;
        let paces: Vec<Pace> = (0..4).map(|i| Pace::of(i, 4, 5.0, started)).collect();
        // Joined together, 30 ms in: each acts first at its own quarter.
        let firsts: Vec<Duration> =
            paces.iter().map(|p| p.first_after(started + ms(30)) - started).collect();
        assert_eq!(firsts, [ms(200), ms(50), ms(100), ms(150)]);
        // Joined late, each still keeps its phase, never before it joined.
        let late = started + ms(1_234);
        for (i, pace) in paces.iter().enumerate() {
            let first = pace.first_after(late);
            assert!(first >= late && first - late < ms(200));
            assert_eq!((first - started).as_millis() % 200, 50 * i as u128);
        }
        // A moment exactly on the phase is itself the first.
        assert_eq!(paces[1].first_after(started + ms(250)), started + ms(250));
    }
}

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
//! `Sight` that answers it. A client whose character dies joins again as a
//! new one; the report counts the deaths. `--echo` starts a bare tokio-tungstenite echo
//! server in this process that answers each 3-byte action with a frame of a
//! typical answer's size, and drives it the same way: what the offered
//! load gets when nothing but the socket stack stands behind it (at the
//! loads measured it keeps up easily, on a tenth of one core for both
//! ends). Both ends, and the simulated players, read through 4 KiB
//! buffers as the server does (see `sim::ws_config`). `--watchers N` has N watchers follow each
//! player (each reads everything its player is sent), to measure what
//! watching costs the server.
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
    let mut tick = pace.ticker();
    let mut turn = 0;
    let start_bytes = sim.stats.bytes;
    while Instant::now() < until {
        // Between its actions a client reads what it is told as it comes,
        // as the window does: a crowd's news is mirrored when it arrives,
        // not in the timed span of the next action.
        let heard = tokio::select! {
            biased;
            _ = tick.tick() => None,
            heard = sim.recv() => Some(heard),
        };
        let result = match heard {
            Some(Ok(_) | Err(SimError::Timeout(_))) => continue,
            Some(Err(e)) => Err(e),
            // A tick after the run's end sends nothing.
            None if Instant::now() >= until => break,
            None => {
                let action = sim.explorer_action(turn);
                turn += 1;
                let t = Instant::now();
                tally.sent += 1;
                let answer = sim.act(action).await;
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
    let connecting =
        tokio_tungstenite::connect_async_with_config(&url, Some(sim::ws_config()), false);
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
    anyhow::ensure!(args.rate > 0.0 && args.clients > 0, "--rate and --clients must be positive");
    if args.storm {
        return storm::run(&args).await;
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

    // The crowd joins first, each player reading what it is told while it
    // waits (one that does not read would be dropped as too slow); the
    // timed run starts for all at once when the last is in, so that its
    // figures are of the crowd playing, not of its joining (a joining
    // crowd's backlog, mirrored by this one core, was most of the slowest
    // answers). The echo's clients connect first the same way.
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut eyes = Vec::new();
    let joining = std::sync::Arc::new(tokio::sync::Semaphore::new(JOINS_AT_ONCE));
    let length = Duration::from_secs_f64(args.duration);
    let (go, start) = tokio::sync::watch::channel(None::<Instant>);
    let (joined_tx, mut joined_rx) = mpsc::unbounded_channel::<()>();
    for i in 0..args.clients {
        let (tx, start, joined) = (tx.clone(), start.clone(), joined_tx.clone());
        if args.echo {
            let url = url.clone();
            tokio::spawn(async move {
                let tally = play_echo(url, (i, args.clients, args.rate), length, start, joined);
                let _ = tx.send((tally.await, None));
            });
        } else if args.watchers > 0 {
            // Watchers need their player in the game: one after another.
            let sim = join(&url, &format!("bot{i}"), args.background.as_deref())
                .await
                .with_context(|| format!("bot{i} could not join {url}"))?;
            for j in 0..args.watchers {
                let eye = SimClient::watch(&url, &format!("w{i}x{j}"), &sim.name, None)
                    .await
                    .with_context(|| format!("a watcher of bot{i} could not watch"))?;
                eyes.push(tokio::spawn(follow(eye, start.clone(), length)));
            }
            let url = url.clone();
            tokio::spawn(async move {
                let _ = joined.send(());
                let pace = (i, args.clients, args.rate);
                let _ = tx.send(play(sim, url, pace, length, start).await);
            });
        } else {
            // Joined side by side, as the echo's clients connect, a few
            // dozen at a time so no hello waits past the server's limit.
            let (url, joining) = (url.clone(), joining.clone());
            let background = args.background.clone();
            tokio::spawn(async move {
                let permit = joining.acquire_owned().await;
                let sim = join(&url, &format!("bot{i}"), background.as_deref()).await;
                drop(permit);
                let _ = joined.send(());
                let tally = match sim {
                    Ok(sim) => play(sim, url, (i, args.clients, args.rate), length, start).await,
                    Err(e) => {
                        eprintln!("bot{i} could not join {url}: {e}");
                        (Tally { disconnected: true, ..Tally::default() }, None)
                    }
                };
                let _ = tx.send(tally);
            });
        }
    }
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
    let mut all = Tally::default();
    let mut disconnects = 0;
    let mut players = Vec::new();
    while let Some((t, player)) = rx.recv().await {
        players.extend(player);
        all.sent += t.sent;
        all.answered += t.answered;
        all.bytes += t.bytes;
        all.errors += t.errors;
        all.deaths += t.deaths;
        all.latencies.extend(t.latencies);
        all.sent_at.extend(t.sent_at);
        disconnects += u64::from(t.disconnected);
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
        print_timeline(started, &all.sent_at, &all.latencies);
    }
    all.latencies.sort_unstable();
    let pct = |p: f64| percentile_ms(&all.latencies, p);
    let per_action = all.bytes as f64 / all.answered.max(1) as f64;
    let memory = args.server_pid.and_then(rss_kib);
    let target = match (args.echo, &args.connect) {
        (true, None) => "echo baseline".to_string(),
        (true, Some(url)) => format!("echo at {url}"),
        (false, _) => url.clone(),
    };
    if args.json {
        println!(
            "{{\"target\":\"{target}\",\"clients\":{},\"rate\":{},\"seconds\":{elapsed:.2},\"sent\":{},\"answered\":{},\
             \"answers_per_second\":{:.1},\"p50_ms\":{:.3},\"p95_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3},\
             \"bytes_per_action\":{per_action:.1},\"errors\":{},\"disconnects\":{disconnects},\"deaths\":{},\"server_rss_kib\":{}}}",
            args.clients,
            args.rate,
            all.sent,
            all.answered,
            all.answered as f64 / elapsed,
            pct(0.50),
            pct(0.95),
            pct(0.99),
            pct(1.0),
            all.errors,
            all.deaths,
            memory.map_or("null".into(), |m| m.to_string()),
        );
    } else {
        println!("{target}: {} clients at {}/s for {elapsed:.1} s", args.clients, args.rate);
        println!(
            "actions sent {}, answered {} ({:.0}/s), errors {}, disconnects {disconnects}, deaths {}",
            all.sent,
            all.answered,
            all.answered as f64 / elapsed,
            all.errors,
            all.deaths
        );
        println!(
            "latency p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            pct(0.50),
            pct(0.95),
            pct(0.99),
            pct(1.0)
        );
        println!("bytes received per action {per_action:.1}");
        if args.watchers > 0 {
            println!(
                "watchers {} per player, bytes fed to them per action {:.1}",
                args.watchers,
                fed as f64 / all.answered.max(1) as f64
            );
        }
        if let Some(m) = memory {
            println!("server memory {m} KiB");
        }
    }
    say_goodbye(players, watchers).await;
    Ok(())
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

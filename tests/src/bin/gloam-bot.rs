//! `gloam-bot`: load a Gloam server with simulated players, or measure the
//! bare socket stack for comparison.
//!
//! ```text
//! gloam-bot --connect ws://127.0.0.1:7777 --clients 100 --rate 5 --duration 30 [--json] [--server-pid PID]
//! gloam-bot --echo --clients 100 --rate 5 --duration 30
//! gloam-bot --connect ws://127.0.0.1:7777 --clients 20 --watchers 8
//! ```
//! Each client explores, heads for the stairs it has seen and takes them,
//! fighting what stands beside it (and stepping away when badly hurt), one
//! action every 1/rate seconds; latency is from sending an action to the
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

use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{Action, ClientMsg, Dir, Terrain, codec};
use gloam_tests::{SimClient, sim};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Parser)]
#[command(about = "Load a Gloam server with simulated players")]
struct Args {
    /// The server to load.
    #[arg(long, default_value = "ws://127.0.0.1:7777")]
    connect: String,
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
    /// Watchers following each player (the server seats 8 by default).
    #[arg(long, default_value_t = 0)]
    watchers: usize,
    /// Also print the latency second by second of the run (by when each
    /// action was sent), to see when a tail happens.
    #[arg(long)]
    timeline: bool,
}

/// How many bots say hello at once.
const JOINS_AT_ONCE: usize = 32;

/// A watcher of the load: reads (and mirrors) what it is fed until the
/// watching ends or `until` passes; gives the bytes it read.
async fn follow(mut eye: SimClient, until: Instant) -> u64 {
    let start = eye.stats.bytes;
    while Instant::now() < until {
        match tokio::time::timeout_at(until.into(), eye.recv()).await {
            Ok(Ok(_)) | Ok(Err(gloam_tests::SimError::Timeout(_))) => {}
            Ok(Err(_)) | Err(_) => break,
        }
    }
    eye.stats.bytes - start
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

/// The next action of an explorer: a blow (or a step away) when a monster
/// stands beside it, down any stairs it stands on, else towards known
/// stairs, else towards the unknown, else anywhere.
fn next_action(sim: &SimClient, turn: usize) -> Action {
    let s = &sim.state;
    if let Some(action) = sim.fight() {
        return action;
    }
    if s.at.and_then(|p| s.terrain(p)) == Some(Terrain::StairsDown) {
        return Action::Descend;
    }
    let dir = s
        .find(Terrain::StairsDown)
        .and_then(|stairs| sim.first_step(|p| p == stairs))
        .or_else(|| sim.first_step(|p| sim.is_frontier(p)))
        .unwrap_or(Dir::ALL[turn % 8]);
    Action::Move(dir)
}

async fn play(mut sim: SimClient, url: String, rate: f64, until: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut turn = 0;
    let start_bytes = sim.stats.bytes;
    while Instant::now() < until {
        tick.tick().await;
        let action = next_action(&sim, turn);
        turn += 1;
        let t = Instant::now();
        tally.sent += 1;
        match sim.act(action).await {
            Ok(_) => {
                tally.answered += 1;
                tally.latencies.push(t.elapsed());
                tally.sent_at.push(t);
            }
            Err(gloam_tests::SimError::Died(_)) => {
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
            Err(gloam_tests::SimError::Closed(_)) | Err(gloam_tests::SimError::Net(_)) => {
                tally.disconnected = true;
                break;
            }
            Err(_) => tally.errors += 1,
        }
    }
    tally.bytes = sim.stats.bytes - start_bytes;
    tally
}

async fn echo_server(answer_size: usize) -> anyhow::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("ws://{}", listener.local_addr()?);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let accepting =
                    tokio_tungstenite::accept_async_with_config(stream, Some(sim::ws_config()));
                let Ok(mut ws) = accepting.await else { return };
                let answer = vec![7u8; answer_size];
                while let Some(Ok(msg)) = ws.next().await {
                    if msg.is_binary()
                        && ws.send(Message::Binary(answer.clone().into())).await.is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    Ok(url)
}

async fn play_echo(url: String, rate: f64, until: Instant) -> Tally {
    let mut tally = Tally::default();
    let connecting =
        tokio_tungstenite::connect_async_with_config(&url, Some(sim::ws_config()), false);
    let Ok((mut ws, _)) = connecting.await else {
        tally.disconnected = true;
        return tally;
    };
    let action = codec::encode(&ClientMsg::Act(Action::Wait));
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while Instant::now() < until {
        tick.tick().await;
        let t = Instant::now();
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
    let url = if args.echo { echo_server(args.echo_size).await? } else { args.connect.clone() };

    // Each player starts playing as soon as it has joined (a joined player
    // that does not read would be dropped as too slow), for `duration`.
    let started = Instant::now();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut eyes = Vec::new();
    let joining = std::sync::Arc::new(tokio::sync::Semaphore::new(JOINS_AT_ONCE));
    let length = Duration::from_secs_f64(args.duration);
    for i in 0..args.clients {
        let tx = tx.clone();
        if args.echo {
            let url = url.clone();
            tokio::spawn(async move {
                let _ = tx.send(play_echo(url, args.rate, Instant::now() + length).await);
            });
        } else if args.watchers > 0 {
            // Watchers need their player in the game: one after another.
            let sim = SimClient::join(&url, &format!("bot{i}"), None)
                .await
                .with_context(|| format!("bot{i} could not join {url}"))?;
            for j in 0..args.watchers {
                let eye = SimClient::watch(&url, &format!("w{i}x{j}"), &sim.name, None)
                    .await
                    .with_context(|| format!("a watcher of bot{i} could not watch"))?;
                eyes.push(tokio::spawn(follow(eye, Instant::now() + length)));
            }
            let url = url.clone();
            tokio::spawn(async move {
                let _ = tx.send(play(sim, url, args.rate, Instant::now() + length).await);
            });
        } else {
            // Joined side by side, as the echo's clients connect, a few
            // dozen at a time so no hello waits past the server's limit.
            let (url, joining) = (url.clone(), joining.clone());
            tokio::spawn(async move {
                let permit = joining.acquire_owned().await;
                let joined = SimClient::join(&url, &format!("bot{i}"), None).await;
                drop(permit);
                let tally = match joined {
                    Ok(sim) => play(sim, url, args.rate, Instant::now() + length).await,
                    Err(e) => {
                        eprintln!("bot{i} could not join {url}: {e}");
                        Tally { disconnected: true, ..Tally::default() }
                    }
                };
                let _ = tx.send(tally);
            });
        }
    }
    drop(tx);
    let mut all = Tally::default();
    let mut disconnects = 0;
    while let Some(t) = rx.recv().await {
        all.sent += t.sent;
        all.answered += t.answered;
        all.bytes += t.bytes;
        all.errors += t.errors;
        all.deaths += t.deaths;
        all.latencies.extend(t.latencies);
        all.sent_at.extend(t.sent_at);
        disconnects += u64::from(t.disconnected);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut fed = 0u64;
    for eye in eyes {
        fed += eye.await.unwrap_or(0);
    }
    if args.timeline {
        print_timeline(started, &all.sent_at, &all.latencies);
    }
    all.latencies.sort_unstable();
    let pct = |p: f64| percentile_ms(&all.latencies, p);
    let per_action = all.bytes as f64 / all.answered.max(1) as f64;
    let memory = args.server_pid.and_then(rss_kib);
    let target = if args.echo { "echo baseline".to_string() } else { url.clone() };
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
    Ok(())
}

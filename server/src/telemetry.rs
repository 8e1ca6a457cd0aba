//! Live figures for a host: with `--metrics ADDR`, the server records what
//! it does through the `metrics` crate and serves them in Prometheus's
//! text format on `http://ADDR/metrics` (rendered by
//! `metrics-exporter-prometheus`; only the few lines of HTTP around it are
//! ours). Without it nothing is installed and every record is a no-op.

use std::net::SocketAddr;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tracing::{debug, warn};

/// Players on a depth (gauge, label `depth`).
pub const PLAYERS: &str = "gloam_players";
/// Actions applied (counter).
pub const ACTIONS: &str = "gloam_actions_total";
/// Rounds closed (counter).
pub const ROUNDS: &str = "gloam_rounds_total";
/// How long a depth took to apply one command and work out what everyone
/// is told (histogram, seconds); actions applied as one batch each record
/// an equal share of the batch's time.
pub const COMMAND_SECONDS: &str = "gloam_command_seconds";
/// How long a player who acted in a shared round waited for it to close
/// (histogram, seconds; a player alone never waits).
pub const ROUND_WAIT_SECONDS: &str = "gloam_round_wait_seconds";
/// How many actions a depth applied as one batch (histogram, actions).
pub const BATCH_ACTIONS: &str = "gloam_batch_actions";
/// How long a depth took over one batch of actions, from taking the first
/// to having every reply made, before they are handed over (histogram,
/// seconds).
pub const BATCH_SECONDS: &str = "gloam_batch_seconds";
/// How long an action waited in its depth's queue before the depth took
/// it (histogram, seconds).
pub const DEPTH_QUEUE_SECONDS: &str = "gloam_depth_queue_seconds";
/// How long a connection waited for the answer to an action it handed to
/// its depth, from the handing to taking the answer from its queue
/// (histogram, seconds): the depth's queue, its batch and the wait for the
/// connection's task to run.
pub const ANSWER_SECONDS: &str = "gloam_answer_seconds";
/// How long from reading a player's action off its socket to writing its
/// answer there (histogram, seconds): the pace, the depth's queue and
/// batch, and the connection's task (for one action in flight at a time;
/// with more, from the oldest one's read to the first answer).
pub const TURNAROUND_SECONDS: &str = "gloam_turnaround_seconds";
/// Bytes written to clients, WebSocket framing aside (counter).
pub const BYTES_SENT: &str = "gloam_bytes_sent_total";
/// Connections that ended, by why (counter, label `reason`).
pub const CLOSED: &str = "gloam_connections_closed_total";
/// How long one store commit took (histogram, seconds).
pub const COMMIT_SECONDS: &str = "gloam_store_commit_seconds";
/// Store commits that failed (counter).
pub const COMMIT_FAILURES: &str = "gloam_store_commit_failures_total";

/// How long a scraper may take to send its request.
const REQUEST_WAIT: Duration = Duration::from_secs(5);

/// Bucket bounds for the durations, in seconds: from 10 us to 10 s, finer
/// between 0.1 and 20 ms, where a crowd's answers fall.
const BUCKETS: &[f64] = &[
    1e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 5.0, 10.0,
];

/// Bucket bounds for a batch's actions: powers of two up to the most a
/// batch holds.
const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// Installs the recorder for this process; gives the handle that renders.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    let recorder = PrometheusBuilder::new()
        .set_buckets(BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(BATCH_ACTIONS.to_owned()), BATCH_BUCKETS)?
        .build_recorder();
    let handle = recorder.handle();
    metrics::set_global_recorder(recorder)
        .map_err(|e| anyhow::anyhow!("cannot install the metrics recorder: {e}"))?;
    describe();
    Ok(handle)
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_gauge!(PLAYERS, "Players on each depth.");
    describe_counter!(ACTIONS, "Actions applied.");
    describe_counter!(ROUNDS, "Rounds closed.");
    describe_histogram!(COMMAND_SECONDS, Unit::Seconds, "A depth's time for one command.");
    describe_histogram!(ROUND_WAIT_SECONDS, Unit::Seconds, "A player's wait for its round.");
    describe_histogram!(BATCH_ACTIONS, Unit::Count, "Actions a depth applied as one batch.");
    describe_histogram!(BATCH_SECONDS, Unit::Seconds, "A depth's time for one batch of actions.");
    describe_histogram!(
        DEPTH_QUEUE_SECONDS,
        Unit::Seconds,
        "An action's wait in its depth's queue."
    );
    describe_histogram!(ANSWER_SECONDS, Unit::Seconds, "A connection's wait for an answer.");
    describe_histogram!(
        TURNAROUND_SECONDS,
        Unit::Seconds,
        "From an action read to its answer written."
    );
    describe_counter!(BYTES_SENT, Unit::Bytes, "Bytes written to clients.");
    describe_counter!(CLOSED, "Connections ended, by reason.");
    describe_histogram!(COMMIT_SECONDS, Unit::Seconds, "One store commit.");
    describe_counter!(COMMIT_FAILURES, "Store commits that failed.");
}

/// Serves `GET /metrics` on `listener` until the task is dropped; any
/// other path is a 404.
pub async fn serve(listener: TcpListener, handle: PrometheusHandle) {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                warn!(error = %e, "metrics: accept failed");
                continue;
            }
        };
        let handle = handle.clone();
        tokio::spawn(async move {
            if let Err(e) = answer(stream, &handle).await {
                debug!(%peer, error = %e, "metrics: a scrape failed");
            }
        });
    }
}

/// Reads one request's head and answers it.
async fn answer(mut stream: TcpStream, handle: &PrometheusHandle) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(512);
    let mut buf = [0u8; 512];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
        let n = tokio::time::timeout(REQUEST_WAIT, stream.read(&mut buf))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "request too slow"))??;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
    let (status, kind, body) = if line.starts_with(b"GET /metrics ") {
        // Histograms are drained into their buckets here, once per scrape.
        handle.run_upkeep();
        ("200 OK", "text/plain; version=0.0.4", handle.render())
    } else {
        ("404 Not Found", "text/plain", "Gloam serves its figures on /metrics\n".to_owned())
    };
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

/// Binds `addr`, installs the recorder and serves the figures in the
/// background; gives the address it listens on.
pub async fn start(addr: SocketAddr) -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve metrics on {addr}: {e}"))?;
    let bound = listener.local_addr()?;
    let handle = install()?;
    tokio::spawn(serve(listener, handle));
    Ok(bound)
}

//! Holds many idle players on a server, to measure what an idle connection
//! costs: `cargo run --release -p gloam-tests --example hold -- ws://127.0.0.1:7777 1000 [SERVER_PID]`.
//! With the server's pid it prints the server's resident memory before and
//! after, and per connection.

use std::time::Duration;

use gloam_tests::SimClient;

fn rss_kib(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let url = args.next().unwrap_or_else(|| "ws://127.0.0.1:7777".into());
    let count: usize = args.next().map(|n| n.parse()).transpose()?.unwrap_or(1000);
    let pid = args.next();
    let before = pid.as_deref().and_then(rss_kib);
    // Idle players still read what the server sends (arrivals, mostly).
    let mut readers = Vec::with_capacity(count);
    for i in 0..count {
        let mut sim = SimClient::join(&url, &format!("idle{i}"), None).await?;
        readers.push(tokio::spawn(async move {
            loop {
                match sim.recv().await {
                    Ok(_) | Err(gloam_tests::SimError::Timeout(_)) => {}
                    Err(_) => return,
                }
            }
        }));
    }
    // Let the server settle (its allocator, the last messages) before reading its memory.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let alive = readers.iter().filter(|r| !r.is_finished()).count();
    let after = pid.as_deref().and_then(rss_kib);
    println!("holding {alive} idle players of {count}");
    if let (Some(b), Some(a)) = (before, after) {
        let per = (a.saturating_sub(b)) as f64 / count as f64;
        println!("server memory: {b} KiB before, {a} KiB after: {per:.1} KiB per idle connection");
    }
    Ok(())
}

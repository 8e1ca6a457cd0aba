//! The load tool itself, as a process: `gloam-bot` against a server on
//! loopback, against the echo of its own process, and against an echo
//! served by another `gloam-bot` (`--serve-echo`), each time reporting every
//! action it sent as answered and nobody dropped. Its figures are what the
//! crowd targets are judged by, so it must not quietly lose actions. Its
//! reconnect storm (`--storm`) against a server restarted by hand reports
//! every player back as itself, and its players spread over depths
//! (`--depths`) stand where it says.

use std::process::Command;
use std::time::Duration;

use gloam_server::Config;
use gloam_tests::TestServer;
use gloam_tests::process::Running;

const BOT: &str = env!("CARGO_BIN_EXE_gloam-bot");

/// What `gloam-bot --json` printed.
struct Report(String);

impl Report {
    /// The number reported under `name`.
    fn figure(&self, name: &str) -> f64 {
        let Report(json) = self;
        let key = format!("\"{name}\":");
        let at = json.find(&key).unwrap_or_else(|| panic!("no {name} in {json}"));
        let value: String = json[at + key.len()..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        value.parse().unwrap_or_else(|_| panic!("{name} is not a number in {json}"))
    }

    fn assert_all_answered(&self) {
        // Four clients, each acting twenty times a second for half a second.
        assert!(self.figure("sent") >= 4.0, "every client acted: {}", self.0);
        assert_eq!(self.figure("answered"), self.figure("sent"), "every action answered");
        assert_eq!(self.figure("disconnects"), 0.0);
        assert_eq!(self.figure("errors"), 0.0);
        assert!(self.figure("p99_ms") > 0.0);
    }
}

/// Runs `gloam-bot` with `args` and a short `--json` run of four clients.
fn run_bot(args: &[&str]) -> Report {
    let mut command = Command::new(BOT);
    command.args(args).args(["--clients", "4", "--rate", "20", "--duration", "0.5", "--json"]);
    let (_bot, json) =
        Running::start(command, |line| line.starts_with('{').then(|| line.to_owned()))
            .unwrap_or_else(|f| panic!("gloam-bot failed: {f:?}"));
    Report(json)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tool_plays_a_server_and_every_action_is_answered() {
    let server = TestServer::start(Config::quiet(3)).await.expect("server starts");
    let url = server.url();
    let report = tokio::task::spawn_blocking(move || run_bot(&["--connect", &url]))
        .await
        .expect("the bot ran");
    report.assert_all_answered();
    assert!(report.figure("bytes_per_action") > 0.0, "answers carry the game");
    server.stop(Duration::from_secs(10)).await.expect("server stops");
}

/// `--depths 2` takes every second player down to depth 2 before the run
/// starts: the report counts two of the four on each of the first two
/// depths, and every action of the run is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tool_spreads_its_players_over_depths() {
    // Its players go down as fast as they are answered, not at a player's
    // pace of 20 actions a second.
    let config = Config { actions_per_second: 10_000, action_burst: 10_000, ..Config::quiet(3) };
    let server = TestServer::start(config).await.expect("server starts");
    let url = server.url();
    let report =
        tokio::task::spawn_blocking(move || run_bot(&["--connect", &url, "--depths", "2"]))
            .await
            .expect("the bot ran");
    report.assert_all_answered();
    let Report(json) = &report;
    assert!(json.contains(r#""players_by_depth":{"1":2,"2":2}"#), "two on each depth: {json}");
    server.stop(Duration::from_secs(10)).await.expect("server stops");
}

/// `--depths` that cannot be kept is refused with why, before anything
/// connects: none, or beside a load that has no plain crowd to spread.
#[test]
fn the_load_tool_refuses_depths_it_cannot_keep() {
    for (args, why) in [
        (&["--depths", "0"][..], "must be positive"),
        (&["--depths", "2", "--echo"][..], "--depths is for a plain crowd"),
        (&["--depths", "2", "--watchers", "1"][..], "--depths is for a plain crowd"),
    ] {
        let out = Command::new(BOT).args(args).output().expect("gloam-bot runs");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} refused");
        assert!(said.contains(why), "{args:?}: {said}");
    }
}

#[test]
fn the_load_tool_drives_its_own_echo_and_one_served_apart() {
    run_bot(&["--echo"]).assert_all_answered();
    let mut serve = Command::new(BOT);
    serve.args(["--serve-echo", "127.0.0.1:0", "--echo-size", "100", "--echo-work-us", "2000"]);
    let (_echo, url) = Running::start(serve, |line| {
        line.strip_prefix("echo listening on ").map(|url| url.trim().to_owned())
    })
    .unwrap_or_else(|f| panic!("the echo did not start: {f:?}"));
    let report = run_bot(&["--echo", "--connect", &url]);
    report.assert_all_answered();
    assert_eq!(report.figure("bytes_per_action"), 100.0, "the served echo's answers");
    assert!(report.figure("p50_ms") >= 2.0, "each answer took its 2 ms of work");
}

/// `gloam-bot --storm` against a server restarted by hand (here: stopped
/// as SIGTERM stops it, and started again on its port and store): it waits
/// for the links to end, and reports every player back as itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tool_measures_a_reconnect_storm_across_a_restart_by_hand() {
    let data = tempfile::tempdir().unwrap();
    let store = || gloam_server::store::Store::open(data.path()).expect("the store opens");
    let server = TestServer::start_with_store(Config::quiet(3), store()).await.unwrap();
    let (url, bind) = (server.url(), server.addr.to_string());
    let mut command = Command::new(BOT);
    command.args(["--storm", "--connect", &url, "--clients", "6", "--rate", "10"]);
    command.args(["--duration", "0", "--back-within", "30", "--json"]);
    let (bot, ()) = tokio::task::spawn_blocking(move || {
        Running::start(command, |line| line.starts_with("storm: waiting").then_some(()))
    })
    .await
    .unwrap()
    .unwrap_or_else(|f| panic!("gloam-bot --storm failed: {f:?}"));
    server.stop(Duration::from_secs(10)).await.expect("the server stops");
    let server = TestServer::start_on(&bind, Config::quiet(3), store()).await.unwrap();
    let json = tokio::task::spawn_blocking(move || {
        let deadline = std::time::Instant::now() + gloam_tests::process::DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match bot.lines.recv_timeout(left) {
                Ok(line) if line.starts_with('{') => return line,
                Ok(_) => {}
                Err(e) => panic!("gloam-bot --storm said no report: {e}"),
            }
        }
    })
    .await
    .unwrap();
    let report = Report(json);
    assert_eq!(report.figure("lost"), 6.0, "{}", report.0);
    assert_eq!(report.figure("back"), 6.0, "{}", report.0);
    assert_eq!(report.figure("not_back_as_themselves"), 0.0, "{}", report.0);
    assert!(report.figure("last_s") < 30.0, "{}", report.0);
    assert!(report.0.contains("\"refusals\":{}"), "nobody refused: {}", report.0);
    server.stop(Duration::from_secs(10)).await.expect("the server stops");
}

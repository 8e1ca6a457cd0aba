//! A real PostgreSQL for the tests, from the distribution's packages
//! (`client/install-deps --test` installs Debian's `postgresql`): initdb
//! into a temporary folder, as the unprivileged `nobody` when the tests run
//! as root (initdb refuses root), started on a free port of 127.0.0.1 with
//! its socket in that folder. [`database`] gives each test a database of
//! its own in one cluster per test process; [`Cluster::start`] gives a test
//! a cluster of its own, which it can stop and start again.
//!
//! The postgres process is watched by a small shell that holds a pipe from
//! the test process: when the test process ends, however it ends, the pipe
//! closes and the shell stops postgres and removes the folder, so no test
//! leaves a database server behind.
//!
//! Where PostgreSQL is not installed the tests that need it say so and pass
//! without it, unless `GLOAM_REQUIRE_POSTGRES` is set (`tests/run-all` sets
//! it): then its absence fails them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long a cluster may take to start answering.
const STARTUP: Duration = Duration::from_secs(60);

/// The environment variable that makes a missing PostgreSQL a failure.
pub const REQUIRE: &str = "GLOAM_REQUIRE_POSTGRES";

/// A PostgreSQL cluster of the tests' own.
#[derive(Debug)]
pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// The shell that watches postgres, and the pipe it waits on (None
    /// while stopped).
    watcher: Option<(Child, ChildStdin)>,
}

/// The folder of PostgreSQL's server programs: `GLOAM_POSTGRES_BIN`, or
/// the newest `/usr/lib/postgresql/*/bin` (Debian's layout). None where
/// there is none; a message says why, or a panic when it is required.
pub fn binaries() -> Option<PathBuf> {
    let found = std::env::var_os("GLOAM_POSTGRES_BIN").map(PathBuf::from).or_else(|| {
        let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
            .filter(|(_, bin)| bin.join("initdb").exists() && bin.join("postgres").exists())
            .collect();
        versions.sort();
        versions.pop().map(|(_, bin)| bin)
    });
    if found.is_none() {
        let why = "PostgreSQL's server programs are not installed (no /usr/lib/postgresql/*/bin; \
                   `client/install-deps --test` installs them)";
        assert!(std::env::var_os(REQUIRE).is_none(), "{why}, and {REQUIRE} is set");
        eprintln!("skipped on PostgreSQL: {why}");
    }
    found
}

/// Whether this process runs as root.
fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .any(|line| line.starts_with("Uid:") && line.split_whitespace().nth(1) == Some("0"))
}

/// What runs a program as `nobody` (its group by number: Debian's is
/// `nogroup`, others' `nobody`).
const AS_NOBODY: [&str; 5] = ["setpriv", "--reuid=nobody", "--regid=65534", "--clear-groups", "--"];

/// The command that runs `program` as the user PostgreSQL runs as: this
/// one, or `nobody` for root.
fn as_owner(program: &Path) -> Command {
    if !is_root() {
        return Command::new(program);
    }
    let mut command = Command::new(AS_NOBODY[0]);
    command.args(&AS_NOBODY[1..]).arg(program);
    command
}

/// Runs `work` on a thread of its own: the blocking client drives a
/// runtime of its own, which cannot run inside an async test's.
fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        scope.spawn(work).join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A port of 127.0.0.1 free now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("a bound port").port()
}

impl Cluster {
    /// A new cluster, started; None where PostgreSQL is not installed.
    pub fn start() -> Option<Self> {
        let bin = binaries()?;
        let dir = tempfile::Builder::new().prefix("gloam-pg-").tempdir().expect("a folder").keep();
        if is_root() {
            let owned = Command::new("chown").arg("nobody").arg(&dir).status();
            assert!(owned.is_ok_and(|s| s.success()), "chown nobody {}", dir.display());
        }
        let made = as_owner(&bin.join("initdb"))
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "-D"])
            .arg(dir.join("data"))
            .stdout(Stdio::null())
            .output()
            .expect("initdb runs");
        assert!(made.status.success(), "initdb: {}", String::from_utf8_lossy(&made.stderr));
        let mut cluster = Self { bin, dir, port: 0, watcher: None };
        cluster.run(free_port());
        Some(cluster)
    }

    /// Starts postgres on `port` and waits until it answers.
    fn run(&mut self, port: u16) {
        self.port = port;
        let owner = if is_root() { AS_NOBODY.join(" ") } else { String::new() };
        let postgres = format!("{owner} '{}'", self.bin.join("postgres").display());
        let data = self.dir.join("data");
        // The watcher: postgres in the background; a line or the end of
        // its input stops it (a fast shutdown, or a kill after 30 s); the
        // folder goes unless the line says keep.
        let script = format!(
            "{postgres} -D '{data}' -p {port} -k '{dir}' -c listen_addresses=127.0.0.1 \
             >'{dir}/log' 2>&1 & pid=$!; read -r line; kill -INT $pid; i=0; \
             while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; \
             kill -KILL $pid 2>/dev/null; wait $pid; [ \"$line\" = keep ] || rm -rf '{dir}'",
            data = data.display(),
            dir = self.dir.display(),
            port = self.port,
        );
        let mut child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("sh runs");
        let stdin = child.stdin.take().expect("a pipe to the watcher");
        self.watcher = Some((child, stdin));
        self.wait_ready();
    }

    fn wait_ready(&mut self) {
        let deadline = Instant::now() + STARTUP;
        loop {
            let url = self.url("postgres");
            if off_runtime(|| postgres::Client::connect(&url, postgres::NoTls).is_ok()) {
                return;
            }
            let (child, _) = self.watcher.as_mut().expect("running");
            let log = || std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
            if let Ok(Some(status)) = child.try_wait() {
                panic!("postgres ended ({status}) before it answered:\n{}", log());
            }
            assert!(Instant::now() < deadline, "postgres did not answer in {STARTUP:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The address of database `name` on this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A new, empty database of its own; gives its address.
    pub fn database(&self) -> String {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!("gloam_{}", NEXT.fetch_add(1, Ordering::SeqCst));
        let url = self.url("postgres");
        off_runtime(|| {
            let mut client =
                postgres::Client::connect(&url, postgres::NoTls).expect("the test cluster answers");
            client.batch_execute(&format!("CREATE DATABASE {name}")).expect("a new database");
        });
        self.url(&name)
    }

    /// Stops postgres (a fast shutdown: what was committed stays), keeping
    /// its folder for [`Cluster::start_again`].
    pub fn stop(&mut self) {
        if let Some((mut child, mut stdin)) = self.watcher.take() {
            let _ = writeln!(stdin, "keep");
            drop(stdin);
            let _ = child.wait();
        }
    }

    /// Starts postgres again after [`Cluster::stop`], on the same folder
    /// and port (clients hold its address).
    pub fn start_again(&mut self) {
        assert!(self.watcher.is_none(), "stopped first");
        self.run(self.port);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some((mut child, stdin)) = self.watcher.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

/// A new database of its own for a test, in this process's cluster
/// (started by the first test that asks); None where PostgreSQL is not
/// installed.
pub fn database() -> Option<String> {
    static SHARED: OnceLock<Mutex<Option<Cluster>>> = OnceLock::new();
    let shared = SHARED.get_or_init(|| Mutex::new(Cluster::start()));
    let cluster = shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    cluster.as_ref().map(Cluster::database)
}

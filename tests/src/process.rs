//! Real binaries as child processes: start one, read its stdout until it
//! says it is ready, signal it, and wait for it to end, every wait bounded.
//! `gloam-server` on a data folder ([`ServerProcess`]) and the window's
//! end-to-end tests (Xvfb, `gloam`) are all started this way.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a process may take to say it is ready, or to exit.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// A process that would not start: how it exited and what it said.
#[derive(Debug)]
pub struct Failure {
    pub status: ExitStatus,
    pub stderr: String,
    /// What it printed on stdout.
    pub stdout: String,
}

/// A child process, killed when dropped.
#[derive(Debug)]
pub struct Running {
    child: Option<Child>,
    /// Everything it printed on stdout up to the line that said it was ready.
    pub banner: String,
    /// Its later stdout lines.
    pub lines: mpsc::Receiver<String>,
}

impl Running {
    /// Starts `command` with stdout piped (and stderr piped unless the
    /// command already chose) and reads stdout until `ready` picks a value
    /// out of a line. A process that ends first is a [`Failure`]; one that
    /// says nothing useful within [`DEADLINE`] is killed, and the test fails.
    pub fn start<T>(
        command: Command,
        mut ready: impl FnMut(&str) -> Option<T>,
    ) -> Result<(Self, T), Failure> {
        let name = format!("{command:?}");
        let Running { child, lines, .. } = &mut Self::spawn(command);
        let mut child = child.take().expect("just started");
        let lines = std::mem::replace(lines, mpsc::channel().1);
        let mut banner = String::new();
        let deadline = Instant::now() + DEADLINE;
        loop {
            match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    banner.push_str(&line);
                    banner.push('\n');
                    if let Some(value) = ready(&line) {
                        return Ok((Self { child: Some(child), banner, lines }, value));
                    }
                }
                // Its stdout closed: it ended without getting ready.
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let mut stderr = String::new();
                    if let Some(mut err) = child.stderr.take() {
                        let _ = err.read_to_string(&mut stderr);
                    }
                    let status = wait_with_deadline(child);
                    return Err(Failure { status, stderr, stdout: banner });
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    panic!("{name} was not ready within {DEADLINE:?}: {banner}");
                }
            }
        }
    }

    /// Starts `command` with stdout piped into [`Running::lines`], without
    /// waiting for anything.
    pub fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child: Some(child), banner: String::new(), lines }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// SIGKILL: no chance to save anything.
    pub fn kill_hard(mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().expect("kill -9 works");
        wait_with_deadline(child);
    }

    /// Sends `signal` (TERM, INT) and waits for the exit.
    pub fn signal(mut self, signal: &str) -> ExitStatus {
        let child = self.child.take().expect("running");
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        wait_with_deadline(child)
    }

    /// Waits for the process to end by itself.
    pub fn wait(mut self) -> ExitStatus {
        wait_with_deadline(self.child.take().expect("running"))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Waits for `child` to exit; kills it and fails the test after [`DEADLINE`].
pub fn wait_with_deadline(mut child: Child) -> ExitStatus {
    let (tx, rx) = mpsc::channel();
    let pid = child.id();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(status) => status.expect("wait works"),
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            panic!("process {pid} did not exit within {DEADLINE:?}");
        }
    }
}

/// The `gloam-server` binary (its path is `env!("CARGO_BIN_EXE_gloam-server")`
/// in the server's own tests) serving a data folder on a loopback port.
#[derive(Debug)]
pub struct ServerProcess {
    pub process: Running,
    pub url: String,
}

impl ServerProcess {
    /// Starts the server on `data` with `args` and waits until it listens.
    pub fn start(binary: &str, data: &Path, args: &[&str]) -> Self {
        Self::try_start(binary, data, args)
            .unwrap_or_else(|f| panic!("the server did not start: {f:?}"))
    }

    /// Starts the server, or says how it failed to start.
    pub fn try_start(binary: &str, data: &Path, args: &[&str]) -> Result<Self, Failure> {
        Self::try_start_at(binary, "127.0.0.1:0", data, args)
    }

    /// Starts the server listening on `bind` (a port it listened on before
    /// it was stopped, say) and waits until it listens.
    pub fn start_at(binary: &str, bind: &str, data: &Path, args: &[&str]) -> Self {
        Self::try_start_at(binary, bind, data, args)
            .unwrap_or_else(|f| panic!("the server did not start: {f:?}"))
    }

    /// [`ServerProcess::start_at`], or how it failed to start.
    pub fn try_start_at(
        binary: &str,
        bind: &str,
        data: &Path,
        args: &[&str],
    ) -> Result<Self, Failure> {
        let mut command = Command::new(binary);
        command
            .args(["--bind", bind, "--data"])
            .arg(data)
            .args(args)
            .env("RUST_LOG", "warn")
            .env_remove("RUST_BACKTRACE")
            .stderr(Stdio::piped());
        let (process, url) = Running::start(command, |line| {
            line.strip_prefix("gloam-server listening on ").map(|url| url.trim().to_owned())
        })?;
        Ok(Self { process, url })
    }

    /// What it printed before it listened.
    pub fn banner(&self) -> &str {
        &self.process.banner
    }
}

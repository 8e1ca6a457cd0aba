//! A headless Chromium for the browser tests, driven through
//! `tests/browser/driver.mjs` (Playwright's library, pointed at Debian's
//! `chromium`): pages opened at an address, keys pressed, expressions
//! evaluated in the page, screenshots. Every answer is awaited within a
//! deadline, so a page that hangs fails its test; the driver and its
//! browser are killed when the [`Browser`] is dropped.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long one command may take: opening a page starts a browser context
/// and loads the page, on a machine that may be busy.
const ANSWER_WITHIN: Duration = Duration::from_secs(60);

/// The driver's folder: its script and its `node_modules`.
pub fn driver_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("browser")
}

/// Why a command to the browser failed.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    #[error("the browser driver could not start: {0}")]
    Start(String),
    #[error("the browser driver did not answer within {0:?}")]
    Timeout(Duration),
    #[error("the browser driver ended")]
    Ended,
    #[error("the browser says: {0}")]
    Page(String),
    #[error("the browser driver's answer is not JSON: {0}")]
    Garbled(String),
}

/// One headless Chromium, with the pages opened in it.
#[derive(Debug)]
pub struct Browser {
    child: Child,
    stdin: ChildStdin,
    answers: Lines<BufReader<ChildStdout>>,
}

/// A page in a [`Browser`], by the number the driver gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page(u64);

impl Browser {
    /// Starts the driver and its Chromium. Needs `node`, the driver's
    /// packages (`tests/browser/install`, which tests/run-all runs) and
    /// Chromium (`client/install-deps --test`).
    pub async fn start() -> Result<Self, BrowserError> {
        Self::start_in(None).await
    }

    /// [`Browser::start`], in the network namespace `netns` if given (another
    /// machine, as far as the network goes: see `netns`).
    pub async fn start_in(netns: Option<&str>) -> Result<Self, BrowserError> {
        let dir = driver_dir();
        if !dir.join("node_modules").exists() {
            return Err(BrowserError::Start(format!(
                "{} has no node_modules: run tests/browser/install",
                dir.display()
            )));
        }
        let mut command = match netns {
            Some(name) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", name, "node"]);
                c
            }
            None => Command::new("node"),
        };
        let mut child = command
            .arg(dir.join("driver.mjs"))
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| BrowserError::Start(format!("node: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let answers = BufReader::new(child.stdout.take().expect("piped")).lines();
        Ok(Self { child, stdin, answers })
    }

    /// Sends one command and gives its answer's value.
    async fn ask(&mut self, command: Value) -> Result<Value, BrowserError> {
        let mut line = command.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await.map_err(|_| BrowserError::Ended)?;
        let answer = tokio::time::timeout(ANSWER_WITHIN, self.answers.next_line())
            .await
            .map_err(|_| BrowserError::Timeout(ANSWER_WITHIN))?
            .map_err(|_| BrowserError::Ended)?
            .ok_or(BrowserError::Ended)?;
        let mut answer: Value =
            serde_json::from_str(&answer).map_err(|_| BrowserError::Garbled(answer.clone()))?;
        if let Some(why) = answer.get("error") {
            return Err(BrowserError::Page(why.as_str().unwrap_or_default().to_owned()));
        }
        Ok(answer.get_mut("ok").map(Value::take).unwrap_or(Value::Null))
    }

    /// Opens `url` in a page of its own (its own storage, as another
    /// browser's would be), `width` x `height` pixels.
    pub async fn open(&mut self, url: &str, width: u32, height: u32) -> Result<Page, BrowserError> {
        let n =
            self.ask(json!({"cmd": "open", "url": url, "width": width, "height": height})).await?;
        n.as_u64().map(Page).ok_or_else(|| BrowserError::Garbled(n.to_string()))
    }

    /// Presses a key (Playwright's names: "h", "Enter", "Escape", "Shift+R").
    pub async fn key(&mut self, page: Page, key: &str) -> Result<(), BrowserError> {
        self.ask(json!({"cmd": "key", "page": page.0, "key": key})).await.map(drop)
    }

    /// Types text, a key press a character.
    pub async fn type_text(&mut self, page: Page, text: &str) -> Result<(), BrowserError> {
        self.ask(json!({"cmd": "type", "page": page.0, "text": text})).await.map(drop)
    }

    /// The value of a JavaScript expression in the page.
    pub async fn eval(&mut self, page: Page, expr: &str) -> Result<Value, BrowserError> {
        self.ask(json!({"cmd": "eval", "page": page.0, "expr": expr})).await
    }

    /// Waits (at most `within`) until a JavaScript expression in the page is
    /// truthy; gives its value.
    pub async fn wait(
        &mut self,
        page: Page,
        expr: &str,
        within: Duration,
    ) -> Result<Value, BrowserError> {
        let ms = within.as_millis() as u64;
        self.ask(json!({"cmd": "wait", "page": page.0, "expr": expr, "ms": ms})).await
    }

    /// A PNG of the page's viewport.
    pub async fn screenshot(&mut self, page: Page, path: &Path) -> Result<(), BrowserError> {
        let path = path.to_string_lossy();
        self.ask(json!({"cmd": "screenshot", "page": page.0, "path": path})).await.map(drop)
    }

    pub async fn reload(&mut self, page: Page) -> Result<(), BrowserError> {
        self.ask(json!({"cmd": "reload", "page": page.0})).await.map(drop)
    }

    /// Closes the page and its storage.
    pub async fn close(&mut self, page: Page) -> Result<(), BrowserError> {
        self.ask(json!({"cmd": "close", "page": page.0})).await.map(drop)
    }

    /// The uncaught errors the page has thrown so far.
    pub async fn errors(&mut self, page: Page) -> Result<Vec<String>, BrowserError> {
        let all = self.ask(json!({"cmd": "errors", "page": page.0})).await?;
        serde_json::from_value(all).map_err(|e| BrowserError::Garbled(e.to_string()))
    }

    /// Ends the driver and its browser.
    pub async fn stop(mut self) {
        drop(self.stdin);
        let _ = tokio::time::timeout(Duration::from_secs(10), self.child.wait()).await;
    }
}

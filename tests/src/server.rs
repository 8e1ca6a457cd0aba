//! A real server in this process, on an ephemeral loopback port.

use std::net::SocketAddr;
use std::time::Duration;

use gloam_server::Config;
use gloam_server::store::Store;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

#[derive(Debug)]
pub struct TestServer {
    pub addr: SocketAddr,
    pub config: Config,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Starts a server with `config` on 127.0.0.1:0.
    pub async fn start(config: Config) -> anyhow::Result<Self> {
        Self::start_with_store(config, Store::in_memory()).await
    }

    /// Starts a server with `config` keeping its characters in `store`.
    pub async fn start_with_store(config: Config, store: Store) -> anyhow::Result<Self> {
        Self::start_on("127.0.0.1:0", config, store).await
    }

    /// Starts a server with `config` on `bind` (`0.0.0.0:0` for every
    /// interface, as a host for friends on other machines binds).
    pub async fn start_on(bind: &str, config: Config, store: Store) -> anyhow::Result<Self> {
        let listener = TcpListener::bind(bind).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
        };
        let task =
            tokio::spawn(gloam_server::run_with_store(listener, shutdown, config.clone(), store));
        Ok(Self { addr, config, stop: Some(stop), task })
    }

    /// True while `run` has neither returned nor panicked.
    pub fn is_running(&self) -> bool {
        !self.task.is_finished()
    }

    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Asks the server to stop and waits (at most `deadline`) for `run` to return.
    pub async fn stop(mut self, deadline: Duration) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = tokio::time::timeout(deadline, &mut self.task)
            .await
            .map_err(|_| anyhow::anyhow!("the server did not stop within {deadline:?}"))?;
        result??;
        Ok(())
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

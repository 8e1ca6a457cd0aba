//! A scenario's world: a real server keeping its store (and the depths'
//! logs) in a folder of its own, the oracle its clients are checked by,
//! and at the end every depth replayed from the server's logs against
//! what each client was shown.

use std::time::Duration;

use gloam_server::Config;
use gloam_server::store::Store;
use tempfile::TempDir;

use crate::history::{self, Covered, Glimpse};
use crate::{Oracle, SimClient, TestServer};

/// A sleepy straw dummy that lives nowhere but where a test places it
/// (`--place "straw dummy@DEPTH:X,Y"`), slow and weak, poking back now
/// and then: a bestiary file's text.
pub const STRAW_DUMMY: &str = r##"
[[monster]]
name = "straw dummy"
glyph = "D"
colour = "#c0b060"
hp = 60
to_hit = 50
damage = "1d3"
verb = "pokes"
speed = "slow"
sight = 2
behaviour = "wanders"
asleep = true
depths = [30, 30]
rarity = 10
"##;

/// A server of a scenario, and the oracle of its clients.
pub struct World {
    pub server: TestServer,
    data: TempDir,
    pub oracle: Oracle,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World").field("url", &self.server.url()).finish_non_exhaustive()
    }
}

impl World {
    /// The oracle of `config`'s world: its seed, monsters, items and bottom.
    pub fn oracle_of(config: &Config) -> Oracle {
        Oracle::new(config.seed, config.generator, config.sight_radius)
            .with_monsters((*config.bestiary).clone(), config.placements.clone())
            .with_items((*config.world_items()).clone())
            .with_bottom(config.bottom())
    }

    /// Starts a server of `config`, its clients checked by `oracle`.
    pub async fn start(config: Config, oracle: Oracle) -> Self {
        let data = tempfile::tempdir().expect("a folder for the store");
        let store = Store::open(data.path()).expect("the store opens");
        let server = TestServer::start_with_store(config, store).await.expect("the server starts");
        World { server, data, oracle }
    }

    /// A client joining as `name`, checked by the oracle.
    pub async fn join(&self, name: &str) -> SimClient {
        SimClient::join(&self.server.url(), name, Some(self.oracle.clone())).await.expect("join")
    }

    /// `name`'s character joining again with its secret `token` after it
    /// quit, checked by `oracle`, the oracle of its earlier game, which
    /// knows what it has seen.
    pub async fn rejoin(
        &self,
        name: &str,
        token: Option<gloam_protocol::Token>,
        oracle: Oracle,
    ) -> SimClient {
        let url = self.server.url();
        SimClient::join_with_token(&url, name, token, Some(oracle)).await.expect("rejoin")
    }

    /// Ends the scenario: the players quit, and what each was shown (and
    /// what the oracles of those `gone` before saw) is checked against
    /// every depth replayed from the server's logs.
    pub async fn replayed(self, players: Vec<SimClient>, gone: Vec<Oracle>) -> Covered {
        let mut glimpses: Vec<Glimpse> = gone.into_iter().flat_map(|o| o.glimpses).collect();
        for sim in players {
            glimpses.extend(sim.quit_with_oracle().await.expect("quits").unwrap().glimpses);
        }
        let config = self.server.config.clone();
        self.server.stop(Duration::from_secs(10)).await.expect("the server stops");
        let store = Store::open(self.data.path()).expect("the store opens again");
        history::check_every_depth(&config, &store, &glimpses).unwrap_or_else(|e| panic!("{e}"))
    }
}

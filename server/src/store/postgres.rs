//! The PostgreSQL backend (`--store postgres://...`): the same records as
//! the redb tables (`tables.rs`), one world per database, in the tables
//! that `server/migrations/` lays out.
//!
//! The crate is `postgres`, the blocking client that wraps `tokio-postgres`
//! (both by the rust-postgres project): the store already owns one thread
//! that applies a batch in one transaction and answers reads in order, so a
//! blocking client on that thread fits it as redb does, with plain SQL and
//! no code generated at build time. sqlx was the other choice: it is async
//! (a runtime's task instead of the thread, or `block_on` around every
//! call), and its checked `query!` macros need a database or the offline
//! query data at every build, with a larger graph; its checks are little
//! worth here, where a handful of statements is run by the store's test
//! suite on both backends.
//!
//! Durability is PostgreSQL's: a batch's commit returns once it is in the
//! server's log (synchronous commit, the default), and the store gathers
//! and retries exactly as on redb (`keeper.rs`), so a SIGKILL of the game
//! server loses at most the writes it had not yet committed, well under a
//! second. When the connection is lost (PostgreSQL restarted, the network
//! failed) the failed batch stays with the keeper, which tries again every
//! second; each try connects afresh, so the game plays on and what it sent
//! is committed once the database is back.
//!
//! Two servers never play one world: each connection takes a session-level
//! advisory lock on the database ([`WORLD_LOCK`]) and gives up when another
//! holds it, as the redb store's folder lock does (a reconnection takes it
//! again, and fails while another server holds it).
//!
//! Morgue files are kept in the `morgues` table, one row each, written and
//! read by the store's thread as they come (see `morgue.rs`).
//!
//! Every statement may run for [`STATEMENT_TIMEOUT`] at most: one stuck
//! (behind another session's lock, or on an overloaded server) fails then,
//! rather than the store's thread waiting for good: a commit is tried
//! again by the keeper's retry, a read fails to its asker, and a morgue
//! file being kept is lost (as one that cannot be written to a folder).
//! Migrations are not limited: one may rewrite a large table. That limit is PostgreSQL's own, so it needs a server
//! that still answers: a server frozen whole, or a network that drops
//! everything without a word, is not caught by it.
//!
//! Migrations are the numbered files of `server/migrations/`, built into
//! the binary, applied in order in a transaction each and recorded in
//! `schema_migrations`; a database that has one this server does not know
//! was made by a newer server and is refused.

use std::path::PathBuf;
use std::time::Duration;

use gloam_protocol::codec::encode;
use gloam_protocol::{DeathRecord, Pos};
use postgres::{Client, NoTls, Transaction};

use super::backend::{Backend, Fault};
use super::command::Cmd;
use super::export::Export;
use super::morgue::Morgue;
use super::tables::{self, FIRST_RULES, KEEP_SNAPSHOTS};
use super::{DepthHistory, DepthSnapshot, Reading, StoreError};
use crate::character::{Credential, Snapshot, Vitals};

/// The migrations, in order: (version, name, SQL).
const MIGRATIONS: &[(i32, &str, &str)] =
    &[(1, "store", include_str!("../../migrations/0001_store.sql"))];

/// The advisory lock a server holds on its world's database while it plays
/// ("gloam" in ASCII).
pub(crate) const WORLD_LOCK: i64 = 0x67_6c_6f_61_6d;

/// How long a connection may take to open: the keeper's thread waits that
/// long at most before it answers and tries again later.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// How long one statement may run before PostgreSQL cancels it (the
/// connection's `statement_timeout`). The store's thread waits on each
/// statement, and while it waits no player can join and no save is
/// committed; the slowest the store makes in play (a whole depth's log or
/// graveyard read, a commit) take milliseconds, so ten seconds is far
/// beyond any of them, even on a busy server, yet short enough that the
/// store's thread goes on (and commits are tried again) soon after a
/// stuck one.
const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// A world's database and the connection to it (None while it is lost).
pub(super) struct Postgres {
    config: postgres::Config,
    client: Option<Client>,
    /// Each connection's `statement_timeout` ([`STATEMENT_TIMEOUT`]).
    statement_timeout: Duration,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres").field("place", &place(&self.config)).finish()
    }
}

impl Drop for Postgres {
    /// Lets the world go before the connection ends: PostgreSQL ends a
    /// closed session a little later, and a server opening the world at
    /// once (a restart) would find it still held.
    fn drop(&mut self) {
        // Closing the client blocks too: off the runtime with the rest.
        if let Some(mut client) = self.client.take() {
            off_runtime(move || {
                let _ = client.execute("SELECT pg_advisory_unlock($1)", &[&WORLD_LOCK]);
                drop(client);
            });
        }
    }
}

/// Runs `work` where the blocking client may block: on a thread of its
/// own when called from inside a tokio runtime (the client drives a
/// runtime of its own, which cannot run inside another, and the server
/// opens the store and reads its world from async code before the store's
/// thread starts), else right here.
fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return work();
    }
    std::thread::scope(|scope| {
        scope.spawn(work).join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// How long an opening waits for a world held by a session that ends (a
/// server killed a moment ago) before it says another server holds it.
const HELD_WAIT: Duration = Duration::from_secs(3);

/// Where `config` points, as printed: without its password.
pub(super) fn place(config: &postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(host)) => host.clone(),
        Some(postgres::config::Host::Unix(path)) => path.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().map(|u| format!("{u}@")).unwrap_or_default();
    format!("postgres://{user}{host}:{port}/{}", config.get_dbname().unwrap_or(""))
}

impl Postgres {
    /// Connects to the world's database at `url`, takes its lock, applies
    /// the migrations it lacks and marks a new world with its id. Gives the
    /// backend and where it is, as printed.
    pub(super) fn connect(url: &str) -> Result<(Self, PathBuf), StoreError> {
        Self::connect_with(url, STATEMENT_TIMEOUT)
    }

    /// [`Postgres::connect`], each statement cancelled after
    /// `statement_timeout` (a test's shorter one).
    fn connect_with(url: &str, statement_timeout: Duration) -> Result<(Self, PathBuf), StoreError> {
        off_runtime(|| Self::connect_here(url, statement_timeout))
    }

    fn connect_here(url: &str, statement_timeout: Duration) -> Result<(Self, PathBuf), StoreError> {
        let mut config: postgres::Config = url.parse().map_err(|e| StoreError::Unreachable {
            file: PathBuf::from("the --store address"),
            detail: format!("{url:?} is not a PostgreSQL address: {e}"),
        })?;
        config.connect_timeout(CONNECT_TIMEOUT);
        let file = PathBuf::from(place(&config));
        let unreachable = |fault: Fault| match fault {
            Fault::Damaged(detail) => StoreError::Corrupt { file: file.clone(), detail },
            other => StoreError::Unreachable { file: file.clone(), detail: other.to_string() },
        };
        let deadline = std::time::Instant::now() + HELD_WAIT;
        let mut client = loop {
            match session(&config, statement_timeout) {
                Ok(client) => break client,
                Err(Session::Held) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(Session::Held) => {
                    let holder = "unknown".into();
                    return Err(StoreError::Locked { file, holder });
                }
                Err(Session::Failed(fault)) => return Err(unreachable(fault)),
            }
        };
        migrate(&mut client, &file)?;
        mark_new(&mut client).map_err(unreachable)?;
        Ok((Self { config, client: Some(client), statement_timeout }, file))
    }

    /// Runs `work` on the connection, opened first if it was lost; a
    /// connection found closed is dropped, for the next call to open anew.
    fn run<T: Send>(
        &mut self,
        work: impl FnOnce(&mut Client) -> Result<T, Fault> + Send,
    ) -> Result<T, Fault> {
        off_runtime(|| self.run_here(work))
    }

    fn run_here<T>(
        &mut self,
        work: impl FnOnce(&mut Client) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        if self.client.is_none() {
            match session(&self.config, self.statement_timeout) {
                Ok(client) => self.client = Some(client),
                Err(Session::Held) => {
                    return Err(Fault::Unreachable("another server holds this world".into()));
                }
                Err(Session::Failed(fault)) => return Err(fault),
            }
        }
        let client = self.client.as_mut().expect("connected above");
        let result = work(client);
        if client.is_closed() {
            self.client = None;
        }
        result
    }
}

/// Why a connection could not be had.
enum Session {
    /// Another server holds the world's lock.
    Held,
    Failed(Fault),
}

/// A new connection that holds the world's lock, each of its statements
/// cancelled after `statement_timeout`. Set here rather than in the
/// address's `options`, which poolers such as PgBouncer refuse.
fn session(config: &postgres::Config, statement_timeout: Duration) -> Result<Client, Session> {
    let mut client = config.connect(NoTls).map_err(|e| Session::Failed(fault(e)))?;
    let ms = statement_timeout.as_millis().max(1);
    client
        .batch_execute(&format!("SET statement_timeout = {ms}"))
        .map_err(|e| Session::Failed(fault(e)))?;
    let row = client
        .query_one("SELECT pg_try_advisory_lock($1)", &[&WORLD_LOCK])
        .map_err(|e| Session::Failed(fault(e)))?;
    if !row.get::<_, bool>(0) {
        return Err(Session::Held);
    }
    Ok(client)
}

/// A client's error as a backend's fault: a lost connection, a server
/// shutting down or out of resources may pass; anything else is damage.
fn fault(e: postgres::Error) -> Fault {
    let Some(db) = e.as_db_error() else {
        return Fault::Unreachable(format!("{e}{}", cause(&e)));
    };
    let class = &db.code().code()[..2];
    // 08: connection exception, 57: operator intervention (shutdown),
    // 53: insufficient resources, 40: transaction rollback.
    if ["08", "57", "53", "40"].contains(&class) {
        Fault::Unreachable(db.to_string())
    } else {
        Fault::Damaged(db.to_string())
    }
}

fn cause(e: &postgres::Error) -> String {
    std::error::Error::source(e).map(|s| format!(": {s}")).unwrap_or_default()
}

/// Applies the migrations `client`'s database lacks, in order, each in a
/// transaction with its record in `schema_migrations`.
fn migrate(client: &mut Client, file: &std::path::Path) -> Result<(), StoreError> {
    let failed = |e: postgres::Error| StoreError::Unreachable {
        file: file.to_path_buf(),
        detail: fault(e).to_string(),
    };
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, \
             name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
        )
        .map_err(failed)?;
    let rows = client.query("SELECT version FROM schema_migrations", &[]).map_err(failed)?;
    let applied: Vec<i32> = rows.iter().map(|row| row.get(0)).collect();
    if let Some(newer) = applied.iter().find(|v| !MIGRATIONS.iter().any(|(m, ..)| m == *v)) {
        return Err(StoreError::OtherVersion {
            file: file.to_path_buf(),
            found: format!("Gloam store on PostgreSQL with migration {newer}"),
        });
    }
    for (version, name, sql) in MIGRATIONS.iter().filter(|(v, ..)| !applied.contains(v)) {
        let mut txn = client.transaction().map_err(failed)?;
        // A migration may take long on a large world: not cut short.
        txn.batch_execute("SET LOCAL statement_timeout = 0").map_err(failed)?;
        txn.batch_execute(sql).map_err(failed)?;
        txn.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[version, name],
        )
        .map_err(failed)?;
        txn.commit().map_err(failed)?;
        tracing::info!(version, name, "store migration applied");
    }
    Ok(())
}

/// Gives a new world its id, drawn now (a world that has one keeps it).
fn mark_new(client: &mut Client) -> Result<(), Fault> {
    let mut world_id = [0u8; 8];
    getrandom::fill(&mut world_id)
        .map_err(|e| Fault::Damaged(format!("no randomness for the world id: {e}")))?;
    client
        .execute(
            "INSERT INTO meta (key, value) VALUES ('world-id', $1) ON CONFLICT DO NOTHING",
            &[&world_id.as_slice()],
        )
        .map_err(fault)?;
    Ok(())
}

impl Backend for Postgres {
    fn write(&mut self, writes: &[Cmd]) -> Result<(), Fault> {
        self.run(|client| {
            let mut txn = client.transaction().map_err(fault)?;
            let mut graves = Numbers::of(&mut txn)?;
            for cmd in writes {
                write_one(&mut txn, &mut graves, cmd).map_err(fault)?;
            }
            txn.commit().map_err(fault)
        })
    }

    fn load(&mut self, name: &str) -> Result<Option<Snapshot>, Fault> {
        self.run(|client| load(client, name).map_err(fault))
    }

    fn graveyard(&mut self) -> Result<Vec<DeathRecord>, Fault> {
        self.run(|client| {
            let living = records(client, true).map_err(fault)?;
            let dead = records(client, false).map_err(fault)?;
            Ok(tables::in_graveyard_order(living, dead))
        })
    }

    fn depth_history(&mut self, depth: u16, reading: Reading) -> Result<DepthHistory, Fault> {
        self.run(|client| {
            let mut txn = client.transaction().map_err(fault)?;
            let history = depth_history(&mut txn, depth, reading).map_err(fault)?;
            txn.commit().map_err(fault)?;
            Ok(history)
        })
    }

    fn life_end(&mut self, name: &str, life: u32) -> Result<Option<(u16, u64)>, Fault> {
        self.run(|client| {
            let row = client
                .query_opt(
                    "SELECT depth, round FROM life_ends WHERE name = $1 AND life = $2",
                    &[&name, &i64::from(life)],
                )
                .map_err(fault)?;
            Ok(row.map(|row| (small(row.get(0)), row.get::<_, i64>(1) as u64)))
        })
    }

    fn known(&mut self) -> Result<Vec<Credential>, Fault> {
        self.run(|client| {
            let rows = client
                .query("SELECT name, token_hash FROM tokens ORDER BY name COLLATE \"C\"", &[])
                .map_err(fault)?;
            rows.iter()
                .map(|row| {
                    let name: String = row.get(0);
                    let hash: &[u8] = row.get(1);
                    let token_hash = <[u8; 32]>::try_from(hash).map_err(|_| {
                        Fault::Damaged(format!("the token hash of {name} is damaged"))
                    })?;
                    Ok(Credential { name, token_hash })
                })
                .collect()
        })
    }

    fn meta(&mut self, key: &str) -> Result<Option<Vec<u8>>, Fault> {
        self.run(|client| {
            let row = client
                .query_opt("SELECT value FROM meta WHERE key = $1", &[&key])
                .map_err(fault)?;
            Ok(row.map(|row| row.get(0)))
        })
    }

    fn set_meta(&mut self, values: &[(&str, Option<Vec<u8>>)]) -> Result<(), Fault> {
        self.run(|client| {
            let mut txn = client.transaction().map_err(fault)?;
            for (key, value) in values {
                match value {
                    Some(value) => txn.execute(
                        "INSERT INTO meta (key, value) VALUES ($1, $2) \
                         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                        &[key, value],
                    ),
                    None => txn.execute("DELETE FROM meta WHERE key = $1", &[key]),
                }
                .map_err(fault)?;
            }
            txn.commit().map_err(fault)
        })
    }

    fn keep_morgues(&mut self, files: &[Morgue]) -> Result<(), Fault> {
        self.run(|client| keep_morgues(client, files).map_err(fault))
    }

    fn morgue(&mut self, name: &str, number: u32) -> Result<Option<String>, Fault> {
        self.run(|client| {
            let row = client
                .query_opt(
                    "SELECT body FROM morgues WHERE name = $1 AND number = $2",
                    &[&name, &i64::from(number)],
                )
                .map_err(fault)?;
            Ok(row.map(|row| row.get(0)))
        })
    }

    fn export(&mut self) -> Result<Export, Fault> {
        Err(Fault::Unreachable("a world on PostgreSQL is moved with pg_dump".into()))
    }

    fn back_up(&mut self, _keep: usize) -> Result<PathBuf, String> {
        Err("a store on PostgreSQL is backed up with PostgreSQL's own tools (pg_dump)".into())
    }

    fn lost(&mut self) {
        // A failed transaction may have left the connection unusable, or
        // the server gone: the next call connects afresh.
        self.client = None;
    }
}

/// Keeps morgue files in one transaction, each replacing any of its name
/// and number (as a file written again on the folder shelf does).
fn keep_morgues(client: &mut Client, files: &[Morgue]) -> Result<(), postgres::Error> {
    let mut txn = client.transaction()?;
    let insert = txn.prepare(
        "INSERT INTO morgues (name, number, body) VALUES ($1, $2, $3) \
         ON CONFLICT (name, number) DO UPDATE SET body = EXCLUDED.body",
    )?;
    for Morgue { name, number, text } in files {
        txn.execute(&insert, &[name, &i64::from(*number), text])?;
    }
    txn.commit()
}

/// The numbers the next grave and the next of the hall of the living take.
struct Numbers {
    grave: i64,
    living: i64,
}

impl Numbers {
    fn of(txn: &mut Transaction<'_>) -> Result<Self, Fault> {
        let next = |txn: &mut Transaction<'_>, table: &str| -> Result<i64, Fault> {
            let sql = format!("SELECT COALESCE(MAX(number) + 1, 0) FROM {table}");
            Ok(txn.query_one(&sql, &[]).map_err(fault)?.get(0))
        };
        Ok(Self { grave: next(txn, "graves")?, living: next(txn, "living")? })
    }
}

/// One command's writes.
fn write_one(
    txn: &mut Transaction<'_>,
    numbers: &mut Numbers,
    cmd: &Cmd,
) -> Result<(), postgres::Error> {
    match cmd {
        Cmd::Create { known, .. } => {
            txn.execute(
                "INSERT INTO tokens (name, token_hash) VALUES ($1, $2) \
                 ON CONFLICT (name) DO UPDATE SET token_hash = EXCLUDED.token_hash",
                &[&known.name, &known.token_hash.as_slice()],
            )?;
        }
        Cmd::Save { name, snapshot } => save(txn, name, snapshot)?,
        Cmd::Bury { record } => bury(txn, numbers, record)?,
        Cmd::AppendLog { depth, first, entries, checksum } => {
            append_log(txn, *depth, *first, entries, *checksum)?
        }
        Cmd::StartHistory { depth, start, rules } => {
            txn.execute(
                "INSERT INTO depth_histories (depth, start, rules) VALUES ($1, $2, $3) \
                 ON CONFLICT (depth) DO UPDATE SET start = EXCLUDED.start, rules = EXCLUDED.rules",
                &[&i32::from(*depth), &(*start as i64), &i64::from(*rules)],
            )?;
        }
        Cmd::KeepSnapshot { depth, snapshot } => keep_snapshot(txn, *depth, snapshot)?,
        Cmd::SlayUnique { kind, by } => {
            txn.execute(
                "INSERT INTO uniques_slain (kind, slain_by) VALUES ($1, $2) \
                 ON CONFLICT (kind) DO UPDATE SET slain_by = EXCLUDED.slain_by",
                &[kind, by],
            )?;
        }
        Cmd::EndLife { name, life, depth, round } => {
            txn.execute(
                "INSERT INTO life_ends (name, life, depth, round) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (name, life) DO UPDATE SET depth = EXCLUDED.depth, round = EXCLUDED.round",
                &[name, &i64::from(*life), &i32::from(*depth), &(*round as i64)],
            )?;
        }
        Cmd::Load { .. }
        | Cmd::LifeEnd { .. }
        | Cmd::Graveyard { .. }
        | Cmd::LoadLog { .. }
        | Cmd::MakeSnapshot { .. }
        | Cmd::Flush { .. }
        | Cmd::Morgue { .. }
        | Cmd::ReadMorgue { .. }
        | Cmd::Backup { .. }
        | Cmd::Close => {}
    }
    Ok(())
}

/// A character's save: its row, and each depth's explored cells and
/// remembered piles (as `tables.rs` keeps them).
fn save(txn: &mut Transaction<'_>, name: &str, snapshot: &Snapshot) -> Result<(), postgres::Error> {
    let Snapshot {
        depth,
        pos,
        vitals: v,
        explored,
        piles,
        pack,
        progress,
        known,
        slain,
        background,
    } = snapshot;
    let known = (!known.is_empty()).then(|| encode(known));
    let background = background.as_ref().map(encode);
    txn.execute(
        "INSERT INTO characters (name, depth, x, y, hp, max_hp, kills, rounds, deepest, pack, \
         progress, known, slain, background) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
         ON CONFLICT (name) DO UPDATE SET depth = EXCLUDED.depth, x = EXCLUDED.x, y = EXCLUDED.y, \
         hp = EXCLUDED.hp, max_hp = EXCLUDED.max_hp, kills = EXCLUDED.kills, \
         rounds = EXCLUDED.rounds, deepest = EXCLUDED.deepest, pack = EXCLUDED.pack, \
         progress = EXCLUDED.progress, known = EXCLUDED.known, slain = EXCLUDED.slain, \
         background = EXCLUDED.background",
        &[
            &name,
            &i32::from(*depth),
            &i32::from(pos.x),
            &i32::from(pos.y),
            &i32::from(v.hp),
            &i32::from(v.max_hp),
            &i64::from(v.kills),
            &(v.rounds as i64),
            &i32::from(v.deepest),
            &encode(pack),
            &encode(progress),
            &known,
            &encode(slain),
            &background,
        ],
    )?;
    for (depth, cells) in explored {
        txn.execute(
            "INSERT INTO explored (name, depth, cells) VALUES ($1, $2, $3) \
             ON CONFLICT (name, depth) DO UPDATE SET cells = EXCLUDED.cells",
            &[&name, &i32::from(*depth), cells],
        )?;
    }
    for (depth, floor) in piles {
        if floor.is_empty() {
            txn.execute(
                "DELETE FROM remembered_piles WHERE name = $1 AND depth = $2",
                &[&name, &i32::from(*depth)],
            )?;
        } else {
            txn.execute(
                "INSERT INTO remembered_piles (name, depth, piles) VALUES ($1, $2, $3) \
                 ON CONFLICT (name, depth) DO UPDATE SET piles = EXCLUDED.piles",
                &[&name, &i32::from(*depth), &encode(floor)],
            )?;
        }
    }
    Ok(())
}

/// A character's end: everything of it goes, and its record joins the
/// graveyard, or the hall of the living when it escaped.
fn bury(
    txn: &mut Transaction<'_>,
    numbers: &mut Numbers,
    record: &DeathRecord,
) -> Result<(), postgres::Error> {
    let name = record.name.as_str();
    for table in ["characters", "explored", "remembered_piles"] {
        txn.execute(&format!("DELETE FROM {table} WHERE name = $1"), &[&name])?;
    }
    let DeathRecord { depth, rounds, kills, when, level, morgue, .. } = *record;
    let (table, number) = if record.escaped {
        numbers.living += 1;
        ("living (number, name, escaped_at, depth, rounds, kills, escaped_with", numbers.living - 1)
    } else {
        numbers.grave += 1;
        ("graves (number, name, died_at, depth, rounds, kills, killed_by", numbers.grave - 1)
    };
    txn.execute(
        &format!("INSERT INTO {table}, level, morgue) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"),
        &[
            &number,
            &name,
            &(when as i64),
            &i32::from(depth),
            &(rounds as i64),
            &i64::from(kills),
            &record.killed_by,
            &i32::from(level),
            &i64::from(morgue),
        ],
    )?;
    Ok(())
}

/// More of a depth's log, in one statement, and its checksum after them
/// when it was summed.
fn append_log(
    txn: &mut Transaction<'_>,
    depth: u16,
    first: u64,
    entries: &[Vec<u8>],
    checksum: Option<u64>,
) -> Result<(), postgres::Error> {
    let numbers: Vec<i64> = (0..entries.len() as u64).map(|i| (first + i) as i64).collect();
    txn.execute(
        "INSERT INTO depth_log (depth, entry, bytes) \
         SELECT $1, entry, bytes FROM unnest($2::bigint[], $3::bytea[]) AS e(entry, bytes) \
         ON CONFLICT (depth, entry) DO UPDATE SET bytes = EXCLUDED.bytes",
        &[&i32::from(depth), &numbers, &entries],
    )?;
    let Some(checksum) = checksum else { return Ok(()) };
    let kept = (first + entries.len() as u64) as i64;
    txn.execute(
        "INSERT INTO depth_sums (depth, kept, checksum) VALUES ($1, $2, $3) \
         ON CONFLICT (depth) DO UPDATE SET kept = EXCLUDED.kept, checksum = EXCLUDED.checksum",
        &[&i32::from(depth), &kept, &(checksum as i64)],
    )?;
    Ok(())
}

/// Keeps `snapshot` of `depth`, and of those before it the newest
/// [`KEEP_SNAPSHOTS`] less one.
fn keep_snapshot(
    txn: &mut Transaction<'_>,
    depth: u16,
    snapshot: &DepthSnapshot,
) -> Result<(), postgres::Error> {
    let DepthSnapshot { after, rules, checksum, bytes } = snapshot;
    let depth = i32::from(depth);
    txn.execute(
        "INSERT INTO depth_snapshots (depth, after, rules, checksum, bytes) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (depth, after) DO UPDATE SET \
         rules = EXCLUDED.rules, checksum = EXCLUDED.checksum, bytes = EXCLUDED.bytes",
        &[&depth, &(*after as i64), &i64::from(*rules), &(*checksum as i64), bytes],
    )?;
    txn.execute(
        "DELETE FROM depth_snapshots WHERE depth = $1 AND after NOT IN \
         (SELECT after FROM depth_snapshots WHERE depth = $1 ORDER BY after DESC LIMIT $2)",
        &[&depth, &(KEEP_SNAPSHOTS as i64)],
    )?;
    Ok(())
}

/// A stored u16 (kept in an integer column).
fn small(value: i32) -> u16 {
    u16::try_from(value).unwrap_or(u16::MAX)
}

fn load(client: &mut Client, name: &str) -> Result<Option<Snapshot>, postgres::Error> {
    let mut txn = client.transaction()?;
    let Some(row) = txn.query_opt(
        "SELECT depth, x, y, hp, max_hp, kills, rounds, deepest, pack, progress, known, slain, \
         background FROM characters WHERE name = $1",
        &[&name],
    )?
    else {
        return Ok(None);
    };
    let explored = txn
        .query("SELECT depth, cells FROM explored WHERE name = $1 ORDER BY depth", &[&name])?
        .iter()
        .map(|row| (small(row.get(0)), row.get(1)))
        .collect();
    let piles = txn
        .query(
            "SELECT depth, piles FROM remembered_piles WHERE name = $1 ORDER BY depth",
            &[&name],
        )?
        .iter()
        .map(|row| {
            let depth = small(row.get(0));
            (depth, tables::decode_piles(name, depth, row.get(1)))
        })
        .collect();
    txn.commit()?;
    let vitals = Vitals {
        hp: small(row.get(3)),
        max_hp: small(row.get(4)),
        kills: u32::try_from(row.get::<_, i64>(5)).unwrap_or(u32::MAX),
        rounds: row.get::<_, i64>(6) as u64,
        deepest: small(row.get(7)),
    };
    Ok(Some(Snapshot {
        depth: small(row.get(0)),
        pos: Pos { x: small(row.get(1)), y: small(row.get(2)) },
        vitals,
        explored,
        piles,
        pack: tables::decode_pack(name, row.get(8)),
        progress: tables::decode_progress(name, row.get(9)),
        known: row
            .get::<_, Option<&[u8]>>(10)
            .map(|b| tables::decode_known(name, b))
            .unwrap_or_default(),
        slain: tables::decode_slain(name, row.get(11)),
        background: row
            .get::<_, Option<&[u8]>>(12)
            .and_then(|b| tables::decode_background(name, b)),
    }))
}

/// The hall of the living (`escaped`) or the graves, in the order written.
fn records(client: &mut Client, escaped: bool) -> Result<Vec<DeathRecord>, postgres::Error> {
    let sql = if escaped {
        "SELECT name, escaped_at, depth, rounds, kills, escaped_with, level, morgue \
         FROM living ORDER BY number"
    } else {
        "SELECT name, died_at, depth, rounds, kills, killed_by, level, morgue \
         FROM graves ORDER BY number"
    };
    Ok(client
        .query(sql, &[])?
        .iter()
        .map(|row| DeathRecord {
            name: row.get(0),
            when: row.get::<_, i64>(1) as u64,
            depth: small(row.get(2)),
            rounds: row.get::<_, i64>(3) as u64,
            kills: u32::try_from(row.get::<_, i64>(4)).unwrap_or(u32::MAX),
            killed_by: row.get(5),
            level: u8::try_from(row.get::<_, i32>(6)).unwrap_or(u8::MAX),
            escaped,
            morgue: u32::try_from(row.get::<_, i64>(7)).unwrap_or(0),
        })
        .collect())
}

/// A depth's stored history, read as `tables::depth_history` reads it.
fn depth_history(
    txn: &mut Transaction<'_>,
    depth: u16,
    reading: Reading,
) -> Result<DepthHistory, postgres::Error> {
    let d = i32::from(depth);
    let header = txn
        .query_opt("SELECT start, rules FROM depth_histories WHERE depth = $1", &[&d])?
        .map(|row| (row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u32));
    let live = txn
        .query_opt("SELECT kept, checksum FROM depth_sums WHERE depth = $1", &[&d])?
        .map(|row| (row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u64));
    let slain_uniques = txn
        .query("SELECT kind FROM uniques_slain ORDER BY kind COLLATE \"C\"", &[])?
        .iter()
        .map(|row| row.get(0))
        .collect();
    let start = header.map_or(0, |(start, _)| start);
    let last: Option<i64> =
        txn.query_one("SELECT MAX(entry) FROM depth_log WHERE depth = $1", &[&d])?.get(0);
    let next = last.map_or(start, |last| start.max(last as u64 + 1));
    let most = match reading {
        Reading::Whole => None,
        Reading::FromSnapshot => Some(next),
        Reading::SnapshotAtMost(most) => Some(most.min(next)),
    };
    let snapshot = match (header, most) {
        (Some((_, rules)), Some(most)) => newest_snapshot(txn, d, (start, most), rules)?,
        _ => None,
    };
    let first = snapshot.as_ref().map_or(start, |s| s.after);
    let mut entries = Vec::new();
    let rows = txn.query(
        "SELECT entry, bytes FROM depth_log WHERE depth = $1 AND entry >= $2 ORDER BY entry",
        &[&d, &(first as i64)],
    )?;
    for row in &rows {
        if row.get::<_, i64>(0) as u64 != first + entries.len() as u64 {
            break;
        }
        entries.push(row.get(1));
    }
    let rules = header.map(|(_, rules)| rules).or((!entries.is_empty()).then_some(FIRST_RULES));
    Ok(DepthHistory { start, rules, entries, next, live, slain_uniques, snapshot })
}

/// As `tables::newest_snapshot`: the newest taken under `rules` after
/// more than `start` and at most `next` entries.
fn newest_snapshot(
    txn: &mut Transaction<'_>,
    depth: i32,
    (start, next): (u64, u64),
    rules: u32,
) -> Result<Option<DepthSnapshot>, postgres::Error> {
    if start >= next {
        return Ok(None);
    }
    let row = txn.query_opt(
        "SELECT after, checksum, bytes FROM depth_snapshots WHERE depth = $1 AND after > $2 \
         AND after <= $3 AND rules = $4 ORDER BY after DESC LIMIT 1",
        &[&depth, &(start as i64), &(next as i64), &i64::from(rules)],
    )?;
    Ok(row.map(|row| DepthSnapshot {
        after: row.get::<_, i64>(0) as u64,
        rules,
        checksum: row.get::<_, i64>(1) as u64,
        bytes: row.get(2),
    }))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    /// `SHOW statement_timeout` on `client`.
    fn show_timeout(client: &mut Client) -> Result<String, Fault> {
        Ok(client.query_one("SHOW statement_timeout", &[]).map_err(fault)?.get(0))
    }

    /// A store's connection carries [`STATEMENT_TIMEOUT`], and so does one
    /// made again after a loss.
    #[test]
    fn every_connection_has_the_statement_timeout() {
        let Some(url) = gloam_tests::postgres::database() else { return };
        let (mut backend, _) = Postgres::connect(&url).unwrap();
        assert_eq!(backend.run(show_timeout).unwrap(), "10s");
        assert_eq!(STATEMENT_TIMEOUT, Duration::from_secs(10), "and the line above with it");
        // The lost session's lock goes once PostgreSQL sees it closed: the
        // reconnection is tried until then, as the keeper does.
        backend.lost();
        let deadline = Instant::now() + Duration::from_secs(20);
        let shown = loop {
            match backend.run(show_timeout) {
                Err(Fault::Unreachable(held)) if Instant::now() < deadline => {
                    assert!(held.contains("another server"), "{held}");
                    std::thread::sleep(Duration::from_millis(20));
                }
                shown => break shown.unwrap(),
            }
        };
        assert_eq!(shown, "10s", "after reconnecting too");
    }

    /// A read stuck behind another session's lock fails once the statement
    /// timeout has passed, as a fault the keeper retries (the database may
    /// answer later), and the next read, the lock let go, goes through. The
    /// other session ends by itself after `idle_in_transaction_session_timeout`
    /// (its lock with it), so a timeout that does not work fails this test
    /// rather than hangs it.
    #[test]
    fn a_statement_stuck_behind_a_lock_fails_after_the_timeout() {
        let Some(url) = gloam_tests::postgres::database() else { return };
        let timeout = Duration::from_millis(300);
        let (mut backend, _) = Postgres::connect_with(&url, timeout).unwrap();
        backend.meta("world-id").unwrap().expect("a world id");
        let mut other = postgres::Client::connect(&url, NoTls).unwrap();
        other.batch_execute("SET idle_in_transaction_session_timeout = '20s'").unwrap();
        let mut holding = other.transaction().unwrap();
        holding.batch_execute("LOCK TABLE meta IN ACCESS EXCLUSIVE MODE").unwrap();

        let started = Instant::now();
        let stuck = backend.meta("world-id");
        let took = started.elapsed();
        assert!(matches!(stuck, Err(Fault::Unreachable(_))), "{stuck:?}");
        assert!(stuck.unwrap_err().to_string().contains("statement timeout"));
        // PostgreSQL times the statement by its own clock, from when it
        // read it: seen here to fire 0.7 ms short of this one's 300 ms.
        let waited = timeout - timeout / 10;
        assert!(took >= waited && took < Duration::from_secs(10), "failed after {took:?}");

        holding.rollback().unwrap();
        assert!(backend.meta("world-id").unwrap().is_some(), "the lock gone, it reads again");
    }
}

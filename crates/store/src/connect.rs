//! Opening a store: choosing the backend from the URL, tuning SQLite, running migrations.

use std::path::Path;
use std::sync::Arc;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyConnection, AnyPool, Connection, Executor};
use tokio::sync::Semaphore;

use crate::error::StoreError;
use crate::matches::LogBatcher;
use crate::migrations;
use crate::writer_lock::WriterLock;

/// The database file `open_data_dir` creates inside the data directory.
pub const DATABASE_FILE: &str = "arbiter.db";

/// Reader connections for SQLite. WAL lets readers run beside the one writer.
const SQLITE_READERS: u32 = 4;
/// Connections to PostgreSQL, shared by reads and writes.
const POSTGRES_CONNECTIONS: u32 = 10;
/// How long a PostgreSQL query waits for a connection (sqlx's default is 30 s). While
/// the server is unreachable every wait runs out: a person asking for a page or a
/// login should hear so in seconds, and a match's writer tries again anyway.
const POSTGRES_ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// Connections to PostgreSQL for log appends: one for each batch the log batcher
/// writes at once (its one-by-one fallback is sequential within its batch).
const POSTGRES_LOG_CONNECTIONS: u32 = crate::matches::POSTGRES_WRITES_AT_ONCE as u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn of_url(url: &str) -> Result<Backend, StoreError> {
        if url.starts_with("sqlite:") {
            // Each pool would open its own empty in-memory database.
            if url.contains(":memory:") || url.contains("mode=memory") {
                return Err(StoreError::UnsupportedUrl(url.to_string()));
            }
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else {
            Err(StoreError::UnsupportedUrl(url.to_string()))
        }
    }
}

/// A handle on the database. Cheap to clone; every clone shares the same pools.
#[derive(Clone, Debug)]
pub struct Store {
    /// Writes. For SQLite this pool has exactly one connection: SQLite allows one writer
    /// at a time, and queueing in the pool is fairer and faster than lock retries.
    pub(crate) write: AnyPool,
    /// Reads. The same pool as `write` for PostgreSQL.
    pub(crate) read: AnyPool,
    /// Log appends, used only by `appends`' task. The same pool as `write` for SQLite.
    /// For PostgreSQL, a connection with `synchronous_commit = off`: a commit returns
    /// before its WAL reaches the disk, so a batch costs no fsync. A killed Arbiter
    /// loses nothing by it (the entry is committed in PostgreSQL); only a crash of
    /// PostgreSQL itself within a fraction of a second could drop the latest entries of
    /// a running match. Finishing a match commits synchronously, which flushes every
    /// earlier entry too.
    pub(crate) log: AnyPool,
    /// The group-commit queue for log appends (see `matches::log_batcher`). Its task
    /// ends when the last clone of this store is dropped or `close` closes `log`.
    pub(crate) appends: LogBatcher,
    backend: Backend,
    /// This server's name in a shared deployment: matches it creates carry it, and
    /// a start goes on with its own running matches only.
    pub(crate) node: Arc<str>,
    /// Bounds concurrent Argon2 work (each hash holds 19 MiB for tens of milliseconds).
    pub(crate) hashing: Arc<Semaphore>,
    /// Failed logins per account and address (see `accounts::throttle`).
    pub(crate) throttle: Arc<crate::accounts::LoginThrottle>,
    /// SQLite only: this store's claim to be the file's one writing process (see
    /// `writer_lock`), released by `close`.
    writer_lock: Option<WriterLock>,
}

impl Store {
    /// Open (creating if needed) the database at `url` and bring its schema up to date.
    ///
    /// `sqlite:PATH` or `sqlite://PATH` (the file is created unless the URL sets its own
    /// `mode=`), or `postgres://user@host:port/database`.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of_url(url)?;
        let mut writer_lock = None;
        let (write, read, log, checkpoints) = match backend {
            Backend::Sqlite => {
                let url = with_create_mode(url);
                // Before anything touches the file: a second server must not migrate
                // it, nor abort the first one's matches.
                writer_lock = Some(WriterLock::acquire_for_url(&url)?);
                let (write, read) = open_sqlite(&url).await?;
                (write.clone(), read.clone(), write, Some(read))
            }
            Backend::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(POSTGRES_CONNECTIONS)
                    .acquire_timeout(POSTGRES_ACQUIRE_TIMEOUT)
                    .connect(url)
                    .await?;
                // Several servers may start at once: the migrator takes an advisory lock.
                migrations::run(migrations::POSTGRES, &pool).await?;
                let log = AnyPoolOptions::new()
                    .max_connections(POSTGRES_LOG_CONNECTIONS)
                    .acquire_timeout(POSTGRES_ACQUIRE_TIMEOUT)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute("SET synchronous_commit = off").await?;
                            Ok(())
                        })
                    })
                    .connect(url)
                    .await?;
                (pool.clone(), pool, log, None)
            }
        };
        let hashers = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 8);
        // The task ends on its own (see `appends`), so its handle is not kept.
        let (appends, _) = LogBatcher::start(log.clone(), backend, checkpoints);
        Ok(Store {
            write,
            read,
            log,
            appends,
            backend,
            node: Arc::from("local"),
            hashing: Arc::new(Semaphore::new(hashers)),
            throttle: Arc::default(),
            writer_lock,
        })
    }

    /// The embedded default: `dir/arbiter.db`, creating the directory and the file on
    /// first run.
    pub async fn open_data_dir(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|error| {
            std::io::Error::new(
                error.kind(),
                format!(
                    "cannot create the data directory {}: {error}",
                    dir.display()
                ),
            )
        })?;
        let file = dir.join(DATABASE_FILE);
        let path = file
            .to_str()
            .ok_or_else(|| StoreError::PathNotUtf8(file.clone()))?;
        Store::connect(&format!("sqlite://{}?mode=rwc", escape_path(path))).await
    }

    /// The same store, naming this server `node` (default `local`). In a shared
    /// PostgreSQL deployment each server needs its own name so that one server's restart
    /// does not abort another's running matches.
    pub fn with_node(mut self, node: impl Into<String>) -> Store {
        self.node = Arc::from(node.into());
        self
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The log's group commits so far (see `matches::log_commits`): shared, so a
    /// metrics endpoint reads them as they grow.
    pub fn log_commits(&self) -> Arc<crate::matches::LogCommits> {
        self.appends.commits()
    }

    pub fn node(&self) -> &str {
        &self.node
    }

    /// Close every connection, waiting for queries in flight (a log batch being written
    /// included), then let another store open the database. Appends still queued, and
    /// any made later, fail with `PoolClosed`.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
        self.log.close().await;
        if let Some(lock) = &self.writer_lock {
            lock.release();
        }
    }
}

/// Set up a SQLite file: WAL journal (persistent in the file), migrations, then a
/// one-connection writer pool and a reader pool.
async fn open_sqlite(url: &str) -> Result<(AnyPool, AnyPool), StoreError> {
    let mut setup = AnyConnection::connect(url).await?;
    let mode: (String,) = sqlx::query_as("PRAGMA journal_mode = WAL")
        .fetch_one(&mut setup)
        .await?;
    if !mode.0.eq_ignore_ascii_case("wal") {
        tracing::warn!(journal_mode = %mode.0, "SQLite refused WAL mode; writes will block readers");
    }
    migrations::run(migrations::SQLITE, &mut setup).await?;
    setup.close().await?;

    // `autocheckpoint`: the writer's WAL threshold (SQLite's default, 1,000 pages). The
    // log's group commit copies the WAL back beside the writer
    // (`matches::log_batcher::Checkpoints`), so when the writer reaches the threshold
    // little is left to copy before it restarts the WAL (only the writer's own
    // checkpoint lets it restart, in our measurements).
    //
    // `test_before_acquire(false)`: SQLx pings a pooled connection each time it is
    // handed out, and a SQLite connection's ping is a round trip to the connection's
    // own thread (two thread switches) that can only fail if that thread is gone, when
    // the query itself fails all the same. Every log commit paid for one.
    let options = |autocheckpoint: Option<u32>| {
        AnyPoolOptions::new()
            .test_before_acquire(false)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    // NORMAL is durable across a killed process in WAL mode (only a power
                    // loss can drop the last commits), and spares an fsync per log entry.
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute("PRAGMA busy_timeout = 5000").await?;
                    if let Some(pages) = autocheckpoint {
                        let pragma = format!("PRAGMA wal_autocheckpoint = {pages}");
                        conn.execute(pragma.as_str()).await?;
                    }
                    Ok(())
                })
            })
    };
    let write = options(Some(1_000)).max_connections(1).connect(url).await?;
    let read = options(None)
        .max_connections(SQLITE_READERS)
        .connect(url)
        .await?;
    Ok((write, read))
}

/// Add `mode=rwc` (create the file if missing) unless the URL chooses a mode.
fn with_create_mode(url: &str) -> String {
    match url.split_once('?') {
        Some((_, query)) if query.split('&').any(|p| p.starts_with("mode=")) => url.to_string(),
        Some(_) => format!("{url}&mode=rwc"),
        None => format!("{url}?mode=rwc"),
    }
}

/// Percent-escape the characters that would end the path part of a SQLite URL.
fn escape_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3F"),
            '#' => out.push_str("%23"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_choose_the_backend() {
        assert_eq!(Backend::of_url("sqlite:a.db").ok(), Some(Backend::Sqlite));
        assert_eq!(
            Backend::of_url("postgresql://x@h/db").ok(),
            Some(Backend::Postgres)
        );
        for refused in ["mysql://x", "sqlite::memory:", "sqlite:a.db?mode=memory"] {
            assert!(
                matches!(Backend::of_url(refused), Err(StoreError::UnsupportedUrl(_))),
                "{refused}"
            );
        }
    }

    #[test]
    fn create_mode_is_added_only_when_missing() {
        assert_eq!(with_create_mode("sqlite:a.db"), "sqlite:a.db?mode=rwc");
        assert_eq!(
            with_create_mode("sqlite:a.db?cache=shared"),
            "sqlite:a.db?cache=shared&mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite:a.db?mode=ro"),
            "sqlite:a.db?mode=ro"
        );
    }

    #[test]
    fn paths_are_escaped() {
        assert_eq!(escape_path("/tmp/a?b#c%d"), "/tmp/a%3Fb%23c%25d");
    }

    #[tokio::test]
    async fn a_second_store_on_one_sqlite_file_is_refused_until_the_first_closes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = Store::open_data_dir(dir.path()).await.expect("open");
        let refused = Store::open_data_dir(dir.path())
            .await
            .expect_err("a second store on the same file");
        assert!(
            matches!(refused, StoreError::DatabaseInUse { .. }),
            "{refused}"
        );
        assert!(refused
            .to_string()
            .contains("in use by another Arbiter server"));
        // The first store is untouched by the refusal.
        first.register("still-here", "pw").await.expect("write");
        first.close().await;
        let second = Store::open_data_dir(dir.path()).await.expect("after close");
        assert!(second
            .account_by_name("still-here")
            .await
            .expect("read")
            .is_some());
        second.close().await;
    }

    #[tokio::test]
    async fn sqlite_runs_in_wal_mode_with_foreign_keys() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open_data_dir(&dir.path().join("new/nested"))
            .await
            .expect("open");
        assert!(dir.path().join("new/nested").join(DATABASE_FILE).exists());
        for pool in [&store.write, &store.read] {
            let mode: (String,) = sqlx::query_as("PRAGMA journal_mode")
                .fetch_one(pool)
                .await
                .expect("journal mode");
            assert_eq!(mode.0.to_lowercase(), "wal");
            let fk: (i64,) = sqlx::query_as("PRAGMA foreign_keys")
                .fetch_one(pool)
                .await
                .expect("foreign keys");
            assert_eq!(fk.0, 1);
            let busy: (i64,) = sqlx::query_as("PRAGMA busy_timeout")
                .fetch_one(pool)
                .await
                .expect("busy timeout");
            assert_eq!(busy.0, 5000);
        }
        store.close().await;
    }
}

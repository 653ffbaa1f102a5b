//! For tests only (feature `testing`): find the PostgreSQL server the PostgreSQL tests
//! run against, and start the machine's own cluster when it is installed but stopped, so
//! that `cargo test --workspace` sets up what it needs on a fresh machine. When nothing
//! can be started, the tests fail with a message that says what to do: they never pass
//! without having run. For the tests of store faults, [`FaultProxy`] stands between a
//! store and its PostgreSQL, and [`SmallDisk`] is a disk to fill.

mod fault_proxy;
mod small_disk;

pub use fault_proxy::FaultProxy;
pub use small_disk::SmallDisk;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use sqlx::{AnyConnection, Connection, Executor};

/// The admin URL used when `ARBITER_TEST_POSTGRES_URL` is not set: the `postgres` user
/// with trust authentication on the machine's default port (Debian's packaged cluster).
pub const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// How long a cluster that was just started may take to accept connections.
const START_WAIT: Duration = Duration::from_secs(60);

/// The URL of a reachable PostgreSQL server on which tests may create and drop
/// databases. Panics with instructions when there is none and none can be started.
pub async fn postgres_admin_url() -> String {
    sqlx::any::install_default_drivers();
    let configured = std::env::var("ARBITER_TEST_POSTGRES_URL").ok();
    let url = configured
        .clone()
        .unwrap_or_else(|| DEFAULT_POSTGRES_URL.to_string());
    let first = match reachable(&url).await {
        Ok(()) => return url,
        Err(error) => error,
    };
    // Only the default, local server is ours to start; a configured one is not.
    let started = if configured.is_none() {
        start_local_cluster()
    } else {
        Err("ARBITER_TEST_POSTGRES_URL is set, so no local cluster is started".into())
    };
    match started {
        Ok(how) => {
            let give_up = Instant::now() + START_WAIT;
            loop {
                match reachable(&url).await {
                    Ok(()) => return url,
                    Err(error) if Instant::now() >= give_up => panic!(
                        "started PostgreSQL ({how}) but {url} still refuses connections: \
                         {error}"
                    ),
                    // Waiting for an outside process to come up: there is no event to
                    // wait on but its socket accepting.
                    Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        }
        Err(why) => panic!(
            "PostgreSQL is unreachable at {url} ({first}) and could not be started ({why}). \
             The PostgreSQL tests need a real server: install Debian's `postgresql` package \
             (its cluster is started by these tests), or start one yourself, or point \
             ARBITER_TEST_POSTGRES_URL at a server where the user may create databases."
        ),
    }
}

async fn reachable(url: &str) -> Result<(), String> {
    let connection = AnyConnection::connect(url)
        .await
        .map_err(|e| e.to_string())?;
    let _ = connection.close().await;
    Ok(())
}

/// Start the machine's packaged cluster(s) with `pg_ctlcluster` (Debian's tool).
fn start_local_cluster() -> Result<String, String> {
    let versions = std::fs::read_dir(Path::new("/etc/postgresql"))
        .map_err(|e| format!("no /etc/postgresql: {e}"))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect::<Vec<_>>();
    let mut tried = Vec::new();
    for version in versions {
        let output = Command::new("pg_ctlcluster")
            .args(["--skip-systemctl-redirect", &version, "main", "start"])
            .output()
            .map_err(|e| format!("cannot run pg_ctlcluster: {e}"))?;
        let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
        // "already running" is fine: another test binary may have started it.
        if output.status.success() || said.contains("already running") {
            return Ok(format!("pg_ctlcluster {version} main start"));
        }
        tried.push(format!("{version}: {said}"));
    }
    Err(if tried.is_empty() {
        "no cluster under /etc/postgresql".to_string()
    } else {
        tried.join("; ")
    })
}

/// A database created for one test and dropped (forcibly) when this is dropped.
pub struct ScratchDatabase {
    admin_url: String,
    name: String,
    pub url: String,
}

impl ScratchDatabase {
    /// A fresh, empty database on the test server ([`postgres_admin_url`]).
    pub async fn create() -> ScratchDatabase {
        sqlx::any::install_default_drivers();
        static SEQ: AtomicU32 = AtomicU32::new(0);
        let admin_url = postgres_admin_url().await;
        let name = format!(
            "arbiter_test_{}_{}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = AnyConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("connect to PostgreSQL at {admin_url}: {e}"));
        admin
            .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
            .await
            .expect("drop a leftover test database");
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .unwrap_or_else(|e| panic!("create the test database {name}: {e}"));
        let _ = admin.close().await;
        let url = url_with_database(&admin_url, &name);
        ScratchDatabase {
            admin_url,
            name,
            url,
        }
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        let admin_url = self.admin_url.clone();
        let name = self.name.clone();
        // Drop runs inside the test's runtime, which cannot be blocked on: use a thread
        // with its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            runtime.block_on(async {
                let mut admin = AnyConnection::connect(&admin_url)
                    .await
                    .map_err(|e| e.to_string())?;
                admin
                    .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await
                    .map_err(|e| e.to_string())?;
                admin.close().await.map_err(|e| e.to_string())
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("could not drop test database {}: {dropped:?}", self.name);
        }
    }
}

/// `postgres://user@host:port/db?params` with `db` replaced.
fn url_with_database(url: &str, database: &str) -> String {
    let (base, params) = match url.split_once('?') {
        Some((base, params)) => (base, Some(params)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_part = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match params {
        Some(params) => format!("{host_part}/{database}?{params}"),
        None => format!("{host_part}/{database}"),
    }
}

//! Real databases for the tests: a SQLite file in a temporary directory, and a fresh
//! PostgreSQL database per test (dropped afterwards) so parallel runs never meet.
//!
//! PostgreSQL is found (or the machine's cluster started) by
//! `arbiter_store::testing::postgres_admin_url`; if there is none the PostgreSQL tests
//! fail, saying so: they never pass without having run.

#![allow(dead_code)]

use arbiter_store::Store;

/// A store on a real database, and what must be cleaned up after it.
pub struct TestDb {
    pub store: Store,
    /// The URL the store was opened with (to reopen it).
    pub url: String,
    _cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(tempfile::TempDir),
    Postgres(PostgresDatabase),
}

pub async fn sqlite() -> TestDb {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open_data_dir(dir.path())
        .await
        .expect("open a SQLite store in a temporary directory");
    let url = format!(
        "sqlite://{}",
        dir.path().join(arbiter_store::DATABASE_FILE).display()
    );
    TestDb {
        store,
        url,
        _cleanup: Cleanup::Sqlite(dir),
    }
}

pub async fn postgres() -> TestDb {
    let database = PostgresDatabase::create().await;
    let store = Store::connect(&database.url)
        .await
        .unwrap_or_else(|e| panic!("open a store on {}: {e}", database.url));
    TestDb {
        store,
        url: database.url.clone(),
        _cleanup: Cleanup::Postgres(database),
    }
}

/// A database created for one test and dropped (forcibly) when this is dropped.
pub use arbiter_store::testing::ScratchDatabase as PostgresDatabase;

/// Generate one `#[tokio::test]` per backend for each listed `async fn name(&Store)`.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = $crate::common::sqlite().await;
                    super::$name(&db).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = $crate::common::postgres().await;
                    super::$name(&db).await;
                }
            )*
        }
    };
}

/// A real game of `ruleset` between random bots, as the engine records it.
pub fn played(ruleset: &str, seats: usize, seed: u64) -> arbiter_engine::MatchRecord {
    let rules = arbiter_rulesets::find(ruleset).unwrap_or_else(|| panic!("ruleset {ruleset}"));
    let bots = vec!["random".to_string(); seats];
    rules
        .play_local(&serde_json::Value::Null, &bots, seed)
        .unwrap_or_else(|e| panic!("play {ruleset}: {e}"))
}

/// The match a server would create for `record`, with the given seat owners.
pub fn new_match(
    record: &arbiter_engine::MatchRecord,
    accounts: &[Option<arbiter_store::AccountId>],
    rating: Option<arbiter_store::RatingSystem>,
) -> arbiter_store::NewMatch {
    arbiter_store::NewMatch {
        ruleset: record.ruleset.clone(),
        config: record.config.clone(),
        seed: record.seed,
        initial_digest: record.initial_digest.clone(),
        seats: record
            .seats
            .iter()
            .enumerate()
            .map(|(i, name)| arbiter_store::SeatRecord {
                name: name.clone(),
                account_id: accounts.get(i).copied().flatten(),
                bot: Some("random".into()),
            })
            .collect(),
        rating,
        terms: None,
        tournament_game: None,
    }
}

/// Store `record` as a match played live: created, logged entry by entry, finished.
pub async fn store_played(
    store: &Store,
    record: &arbiter_engine::MatchRecord,
    accounts: &[Option<arbiter_store::AccountId>],
    rating: Option<arbiter_store::RatingSystem>,
) -> (arbiter_store::MatchId, arbiter_store::FinishedMatch) {
    let id = store
        .create_match(&new_match(record, accounts, rating))
        .await
        .expect("create match");
    for (index, entry) in record.log.iter().enumerate() {
        store.append_log(id, index, entry).await.expect("append");
    }
    let outcome = record.outcome.as_ref().expect("a finished game");
    let finished = store
        .finish_match(id, outcome, record.log.len())
        .await
        .expect("finish");
    (id, finished)
}

/// An outcome with these ranks (no ejections), its scores following the ranks.
pub fn outcome(ranks: Vec<u32>) -> arbiter_engine::Outcome {
    let n = ranks.len();
    arbiter_engine::Outcome {
        scores: ranks.iter().map(|r| 10 - i64::from(*r)).collect(),
        ranks,
        ejected: vec![None; n],
        summary: "test result".into(),
    }
}

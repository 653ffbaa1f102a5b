//! A database upgraded by a newer Arbiter is refused with a message that says so, on
//! both backends: its schema holds what this binary would not read (a downgrade).

use crate::common::TestDb;
use arbiter_store::{Backend, Store, StoreError};
use sqlx::{AnyConnection, Connection, Executor};

/// A migration no binary has yet: what a newer one would have recorded.
const FROM_THE_FUTURE: i64 = 9_999;

async fn a_database_a_newer_arbiter_upgraded_is_refused(db: &TestDb) {
    let checksum = match db.store.backend() {
        Backend::Sqlite => "X'00'",
        Backend::Postgres => "'\\x00'::bytea",
    };
    let mut conn = AnyConnection::connect(&db.url).await.expect("connect");
    conn.execute(
        format!(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES ({FROM_THE_FUTURE}, 'from a newer arbiter', TRUE, {checksum}, 0)"
        )
        .as_str(),
    )
    .await
    .expect("record a newer migration");
    conn.close().await.expect("close");
    db.store.close().await;

    let Err(refused) = Store::connect(&db.url).await else {
        panic!("a database a newer Arbiter upgraded was opened");
    };
    assert!(
        matches!(refused, StoreError::NewerSchema { found: FROM_THE_FUTURE, known } if known < FROM_THE_FUTURE),
        "{refused:?}"
    );
    let told = refused.to_string();
    assert!(told.contains("upgraded by a newer Arbiter"), "{told}");
    assert!(!refused.is_caller_error());
}

on_both_backends!(a_database_a_newer_arbiter_upgraded_is_refused);

//! Accounts on both backends: register, log in, name rules, uniqueness ignoring case.

use crate::common::TestDb;
use arbiter_store::StoreError;

async fn register_then_login(db: &TestDb) {
    let store = &db.store;
    let alice = store
        .register("Alice", "correct horse")
        .await
        .expect("register");
    assert_eq!(alice.name, "Alice");
    let again = store.login("Alice", "correct horse").await.expect("login");
    assert_eq!(again, alice);
    let by_case = store
        .login("aLICE", "correct horse")
        .await
        .expect("login ignores case");
    assert_eq!(by_case.id, alice.id);
    assert_eq!(
        store.account_by_name("alice").await.expect("lookup"),
        Some(alice.clone())
    );
    assert_eq!(
        store.account_by_id(alice.id).await.expect("lookup"),
        Some(alice.clone())
    );
    let bob = store.register("bob", "x").await.expect("register bob");
    assert_ne!(bob.id, alice.id);
}

/// An account is a bot's when registered as one, and every way of reading it says so.
async fn an_account_is_a_bot_or_a_person(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("ann", "pw").await.expect("register");
    let robo = store
        .register_as("robo", "pw", true)
        .await
        .expect("register");
    let cy = store
        .register_as("cy", "pw", false)
        .await
        .expect("register");
    assert_eq!((ann.bot, robo.bot, cy.bot), (false, true, false));
    for account in [&ann, &robo, &cy] {
        let read = [
            store.login(&account.name, "pw").await.expect("login"),
            store
                .account_by_name(&account.name)
                .await
                .expect("lookup")
                .expect("found"),
            store
                .account_by_id(account.id)
                .await
                .expect("lookup")
                .expect("found"),
        ];
        for read in read {
            assert_eq!(&read, account);
        }
        let session = store.open_session(account.id).await.expect("session");
        let resumed = store
            .resume_session(session.reveal())
            .await
            .expect("resume");
        assert_eq!(&resumed, account);
    }
    // Port accounts are people's, as every account made before there were bots.
    let port = store.port_account("qgame", "dee").await.expect("port");
    assert!(!port.bot);
}

async fn wrong_password_and_unknown_name_look_the_same(db: &TestDb) {
    let store = &db.store;
    store.register("carol", "pw1").await.expect("register");
    let wrong = store.login("carol", "pw2").await.unwrap_err();
    let unknown = store.login("nobody", "pw1").await.unwrap_err();
    let invalid = store.login("no body!", "pw1").await.unwrap_err();
    let empty = store.login("carol", "").await.unwrap_err();
    for e in [&wrong, &unknown, &invalid, &empty] {
        assert!(matches!(e, StoreError::BadCredentials), "{e:?}");
        assert_eq!(e.to_string(), "unknown name or wrong password");
    }
}

async fn names_are_unique_ignoring_case(db: &TestDb) {
    let store = &db.store;
    store.register("dave", "a").await.expect("register");
    for name in ["dave", "DAVE", "Dave"] {
        assert!(
            matches!(store.register(name, "b").await, Err(StoreError::NameTaken(n)) if n == name),
            "{name}"
        );
    }
    // The original password still works: nothing was overwritten.
    store.login("dave", "a").await.expect("login");
}

async fn concurrent_registrations_of_one_name_give_one_account(db: &TestDb) {
    let store = &db.store;
    let attempts = (0..4).map(|i| {
        let store = store.clone();
        tokio::spawn(async move { store.register("erin", &format!("pw{i}")).await })
    });
    let mut created = 0;
    for attempt in attempts {
        match attempt.await.expect("task") {
            Ok(_) => created += 1,
            Err(StoreError::NameTaken(_)) => {}
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    assert_eq!(created, 1);
}

async fn bad_names_and_passwords_are_refused(db: &TestDb) {
    let store = &db.store;
    for name in [
        "",
        "has space",
        "ünï",
        &"x".repeat(33),
        "a;DROP TABLE accounts",
    ] {
        assert!(
            matches!(
                store.register(name, "pw").await,
                Err(StoreError::InvalidName(_))
            ),
            "{name:?}"
        );
    }
    assert!(matches!(
        store.register("frank", "").await,
        Err(StoreError::WeakPassword)
    ));
    assert!(matches!(
        store
            .register("frank", &"p".repeat(arbiter_store::MAX_PASSWORD_LEN + 1))
            .await,
        Err(StoreError::PasswordTooLong { .. })
    ));
    assert_eq!(store.account_by_name("frank").await.expect("lookup"), None);
    assert_eq!(store.account_by_name("a;DROP").await.expect("lookup"), None);
}

async fn a_session_stands_for_its_account_until_closed(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("ann", "pw").await.expect("register");
    let first = store.open_session(ann.id).await.expect("open");
    let second = store.open_session(ann.id).await.expect("open another");
    assert_ne!(first, second, "every session gets its own token");
    let token = first.reveal();
    assert_eq!(token.len(), 64);
    assert_eq!(store.resume_session(token).await.expect("resume"), ann);
    // Case does not matter in hex; anything else is refused without a lookup.
    assert_eq!(
        store
            .resume_session(&token.to_ascii_uppercase())
            .await
            .expect("resume")
            .id,
        ann.id
    );
    for bad in ["", "nope", &"g".repeat(64), &token[..63]] {
        assert!(
            matches!(
                store.resume_session(bad).await,
                Err(StoreError::UnknownSession)
            ),
            "{bad:?}"
        );
    }
    // Closing one session ends that one only.
    store.close_session(token).await.expect("close");
    assert!(matches!(
        store.resume_session(token).await,
        Err(StoreError::UnknownSession)
    ));
    assert_eq!(
        store
            .resume_session(second.reveal())
            .await
            .expect("the other session lives")
            .id,
        ann.id
    );
}

on_both_backends!(
    a_session_stands_for_its_account_until_closed,
    register_then_login,
    an_account_is_a_bot_or_a_person,
    wrong_password_and_unknown_name_look_the_same,
    names_are_unique_ignoring_case,
    concurrent_registrations_of_one_name_give_one_account,
    bad_names_and_passwords_are_refused,
);

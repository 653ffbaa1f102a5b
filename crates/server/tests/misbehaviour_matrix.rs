//! The misbehaviour matrix (issue 15): every kind of bad client this test knows,
//! against every ruleset, over the native protocol on TCP. In each cell a raw client
//! logs in, opens a table against a random house bot, misbehaves, and must get the
//! documented answer; then (on a new connection if its own was closed, which also
//! tests resuming the seat) it resigns. The match must be stored finished with the
//! seat's recorded reason, and the server must go on serving. The test prints the
//! table it observed; docs/reliability.md holds a copy.
//!
//! `misbehaving.rs` checks the same kinds one by one in depth (spacegoo and T&E); the
//! matrix checks that no ruleset answers differently.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// Long enough that a client which lost its connection logs in again and resigns
/// before its deadline, even on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(4);

/// Pings in the flood: past the default burst (100) and rate (50 a second), so the
/// flooder is paced for longer than its deadline.
const FLOOD: usize = 600;

/// One kind of bad client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Garbage,
    NotUtf8,
    HugeLine,
    Unterminated,
    MalformedAction,
    OtherMatch,
    Flood,
    SecondLogin,
    Reconnect,
    Silence,
}

const KINDS: [Kind; 10] = [
    Kind::Garbage,
    Kind::NotUtf8,
    Kind::HugeLine,
    Kind::Unterminated,
    Kind::MalformedAction,
    Kind::OtherMatch,
    Kind::Flood,
    Kind::SecondLogin,
    Kind::Reconnect,
    Kind::Silence,
];

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Garbage => "a line that is not JSON",
            Kind::NotUtf8 => "bytes that are not UTF-8",
            Kind::HugeLine => "a 10 MB line",
            Kind::Unterminated => "a line held open without its newline",
            Kind::MalformedAction => "an action that is not the ruleset's",
            Kind::OtherMatch => "an action for a match it does not play",
            Kind::Flood => "600 pings in one write",
            Kind::SecondLogin => "a second login taking the seat",
            Kind::Reconnect => "a disconnect, then a login",
            Kind::Silence => "silence past the deadline",
        }
    }
}

/// What one cell showed.
#[derive(Debug)]
struct Cell {
    /// The first answer to the misbehaviour (an error or refusal code, or what came).
    answer: String,
    /// How the match ended for the bad seat (its recorded reason).
    ended: String,
}

/// A server with a quick cut-off for held lines (the tables set their own clocks).
async fn server() -> TestServer {
    start(|config| {
        config.limits.partial_line_timeout = Duration::from_millis(400);
    })
    .await
}

/// A raw client logged in as a fresh account `name`.
async fn raw_account(tcp: &str, name: &str) -> Raw {
    let mut raw = Raw::connect(tcp).await;
    raw.send_json(json!({"type": "register", "name": name, "password": password(name)}))
        .await;
    raw.until(10, |m| m["type"] == "registered")
        .await
        .expect("registered");
    raw
}

/// A new connection for `name`'s account: `logged_in`, with the seats it resumed.
async fn log_in_again(tcp: &str, name: &str) -> (Raw, Value) {
    let mut raw = Raw::connect(tcp).await;
    raw.send_json(json!({"type": "login", "name": name, "password": password(name)}))
        .await;
    let logged_in = raw
        .until(10, |m| m["type"] == "logged_in")
        .await
        .expect("logged in again");
    (raw, logged_in)
}

/// The code of the next `error` or `rejected` line.
async fn next_refusal(raw: &mut Raw) -> String {
    let refusal = raw
        .until(10, |m| m["type"] == "error" || m["type"] == "rejected")
        .await
        .expect("a refusal");
    format!(
        "{} `{}`",
        refusal["type"].as_str().unwrap_or("?"),
        refusal["code"].as_str().unwrap_or("?")
    )
}

/// The code of the `error` line among what came before the connection closed.
fn refusal_before_close(raw: &Raw) -> String {
    let text = String::from_utf8_lossy(&raw.buffer);
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|m| m["type"] == "error")
        .map_or_else(
            || "nothing".to_string(),
            |e| format!("error `{}`, closed", e["code"].as_str().unwrap_or("?")),
        )
}

/// Resign the match `match_id` from `raw`.
async fn resign(raw: &mut Raw, match_id: i64) {
    raw.send_json(json!({"type": "resign", "match": match_id}))
        .await;
}

/// Play one cell: `kind` in `ruleset`, as an account named after both.
async fn cell(tcp: String, http: String, ruleset: &'static str, kind: Kind) -> (Kind, Cell) {
    let name = &format!("{ruleset}-{kind:?}").to_lowercase();
    let mut raw = raw_account(&tcp, name).await;
    raw.send_json(json!({
        "type": "create_table",
        "ruleset": ruleset,
        "seats": 2,
        "deadline_ms": DEADLINE.as_millis() as u64,
        "time_bank_ms": 0,
    }))
    .await;
    let table = raw
        .until(10, |m| m["type"] == "table")
        .await
        .expect("a table");
    raw.send_json(json!({"type": "start_table", "table": table["table"], "fill": "random"}))
        .await;
    let started = raw
        .until(10, |m| m["type"] == "match_started")
        .await
        .expect("the match starts");
    let match_id = started["match"].as_i64().expect("a match id");
    let seat = started["seat"].as_u64().expect("a seat") as usize;

    let answer = match kind {
        Kind::Garbage => {
            raw.send(b"this is not json\n").await.expect("send");
            next_refusal(&mut raw).await
        }
        Kind::NotUtf8 => {
            raw.send(b"\xff\xfe\x00 junk\n").await.expect("send");
            next_refusal(&mut raw).await
        }
        Kind::MalformedAction => {
            raw.send_json(json!({"type": "act", "match": match_id, "action": {"dance": true}}))
                .await;
            next_refusal(&mut raw).await
        }
        Kind::OtherMatch => {
            raw.send_json(json!({"type": "act", "match": match_id + 1000, "action": "nop"}))
                .await;
            next_refusal(&mut raw).await
        }
        Kind::Flood => {
            let flood = "{\"type\":\"ping\"}\n".repeat(FLOOD);
            raw.send(flood.as_bytes())
                .await
                .expect("the flood is written");
            let mut pongs = 0;
            while pongs < FLOOD {
                let message = raw.json(30).await.expect("the flooder is answered");
                assert_ne!(message["type"], "error", "{ruleset}: {message}");
                pongs += usize::from(message["type"] == "pong");
            }
            format!("{pongs} `pong`, no error")
        }
        Kind::HugeLine => {
            let mut line = vec![b'x'; 10 * 1024 * 1024];
            line.push(b'\n');
            let _ = raw.send(&line).await;
            assert!(
                raw.closed_within(10).await,
                "{ruleset}: closed after a huge line"
            );
            let answer = refusal_before_close(&raw);
            (raw, _) = log_in_again(&tcp, name).await;
            answer
        }
        Kind::Unterminated => {
            raw.send(b"{\"type\":\"act\",\"action\":")
                .await
                .expect("send");
            assert!(
                raw.closed_within(10).await,
                "{ruleset}: closed after a held line"
            );
            let answer = refusal_before_close(&raw);
            (raw, _) = log_in_again(&tcp, name).await;
            answer
        }
        Kind::SecondLogin | Kind::Reconnect => {
            if kind == Kind::Reconnect {
                drop(raw);
            }
            let (fresh, logged_in) = log_in_again(&tcp, name).await;
            raw = fresh;
            let resumed = logged_in["resumed"].as_array().cloned().unwrap_or_default();
            assert!(
                resumed
                    .iter()
                    .any(|m| m["match"] == match_id || *m == json!(match_id)),
                "{ruleset} {kind:?}: the seat is resumed: {logged_in}"
            );
            "`logged_in`, seat resumed".to_string()
        }
        Kind::Silence => {
            let prompt = raw
                .until(20, |m| m["type"] == "prompt" && m["match"] == match_id)
                .await
                .expect("a prompt");
            let step = prompt["step"].as_u64().unwrap_or(0);
            let after = raw
                .until(20, |m| {
                    (m["type"] == "ejected" && m["seat"] == seat)
                        || (m["type"] == "view"
                            && m["match"] == match_id
                            && m["step"].as_u64() > Some(step))
                        || m["type"] == "outcome"
                })
                .await
                .expect("the deadline is kept");
            match after["type"].as_str() {
                Some("ejected") | Some("outcome") => "ejected at the deadline".to_string(),
                _ => "the ruleset's default move made for it".to_string(),
            }
        }
    };
    resign(&mut raw, match_id).await;
    let stored = finished_match(&http, match_id).await;
    assert_eq!(stored["status"], "finished", "{ruleset} {kind:?}: {stored}");
    let ended = stored["outcome"]["ejected"][seat]
        .as_str()
        .unwrap_or("not ejected")
        .to_string();
    (kind, Cell { answer, ended })
}

/// What each kind must answer, in every ruleset.
fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::Garbage => "error `bad_json`",
        Kind::NotUtf8 => "error `bad_utf8`",
        Kind::HugeLine => "error `line_too_long`, closed",
        Kind::Unterminated => "error `line_timeout`, closed",
        Kind::MalformedAction => "rejected `malformed_action`",
        Kind::OtherMatch => "error `no_such_match`",
        Kind::Flood => "600 `pong`, no error",
        Kind::SecondLogin | Kind::Reconnect => "`logged_in`, seat resumed",
        Kind::Silence => "",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_client_in_every_ruleset() {
    let server = server().await;
    let rulesets: Vec<&'static str> = arbiter_rulesets::all()
        .iter()
        .map(|r| r.game.id())
        .collect();
    let mut cells = tokio::task::JoinSet::new();
    for &ruleset in &rulesets {
        for kind in KINDS {
            let (tcp, http) = (server.tcp.clone(), server.http.clone());
            cells.spawn(async move { (ruleset, cell(tcp, http, ruleset, kind).await) });
        }
    }
    let mut table: BTreeMap<(Kind, &str), Cell> = BTreeMap::new();
    while let Some(done) = cells.join_next().await {
        let (ruleset, (kind, cell)) = done.expect("a cell ran to the end");
        table.insert((kind, ruleset), cell);
    }
    let mut printed = format!(
        "| bad client | {} |\n|---|{}\n",
        rulesets.join(" | "),
        "---|".repeat(rulesets.len())
    );
    for kind in KINDS {
        let cells: Vec<String> = rulesets
            .iter()
            .map(|r| {
                let cell = &table[&(kind, *r)];
                format!("{}; ends {}", cell.answer, cell.ended)
            })
            .collect();
        printed.push_str(&format!(
            "| {} | {} |\n",
            kind.describe(),
            cells.join(" | ")
        ));
    }
    println!("{printed}");
    for ((kind, ruleset), cell) in &table {
        match kind {
            // Each ruleset's timeout policy decides: ejected with its reason, or its
            // default move made (then the seat resigns). A paced flooder sends nothing
            // else before its deadline either.
            Kind::Silence | Kind::Flood => {
                assert_ne!(cell.ended, "not ejected", "{ruleset} {kind:?}\n{printed}");
            }
            _ => assert_eq!(cell.ended, "resigned", "{ruleset} {kind:?}\n{printed}"),
        }
        if *kind != Kind::Silence {
            assert_eq!(
                cell.answer,
                expected(*kind),
                "{ruleset} {kind:?}\n{printed}"
            );
        }
    }
    still_serving(&server).await;
    server.stop().await;
}

/// The server still serves a newcomer.
async fn still_serving(server: &TestServer) {
    let mut raw = raw_account(&server.tcp, "matrix-after").await;
    raw.send_json(json!({"type": "ping"})).await;
    assert!(raw.until(5, |m| m["type"] == "pong").await.is_some());
}

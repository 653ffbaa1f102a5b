//! The misbehaviour matrix (issue 15): every kind of bad client this test knows,
//! against every ruleset, over both native transports (TCP lines and WebSocket
//! messages). In each cell a raw client
//! logs in, opens a table against a random house bot (a silent second account, to act
//! out of turn against), misbehaves, and must get the
//! documented answer; then (on a new connection if its own was closed, which also
//! tests resuming the seat) it resigns. The match must be stored finished with the
//! seat's recorded reason, and the server must go on serving. The test prints the
//! table it observed; docs/reliability.md holds a copy.
//!
//! `misbehaving.rs` checks the same kinds one by one in depth (spacegoo and T&E); the
//! matrix checks that no ruleset answers differently.

mod common;

use std::alloc::System;
use std::collections::BTreeMap;
use std::time::Duration;

use arbiter_server::heap::Counting;
use common::*;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The deadline of the cells that must run past it (silence, a paced flood, a reader
/// that never reads): they wait for it, so it is short.
const DEADLINE: Duration = Duration::from_secs(4);

/// The deadline of every other cell: each ends by resigning, so its deadline must not
/// pass first, however loaded the machine (4 s once did, for a second login while 125
/// cells registered their accounts at once). It bounds nothing the test waits for.
const PATIENT_DEADLINE: Duration = Duration::from_secs(300);

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
    OutOfTurn,
    OtherSeat,
    OtherMatch,
    Flood,
    NeverReads,
    SecondLogin,
    Reconnect,
    Silence,
}

const KINDS: [Kind; 13] = [
    Kind::Garbage,
    Kind::NotUtf8,
    Kind::HugeLine,
    Kind::Unterminated,
    Kind::MalformedAction,
    Kind::OutOfTurn,
    Kind::OtherSeat,
    Kind::OtherMatch,
    Kind::Flood,
    Kind::NeverReads,
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
            Kind::OutOfTurn => "an action when it owes none",
            Kind::OtherSeat => "an action for the other seat",
            Kind::OtherMatch => "an action for a match it does not play",
            Kind::Flood => "600 pings in one write",
            Kind::NeverReads => "requests sent, replies never read",
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
    /// The match as the API serves it once finished: what a failure prints.
    stored: Value,
}

/// A server with a quick cut-off for held lines and room for every cell's connections
/// (the tables set their own clocks).
async fn server() -> TestServer {
    start(|config| {
        config.limits.partial_line_timeout = Duration::from_millis(400);
        // Every cell at once, some with two connections, all from 127.0.0.1.
        config.limits.connections_per_address = 1024;
        // A reader that never reads is cut off at a sixteenth of the default bound, so
        // its cell fills it in seconds at the paced request rate.
        config.limits.outbox_bytes = 64 * 1024;
        config.limits.socket_send_buffer = 16 * 1024;
    })
    .await
}

/// The two native transports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Transport {
    Tcp,
    WebSocket,
}

type WebSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A client that sends whatever it is told, over either transport.
enum Client {
    Tcp(Raw),
    Ws(Box<WebSocket>),
}

impl Client {
    /// Connect and read the welcome.
    async fn connect(transport: Transport, server: &Addresses) -> Client {
        Client::connect_with(transport, server, None).await
    }

    /// Connect with the socket's receive buffer set to `window` bytes (a reader that
    /// stops reading then holds little in its kernel), and read the welcome.
    async fn connect_with(transport: Transport, server: &Addresses, window: Option<u32>) -> Client {
        let address = match transport {
            Transport::Tcp => &server.tcp,
            Transport::WebSocket => &server.http,
        };
        let stream = connect_with_window(address.parse().expect("an address"), window).await;
        let mut client = match transport {
            Transport::Tcp => Client::Tcp(Raw {
                stream,
                buffer: Vec::new(),
            }),
            Transport::WebSocket => {
                let (ws, _) = tokio_tungstenite::client_async(
                    format!("ws://{}/ws", server.http),
                    tokio_tungstenite::MaybeTlsStream::Plain(stream),
                )
                .await
                .expect("websocket");
                Client::Ws(Box::new(ws))
            }
        };
        let welcome = client.json(10).await.expect("welcome");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client
    }

    /// One line (TCP: with its newline) or one message (WebSocket: text if it is
    /// UTF-8, else binary).
    async fn send_line(&mut self, line: &[u8]) {
        match self {
            Client::Tcp(raw) => {
                let _ = raw.send(&[line, b"\n"].concat()).await;
            }
            Client::Ws(ws) => {
                let message = match std::str::from_utf8(line) {
                    Ok(text) => Message::Text(text.into()),
                    Err(_) => Message::Binary(line.to_vec().into()),
                };
                let _ = ws.send(message).await;
            }
        }
    }

    async fn send_json(&mut self, message: Value) {
        self.send_line(message.to_string().as_bytes()).await;
    }

    /// The next JSON message; `None` once closed or after `secs` seconds.
    async fn json(&mut self, secs: u64) -> Option<Value> {
        match self {
            Client::Tcp(raw) => raw.json(secs).await,
            Client::Ws(ws) => {
                let wait = async {
                    loop {
                        match ws.next().await {
                            Some(Ok(Message::Text(text))) => {
                                return serde_json::from_str(&text).ok();
                            }
                            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return None,
                            Some(Ok(_)) => {}
                        }
                    }
                };
                tokio::time::timeout(Duration::from_secs(secs), wait)
                    .await
                    .ok()
                    .flatten()
            }
        }
    }

    /// Messages until one satisfies `pred`; `None` if the connection ends first.
    async fn until(&mut self, secs: u64, pred: impl Fn(&Value) -> bool) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let message = self.json(left.as_secs().max(1)).await?;
            if pred(&message) {
                return Some(message);
            }
            if left.is_zero() {
                return None;
            }
        }
    }

    /// What came before the server closed the connection (within `secs`): the first
    /// error's code, and "closed".
    async fn refusal_then_close(&mut self, secs: u64) -> String {
        let mut refusal = None;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        while tokio::time::Instant::now() < deadline {
            match self.json(secs).await {
                Some(m) if m["type"] == "error" && refusal.is_none() => {
                    refusal = m["code"].as_str().map(str::to_string);
                }
                Some(_) => {}
                None => {
                    return match refusal {
                        Some(code) => format!("error `{code}`, closed"),
                        None => "closed without an error".to_string(),
                    }
                }
            }
        }
        "still open".to_string()
    }

    /// A fresh account `name`, registered.
    async fn registered(transport: Transport, server: &Addresses, name: &str) -> Client {
        Client::registered_with(transport, server, name, None).await
    }

    /// [`Client::registered`] over a connection with a `window`-byte receive buffer.
    async fn registered_with(
        transport: Transport,
        server: &Addresses,
        name: &str,
        window: Option<u32>,
    ) -> Client {
        let mut client = Client::connect_with(transport, server, window).await;
        client
            .send_json(json!({"type": "register", "name": name, "password": password(name)}))
            .await;
        client
            .until(10, |m| m["type"] == "registered")
            .await
            .expect("registered");
        client
    }

    /// A new connection for `name`'s account: `logged_in`, with the seats it resumed.
    async fn logged_in(transport: Transport, server: &Addresses, name: &str) -> (Client, Value) {
        let mut client = Client::connect(transport, server).await;
        client
            .send_json(json!({"type": "login", "name": name, "password": password(name)}))
            .await;
        let logged_in = client
            .until(10, |m| m["type"] == "logged_in")
            .await
            .expect("logged in again");
        (client, logged_in)
    }

    /// Whether the seat owes a decision in `match_id` now (`legal` lists its moves).
    async fn owes(&mut self, match_id: i64) -> bool {
        self.send_json(json!({"type": "legal", "match": match_id}))
            .await;
        let legal = self
            .until(10, |m| m["type"] == "legal" && m["match"] == match_id)
            .await
            .expect("legal actions");
        legal["actions"]
            .as_array()
            .is_some_and(|actions| !actions.is_empty())
    }

    /// Ask for the rulesets (a reply of kilobytes) again and again and never read the
    /// replies. The server must close the connection once its outbox passes the bound:
    /// that shows as writes failing (the server's socket is gone), which is waited for
    /// without reading a byte. Then what had arrived is read to its end.
    async fn never_read(&mut self) -> String {
        let request = json!({"type": "rulesets"}).to_string();
        let mut sent = 0usize;
        let mut closed = false;
        // Bounded: at the paced 50 requests a second, 6,000 requests take two minutes,
        // their replies many times the bound.
        while sent < 6_000 {
            let write = async {
                match self {
                    Client::Tcp(raw) => raw.send(format!("{request}\n").as_bytes()).await.is_ok(),
                    Client::Ws(ws) => ws.send(Message::Text(request.clone().into())).await.is_ok(),
                }
            };
            match tokio::time::timeout(Duration::from_secs(30), write).await {
                Ok(true) => sent += 1,
                Ok(false) => {
                    closed = true;
                    break;
                }
                // Blocked: the server reads us slowly (paced); try again.
                Err(_) => {}
            }
            // Each request waits its turn at the server's pace anyway; writing them no
            // faster keeps the kernel's buffers from hiding the close for minutes.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(
            closed,
            "the server never closed a client that does not read"
        );
        let mut replies = 0usize;
        while let Some(message) = self.json(10).await {
            replies += usize::from(message["type"] == "rulesets");
        }
        assert!(
            replies < sent,
            "every request was answered: {replies} of {sent}"
        );
        "disconnected at its outbox bound".to_string()
    }

    /// The type and code of the next `error` or `rejected` message.
    async fn next_refusal(&mut self) -> String {
        let refusal = self
            .until(10, |m| m["type"] == "error" || m["type"] == "rejected")
            .await
            .expect("a refusal");
        format!(
            "{} `{}`",
            refusal["type"].as_str().unwrap_or("?"),
            refusal["code"].as_str().unwrap_or("?")
        )
    }
}

/// Where the server listens (owned, for the cells' tasks).
#[derive(Clone)]
struct Addresses {
    tcp: String,
    http: String,
}

/// Play one cell: `kind` in `ruleset` over `transport`, as an account named after
/// all three (short). `None` for a kind the transport cannot carry (a line without its
/// newline is a TCP thing; a WebSocket message is whole or not sent).
async fn cell(
    server: Addresses,
    transport: Transport,
    ruleset: &'static str,
    kind: Kind,
) -> Option<Cell> {
    if transport == Transport::WebSocket && kind == Kind::Unterminated {
        return None;
    }
    // Names are short (at most 24 characters): the ruleset, the kind's number and the
    // transport's letter.
    let letter = if transport == Transport::Tcp {
        't'
    } else {
        'w'
    };
    let name = &format!("{ruleset}-{}{letter}", kind as u8);
    // A reader that stops reading gets a small receive window, so its kernel holds
    // little and the server's own bound is what fills.
    let window = (kind == Kind::NeverReads).then_some(4096);
    let mut client = Client::registered_with(transport, &server, name, window).await;
    let deadline = match kind {
        Kind::Silence | Kind::Flood | Kind::NeverReads => DEADLINE,
        _ => PATIENT_DEADLINE,
    };
    client
        .send_json(json!({
            "type": "create_table",
            "ruleset": ruleset,
            "seats": 2,
            "deadline_ms": deadline.as_millis() as u64,
            "time_bank_ms": 0,
        }))
        .await;
    let table = client
        .until(10, |m| m["type"] == "table")
        .await
        .expect("a table");
    // Acting out of turn needs an opponent that never moves: a second account that
    // sits and waits. Every other cell plays a random house bot.
    let partner = if kind == Kind::OutOfTurn {
        let mut partner = Client::registered(transport, &server, &format!("{name}-p")).await;
        partner
            .send_json(json!({"type": "join_table", "table": table["table"]}))
            .await;
        partner
            .until(10, |m| m["type"] == "table")
            .await
            .expect("the partner sits");
        client
            .send_json(json!({"type": "start_table", "table": table["table"]}))
            .await;
        Some(partner)
    } else {
        client
            .send_json(json!({"type": "start_table", "table": table["table"], "fill": "random"}))
            .await;
        None
    };
    let started = client
        .until(10, |m| m["type"] == "match_started")
        .await
        .expect("the match starts");
    let match_id = started["match"].as_i64().expect("a match id");
    let seat = started["seat"].as_u64().expect("a seat") as usize;

    let mut waiting_partner = None;
    let answer = match kind {
        Kind::Garbage => {
            client.send_line(b"this is not json").await;
            client.next_refusal().await
        }
        Kind::NotUtf8 => {
            client.send_line(b"\xff\xfe\x00 junk").await;
            client.next_refusal().await
        }
        Kind::MalformedAction => {
            client
                .send_json(json!({"type": "act", "match": match_id, "action": {"dance": true}}))
                .await;
            client.next_refusal().await
        }
        Kind::OtherMatch => {
            client
                .send_json(json!({"type": "act", "match": match_id + 1000, "action": "nop"}))
                .await;
            client.next_refusal().await
        }
        Kind::OtherSeat => {
            client
                .send_json(json!({
                    "type": "act", "match": match_id, "seat": 1 - seat, "action": "nop",
                }))
                .await;
            client.next_refusal().await
        }
        Kind::OutOfTurn => {
            let mut partner = partner.expect("a partner");
            partner
                .until(10, |m| m["type"] == "match_started")
                .await
                .expect("the partner's match starts");
            // Nobody moves, so who owes a decision stays put: the one who does not
            // acts. Where both do (a sealed round, concurrent turns), this seat plays
            // its part of the round (one order, or all its command points) first.
            if client.owes(match_id).await && partner.owes(match_id).await {
                for _ in 0..50 {
                    client
                        .send_json(json!({"type": "legal", "match": match_id}))
                        .await;
                    let legal = client
                        .until(10, |m| m["type"] == "legal")
                        .await
                        .expect("legal actions");
                    let Some(action) = legal["actions"].get(0).cloned() else {
                        break;
                    };
                    client
                        .send_json(json!({"type": "act", "match": match_id, "action": action}))
                        .await;
                }
                assert!(
                    !client.owes(match_id).await,
                    "{ruleset}: still owes after its part"
                );
            }
            let idle = if client.owes(match_id).await {
                &mut partner
            } else {
                &mut client
            };
            idle.send_json(json!({"type": "act", "match": match_id, "action": "pass"}))
                .await;
            let answer = idle.next_refusal().await;
            // The partner resigns after the bad seat (below): a game of two silent
            // seats would otherwise run to its last turn on deadlines.
            waiting_partner = Some(partner);
            answer
        }
        Kind::NeverReads => {
            let answer = client.never_read().await;
            (client, _) = Client::logged_in(transport, &server, name).await;
            answer
        }
        Kind::Flood => {
            match &mut client {
                Client::Tcp(raw) => {
                    let flood = "{\"type\":\"ping\"}\n".repeat(FLOOD);
                    raw.send(flood.as_bytes())
                        .await
                        .expect("the flood is written");
                }
                Client::Ws(ws) => {
                    for _ in 0..FLOOD {
                        let ping = Message::Text("{\"type\":\"ping\"}".into());
                        ws.feed(ping).await.expect("the flood is queued");
                    }
                    ws.flush().await.expect("the flood is written");
                }
            }
            let mut pongs = 0;
            while pongs < FLOOD {
                let message = client.json(30).await.expect("the flooder is answered");
                assert_ne!(message["type"], "error", "{ruleset}: {message}");
                pongs += usize::from(message["type"] == "pong");
            }
            format!("{pongs} `pong`, no error")
        }
        Kind::HugeLine => {
            client.send_line(&vec![b'x'; 10 * 1024 * 1024]).await;
            let answer = client.refusal_then_close(10).await;
            (client, _) = Client::logged_in(transport, &server, name).await;
            answer
        }
        Kind::Unterminated => {
            if let Client::Tcp(raw) = &mut client {
                raw.send(b"{\"type\":\"act\",\"action\":")
                    .await
                    .expect("send");
            }
            let answer = client.refusal_then_close(10).await;
            (client, _) = Client::logged_in(transport, &server, name).await;
            answer
        }
        Kind::SecondLogin | Kind::Reconnect => {
            if kind == Kind::Reconnect {
                drop(client);
            }
            let (fresh, logged_in) = Client::logged_in(transport, &server, name).await;
            client = fresh;
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
            let prompt = client
                .until(20, |m| m["type"] == "prompt" && m["match"] == match_id)
                .await
                .expect("a prompt");
            let step = prompt["step"].as_u64().unwrap_or(0);
            let after = client
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
    client
        .send_json(json!({"type": "resign", "match": match_id}))
        .await;
    if let Some(mut partner) = waiting_partner {
        // Only once the bad seat's resignation is in: the two connections race.
        let heard = partner
            .until(20, |m| {
                (m["type"] == "ejected" && m["seat"] == seat) || m["type"] == "outcome"
            })
            .await
            .expect("the partner hears the resignation");
        if heard["type"] == "ejected" {
            partner
                .send_json(json!({"type": "resign", "match": match_id}))
                .await;
        }
    }
    let stored = finished_match(&server.http, match_id).await;
    assert_eq!(stored["status"], "finished", "{ruleset} {kind:?}: {stored}");
    let ended = match stored["outcome"]["ejected"][seat].as_str() {
        Some(reason) => reason.to_string(),
        // Nobody took the seat out: the game ended by its own rules first. A paced
        // cell's turns pass by the ruleset's default move for seconds, and the house
        // bot can end the game meanwhile (T&E: both seats passed a whole round).
        None => format!(
            "by its rules: {}",
            stored["outcome"]["summary"].as_str().unwrap_or("?")
        ),
    };
    Some(Cell {
        answer,
        ended,
        stored,
    })
}

/// How a paced cell's seat may leave its match: the reason of a ruleset that ejects at
/// a missed deadline (the engine's default, which Nim keeps; Q-Game's; spacegoo's), or
/// resigned after its default move (Space Crack, T&E).
const TIMEOUT_ENDS: [&str; 4] = [
    "missed the deadline",
    "missed the per-call time limit",
    "no command sent",
    "resigned",
];

/// What each kind must answer in `ruleset`.
fn expected(kind: Kind, ruleset: &str) -> &'static str {
    match kind {
        // The reference's rule: a second order in a round disqualifies.
        Kind::OutOfTurn if ruleset == "spacegoo" => "rejected `more_than_one_answer`",
        Kind::Garbage => "error `bad_json`",
        Kind::NotUtf8 => "error `bad_utf8`",
        Kind::HugeLine => "error `line_too_long`, closed",
        Kind::Unterminated => "error `line_timeout`, closed",
        Kind::MalformedAction => "rejected `malformed_action`",
        Kind::OutOfTurn => "rejected `not_your_turn`",
        Kind::OtherSeat => "error `not_your_seat`",
        Kind::NeverReads => "disconnected at its outbox bound",
        Kind::OtherMatch => "error `no_such_match`",
        Kind::Flood => "600 `pong`, no error",
        Kind::SecondLogin | Kind::Reconnect => "`logged_in`, seat resumed",
        Kind::Silence => "",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_client_in_every_ruleset_over_both_transports() {
    let server = server().await;
    let addresses = Addresses {
        tcp: server.tcp.clone(),
        http: server.http.clone(),
    };
    let rulesets: Vec<&'static str> = arbiter_rulesets::all()
        .iter()
        .map(|r| r.game.id())
        .collect();
    let mut cells = tokio::task::JoinSet::new();
    for transport in [Transport::Tcp, Transport::WebSocket] {
        for &ruleset in &rulesets {
            for kind in KINDS {
                let addresses = addresses.clone();
                cells.spawn(async move {
                    let played = cell(addresses, transport, ruleset, kind).await;
                    ((transport, kind, ruleset), played)
                });
            }
        }
    }
    let mut table: BTreeMap<(Transport, Kind, &str), Option<Cell>> = BTreeMap::new();
    while let Some(done) = cells.join_next().await {
        let (key, cell) = done.expect("a cell ran to the end");
        table.insert(key, cell);
    }
    let mut printed = String::new();
    for transport in [Transport::Tcp, Transport::WebSocket] {
        printed.push_str(&format!(
            "\n**{transport:?}**\n\n| bad client | {} |\n|---|{}\n",
            rulesets.join(" | "),
            "---|".repeat(rulesets.len())
        ));
        for kind in KINDS {
            let cells: Vec<String> = rulesets
                .iter()
                .map(|r| match &table[&(transport, kind, *r)] {
                    Some(cell) => format!("{}; ends {}", cell.answer, cell.ended),
                    None => "—".to_string(),
                })
                .collect();
            printed.push_str(&format!(
                "| {} | {} |\n",
                kind.describe(),
                cells.join(" | ")
            ));
        }
    }
    println!("{printed}");
    for ((transport, kind, ruleset), cell) in &table {
        let Some(cell) = cell else {
            continue;
        };
        let context = format!(
            "{transport:?} {ruleset} {kind:?}, the match as stored: {}\n{printed}",
            cell.stored
        );
        match kind {
            // Each ruleset's timeout policy decides: ejected with its reason, or its
            // default move made (then the seat resigns, unless the game has ended by
            // its rules meanwhile). A paced flooder sends nothing else before its
            // deadline either. What the cell answered is checked below.
            Kind::Silence | Kind::Flood | Kind::NeverReads => assert!(
                TIMEOUT_ENDS.contains(&cell.ended.as_str())
                    || cell.ended.starts_with("by its rules: "),
                "{context}"
            ),
            Kind::OutOfTurn if *ruleset == "spacegoo" => {
                assert_eq!(cell.ended, "sent more than one command", "{context}")
            }
            _ => assert_eq!(cell.ended, "resigned", "{context}"),
        }
        if *kind != Kind::Silence {
            assert_eq!(cell.answer, expected(*kind, ruleset), "{context}");
        }
    }
    still_serving(&server).await;
    server.stop().await;
    // Memory stays bounded: the most heap the whole test process (the server and the
    // 125 clients, their 10 MB lines included) held at once.
    let peak = HEAP.peak();
    println!("peak live heap of the test process: {} MiB", peak >> 20);
    assert!(peak < PEAK_HEAP_BOUND, "peak live heap {} MiB", peak >> 20);
}

/// Counts the test process's live heap (resident memory would mostly show what glibc
/// keeps of freed blocks, such as Argon2's 19 MiB work areas).
#[global_allocator]
static HEAP: Counting<System> = Counting::with_peak(System);

/// The bound on the test process's peak live heap. The clients' 10 MB lines are 100 MB
/// (more while the WebSocket client frames them); a server that buffered each
/// oversized line, or an outbox that grew past its bound, for 125 connections would
/// not stay under it.
const PEAK_HEAP_BOUND: usize = 192 << 20;

/// The server still serves a newcomer.
async fn still_serving(server: &TestServer) {
    let addresses = Addresses {
        tcp: server.tcp.clone(),
        http: server.http.clone(),
    };
    let mut client = Client::registered(Transport::Tcp, &addresses, "matrix-after").await;
    client.send_json(json!({"type": "ping"})).await;
    assert!(client.until(5, |m| m["type"] == "pong").await.is_some());
}

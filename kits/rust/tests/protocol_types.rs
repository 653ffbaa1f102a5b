//! The kit's message types against the server's own: every request the kit writes is
//! read by the server's parser as the request meant, and the kit reads what the
//! server's types write (lobby replies from `arbiter_server`'s `ServerMessage`, match
//! messages from the referee's `ToSeat`) plus the transcripts of `docs/protocol.md`.

use arbiter_engine::{Outcome as EngineOutcome, Turn};
use arbiter_kit::messages::{ClientMessage, Outcome, ServerMessage};
use arbiter_referee::{JsonText, ToSeat};
use arbiter_server::protocol::messages::{
    ClientMessage as Request, RulesetInfo, ServerMessage as Reply, TableInfo, TableSeat,
};
use serde_json::{json, Value};

/// What the server reads from the kit's line.
fn as_server_reads(message: &ClientMessage) -> Request {
    let line = serde_json::to_string(message).unwrap();
    Request::parse(&line).unwrap_or_else(|e| panic!("{line}: {} {}", e.code, e.message))
}

fn kit_reads(line: &str) -> ServerMessage {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn the_server_reads_every_request_of_the_kit() {
    let cases = [
        (
            ClientMessage::Register {
                name: "ann".into(),
                password: "pw".into(),
                bot: true,
            },
            Request::Register {
                name: "ann".into(),
                password: "pw".into(),
                bot: true,
            },
        ),
        (
            ClientMessage::Login {
                name: "ann".into(),
                password: "pw".into(),
                bot: true,
            },
            Request::Login {
                name: "ann".into(),
                password: "pw".into(),
                bot: Some(true),
            },
        ),
        (
            ClientMessage::Resume {
                session: "5f0c".into(),
            },
            Request::Resume {
                session: "5f0c".into(),
            },
        ),
        (ClientMessage::Rulesets, Request::Rulesets),
        (
            ClientMessage::Queue {
                ruleset: "tae".into(),
                config: None,
                seats: None,
            },
            Request::Queue {
                ruleset: "tae".into(),
                config: Value::Null,
                seats: None,
            },
        ),
        (
            ClientMessage::Queue {
                ruleset: "tae".into(),
                config: Some(json!({"hand_size": 5})),
                seats: Some(3),
            },
            Request::Queue {
                ruleset: "tae".into(),
                config: json!({"hand_size": 5}),
                seats: Some(3),
            },
        ),
        (ClientMessage::LeaveQueue, Request::LeaveQueue),
        (
            ClientMessage::CreateTable {
                ruleset: "qgame".into(),
                seats: 2,
                config: Some(json!({"qbo": 8})),
                deadline_ms: Some(5000),
                time_bank_ms: Some(0),
            },
            Request::CreateTable {
                ruleset: "qgame".into(),
                config: json!({"qbo": 8}),
                seats: 2,
                deadline_ms: Some(5000),
                time_bank_ms: Some(0),
                abandon_after: None,
                stand_in_grace_ms: None,
            },
        ),
        (
            ClientMessage::CreateTable {
                ruleset: "qgame".into(),
                seats: 4,
                config: None,
                deadline_ms: None,
                time_bank_ms: None,
            },
            Request::CreateTable {
                ruleset: "qgame".into(),
                config: Value::Null,
                seats: 4,
                deadline_ms: None,
                time_bank_ms: None,
                abandon_after: None,
                stand_in_grace_ms: None,
            },
        ),
        (
            ClientMessage::StartTable {
                table: 7,
                fill: Some("random".into()),
            },
            Request::StartTable {
                table: 7,
                fill: Some("random".into()),
            },
        ),
        (
            ClientMessage::Legal { match_id: 3 },
            Request::Legal { match_id: Some(3) },
        ),
        (
            ClientMessage::Act {
                match_id: 3,
                action: json!({"send": {"origin": 1, "target": 2, "ships": [5, 0, 0]}}),
                step: Some(4),
            },
            Request::Act {
                match_id: Some(3),
                seat: None,
                action: json!({"send": {"origin": 1, "target": 2, "ships": [5, 0, 0]}}),
                step: Some(4),
            },
        ),
        (
            ClientMessage::Act {
                match_id: 3,
                action: json!("nop"),
                step: None,
            },
            Request::Act {
                match_id: Some(3),
                seat: None,
                action: json!("nop"),
                step: None,
            },
        ),
        (
            ClientMessage::Resign { match_id: 3 },
            Request::Resign {
                match_id: Some(3),
                seat: None,
            },
        ),
        (
            ClientMessage::Options {
                legal_in_prompt: Some(true),
            },
            Request::Options {
                legal_in_prompt: Some(true),
            },
        ),
        (
            ClientMessage::Options {
                legal_in_prompt: None,
            },
            Request::Options {
                legal_in_prompt: None,
            },
        ),
        (ClientMessage::Ping, Request::Ping),
        (
            ClientMessage::JoinTournament { tournament: 2 },
            Request::JoinTournament { tournament: 2 },
        ),
    ];
    for (kit, server) in cases {
        assert_eq!(as_server_reads(&kit), server, "{kit:?}");
        // The kit's name for the message is the wire's.
        let line = serde_json::to_value(&kit).unwrap();
        assert_eq!(line["type"], kit.kind());
    }
}

#[test]
fn the_kit_reads_the_servers_lobby_replies() {
    let config = json!({"heaps": [3, 4, 5]});
    let cases = [
        (
            Reply::Welcome {
                protocol: 1,
                server: "arbiter 0.1.0".into(),
                rulesets: vec!["nim".into(), "tae".into()],
            },
            ServerMessage::Welcome {
                protocol: 1,
                server: "arbiter 0.1.0".into(),
                rulesets: vec!["nim".into(), "tae".into()],
            },
        ),
        (
            Reply::Registered {
                name: "ann".into(),
                session: "ab".into(),
                bot: true,
            },
            ServerMessage::Registered {
                name: "ann".into(),
                session: Some("ab".into()),
                bot: true,
            },
        ),
        (
            Reply::LoggedIn {
                name: "ann".into(),
                session: "ab".into(),
                bot: true,
                resumed: vec![3, 4],
            },
            ServerMessage::LoggedIn {
                name: "ann".into(),
                session: Some("ab".into()),
                bot: true,
                resumed: vec![3, 4],
            },
        ),
        (
            Reply::Queued {
                ruleset: "nim".into(),
                seats: 2,
                config: config.clone(),
                waiting: 1,
                note: "you are the only one waiting".into(),
            },
            ServerMessage::Queued {
                ruleset: "nim".into(),
                seats: 2,
                waiting: 1,
                note: "you are the only one waiting".into(),
            },
        ),
        (
            Reply::LeftQueue {
                ruleset: "nim".into(),
            },
            ServerMessage::LeftQueue {
                ruleset: "nim".into(),
            },
        ),
        (
            Reply::Table {
                table: TableInfo {
                    table: 1,
                    ruleset: "nim".into(),
                    config: config.clone(),
                    owner: "ann".into(),
                    seats: vec![
                        TableSeat {
                            seat: 0,
                            player: Some("ann".into()),
                        },
                        TableSeat {
                            seat: 1,
                            player: None,
                        },
                    ],
                    deadline_ms: 120_000,
                    time_bank_ms: 300_000,
                },
            },
            ServerMessage::Table {
                table: 1,
                ruleset: "nim".into(),
                deadline_ms: 120_000,
                time_bank_ms: 300_000,
            },
        ),
        (
            Reply::TableClosed {
                table: 1,
                reason: "the owner left".into(),
            },
            ServerMessage::TableClosed {
                table: 1,
                reason: "the owner left".into(),
            },
        ),
        (
            Reply::MatchStarted {
                match_id: 2,
                ruleset: "nim".into(),
                config: config.clone(),
                players: vec!["ann".into(), "random#2".into()],
                seat: 0,
                deadline_ms: 120_000,
                time_bank_ms: 300_000,
                rated: false,
                tournament: None,
            },
            ServerMessage::MatchStarted {
                match_id: 2,
                ruleset: "nim".into(),
                config: config.clone(),
                players: vec!["ann".into(), "random#2".into()],
                seat: 0,
                deadline_ms: 120_000,
                time_bank_ms: 300_000,
                rated: false,
            },
        ),
        (
            Reply::Legal {
                match_id: 2,
                seat: 0,
                step: 4,
                actions: vec![json!({"take": {"heap": 0, "count": 1}})],
            },
            ServerMessage::Legal {
                match_id: 2,
                seat: Some(0),
                step: 4,
                actions: vec![json!({"take": {"heap": 0, "count": 1}})],
            },
        ),
        (Reply::Pong, ServerMessage::Pong),
        (
            Reply::Options {
                legal_in_prompt: true,
            },
            ServerMessage::Options {
                legal_in_prompt: true,
            },
        ),
        (
            Reply::Error {
                code: "login_throttled".into(),
                message: "too many failed logins; try again in 1 s".into(),
                retry_after_ms: Some(998),
            },
            ServerMessage::Error {
                code: "login_throttled".into(),
                message: "too many failed logins; try again in 1 s".into(),
                retry_after_ms: Some(998),
            },
        ),
        (
            Reply::Rulesets {
                rulesets: vec![RulesetInfo {
                    id: "nim".into(),
                    name: "Secret Nim".into(),
                    seats: [2, 2],
                    bots: vec!["random".into()],
                    default_config: config.clone(),
                    deadline_ms: 60_000,
                }],
            },
            ServerMessage::Rulesets {
                rulesets: vec![json!({
                    "id": "nim", "name": "Secret Nim", "seats": [2, 2], "bots": ["random"],
                    "default_config": config, "deadline_ms": 60000,
                })],
            },
        ),
        (
            Reply::TournamentJoined { tournament: 1 },
            ServerMessage::TournamentJoined { tournament: 1 },
        ),
        (
            Reply::TournamentEnded { tournament: 1 },
            ServerMessage::TournamentEnded { tournament: 1 },
        ),
        (
            Reply::ServerRestarting {
                retry_after_ms: 2000,
            },
            ServerMessage::ServerRestarting {
                retry_after_ms: 2000,
            },
        ),
        // Messages the kit has no use for are read, as `Other`.
        (Reply::LoggedOut, ServerMessage::Other),
    ];
    for (server, kit) in cases {
        let line = server.to_line();
        assert_eq!(kit_reads(&line), kit, "{line}");
    }
}

/// A referee message as the server writes it (`matches/mailbox.rs`, `encode`, which is
/// private): the message's own fields, `match` right after `type`, `match_id` dropped.
fn seat_line(match_id: i64, message: &ToSeat) -> String {
    let Value::Object(fields) = serde_json::to_value(message).unwrap() else {
        panic!("a message is an object");
    };
    let mut line = serde_json::Map::new();
    let mut fields = fields.into_iter();
    let (tag, kind) = fields.next().unwrap();
    line.insert(tag, kind);
    line.insert("match".into(), json!(match_id));
    line.extend(fields.filter(|(key, _)| key != "match_id"));
    Value::Object(line).to_string()
}

#[test]
fn the_kit_reads_the_referees_match_messages() {
    let view = json!({"heaps": [3, 4, 5], "next": 0});
    let outcome = EngineOutcome {
        ranks: vec![2, 1],
        scores: vec![0, 1],
        ejected: vec![Some("resigned".into()), None],
        summary: "seat 1 took the last stone".into(),
    };
    let cases = [
        (
            ToSeat::Joined {
                match_id: 9,
                ruleset: "nim".into(),
                seat: Some(1),
                seats: vec!["ann".into(), "bob".into()],
                config: json!({}),
            },
            ServerMessage::Joined {
                match_id: 9,
                ruleset: "nim".into(),
                seat: Some(1),
                seats: vec!["ann".into(), "bob".into()],
                config: json!({}),
            },
        ),
        (
            ToSeat::View {
                step: 3,
                view: JsonText::from_value(&view),
            },
            ServerMessage::View {
                match_id: 9,
                step: 3,
                view: view.clone(),
            },
        ),
        (
            ToSeat::Prompt {
                step: 3,
                deadline_ms: 89_999,
                time_bank_ms: 30_000,
                turn: Turn::Sealed(vec![0, 1]),
                legal: None,
            },
            ServerMessage::Prompt {
                match_id: 9,
                step: 3,
                deadline_ms: 89_999,
                time_bank_ms: 30_000,
                turn: json!({"model": "sealed", "seats": [0, 1]}),
                legal: None,
            },
        ),
        // On a connection that asked for them (`options` `legal_in_prompt`), the
        // prompt lists the seat's legal actions.
        (
            ToSeat::Prompt {
                step: 4,
                deadline_ms: 59_000,
                time_bank_ms: 0,
                turn: Turn::One(0),
                legal: Some(vec![
                    json!({"take": {"heap": 0, "count": 1}}),
                    json!({"take": {"heap": 2, "count": 3}}),
                ]),
            },
            ServerMessage::Prompt {
                match_id: 9,
                step: 4,
                deadline_ms: 59_000,
                time_bank_ms: 0,
                turn: json!({"model": "one", "seats": 0}),
                legal: Some(vec![
                    json!({"take": {"heap": 0, "count": 1}}),
                    json!({"take": {"heap": 2, "count": 3}}),
                ]),
            },
        ),
        (
            ToSeat::Events {
                events: JsonText::from_value(&json!([{"event": "won", "seat": 1}])),
            },
            ServerMessage::Events {
                match_id: 9,
                events: json!([{"event": "won", "seat": 1}]),
            },
        ),
        (
            ToSeat::Rejected {
                code: "malformed_action".into(),
                message: "cannot read the action".into(),
            },
            ServerMessage::Rejected {
                match_id: 9,
                code: "malformed_action".into(),
                message: "cannot read the action".into(),
            },
        ),
        (
            ToSeat::Ejected {
                seat: 0,
                reason: "resigned".into(),
            },
            ServerMessage::Ejected {
                match_id: 9,
                seat: 0,
                reason: "resigned".into(),
            },
        ),
        (
            ToSeat::StandIn {
                seat: 0,
                bot: "greedy".into(),
                step: 5,
            },
            ServerMessage::StandIn {
                match_id: 9,
                seat: 0,
                bot: "greedy".into(),
            },
        ),
        (
            ToSeat::SeatTakenBack { seat: 0, step: 6 },
            ServerMessage::SeatTakenBack {
                match_id: 9,
                seat: 0,
            },
        ),
        (
            ToSeat::outcome(outcome, &["ann".into(), "bob".into()]),
            ServerMessage::Outcome {
                match_id: 9,
                outcome: Outcome {
                    ranks: vec![2, 1],
                    scores: vec![0, 1],
                    ejected: vec![Some("resigned".into()), None],
                    summary: "seat 1 took the last stone".into(),
                },
                headline: "bob wins with 1".into(),
            },
        ),
        (
            ToSeat::Aborted {
                reason: "the store stayed down".into(),
            },
            ServerMessage::Aborted {
                match_id: 9,
                reason: "the store stayed down".into(),
            },
        ),
    ];
    for (server, kit) in cases {
        let line = seat_line(9, &server);
        let read = kit_reads(&line);
        assert_eq!(read, kit, "{line}");
        assert_eq!(read.match_id(), Some(9));
    }
}

/// Lines copied from the transcripts of `docs/protocol.md`.
#[test]
fn the_kit_reads_the_documented_transcripts() {
    let lines = [
        r#"{"type":"welcome","protocol":1,"server":"arbiter 0.1.0","rulesets":["qgame","spacecrack","spacegoo","tae"]}"#,
        r#"{"type":"registered","name":"cy"}"#,
        r#"{"type":"logged_in","name":"cy","resumed":[3]}"#,
        r#"{"type":"logged_in","name":"bob","session":"17be","resumed":[]}"#,
        r#"{"type":"error","code":"bad_credentials","message":"unknown name or wrong password"}"#,
        r#"{"type":"error","code":"login_throttled","message":"too many failed logins; try again in 1 s","retry_after_ms":998}"#,
        r#"{"type":"queued","ruleset":"spacegoo","seats":2,"config":{"max_rounds":500,"deadline_ms":3000},"waiting":1,"note":"you are the only one waiting; the match starts when 1 more player(s) queue for spacegoo with 2 seats (or open a table and add bots)"}"#,
        r#"{"type":"match_started","match":1,"ruleset":"spacegoo","config":{"max_rounds":500,"deadline_ms":3000},"players":["bob","ann"],"seat":1,"deadline_ms":60000,"time_bank_ms":30000,"rated":true}"#,
        r#"{"type":"joined","match":1,"ruleset":"spacegoo","seat":null,"seats":["bob","ann"],"config":{"max_rounds":500,"deadline_ms":3000}}"#,
        r#"{"type":"prompt","match":1,"step":0,"deadline_ms":89999,"time_bank_ms":30000,"turn":{"model":"sealed","seats":[0,1]}}"#,
        r#"{"type":"rejected","match":1,"code":"malformed_action","message":"cannot read the action: missing field `origin`"}"#,
        r#"{"type":"ejected","match":1,"seat":0,"reason":"resigned"}"#,
        r#"{"type":"outcome","match":1,"outcome":{"ranks":[2,1],"scores":[129,129],"ejected":["resigned",null],"summary":"player 1 disqualified: resigned"},"headline":"bob wins with 129"}"#,
        r#"{"type":"table","table":1,"ruleset":"tae","config":{"board":null,"bag":{"scientist":47,"mining":36,"merchant":30,"settler":30},"hand_size":6,"leaders":["scientist","mining","merchant","settler"],"bombers":2},"owner":"ann","seats":[{"seat":0,"player":"ann"},{"seat":1},{"seat":2}],"deadline_ms":120000,"time_bank_ms":300000}"#,
        r#"{"type":"view","match":1,"step":12,"view":{"heaps":[0,0,0],"cards":["plain","double"],"ejected":[null,null],"next":1,"winner":1}}"#,
        r#"{"type":"legal","match":1,"seat":0,"step":0,"actions":[{"take":{"heap":0,"count":1}},{"take":{"heap":0,"count":2}}]}"#,
        r#"{"type":"events","match":1,"events":[{"type":"round_resolved","round":1}]}"#,
        r#"{"type":"tournament_ended","tournament":1}"#,
    ];
    for line in lines {
        let read = kit_reads(line);
        assert!(!matches!(read, ServerMessage::Other), "{line}: {read:?}");
    }
    assert_eq!(
        kit_reads(r#"{"type":"logged_in","name":"cy","resumed":[3]}"#),
        ServerMessage::LoggedIn {
            name: "cy".into(),
            session: None,
            bot: false,
            resumed: vec![3]
        }
    );
}

/// What a restart and a late answer look like to the kit (`server_restarting` is sent
/// by the server's shutdown; `stale_answer` by the referee), and a tournament's state.
#[test]
fn the_kit_reads_a_restart_a_stale_answer_and_a_tournament() {
    assert_eq!(
        kit_reads(r#"{"type":"server_restarting","retry_after_ms":2000}"#),
        ServerMessage::ServerRestarting {
            retry_after_ms: 2000
        }
    );
    assert_eq!(
        kit_reads(
            r#"{"type":"rejected","match":4,"code":"stale_answer","message":"this answers step 3, a decision that is closed"}"#
        ),
        ServerMessage::Rejected {
            match_id: 4,
            code: "stale_answer".into(),
            message: "this answers step 3, a decision that is closed".into(),
        }
    );
    assert_eq!(
        kit_reads(
            r#"{"type":"tournament","tournament":1,"name":"Friday Swiss","status":"finished","round":1,"standings":[]}"#
        ),
        ServerMessage::Tournament {
            tournament: 1,
            status: "finished".into(),
        }
    );
}

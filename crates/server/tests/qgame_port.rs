//! The Q-Game port mounted by the server: the course's own remote clients (in-house
//! strategy players behind the course's proxy referee) sign up by name, play a whole
//! game, and get their `win` calls; the match is an ordinary one: listed while it runs,
//! then stored with its outcome, replayable and rated under the course players'
//! accounts. A client that breaks the protocol is ejected with the reason recorded.

use std::time::Duration;

use crate::common::*;
use arbiter_qgame_course::actors::{ActorLevel, ActorSpec};
use arbiter_qgame_course::remote::client::{run_client, ClientEnd, ClientKind};
use arbiter_qgame_course::remote::SessionEnd;
use serde_json::{json, Value};

fn client(spec: Value) -> ClientKind {
    ClientKind::Player(ActorSpec::parse(&spec, ActorLevel::Loops).expect("a JActor"))
}

/// A client written in the test from the protocol description that answers `setup`
/// only after `delay` (within the call limit), then passes every turn: as the first to
/// sign up it holds the match open long enough to be seen live. Returns the calls.
fn slow_passer(port: u16, name: &str, delay: Duration) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut calls = Vec::new();
    writeln!(stream, "\"{name}\"").expect("sign up");
    let reader = BufReader::new(stream.try_clone().expect("clone"));
    for line in reader.lines() {
        let Ok(line) = line else { break };
        let call: Value = serde_json::from_str(&line).expect("one JSON value per line");
        let method = call[0].as_str().unwrap_or_default().to_string();
        if method == "setup" {
            std::thread::sleep(delay);
        }
        let reply = if method == "take-turn" {
            "pass"
        } else {
            "void"
        };
        writeln!(stream, "\"{reply}\"").expect("reply");
        calls.push(method.clone());
        if method == "win" {
            break;
        }
    }
    calls
}

/// Run `clients` against the server's Q-Game port in sign-up order: each starts once
/// the port has decided the one before (signed up or refused; names are read
/// concurrently, so starting them together would leave the order to chance).
async fn play(server: &TestServer, clients: Vec<ClientKind>) -> Vec<ClientEnd> {
    let port = qgame_port(server);
    let mut signups = server.server.hub.metrics.qgame_signups();
    let before = *signups.borrow_and_update();
    let mut running = Vec::new();
    for (decided, kind) in (before + 1..).zip(clients) {
        running.push(tokio::task::spawn_blocking(move || {
            run_client("127.0.0.1", port, &kind).end
        }));
        signups
            .wait_for(|n| *n >= decided)
            .await
            .expect("the server is up");
    }
    let mut ends = Vec::new();
    for task in running {
        ends.push(task.await.expect("client thread"));
    }
    ends
}

/// The only match in the store, once it has ended.
async fn the_match(http: &str) -> Value {
    for _ in 0..200 {
        let (status, list) = http_get(http, "/api/matches?ruleset=qgame", None).await;
        assert_eq!(status, 200);
        if let Some(id) = list["matches"][0]["id"].as_i64() {
            let stored = finished_match(http, id).await;
            if stored["status"] != "running" {
                return stored;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no finished Q-Game match");
}

/// A server with its Q-Game port on (one-second waiting periods), and the port.
async fn with_qgame_port() -> (TestServer, u16) {
    let server = start(|config| {
        config.qgame = Some("127.0.0.1:0".to_string());
        config.qgame_port.signup_period = Duration::from_secs(1);
    })
    .await;
    let port = qgame_port(&server);
    (server, port)
}

fn qgame_port(server: &TestServer) -> u16 {
    server
        .server
        .qgame_addr
        .expect("the Q-Game port is on")
        .port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn course_clients_play_a_rated_replayable_match_through_the_port() {
    let (server, port) = with_qgame_port().await;

    // While the game runs, the native protocol lists it with its port.
    let watcher = tokio::spawn({
        let tcp = server.tcp.clone();
        async move {
            let mut watcher = arbiter_server::client::Connection::connect(&tcp)
                .await
                .expect("connect");
            for _ in 0..300 {
                watcher.send(&json!({"type": "matches"})).await.unwrap();
                let list = until(&mut watcher, 5, |m| m["type"] == "matches").await;
                if let Some(found) = list["matches"].as_array().and_then(|l| l.first()) {
                    return Some(found.clone());
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            None
        }
    });

    // Seat 0: a slow client, so the match is surely running when the watcher looks.
    let mut signups = server.server.hub.metrics.qgame_signups();
    let slow =
        tokio::task::spawn_blocking(move || slow_passer(port, "cal", Duration::from_millis(700)));
    signups
        .wait_for(|n| *n >= 1)
        .await
        .expect("the server is up");
    let ends = play(
        &server,
        vec![
            client(json!(["ann", "dag"])),
            client(json!(["bob", "ldasg"])),
        ],
    )
    .await;
    let calls = slow.await.expect("the slow client");
    assert_eq!(
        calls.first().map(String::as_str),
        Some("setup"),
        "{calls:?}"
    );
    assert_eq!(calls.last().map(String::as_str), Some("win"), "{calls:?}");
    for end in &ends {
        assert!(
            matches!(end, ClientEnd::Session(SessionEnd::Finished { .. })),
            "{ends:?}"
        );
    }
    let won: Vec<bool> = ends
        .iter()
        .map(|e| matches!(e, ClientEnd::Session(SessionEnd::Finished { won: true })))
        .collect();
    assert!(won.contains(&true), "someone wins: {ends:?}");

    let listed = watcher.await.unwrap().expect("the match was listed");
    assert_eq!(listed["port"], "qgame", "{listed}");
    assert_eq!(
        listed["players"],
        json!(["qgame:cal", "qgame:ann", "qgame:bob"])
    );

    let stored = the_match(&server.http).await;
    assert_eq!(stored["status"], "finished", "{stored}");
    let id = stored["id"].as_i64().unwrap();
    // Whoever the store says won is the client that heard `win(true)`.
    let ranks = stored["outcome"]["ranks"]
        .as_array()
        .expect("ranks")
        .clone();
    for (client, won) in won.iter().enumerate() {
        let seat = client + 1;
        assert_eq!(*won, ranks[seat] == 1, "seat {seat}: {stored}");
    }
    let replay = spectator_replay(&server.http, id).await;
    assert_eq!(replay["outcome"], stored["outcome"]);
    let (_, board) = http_get(&server.http, "/api/leaderboard/qgame", None).await;
    let names: Vec<&str> = board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert_eq!(names.len(), 3, "{board}");
    assert!(names.contains(&"qgame:ann") && names.contains(&"qgame:bob"));
    server.stop().await;
}

/// Play carl (the misbehaving `spec`) against dora, who plays fairly, through a fresh
/// port: dora must win, the match be stored finished with only carl ejected; returns
/// the reason recorded for carl, with the stored match for messages.
async fn carl_is_ejected(spec: Value) -> (String, Value) {
    let (server, _) = with_qgame_port().await;
    let ends = play(&server, vec![client(spec), client(json!(["dora", "dag"]))]).await;
    let dora_won = ClientEnd::Session(SessionEnd::Finished { won: true });
    assert_eq!(ends[1], dora_won, "{ends:?}");
    let stored = the_match(&server.http).await;
    assert_eq!(stored["status"], "finished", "{stored}");
    assert_eq!(stored["outcome"]["ejected"][1], Value::Null, "{stored}");
    let reason = stored["outcome"]["ejected"][0].as_str().unwrap_or_default();
    let reason = reason.to_string();
    server.stop().await;
    (reason, stored)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_raises_is_ejected_with_the_reason_recorded() {
    // `[name, strategy, "take-turn"]` raises on its first take-turn call, which closes
    // its connection as the course's client does.
    let (reason, stored) = carl_is_ejected(json!(["carl", "dag", "take-turn"])).await;
    assert!(reason.contains("take-turn"), "{stored}");
}

/// An illegal answer (the course's first cheat: a placement at a coordinate next to no
/// tile) ejects the client with the rules' reason recorded; the other player wins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_answers_illegally_is_ejected_with_the_reason_recorded() {
    let cheat = json!(["carl", "dag", "a cheat", "non-adjacent-coordinate"]);
    let (reason, stored) = carl_is_ejected(cheat).await;
    // Depending on the deal, the rules first find the tile missing from the hand or the
    // cell next to no tile: both are refusals of the answer.
    let refused = reason.contains("not_adjacent") || reason.contains("tile_not_owned");
    assert!(
        reason.starts_with("illegal request: ") && refused,
        "the cheater is ejected for its answer: {stored}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_already_waiting_is_refused_whatever_its_case() {
    let (server, _) = with_qgame_port().await;
    // `ANN` would be the same account as `ann`: it is closed at sign-up; ann and bob play.
    let ends = play(
        &server,
        vec![
            client(json!(["ann", "dag"])),
            client(json!(["ANN", "dag"])),
            client(json!(["bob", "dag"])),
        ],
    )
    .await;
    assert!(
        matches!(ends[0], ClientEnd::Session(SessionEnd::Finished { .. })),
        "{ends:?}"
    );
    assert!(
        !matches!(ends[1], ClientEnd::Session(SessionEnd::Finished { .. })),
        "{ends:?}"
    );
    assert!(
        matches!(ends[2], ClientEnd::Session(SessionEnd::Finished { .. })),
        "{ends:?}"
    );
    let stored = the_match(&server.http).await;
    let names: Vec<&str> = stored["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["qgame:ann", "qgame:bob"], "{stored}");
    server.stop().await;
}

/// Ten sockets that connect and never say their name do not hold up the players behind
/// them: names are read concurrently, each with its own time limit. With a name wait of
/// ten minutes, reading them one after another would block sign-up for over an hour;
/// the timeout below only detects such a hang.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_do_not_delay_the_players_behind_them() {
    let server = start(|config| {
        config.qgame = Some("127.0.0.1:0".to_string());
        config.qgame_port.signup_period = Duration::from_secs(1);
        config.qgame_port.name_wait = Duration::from_secs(600);
    })
    .await;
    let port = server.server.qgame_addr.expect("the port is on").port();
    let silent: Vec<std::net::TcpStream> = (0..10)
        .map(|_| std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect"))
        .collect();
    let ends = tokio::time::timeout(
        Duration::from_secs(120),
        play(
            &server,
            vec![
                client(json!(["ann", "dag"])),
                client(json!(["bob", "ldasg"])),
            ],
        ),
    )
    .await
    .expect("the players signed up and played despite the silent sockets");
    for end in &ends {
        assert!(
            matches!(end, ClientEnd::Session(SessionEnd::Finished { .. })),
            "{ends:?}"
        );
    }
    drop(silent);
    server.stop().await;
}

/// What a scripted client written in the test does with one call.
#[derive(Clone, Copy)]
enum Answer {
    /// Reply with this JSON text.
    Reply(&'static str),
    /// Close the connection without replying (a course client that raised).
    HangUp,
    /// Read the call and never reply.
    Silence,
}

/// Every call any scripted client received, in the order they were read: the server
/// makes one call at a time and each client logs a call before replying to it, so this
/// is the order the server made them in.
type CallLog = std::sync::Arc<std::sync::Mutex<Vec<(String, Value)>>>;

/// A client written in the test from the protocol description: signs up as `name`,
/// logs every call, and answers each as `script` says (`"void"`, `take-turn` aside).
fn scripted(
    port: u16,
    name: &'static str,
    log: CallLog,
    script: fn(&str) -> Answer,
) -> impl FnOnce() + Send + 'static {
    move || {
        use std::io::{BufRead, BufReader, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        writeln!(stream, "\"{name}\"").expect("sign up");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        for line in reader.lines() {
            let Ok(line) = line else { break };
            let call: Value = serde_json::from_str(&line).expect("one JSON value per line");
            let method = call[0].as_str().unwrap_or_default().to_string();
            log.lock().unwrap().push((name.to_string(), call.clone()));
            match script(&method) {
                Answer::Reply(json) => {
                    if writeln!(stream, "{json}").is_err() {
                        break;
                    }
                }
                Answer::HangUp => {
                    let _ = stream.shutdown(std::net::Shutdown::Both);
                    break;
                }
                Answer::Silence => {}
            }
            if method == "win" {
                break;
            }
        }
    }
}

fn passes(method: &str) -> Answer {
    match method {
        "take-turn" => Answer::Reply("\"pass\""),
        _ => Answer::Reply("\"void\""),
    }
}

fn replaces(method: &str) -> Answer {
    match method {
        "take-turn" => Answer::Reply("\"replace\""),
        _ => Answer::Reply("\"void\""),
    }
}

fn passes_then_hangs_up_on_win(method: &str) -> Answer {
    match method {
        "win" => Answer::HangUp,
        other => passes(other),
    }
}

/// Start `clients` in sign-up order (each once the port has decided the one before) and
/// wait for all of them to end.
async fn run_in_order(server: &TestServer, clients: Vec<Box<dyn FnOnce() + Send>>) {
    let mut signups = server.server.hub.metrics.qgame_signups();
    let before = *signups.borrow_and_update();
    let mut running = Vec::new();
    for (decided, client) in (before + 1..).zip(clients) {
        running.push(tokio::task::spawn_blocking(client));
        signups
            .wait_for(|n| *n >= decided)
            .await
            .expect("the server is up");
    }
    for task in running {
        task.await.expect("client thread");
    }
}

/// The calls of the log as `name method` lines.
fn calls_of(log: &CallLog) -> Vec<String> {
    log.lock()
        .unwrap()
        .iter()
        .map(|(name, call)| format!("{name} {}", call[0].as_str().unwrap_or_default()))
        .collect()
}

/// The course referee calls `setup` on every player before the first `take-turn`, and
/// `new-tiles` right after the turn that dealt them. Here rex exchanges and pat passes,
/// which ends the game (a round without a placement): rex's new tiles come before pat's
/// turn, though rex never has another turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setup_and_new_tiles_come_when_the_course_referee_sends_them() {
    let (server, port) = with_qgame_port().await;
    let log = CallLog::default();
    run_in_order(
        &server,
        vec![
            Box::new(scripted(port, "rex", log.clone(), replaces)),
            Box::new(scripted(port, "pat", log.clone(), passes)),
        ],
    )
    .await;
    assert_eq!(
        calls_of(&log),
        [
            "rex setup",
            "pat setup",
            "rex take-turn",
            "rex new-tiles",
            "pat take-turn",
            "rex win",
            "pat win"
        ]
    );
    let calls = log.lock().unwrap().clone();
    let dealt = calls[3].1[1][0].as_array().expect("the dealt tiles").len();
    assert_eq!(dealt, 6, "an exchange deals a whole hand: {calls:?}");
    let stored = the_match(&server.http).await;
    assert_eq!(
        stored["outcome"]["ejected"],
        json!([null, null]),
        "{stored}"
    );
    server.stop().await;
}

/// Both pass, so both have the best score and are told they won; the one whose `win`
/// call fails is misbehaving, not a winner (course: it moves to the misbehaved list).
/// Once with the failing winner the first to move, once the last (whose pass ended the
/// game).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_winner_that_fails_its_win_call_is_recorded_as_misbehaving() {
    for failing_seat in [0, 1] {
        let (server, port) = with_qgame_port().await;
        let log = CallLog::default();
        let scripts: [fn(&str) -> Answer; 2] = if failing_seat == 0 {
            [passes_then_hangs_up_on_win, passes]
        } else {
            [passes, passes_then_hangs_up_on_win]
        };
        run_in_order(
            &server,
            vec![
                Box::new(scripted(port, "wes", log.clone(), scripts[0])),
                Box::new(scripted(port, "pat", log.clone(), scripts[1])),
            ],
        )
        .await;
        let told: Vec<(String, Value)> = log
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, call)| call[0] == "win")
            .cloned()
            .collect();
        assert_eq!(
            told,
            [
                ("wes".to_string(), json!(["win", [true]])),
                ("pat".to_string(), json!(["win", [true]]))
            ]
        );
        let stored = the_match(&server.http).await;
        let outcome = &stored["outcome"];
        let reason = outcome["ejected"][failing_seat]
            .as_str()
            .unwrap_or_default();
        assert!(reason.starts_with("win: "), "seat {failing_seat}: {stored}");
        assert_eq!(
            outcome["ejected"][1 - failing_seat],
            Value::Null,
            "{stored}"
        );
        assert_eq!(outcome["ranks"][1 - failing_seat], 1, "{stored}");
        assert_ne!(outcome["ranks"][failing_seat], 1, "{stored}");
        server.stop().await;
    }
}

/// A player who signs up and then leaves before its game is dropped at once: its name is
/// free again (ann comes back), and it takes no seat (without it, bob would have played
/// alone after ann's ejection at setup).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_before_its_game_is_dropped_and_its_name_freed() {
    let (server, port) = with_qgame_port().await;
    let mut signups = server.server.hub.metrics.qgame_signups();
    let before = *signups.borrow_and_update();
    {
        use std::io::Write;
        let mut gone = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        writeln!(gone, "\"ann\"").expect("sign up");
        signups
            .wait_for(|n| *n > before)
            .await
            .expect("the server is up");
        // Dropped: the connection closes.
    }
    let ends = play(
        &server,
        vec![
            client(json!(["bob", "dag"])),
            client(json!(["ann", "ldasg"])),
        ],
    )
    .await;
    for end in &ends {
        assert!(
            matches!(end, ClientEnd::Session(SessionEnd::Finished { .. })),
            "{ends:?}"
        );
    }
    let stored = the_match(&server.http).await;
    let names: Vec<&str> = stored["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["qgame:bob", "qgame:ann"], "{stored}");
    assert_eq!(
        stored["outcome"]["ejected"],
        json!([null, null]),
        "{stored}"
    );
    server.stop().await;
}

/// A client that closes its connection (a course client whose player raised) is recorded
/// as gone, with the call it failed; only a client that does not answer in time is
/// recorded as missing the per-call time limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ejection_says_what_happened() {
    let server = start(|config| {
        config.qgame = Some("127.0.0.1:0".to_string());
        config.qgame_port.signup_period = Duration::from_secs(1);
        config
            .deadlines
            .insert("qgame".to_string(), Duration::from_secs(2));
    })
    .await;
    let port = qgame_port(&server);
    let log = CallLog::default();
    run_in_order(
        &server,
        vec![
            Box::new(scripted(port, "hal", log.clone(), |method| match method {
                "take-turn" => Answer::HangUp,
                other => passes(other),
            })),
            Box::new(scripted(port, "sid", log.clone(), |method| match method {
                "take-turn" => Answer::Silence,
                other => passes(other),
            })),
            Box::new(scripted(port, "pat", log.clone(), passes)),
        ],
    )
    .await;
    let stored = the_match(&server.http).await;
    let ejected = &stored["outcome"]["ejected"];
    let hal = ejected[0].as_str().unwrap_or_default();
    assert!(hal.starts_with("take-turn: "), "{stored}");
    assert!(!hal.contains("time limit"), "{stored}");
    assert!(hal.contains("stream ended"), "{stored}");
    assert_eq!(
        ejected[1], "take-turn: missed the per-call time limit (2s)",
        "{stored}"
    );
    assert_eq!(ejected[2], Value::Null, "{stored}");
    server.stop().await;
}

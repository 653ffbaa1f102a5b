//! Every starter kit survives its server's restart in the middle of a game and of a
//! tournament. A game: the kit (Python over TCP, JavaScript over TCP and WebSocket,
//! this kit's `arbiter-kit-play`) queues for T&E and is paired with the test's own
//! player, which holds its decision at the fourth step; the server stops
//! (`server_restarting` to everyone) and starts again on the same data and addresses;
//! the test's player comes back and plays on, and the kit must come back by itself and
//! finish the game. A tournament: the four kits enter one Swiss; once its first games
//! run, the server stops and starts again; every kit comes back by itself, to its
//! games and its tournament, and the Swiss finishes.

use std::path::Path;
use std::time::Duration;

use arbiter_server::client::Connection;
use arbiter_server::{Config, Server};
use serde_json::{json, Value};

/// The step at which the test's player holds its decision for the restart.
const HOLD_AT: u64 = 3;

/// A free loopback address (bound and let go: the server is started on it).
fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").to_string()
}

/// The command line that runs `kit` for one queued T&E game as `name`.
fn kit_command(kit: &str, tcp: &str, http: &str, name: &str) -> tokio::process::Command {
    let mut command = kit_program(kit, tcp);
    command
        .args([
            "--http",
            http,
            "--ruleset",
            "tae",
            "--queue",
            "--games",
            "1",
        ])
        .args(["--name", name, "--password", "kit-restart-pw"])
        .kill_on_drop(true);
    command
}

/// The program (and its transport's address) that runs `kit`.
fn kit_program(kit: &str, tcp: &str) -> tokio::process::Command {
    let kits = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match kit {
        "python" => {
            let mut c = tokio::process::Command::new("python3");
            c.arg(kits.join("python/play.py")).args(["--server", tcp]);
            c
        }
        "javascript" => {
            let mut c = tokio::process::Command::new("node");
            c.arg(kits.join("javascript/play.js"))
                .args(["--server", tcp]);
            c
        }
        "javascript-ws" => {
            let mut c = tokio::process::Command::new("node");
            c.arg(kits.join("javascript/play.js"))
                .args(["--transport", "ws"]);
            c
        }
        _ => {
            let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_arbiter-kit-play"));
            c.args(["--server", tcp]);
            c
        }
    }
}

/// The test's player: answers every prompt with its first legal action that is not
/// `pass` (naming the step), holds at [`HOLD_AT`] until `go` (the server restarted),
/// then comes back and plays to the outcome. Returns the outcome.
async fn test_player(
    tcp: String,
    name: String,
    held: tokio::sync::oneshot::Sender<()>,
    go: tokio::sync::oneshot::Receiver<()>,
) -> Value {
    let mut connection = Connection::connect(&tcp).await.expect("connect");
    sign_in(&mut connection, &name).await;
    connection
        .send(&json!({"type": "queue", "ruleset": "tae"}))
        .await
        .expect("queue");
    let mut held = Some(held);
    let mut go = Some(go);
    loop {
        let message = match connection.recv().await {
            Ok(message) if message["type"] != "server_restarting" => message,
            // The server went away: wait for it, then come back.
            _ => {
                if let Some(go) = go.take() {
                    let _ = go.await;
                }
                connection = Connection::connect(&tcp).await.expect("the server is back");
                let resumed = sign_in(&mut connection, &name).await;
                assert_eq!(resumed.len(), 1, "the test player's seat resumes");
                continue;
            }
        };
        match message["type"].as_str().unwrap_or("") {
            "prompt" => {
                let step = message["step"].as_u64().unwrap_or(0);
                if step >= HOLD_AT {
                    if let Some(held) = held.take() {
                        let _ = held.send(());
                        continue;
                    }
                }
                let legal = message["legal"].as_array().cloned().unwrap_or_default();
                let action = legal
                    .iter()
                    .find(|a| **a != json!("pass"))
                    .or(legal.first())
                    .cloned()
                    .unwrap_or(json!("pass"));
                let act = json!({"type": "act", "match": message["match"], "step": step, "action": action});
                if connection.send(&act).await.is_err() {
                    continue;
                }
            }
            "outcome" => return message["outcome"].clone(),
            "rejected" => panic!("the test player's answer was refused: {message}"),
            _ => {}
        }
    }
}

/// The kit's run, once it ended (within `patience`): it succeeded and said it came back
/// after the restart. What it printed.
async fn came_back_and_finished(
    kit: &str,
    run: tokio::task::JoinHandle<std::io::Result<std::process::Output>>,
    patience: Duration,
) -> String {
    let output = tokio::time::timeout(patience, run)
        .await
        .unwrap_or_else(|_| panic!("{kit}: the kit ended"))
        .expect("the kit's task")
        .expect("the kit runs");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{kit} failed:\n{printed}");
    assert!(
        printed.contains("reconnected"),
        "{kit} came back:\n{printed}"
    );
    printed
}

/// Ask for the legal actions in every prompt (before the login, which resumes a seat
/// with its prompt), then log in; the matches whose seats resume.
async fn sign_in(connection: &mut Connection, name: &str) -> Vec<i64> {
    connection
        .send(&json!({"type": "options", "legal_in_prompt": true}))
        .await
        .expect("send");
    connection.expect("options", |_| {}).await.expect("options");
    connection
        .login_or_register(name, "test-player-pw")
        .await
        .expect("logged in")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kit_finishes_a_game_through_a_server_restart() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut config = Config::for_data_dir(dir.path().join("data"));
    config.tcp = free_address();
    config.http = free_address();
    config.pairing_interval = Duration::from_millis(100);
    let (tcp, http) = (config.tcp.clone(), config.http.clone());
    let mut server = Server::start(config.clone())
        .await
        .expect("the server starts");
    for kit in ["python", "javascript", "javascript-ws", "rust"] {
        let name = format!("restart-{kit}");
        let mut command = kit_command(kit, &tcp, &http, &name);
        let kit_run = command.output();
        let (held, hold) = tokio::sync::oneshot::channel();
        let (go, wait) = tokio::sync::oneshot::channel();
        let player = tokio::spawn(test_player(tcp.clone(), format!("host-{kit}"), held, wait));
        let kit_run = tokio::spawn(kit_run);
        tokio::time::timeout(Duration::from_secs(120), hold)
            .await
            .unwrap_or_else(|_| panic!("{kit}: the game reached step {HOLD_AT}"))
            .expect("the test player holds");
        server.shutdown().await;
        server = Server::start(config.clone())
            .await
            .expect("the server starts again");
        assert_eq!(
            server.resumed_on_start.resumed, 1,
            "{kit}: the match goes on"
        );
        let _ = go.send(());
        let outcome = tokio::time::timeout(Duration::from_secs(180), player)
            .await
            .unwrap_or_else(|_| panic!("{kit}: the game ended"))
            .expect("the test player");
        let printed = came_back_and_finished(kit, kit_run, Duration::from_secs(60)).await;
        assert!(
            outcome["ranks"].as_array().is_some_and(|r| r.len() == 2),
            "{kit}: {outcome}"
        );
        assert!(
            outcome["ejected"]
                .as_array()
                .is_some_and(|e| e.iter().all(Value::is_null)),
            "{kit}: nobody lost a seat to the restart: {outcome}\n{printed}"
        );
    }
    server.shutdown().await;
}

/// The four kits in one Swiss of spacegoo (short games), the server restarted once its
/// first games run: every kit comes back by itself, plays its games and sees the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kit_finishes_a_tournament_through_a_server_restart() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut config = Config::for_data_dir(dir.path().join("data"));
    config.tcp = free_address();
    config.http = free_address();
    let (tcp, http) = (config.tcp.clone(), config.http.clone());
    let mut server = Server::start(config.clone())
        .await
        .expect("the server starts");
    let mut host = Connection::connect(&tcp).await.expect("connect");
    sign_in(&mut host, "kit-swiss-host").await;
    host.send(
        &json!({"type": "create_tournament", "name": "Kits through a restart",
                      "ruleset": "spacegoo", "format": "swiss", "rounds": 3,
                      "start_when": 4, "max_entrants": 4, "rated": false,
                      "config": {"max_rounds": 40}}),
    )
    .await
    .expect("send");
    let created = host
        .expect("tournament_created", |_| {})
        .await
        .expect("the tournament is created");
    let id = created["tournament"].as_i64().expect("its id");
    drop(host);
    let kits = ["python", "javascript", "javascript-ws", "rust"];
    let mut runs = Vec::new();
    for kit in kits {
        let mut command = kit_program(kit, &tcp);
        command
            .args(["--http", &http, "--ruleset", "spacegoo"])
            .args(["--tournament", &id.to_string()])
            .args([
                "--name",
                &format!("swiss-{kit}"),
                "--password",
                "kit-restart-pw",
            ])
            .kill_on_drop(true);
        runs.push((kit, tokio::spawn(command.output())));
    }
    // Polling the store for a condition, not ordering: up to 120 s for the kits to
    // start, enter and be paired.
    let mut running = 0;
    for _ in 0..2400 {
        running = server.hub.matches.count();
        if running > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(running > 0, "the Swiss's first games never ran");
    server.shutdown().await;
    server = Server::start(config.clone())
        .await
        .expect("the server starts again");
    for (kit, run) in runs {
        came_back_and_finished(kit, run, Duration::from_secs(300)).await;
    }
    let tournament = server
        .hub
        .store
        .tournament(id)
        .await
        .expect("read")
        .expect("the tournament");
    assert_eq!(tournament.status.as_str(), "finished", "{tournament:?}");
    let games = server.hub.store.tournament_games(id).await.expect("read");
    assert_eq!(games.len(), 6, "three rounds of two games: {games:?}");
    for game in &games {
        let match_id = game.match_id.expect("every game had its match");
        let summary = server
            .hub
            .store
            .match_summary(match_id)
            .await
            .expect("read")
            .expect("the match");
        assert_eq!(summary.status.as_str(), "finished", "{summary:?}");
    }
    server.shutdown().await;
}

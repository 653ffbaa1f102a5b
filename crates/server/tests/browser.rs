//! The web pages in a real browser: headless Chromium (Debian's `chromium`) driven by
//! Playwright (`playwright-core` from npm, pinned in `web/tests/package-lock.json`).
//! The server runs here with a finished match of every ruleset; `web/tests/pages.mjs`
//! opens the pages as a person would (lobby, rules, every replay, leaderboard, player
//! page; then registers, reloads and is still signed in, plays every ruleset to the end
//! against a house bot by clicking on its board while a guest watches live (Q-Game from
//! a table opened with options), opens its own seat's replay, and two people meet in
//! the rated queue; then joins an arena, is taken to its game, plays it and sees the
//! standings move), checks what they show, and takes screenshots (`screenshot_folder`).
//! Here, network bots play a whole Swiss tournament first (its page
//! is shown), and one bot waits in the arena for the person. A second test,
//! `web/tests/restart.mjs`, restarts the server under a person's Tigris & Euphrates
//! game: the page says so, comes back by itself and the person finishes the game.
//!
//! `scripts/test` (the README's test command) installs Chromium, Node.js and npm; this
//! test installs only the pinned npm packages (`npm ci`). Without Chromium it fails and
//! says what to install: a browser test that quietly skipped would count as passing
//! without having run.

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;
use arbiter_server::client::{play, BotPlan, Connection, Games};
use serde_json::{json, Value};
use tokio::io::AsyncBufReadExt;

/// Chromium checked for, and the npm packages installed if they are missing.
fn install_what_is_missing(tests: &std::path::Path) {
    assert!(
        std::path::Path::new("/usr/bin/chromium").exists()
            || std::env::var_os("CHROMIUM").is_some(),
        "the browser tests need Chromium: run scripts/test (it installs it), \
         `apt-get install chromium` (Debian), or set CHROMIUM to a Chromium binary"
    );
    if !tests.join("node_modules/playwright-core").is_dir() {
        let prefix = tests.to_string_lossy().to_string();
        let installed = std::process::Command::new("npm")
            .args(["ci", "--prefix", &prefix, "--no-audit", "--no-fund"])
            .status()
            .is_ok_and(|status| status.success());
        assert!(
            installed,
            "the browser tests need Node.js and npm (`apt-get install nodejs npm`) to \
             install playwright-core: `npm ci --prefix web/tests`"
        );
    }
}

/// Where the scripts write their screenshots. The tracked pictures in
/// `docs/screenshots/` are rewritten only when asked (`ARBITER_SCREENSHOTS=1`), so a
/// test run leaves the working tree as it was; otherwise they go to
/// `target/screenshots/`, to look at after a run.
fn screenshot_folder(root: &std::path::Path) -> PathBuf {
    let asked = std::env::var("ARBITER_SCREENSHOTS").is_ok_and(|value| value == "1");
    if asked {
        root.join("docs/screenshots")
    } else {
        root.join("target/screenshots")
    }
}

/// The scripts' folder (`web/tests`) with Chromium and the npm packages ready, and the
/// folder the scripts write their screenshots to.
async fn browser_ready() -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tests = root.join("web/tests");
    tokio::task::spawn_blocking({
        let tests = tests.clone();
        move || install_what_is_missing(&tests)
    })
    .await
    .expect("the set-up ran");
    let shots = screenshot_folder(&root);
    std::fs::create_dir_all(&shots).expect("the screenshot folder");
    (tests, shots)
}

/// Two bots play one match of `ruleset` over the network; its id.
async fn finished(server: &TestServer, ruleset: &str) -> i64 {
    let plan = |name: &str| BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: ruleset.into(),
        name: name.into(),
        password: password(name),
        games: Games::Exactly(1),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    };
    let (a, b) = (plan("ada"), plan("bo"));
    let (ra, rb) = tokio::join!(
        play(&a, random_players(ruleset)),
        play(&b, random_players(ruleset))
    );
    let (ra, rb) = (ra.expect("ada played"), rb.expect("bo played"));
    let id = ra.games[0].match_id;
    assert_eq!(id, rb.games[0].match_id);
    assert_eq!(finished_match(&server.http, id).await["status"], "finished");
    id
}

/// A network bot that enters tournament `id` and plays nim there until it ends.
fn tournament_bot(server: &TestServer, name: &str, id: i64) -> BotPlan {
    BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: "nim".into(),
        name: name.into(),
        password: password(name),
        games: Games::Tournament(id),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    }
}

/// `host` creates a tournament with `settings`: its id.
async fn create_tournament(host: &mut Connection, settings: Value) -> i64 {
    let mut request = settings;
    request["type"] = json!("create_tournament");
    host.send(&request).await.expect("send");
    let reply = until(host, 10, |m| {
        m["type"] == "tournament_created" || m["type"] == "error"
    })
    .await;
    assert_eq!(reply["type"], "tournament_created", "{reply}");
    reply["tournament"].as_i64().expect("an id")
}

/// Five network bots play a two-round Swiss tournament of nim to the end (five, so that
/// each round has a bye): its id.
async fn swiss_played(server: &TestServer, host: &mut Connection) -> i64 {
    let names = ["cyd", "dee", "eve", "fay", "gus"];
    let id = create_tournament(
        host,
        json!({"name": "Browser Swiss", "ruleset": "nim", "format": "swiss", "rounds": 2,
               "start_when": names.len()}),
    )
    .await;
    let bots: Vec<_> = names
        .iter()
        .map(|name| {
            let plan = tournament_bot(server, name, id);
            tokio::spawn(async move { play(&plan, random_players("nim")).await })
        })
        .collect();
    for bot in bots {
        let report = tokio::time::timeout(Duration::from_secs(120), bot)
            .await
            .expect("the Swiss tournament ended in time")
            .expect("the bot's task")
            .expect("the bot played the tournament");
        assert!(report.aborted.is_empty(), "aborted: {:?}", report.aborted);
    }
    let (status, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(status, 200, "{document}");
    assert_eq!(document["status"], "finished", "{document}");
    id
}

/// An arena of nim that starts when two have joined, with one network bot entered (it
/// plays until the test ends): its id, and the bot's task.
async fn arena_waiting(
    server: &TestServer,
    host: &mut Connection,
) -> (i64, tokio::task::JoinHandle<()>) {
    let id = create_tournament(
        host,
        json!({"name": "Browser arena", "ruleset": "nim", "format": "arena",
               "duration_ms": 600_000, "start_when": 2}),
    )
    .await;
    let plan = tournament_bot(server, "hal", id);
    let bot = tokio::spawn(async move {
        // Cut short when the test ends; whatever it played is in the store.
        let _ = play(&plan, random_players("nim")).await;
    });
    // The person joins second, so that their joining starts the arena.
    for _ in 0..100 {
        let (_, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
        if document["entrants"] == 1 {
            return (id, bot);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the arena's bot did not join");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_browses_replays_and_plays_every_ruleset_while_a_guest_watches() {
    let (tests, shots) = browser_ready().await;
    let server = start(|_| {}).await;
    // One finished match of every ruleset, so every board is drawn.
    let mut matches = Vec::new();
    for ruleset in arbiter_rulesets::all() {
        let id = finished(&server, ruleset.id()).await;
        matches.push(format!("{}={id}", ruleset.id()));
    }
    let mut host = registered(&server.tcp, "host").await;
    let swiss = swiss_played(&server, &mut host).await;
    let (arena, arena_bot) = arena_waiting(&server, &mut host).await;
    // Open, for bots only: the person is told so instead of offered a Join button.
    let bots_only = create_tournament(
        &mut host,
        json!({"name": "Bots only", "ruleset": "nim", "format": "swiss", "rounds": 1,
               "start_when": 64, "entry": "bots"}),
    )
    .await;
    let run = tokio::process::Command::new("node")
        .arg(tests.join("pages.mjs"))
        .env("ARBITER_URL", format!("http://{}", server.http))
        .env("ARBITER_TCP", &server.tcp)
        .env("MATCHES", matches.join(","))
        .env("PLAYER", "ada")
        .env("SWISS", swiss.to_string())
        .env("ARENA", arena.to_string())
        .env("BOTS_ONLY", bots_only.to_string())
        .env("SCREENSHOTS", &shots)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .await
        .expect("node runs (install Node.js 20 or later)");
    arena_bot.abort();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
    // Each check the script made is one line: proof that it ran them all.
    let mut checks = vec!["lobby".to_string(), "rules".into(), "leaderboard".into()];
    checks.extend(["player".into(), "phone".into()]);
    checks.extend(["tournaments".into(), "tournament swiss".into()]);
    for ruleset in arbiter_rulesets::all() {
        checks.push(format!("replay {}", ruleset.id()));
        checks.push(format!("play {}", ruleset.id()));
    }
    checks.extend([
        "reload keeps the session".into(),
        "private replay".into(),
        "rated queue".into(),
        "rated game on the leaderboard and chart".into(),
        "tournament arena".into(),
        "boards fit a phone".into(),
        "tournaments fit a phone".into(),
    ]);
    for check in checks {
        assert!(
            stdout.lines().any(|l| l == format!("ok {check}")),
            "no `ok {check}` in:\n{stdout}\n{stderr}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_game_goes_on_after_the_server_restarts_under_it() {
    let (tests, shots) = browser_ready().await;
    let mut server = start(|_| {}).await;
    let mut run = tokio::process::Command::new("node")
        .arg(tests.join("restart.mjs"))
        .env("ARBITER_URL", format!("http://{}", server.http))
        .env("SCREENSHOTS", &shots)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs (install Node.js 20 or later)");
    let stderr = run.stderr.take().expect("stderr");
    let stderr = tokio::spawn(async move {
        let mut text = String::new();
        let _ = tokio::io::AsyncReadExt::read_to_string(&mut { stderr }, &mut text).await;
        text
    });
    let mut lines = tokio::io::BufReader::new(run.stdout.take().expect("stdout")).lines();
    let mut said = Vec::new();
    let mut restarts = 0;
    while let Some(line) = lines.next_line().await.expect("the script's output") {
        if line == "restart the server" {
            server = server.restart().await;
            restarts += 1;
        }
        said.push(line);
    }
    let status = run.wait().await.expect("the script ends");
    let stderr = stderr.await.expect("its errors");
    let said = said.join("\n");
    assert!(
        status.success(),
        "the browser test failed:\n{said}\n{stderr}"
    );
    assert_eq!(restarts, 1, "{said}");
    for check in [
        "started",
        "the page says it is reconnecting",
        "the page came back by itself",
        "the replay shows the restart",
        "the replay fits a phone",
    ] {
        assert!(
            said.lines().any(|l| l == format!("ok {check}")),
            "no `ok {check}` in:\n{said}\n{stderr}"
        );
    }
    let id: i64 = said
        .lines()
        .find_map(|l| l.strip_prefix("ok finished "))
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no `ok finished <id>` in:\n{said}\n{stderr}"));
    // The game the person finished is the one that went on: one record, its gap shown.
    assert_eq!(finished_match(&server.http, id).await["status"], "finished");
    let (status, record) = http_get(&server.http, &format!("/api/matches/{id}/record"), None).await;
    assert_eq!(status, 200, "{record}");
    let resumptions = record["resumptions"]
        .as_array()
        .unwrap_or_else(|| panic!("the record shows no resumption: {record}"));
    assert_eq!(resumptions.len(), 1, "{record}");
    server.stop().await;
}

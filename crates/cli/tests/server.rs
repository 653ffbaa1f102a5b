//! `arbiter serve` and `arbiter bot` as real processes over loopback: bots of every
//! ruleset play through a served server and the HTTP API serves what they played; a
//! server killed with SIGKILL or stopped with SIGTERM mid-match starts again on the same
//! data directory without losing an account or a finished match, and goes on with the
//! running match, whose bots come back by themselves.
//!
//! These tests live in the CLI crate because only its tests get the `arbiter` binary
//! (`CARGO_BIN_EXE_arbiter`), built by cargo for them.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;
use common::*;

/// A client that registers, queues for T&E, passes at its first `answers` prompts,
/// then stays silent until the server goes away.
fn slow_player(tcp: &str, name: &str, answers: usize) {
    let mut stream = TcpStream::connect(tcp).expect("connect");
    let reader = BufReader::new(stream.try_clone().expect("clone"));
    let password = format!("pw-{name}");
    writeln!(
        stream,
        r#"{{"type":"register","name":"{name}","password":"{password}"}}"#
    )
    .expect("register");
    writeln!(stream, r#"{{"type":"queue","ruleset":"tae"}}"#).expect("queue");
    let mut answered = 0;
    for line in reader.lines() {
        let Ok(line) = line else { break };
        if line.contains(r#""type":"prompt""#) && answered < answers {
            answered += 1;
            if writeln!(stream, r#"{{"type":"act","action":"pass"}}"#).is_err() {
                break;
            }
        }
    }
}

#[test]
fn arbiter_bots_play_every_ruleset_through_arbiter_serve() {
    let data = tempfile::tempdir().expect("temp dir");
    let mut served = serve(data.path(), &["--deadline", "*=10s"]);
    assert!(
        served.banner[0].starts_with("arbiter "),
        "{:?}",
        served.banner
    );
    assert!(
        served.banner.iter().any(|l| l.starts_with("spacegoo ")),
        "the spacegoo port's address is printed: {:?}",
        served.banner
    );
    // Every ruleset at once, two bots each.
    let games = [
        ("qgame", "greedy", "random"),
        ("spacegoo", "greedy", "random"),
        ("spacecrack", "mcts", "random"),
        ("tae", "greedy", "random"),
    ];
    let mut bots = Vec::new();
    for (ruleset, first, second) in games {
        bots.push((
            ruleset,
            bot(&served.tcp, ruleset, first, &format!("{ruleset}-one"), 1),
        ));
        bots.push((
            ruleset,
            bot(&served.tcp, ruleset, second, &format!("{ruleset}-two"), 1),
        ));
    }
    for (ruleset, child) in bots {
        let out = finish(child);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{ruleset}: {stdout} {}",
            text(&out.stderr)
        );
        assert!(stdout.contains("played 1 game(s)"), "{stdout}");
    }
    for (ruleset, _, _) in games {
        let list = wait_for(
            &served.http,
            &format!("/api/matches?ruleset={ruleset}"),
            20,
            |l| l["matches"][0]["status"] == "finished",
        );
        let summary = &list["matches"][0];
        let players: Vec<&str> = summary["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .filter_map(|s| s["name"].as_str())
            .collect();
        assert!(
            players.contains(&format!("{ruleset}-one").as_str()),
            "{summary}"
        );
        assert!(
            players.contains(&format!("{ruleset}-two").as_str()),
            "{summary}"
        );
        let id = summary["id"].as_i64().expect("id");
        let (status, stored) = get(&served.http, &format!("/api/matches/{id}"));
        assert_eq!(status, 200);
        assert!(stored["outcome"]["ranks"].is_array(), "{stored}");
        let (status, replay) = get(&served.http, &format!("/api/matches/{id}/replay"));
        assert_eq!(status, 200, "{replay}");
        assert_eq!(
            replay["steps"].as_array().map(Vec::len),
            summary["moves"].as_u64().map(|m| m as usize + 1)
        );
        assert_eq!(replay["outcome"], stored["outcome"]);
        let (status, board) = get(&served.http, &format!("/api/leaderboard/{ruleset}"));
        assert_eq!(status, 200);
        assert_eq!(
            board["entries"].as_array().map(Vec::len),
            Some(2),
            "{board}"
        );
    }
    served.child.kill().expect("stop the server");
    let _ = served.child.wait();
}

/// Settings from the environment and a TOML file, flags over both.
#[test]
fn serve_reads_the_environment_and_a_toml_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("arbiter.toml");
    std::fs::write(
        &file,
        "http = \"127.0.0.1:0\"\ntcp = \"127.0.0.1:0\"\nspacegoo = \"off\"\nqgame = \"off\"\ndata = \"/nonexistent/ignored\"\n\
         [deadlines]\ntae = \"250ms\"\nqgame = \"9s\"\n",
    )
    .expect("write the file");
    let data = dir.path().join("from-env");
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command
        .args(["serve", "--config"])
        .arg(&file)
        .args(["--deadline", "qgame=2s"])
        .env("ARBITER_DATA", &data);
    let mut served = serve_with(command);
    assert!(
        served
            .banner
            .iter()
            .any(|l| l == &format!("data     {}", data.display())),
        "{:?}",
        served.banner
    );
    assert!(
        !served.banner.iter().any(|l| l.starts_with("spacegoo")),
        "the file turned the spacegoo port off: {:?}",
        served.banner
    );
    assert!(
        data.join("arbiter.db").exists(),
        "the SQLite file is created on first run"
    );
    let (status, rulesets) = get(&served.http, "/api/rulesets");
    assert_eq!(status, 200);
    let deadline = |id: &str| {
        rulesets
            .as_array()
            .and_then(|list| list.iter().find(|r| r["id"] == id))
            .map(|r| r["deadline_ms"].clone())
    };
    assert_eq!(deadline("tae"), Some(Value::from(250)));
    assert_eq!(deadline("qgame"), Some(Value::from(2000)));
    served.child.kill().expect("stop");
    let _ = served.child.wait();

    // A bad setting is one line on stderr and exit code 2.
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--deadline", "chess=1s"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("chess"), "{}", text(&out.stderr));
}

/// `kill -9` (a crash) in the middle of a match: the server started again on the same
/// data goes on with the match from its stored log, both `arbiter bot`s come back by
/// themselves and finish it, and its record shows the gap. No account and no finished
/// match is lost or changed.
#[test]
fn a_match_outlives_its_server_killed() {
    a_match_outlives_its_server("KILL");
}

/// The same with `kill -TERM` (a normal stop, as for an upgrade): the bots are told
/// `server_restarting` and come back once the server is up again.
#[test]
fn a_match_outlives_its_server_stopped() {
    a_match_outlives_its_server("TERM");
}

fn a_match_outlives_its_server(how: &str) {
    let data = tempfile::tempdir().expect("temp dir");
    let (tcp, http) = (free_address(), free_address());
    let mut served = serve_at(
        data.path(),
        &tcp,
        &http,
        &["--deadline", "*=30s", "--resume-grace", "5s"],
    );

    // One finished game.
    let a = bot(&served.tcp, "spacegoo", "random", "kill-a", 1);
    let b = bot(&served.tcp, "spacegoo", "random", "kill-b", 1);
    assert!(finish(a).status.success());
    assert!(finish(b).status.success());
    let finished = wait_for(&served.http, "/api/matches?status=finished", 20, |l| {
        l["matches"].as_array().is_some_and(|m| m.len() == 1)
    });
    let finished_id = finished["matches"][0]["id"].as_i64().expect("id");
    let (_, finished_before) = get(&served.http, &format!("/api/matches/{finished_id}"));

    // A match under way between two bots that come back after losing their server.
    let c = bot_coming_back(&served.tcp, "tae", "greedy", "kill-c", 1, "60s");
    let d = bot_coming_back(&served.tcp, "tae", "random", "kill-d", 1, "60s");
    let running = wait_for(&served.http, "/api/matches?status=running", 30, |l| {
        l["matches"][0]["moves"].as_u64().is_some_and(|m| m >= 5)
    });
    let running_id = running["matches"][0]["id"].as_i64().expect("id");

    let stopping = Instant::now();
    signal(&served.child, how);
    let _ = served.child.wait();
    println!(
        "kill -{how}: the server was gone after {:?}",
        stopping.elapsed()
    );

    let again = serve_at(data.path(), &tcp, &http, &[]);
    assert!(
        again
            .banner
            .iter()
            .any(|l| l.starts_with("resumed  1 match")),
        "{:?}",
        again.banner
    );
    // The bots come back by themselves and finish the game.
    for (name, child) in [("kill-c", c), ("kill-d", d)] {
        let out = finish(child);
        let printed = text(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {printed}{}",
            text(&out.stderr)
        );
        assert!(
            printed.contains(&format!("match {running_id} seat")),
            "{name} played the match to its end: {printed}"
        );
    }
    let (_, ended) = get(&again.http, &format!("/api/matches/{running_id}"));
    assert_eq!(ended["status"], "finished", "{ended}");
    let (status, record) = get(&again.http, &format!("/api/matches/{running_id}/record"));
    assert_eq!(status, 200, "{record}");
    let resumptions = record["resumptions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(resumptions.len(), 1, "the record shows the gap: {record}");
    assert!(resumptions[0]["step"]
        .as_u64()
        .is_some_and(|step| step >= 5));
    assert!(resumptions[0]["down_ms"].is_u64());
    assert!(
        record["stand_ins"].as_array().is_none_or(Vec::is_empty),
        "nobody was stood in for: {record}"
    );
    let ejected = record["log"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["kind"] == "eject")
        .count();
    assert_eq!(ejected, 0, "nobody lost a seat to the restart: {record}");
    let (status, replay) = get(&again.http, &format!("/api/matches/{running_id}/replay"));
    assert_eq!(status, 200, "{replay}");

    // Accounts: all four exist; the finished match is unchanged.
    for name in ["kill-a", "kill-b", "kill-c", "kill-d"] {
        let (status, profile) = get(&again.http, &format!("/api/players/{name}"));
        assert_eq!(status, 200, "{name}: {profile}");
    }
    let (_, finished_after) = get(&again.http, &format!("/api/matches/{finished_id}"));
    assert_eq!(
        finished_after, finished_before,
        "the finished match is unchanged"
    );
}

/// What the light players of the crash test saw: the accounts the server confirmed and
/// every outcome it told them, by match id.
#[derive(Default)]
struct Told {
    registered: Vec<String>,
    outcomes: Vec<(i64, Value)>,
}

/// Matches each light player of the crash test plays at once: a server takes at most
/// 128 connections from one address, so 100 players hold 100 matches between them.
const AT_ONCE: usize = 2;

/// How a light player of the crash test answers its prompts.
#[derive(Clone, Copy)]
enum Answer {
    /// Always this action (spacegoo's `nop`: a match goes on to its last round).
    Always(&'static str),
    /// An action its `legal` request lists, picked by the step (spread like random
    /// play, so a T&E game goes on until its bag runs out).
    Legal,
}

/// The crash test's rulesets and how their light players answer: spacegoo's matches
/// are the long-running hundred; T&E's are shorter, and Q-Game's end as soon as both
/// have passed, so around them matches start and finish all the time.
const LIGHT_PLAY: [(&str, Answer); 3] = [
    ("spacegoo", Answer::Always("nop")),
    ("tae", Answer::Legal),
    ("qgame", Answer::Always("pass")),
];

/// A light player: registers `name`, keeps [`AT_ONCE`] matches of `ruleset` going
/// (queueing again when one starts or ends), answers every prompt at once as `answer`
/// says, and notes what it was told, until the server goes away.
fn light_player(
    tcp: &str,
    name: &str,
    (ruleset, answer): (&str, Answer),
    told: &std::sync::Mutex<Told>,
) {
    let queue = format!("{{\"type\":\"queue\",\"ruleset\":\"{ruleset}\"}}\n");
    let Ok(mut stream) = TcpStream::connect(tcp) else {
        return;
    };
    let Ok(read) = stream.try_clone() else {
        return;
    };
    let register = format!(
        "{{\"type\":\"register\",\"name\":\"{name}\",\"password\":\"pw-{name}\"}}\n{queue}"
    );
    if stream.write_all(register.as_bytes()).is_err() {
        return;
    }
    let (mut playing, mut queued) = (0usize, true);
    for line in BufReader::new(read).lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let mut reply = String::new();
        match message["type"].as_str() {
            Some("registered") => told.lock().expect("lock").registered.push(name.to_string()),
            Some("match_started") => {
                (playing, queued) = (playing + 1, false);
            }
            Some("prompt") => {
                let id = &message["match"];
                reply = match answer {
                    Answer::Always(action) => {
                        format!("{{\"type\":\"act\",\"match\":{id},\"action\":\"{action}\"}}\n")
                    }
                    Answer::Legal => format!("{{\"type\":\"legal\",\"match\":{id}}}\n"),
                }
            }
            Some("legal") => {
                let step = message["step"].as_u64().unwrap_or(0) as usize;
                let listed = message["actions"].as_array().filter(|a| !a.is_empty());
                if let Some(action) = listed.map(|a| &a[step.wrapping_mul(7919) % a.len()]) {
                    let act = json!({"type": "act", "match": message["match"], "action": action});
                    reply = format!("{act}\n");
                }
            }
            Some("outcome") => {
                playing = playing.saturating_sub(1);
                let id = message["match"].as_i64().unwrap_or(-1);
                told.lock()
                    .expect("lock")
                    .outcomes
                    .push((id, message["outcome"].clone()));
            }
            _ => {}
        }
        if !queued && playing < AT_ONCE {
            reply.push_str(&queue);
            queued = true;
        }
        if !reply.is_empty() && stream.write_all(reply.as_bytes()).is_err() {
            break;
        }
    }
}

/// Accounts registered one after another, each on a connection of its own (a
/// connection stays its account's), noting each one the server confirmed.
fn registration_burst(tcp: &str, prefix: &str, told: &std::sync::Mutex<Told>) {
    for n in 0.. {
        let name = format!("{prefix}{n}");
        let Ok(mut stream) = TcpStream::connect(tcp) else {
            return;
        };
        let Ok(read) = stream.try_clone() else {
            return;
        };
        let register =
            format!("{{\"type\":\"register\",\"name\":\"{name}\",\"password\":\"pw-{name}\"}}\n");
        if stream.write_all(register.as_bytes()).is_err() {
            return;
        }
        let confirmed = BufReader::new(read)
            .lines()
            .map_while(Result::ok)
            .find(|line| {
                line.contains(r#""type":"registered""#) || line.contains(r#""type":"error""#)
            });
        match confirmed {
            Some(line) if line.contains(r#""type":"registered""#) => {
                told.lock().expect("lock").registered.push(name);
            }
            _ => return,
        }
    }
}

/// Issue 15's crash test: 100 players in 100 spacegoo matches at full speed, T&E and
/// Q-Game matches starting and ending around them, and a burst of registrations; the
/// server is killed with SIGKILL at a moment drawn from the clock; after a restart no
/// confirmed account is missing, every outcome a player was told is stored as told, no
/// finished match listed before the kill changed, each player's rated games equal its
/// finished matches, and the interrupted matches go on (none aborted), their logs
/// replayable.
/// Light spacegoo players in the crash test.
const PLAYERS: usize = 100;
/// Light players of each other ruleset (T&E, Q-Game) in the crash test.
const SHORT_GAME_PLAYERS: usize = 10;

#[test]
fn sigkill_under_100_live_matches_loses_nothing_told() {
    crash_under_load(&[]);
}

#[test]
fn sigkill_under_100_live_matches_loses_nothing_told_on_postgres() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let database = runtime.block_on(arbiter_store::testing::ScratchDatabase::create());
    crash_under_load(&["--database", &database.url]);
    drop(database);
}

/// The crash test on the store `store_args` choose (none: SQLite in the data folder).
fn crash_under_load(store_args: &[&str]) {
    use std::sync::{Arc, Mutex};
    let data = tempfile::tempdir().expect("temp dir");
    let mut served = serve(
        data.path(),
        &[
            &["--deadline", "*=30s", "--connections-per-address", "256"],
            store_args,
        ]
        .concat(),
    );
    let told = Arc::new(Mutex::new(Told::default()));
    let mut names = Vec::new();
    let mut players = Vec::new();
    for (i, play) in LIGHT_PLAY.into_iter().enumerate() {
        let count = if i == 0 { PLAYERS } else { SHORT_GAME_PLAYERS };
        for n in 0..count {
            let name = format!("crash-{}{n}", play.0);
            let (tcp, told) = (served.tcp.clone(), told.clone());
            names.push(name.clone());
            players.push(std::thread::spawn(move || {
                light_player(&tcp, &name, play, &told)
            }));
        }
    }
    let (tcp, burst_told) = (served.tcp.clone(), told.clone());
    let burst = std::thread::spawn(move || registration_burst(&tcp, "burst", &burst_told));

    // A hundred matches under way and some finished, then a moment in the next second.
    let start = Instant::now();
    loop {
        let (_, running) = get(&served.http, "/api/matches?status=running&limit=100000");
        let running = running["matches"].as_array().map_or(0, Vec::len);
        // Some matches of every ruleset have finished, the long spacegoo ones too.
        let each_finished = LIGHT_PLAY.iter().all(|(ruleset, _)| {
            let path = format!("/api/matches?status=finished&ruleset={ruleset}&limit=1");
            let (_, finished) = get(&served.http, &path);
            finished["matches"]
                .as_array()
                .is_some_and(|m| !m.is_empty())
        });
        if running >= 100 && each_finished && told.lock().expect("lock").outcomes.len() >= 20 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "100 matches run"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let jitter_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() % 1000);
    // The newest finished matches of each ruleset (a list holds at most 200).
    let before: Vec<Value> = LIGHT_PLAY
        .iter()
        .flat_map(|(ruleset, _)| {
            let path = format!("/api/matches?status=finished&ruleset={ruleset}&limit=200");
            let (_, listed) = get(&served.http, &path);
            listed["matches"].as_array().cloned().unwrap_or_default()
        })
        .collect();
    std::thread::sleep(Duration::from_millis(u64::from(jitter_ms)));
    served.child.kill().expect("SIGKILL");
    let _ = served.child.wait();
    for player in players {
        let _ = player.join();
    }
    let _ = burst.join();
    let told = told.lock().expect("lock");

    let mut again = serve(data.path(), store_args);
    // At once: the resumed matches' players are gone, and after their deadlines and
    // the resume grace house bots would play them out while the checks below run.
    let (_, running) = get(&again.http, "/api/matches?status=running&limit=100000");
    let running = running["matches"].as_array().cloned().unwrap_or_default();
    assert!(!running.is_empty(), "the kill interrupted matches");
    for name in &told.registered {
        let (status, profile) = get(&again.http, &format!("/api/players/{name}"));
        assert_eq!(status, 200, "{name} was confirmed, then lost: {profile}");
    }
    for (id, outcome) in &told.outcomes {
        let (status, stored) = get(&again.http, &format!("/api/matches/{id}"));
        assert_eq!(status, 200, "match {id}: {stored}");
        assert_eq!(
            stored["status"], "finished",
            "match {id} was told finished: {stored}"
        );
        assert_eq!(stored["outcome"]["ranks"], outcome["ranks"], "match {id}");
    }
    for (ruleset, _) in LIGHT_PLAY {
        assert!(
            before.iter().any(|m| m["ruleset"] == ruleset),
            "no {ruleset} match finished before the kill"
        );
    }
    for listed in &before {
        let (status, stored) = get(&again.http, &format!("/api/matches/{}", listed["id"]));
        assert_eq!(status, 200, "{listed}");
        let fields = listed.as_object().into_iter().flatten();
        for (key, value) in fields {
            assert_eq!(
                &stored[key], value,
                "a match finished before the kill changed its {key}: {listed}"
            );
        }
    }
    for name in &names {
        let (_, profile) = get(&again.http, &format!("/api/players/{name}"));
        let finished = profile["counts"]["finished"].as_u64().unwrap_or(0);
        let rated: u64 = profile["ratings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["games"].as_u64())
            .sum();
        assert_eq!(
            rated, finished,
            "{name}: rated games against finished matches"
        );
    }
    // The interrupted matches were not ended: they go on from their logs (their players
    // are gone, so they wait for them), each replayable so far.
    let (_, aborted) = get(&again.http, "/api/matches?status=aborted&limit=100000");
    assert_eq!(
        aborted["matches"].as_array().map(Vec::len),
        Some(0),
        "no match is aborted by a crash: {aborted}"
    );
    // Every match left running went on: the banner counts them, none failed. A match
    // whose last move was stored but not its outcome (killed in between) is over as
    // soon as it goes on, so it may be finished already when the list is read.
    let resumed: usize = again
        .banner
        .iter()
        .find_map(|l| l.strip_prefix("resumed  "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("a resumed line: {:?}", again.banner));
    assert!(
        resumed >= running.len() && !again.banner.iter().any(|l| l.contains("could not go on")),
        "every running match went on ({} running): {:?}",
        running.len(),
        again.banner
    );
    for listed in &running {
        let id = listed["id"].as_i64().expect("id");
        let (status, replay) = get(&again.http, &format!("/api/matches/{id}/replay"));
        assert_eq!(status, 200, "resumed match {id}'s log replays: {replay}");
    }
    let running_of = |ruleset: &str| running.iter().filter(|m| m["ruleset"] == ruleset).count();
    println!(
        "killed {jitter_ms} ms after 100 matches ran: {} outcomes told, {} accounts \
         confirmed, {} matches resumed (spacegoo {}, tae {}, qgame {})",
        told.outcomes.len(),
        told.registered.len(),
        running.len(),
        running_of("spacegoo"),
        running_of("tae"),
        running_of("qgame"),
    );
    again.child.kill().expect("stop");
    let _ = again.child.wait();
}

/// Two servers on one PostgreSQL database (issue 16): accounts and matches are shared,
/// and when one server is SIGKILLed the other, once the dead one's heartbeat is older
/// than the lease, takes its running match over from the stored log; the players log in
/// on the survivor, resume their seats and finish it, and the one record replays. The
/// finished match is left as it was, and new games start for the same accounts.
#[test]
fn a_surviving_server_takes_over_the_running_matches_of_a_dead_one() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let database = runtime.block_on(arbiter_store::testing::ScratchDatabase::create());
    let (dir_a, dir_b) = (
        tempfile::tempdir().expect("temp dir"),
        tempfile::tempdir().expect("temp dir"),
    );
    let shared = |node: &'static str| {
        vec![
            "--database".to_string(),
            database.url.clone(),
            "--node".to_string(),
            node.to_string(),
            "--node-lease".to_string(),
            "2s".to_string(),
            "--deadline".to_string(),
            "*=30s".to_string(),
        ]
    };
    let args_a = shared("a");
    let args_b = shared("b");
    let mut a = serve(
        dir_a.path(),
        &args_a.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let mut b = serve(
        dir_b.path(),
        &args_b.iter().map(String::as_str).collect::<Vec<_>>(),
    );

    // On server a: one finished game, and one under way.
    let p = bot(&a.tcp, "spacegoo", "random", "node-p", 1);
    let q = bot(&a.tcp, "spacegoo", "random", "node-q", 1);
    assert!(finish(p).status.success());
    assert!(finish(q).status.success());
    let finished = wait_for(&b.http, "/api/matches?status=finished", 20, |l| {
        l["matches"].as_array().is_some_and(|m| m.len() == 1)
    });
    let finished_id = finished["matches"][0]["id"].as_i64().expect("id");
    assert_eq!(finished["matches"][0]["node"], "a", "{finished}");
    let (_, finished_before) = get(&b.http, &format!("/api/matches/{finished_id}"));
    let r = bot(&a.tcp, "tae", "greedy", "node-r", 1);
    let tcp = a.tcp.clone();
    let slow = std::thread::spawn(move || slow_player(&tcp, "node-s", 5));
    // Server b sees a's match running (the store is shared).
    let running = wait_for(&b.http, "/api/matches?status=running", 30, |l| {
        l["matches"][0]["moves"].as_u64().is_some_and(|m| m >= 5)
    });
    let running_id = running["matches"][0]["id"].as_i64().expect("id");
    assert_eq!(running["matches"][0]["node"], "a", "{running}");

    // SIGKILL a: its heartbeat stops, and nothing of its shutdown runs.
    a.child.kill().expect("SIGKILL");
    let _ = a.child.wait();
    let _ = finish(r);
    let _ = slow.join();

    // Within the lease and a sweep, b takes it over from its log: still running, now b's.
    let taken = wait_for(&b.http, &format!("/api/matches/{running_id}"), 30, |m| {
        m["node"] == "b"
    });
    assert_eq!(taken["status"], "running", "{taken}");
    let moves_before = taken["moves"].as_u64().expect("moves");
    assert!(moves_before >= 5, "{taken}");

    // Its players come back on b: logging in resumes their seats, and they play it out.
    let r = bot(&b.tcp, "tae", "greedy", "node-r", 1);
    let s = bot(&b.tcp, "tae", "random", "node-s", 1);
    let (r, s) = (finish(r), finish(s));
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(s.status.success(), "{}", text(&s.stderr));
    let ended = wait_for(&b.http, &format!("/api/matches/{running_id}"), 30, |m| {
        m["status"] != "running"
    });
    assert_eq!(ended["status"], "finished", "{ended}");
    let moves = ended["moves"].as_u64().expect("moves");
    assert!(moves > moves_before, "{ended}");
    // One record across both servers: it replays, every digest checked, to its outcome.
    let (status, replay) = get(&b.http, &format!("/api/matches/{running_id}/replay"));
    assert_eq!(status, 200, "{replay}");
    assert_eq!(
        replay["steps"].as_array().map(Vec::len),
        Some(moves as usize + 1)
    );
    assert!(replay["outcome"].is_object(), "{replay}");
    let (_, finished_after) = get(&b.http, &format!("/api/matches/{finished_id}"));
    assert_eq!(
        finished_after, finished_before,
        "the finished match is unchanged"
    );

    // The accounts made on a play on b.
    let p = bot(&b.tcp, "spacegoo", "random", "node-p", 1);
    let q = bot(&b.tcp, "spacegoo", "random", "node-q", 1);
    let (p, q) = (finish(p), finish(q));
    assert!(p.status.success(), "{}", text(&p.stderr));
    assert!(q.status.success(), "{}", text(&q.stderr));
    b.child.kill().expect("stop");
    let _ = b.child.wait();
    drop(database);
}

/// A tournament's bot: `arbiter bot --tournament`, a searching player that thinks
/// `think_ms` a move (so that a game lasts long enough to be killed in).
fn tournament_bot(server: &str, name: &str, tournament: i64, think_ms: u64) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "bot",
            "--server",
            server,
            "--ruleset",
            "nim",
            "--player",
            "mcts",
        ])
        .args(["--name", name, "--password", &format!("pw-{name}")])
        .args(["--tournament", &tournament.to_string()])
        .args(["--think-ms", &think_ms.to_string()])
        // Through a restart of its server, as a host's bots must.
        .args(["--reconnect-for", "60s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter bot starts")
}

/// Register `name` over a raw connection and create a tournament with `settings`.
fn create_tournament(tcp: &str, name: &str, settings: Value) -> i64 {
    let mut stream = TcpStream::connect(tcp).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let reader = BufReader::new(stream.try_clone().expect("clone"));
    let register = json!({"type": "register", "name": name, "password": format!("pw-{name}")});
    let mut create = settings;
    create["type"] = json!("create_tournament");
    writeln!(stream, "{register}\n{create}").expect("send");
    for line in reader.lines() {
        let message: Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        match message["type"].as_str() {
            Some("tournament_created") => return message["tournament"].as_i64().expect("id"),
            Some("error") => panic!("refused: {message}"),
            _ => {}
        }
    }
    panic!("the server closed the connection");
}

/// A tournament's games as (game id → match id, ranks), from its document.
fn decided_games(document: &Value) -> Vec<(i64, i64, Value)> {
    document["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["status"] == "finished")
        .map(|g| {
            (
                g["game"].as_i64().expect("game"),
                g["match"].as_i64().expect("match"),
                g["ranks"].clone(),
            )
        })
        .collect()
}

/// A Swiss tournament killed (SIGKILL) in its second round goes on when the server
/// starts again: every game decided before the kill keeps its match and result, the
/// games the kill interrupted are played again by new matches, nobody meets anyone
/// twice, and the tournament ends with every game stored.
#[test]
fn sigkill_mid_tournament_resumes_without_losing_or_repeating_a_game() {
    let data = tempfile::tempdir().expect("temp dir");
    let (tcp, http) = (free_address(), free_address());
    let mut served = serve_at(data.path(), &tcp, &http, &["--deadline", "*=30s"]);
    let id = create_tournament(
        &served.tcp,
        "t-host",
        json!({"ruleset": "nim", "format": "swiss", "rounds": 3, "start_when": 4,
               "max_entrants": 4, "rated": true, "entry": "bots"}),
    );
    // Bots only: `arbiter bot` registers its accounts as bots', so they may enter.
    let names = ["t-ann", "t-bob", "t-cid", "t-dan"];
    let bots: Vec<Child> = names
        .iter()
        .map(|name| tournament_bot(&served.tcp, name, id, 250))
        .collect();
    let path = format!("/api/tournaments/{id}");
    let before = wait_for(&served.http, &path, 120, |t| {
        t["round"] == 2
            && t["games"]
                .as_array()
                .is_some_and(|g| g.iter().any(|g| g["status"] == "playing"))
    });
    served.child.kill().expect("SIGKILL");
    let _ = served.child.wait();
    let decided_before = decided_games(&before);
    assert!(decided_before.len() >= 2, "round 1 was decided: {before}");
    let interrupted: Vec<i64> = before["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["status"] == "playing")
        .filter_map(|g| g["match"].as_i64())
        .collect();

    // The same bots come back by themselves and play the tournament to its end.
    let mut again = serve_at(data.path(), &tcp, &http, &[]);
    for bot in bots {
        let output = finish(bot);
        assert!(output.status.success(), "{}", text(&output.stderr));
    }
    let after = wait_for(&again.http, &path, 60, |t| t["status"] == "finished");
    assert_eq!(after["round"], 3, "{after}");
    let decided_after = decided_games(&after);
    assert_eq!(decided_after.len(), 6, "two games a round: {after}");
    for game in &decided_before {
        assert!(
            decided_after.contains(game),
            "game {game:?} changed after the restart"
        );
    }
    // Four entrants, three rounds: everyone meets everyone exactly once.
    let mut pairs: Vec<Vec<String>> = after["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let mut pair: Vec<String> = g["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| p.as_str().unwrap_or("").to_string())
                .collect();
            pair.sort();
            pair
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "a pair met twice: {after}");
    // The interrupted matches went on from their logs and decided their games.
    for match_id in interrupted {
        let (_, summary) = get(&again.http, &format!("/api/matches/{match_id}"));
        assert_eq!(summary["status"], "finished", "{summary}");
        assert!(
            decided_after
                .iter()
                .any(|(_, played_by, _)| *played_by == match_id),
            "the game of match {match_id} was decided by it"
        );
    }
    for (_, match_id, _) in &decided_after {
        let (status, replay) = get(&again.http, &format!("/api/matches/{match_id}/replay"));
        assert_eq!(status, 200, "{replay}");
    }
    again.child.kill().expect("stop");
    let _ = again.child.wait();
}

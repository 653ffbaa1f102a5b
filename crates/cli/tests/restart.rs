//! A game outlives its server, in every ruleset, on SQLite and on PostgreSQL: two
//! scripted players play a queue match through `arbiter serve`; at a random step one
//! of them holds its decision and the server is killed (`kill -9`) or stopped
//! (`kill -TERM`); it starts again on the same data; the players come back by
//! themselves and play the match to its outcome.
//!
//! The players' answers depend only on the legal actions they are shown and the step,
//! so the same game played without interruption gets the same answers (Space Crack is
//! played in turns, its concurrent mode's order of arrival being up to timing). The test plays that game
//! itself, on the engine, from the record's seed and the served log's seat order, and
//! asks that every entry is the one it gets (the same seat, the same action, the same
//! digest), that nobody was ejected or stood in for, and that the record shows the gap.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use arbiter_engine::record::DigestChain;
use arbiter_engine::{LogEntry, MatchRecord, Turn};
use serde_json::{json, Value};

mod common;
use common::*;

/// How a player chooses: a legal action picked by a hash of the whole list, so the
/// same position gets the same answer before and after a restart (and in the test's
/// own uninterrupted game). Unless the turn is sealed, the hash also takes the step
/// (then the index of the entry the answer makes), so a game whose positions come round
/// again (leaders moved back and forth in T&E) does not go round forever; in a sealed
/// round the step an answer lands at depends on the other seat's timing. `pass` and
/// `nop` only when nothing else is legal, so games last long enough to be interrupted.
fn choose(legal: &[Value], salt: usize) -> Option<Value> {
    let busy: Vec<&Value> = legal
        .iter()
        .filter(|action| **action != json!("pass") && **action != json!("nop"))
        .collect();
    let pool: Vec<&Value> = if busy.is_empty() {
        legal.iter().collect()
    } else {
        busy
    };
    let text = format!("{salt} {}", serde_json::to_string(&pool).ok()?);
    // FNV-1a: the same in every process.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    let count = u64::try_from(pool.len()).ok().filter(|&n| n > 0)?;
    pool.get((hash % count) as usize)
        .map(|action| (*action).clone())
}

/// Where the players hold a decision for the server to be taken away: the first of
/// them prompted at step `at` or later.
struct Hold {
    at: usize,
    taken: Arc<AtomicBool>,
    held: mpsc::Sender<()>,
}

/// What a scripted player saw of its match.
struct Played {
    match_id: i64,
    outcome: Value,
    comebacks: u32,
}

/// A scripted player: registers, asks for the legal actions in every prompt, queues for
/// `ruleset`, and answers every prompt with [`choose`], naming the prompt's step. With
/// `hold_at`, it stops answering at its first prompt of that step or later, unless the
/// other player did already, and says so (the server is then taken away). When the server goes away, it connects
/// again (for up to a minute), logs in, and plays on.
fn scripted_player(
    tcp: String,
    name: String,
    ruleset: String,
    hold_at: Option<Hold>,
) -> Result<Played, String> {
    let password = format!("pw-{name}");
    let mut hold_at = hold_at;
    let mut match_id = None;
    let mut comebacks = 0;
    let mut first = true;
    loop {
        let stream = connect_within(&tcp, Duration::from_secs(60))?;
        let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
        let mut send = |message: Value| -> bool { writeln!(writer, "{message}").is_ok() };
        let hello = if first {
            json!({"type": "register", "name": name, "password": password, "bot": true})
        } else {
            comebacks += 1;
            json!({"type": "login", "name": name, "password": password, "bot": true})
        };
        // Before logging in: a resumed seat's prompt comes with the login.
        send(json!({"type": "options", "legal_in_prompt": true}));
        send(hello);
        if first {
            let mut queue = json!({"type": "queue", "ruleset": ruleset});
            // Space Crack's concurrent turns apply answers in the order they arrive, so
            // the same answers could make another game; in turns, they make one game.
            if ruleset == "spacecrack" {
                queue["config"] = json!({"turn_mode": "sequential"});
            }
            send(queue);
            first = false;
        }
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            match message["type"].as_str().unwrap_or("") {
                "match_started" => match_id = message["match"].as_i64(),
                "prompt" => {
                    let step = message["step"].as_u64().unwrap_or(0) as usize;
                    let turn = &message["turn"];
                    if let Some(hold) = hold_at.take_if(|hold| step >= hold.at) {
                        // Only the first player there holds, once.
                        if !hold.taken.swap(true, Ordering::SeqCst) {
                            let _ = hold.held.send(());
                            continue;
                        }
                    }
                    let legal = message["legal"].as_array().cloned().unwrap_or_default();
                    let salt = if turn["model"] == "sealed" { 0 } else { step };
                    if let Some(action) = choose(&legal, salt) {
                        let act = json!({"type": "act", "match": message["match"],
                                         "step": step, "action": action});
                        if !send(act) {
                            break;
                        }
                    }
                }
                "rejected" => return Err(format!("{name}: an answer was refused: {message}")),
                "outcome" => {
                    return Ok(Played {
                        match_id: match_id.ok_or("an outcome before the match started")?,
                        outcome: message["outcome"].clone(),
                        comebacks,
                    })
                }
                "aborted" => return Err(format!("{name}: the match was aborted: {message}")),
                "error" if message["code"] != "already_queued" => {
                    return Err(format!("{name}: {message}"))
                }
                // The stop's notice: the connection closes next, and the player comes back.
                "server_restarting" => {}
                other => {
                    if std::env::var("ARBITER_TEST_TRACE").is_ok() {
                        eprintln!("{name} {other}: {}", &line[..line.len().min(200)]);
                    }
                }
            }
        }
    }
}

/// A connection to `address`, trying again while the server is down.
fn connect_within(address: &str, patience: Duration) -> Result<TcpStream, String> {
    let start = Instant::now();
    loop {
        match TcpStream::connect(address) {
            Ok(stream) => return Ok(stream),
            Err(error) if start.elapsed() > patience => {
                return Err(format!("{address} is not back: {error}"))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// Play `record`'s game again without interruption: each entry's seat answers the
/// legal actions of the state before it with [`choose`]. Every entry must be the one
/// the uninterrupted game makes, digest included.
fn same_as_uninterrupted(record: &MatchRecord) {
    let ruleset = arbiter_rulesets::all()
        .into_iter()
        .find(|r| r.id() == record.ruleset)
        .expect("the record's ruleset");
    let game = ruleset.game.clone();
    let mut state = game
        .new_state(&record.config, record.seats.len(), record.seed)
        .expect("the record's first state");
    assert_eq!(state.digest(), record.initial_digest);
    let mut chain = DigestChain::new(&record.initial_digest);
    for (index, entry) in record.log.iter().enumerate() {
        let LogEntry::Act {
            seat,
            action,
            digest,
        } = entry
        else {
            panic!(
                "{}: entry {index} ejected a seat: {entry:?}",
                record.ruleset
            );
        };
        let salt = match state.to_act() {
            Turn::Sealed(_) => 0,
            _ => index,
        };
        let expected = choose(&state.legal(*seat), salt).expect("a legal action");
        assert_eq!(
            action, &expected,
            "{}: entry {index}: seat {seat} answered differently than without the restart",
            record.ruleset
        );
        let events = state.apply(*seat, action).expect("the action is legal");
        let over = state.to_act().is_over();
        let made = chain.digest_next(entry, events.fingerprint(), over, || state.digest());
        assert_eq!(&made, digest, "{}: entry {index}'s digest", record.ruleset);
    }
    assert!(
        state.to_act().is_over(),
        "{}: the game is over",
        record.ruleset
    );
    assert_eq!(
        state.outcome(),
        record.outcome,
        "{}: the outcome",
        record.ruleset
    );
}

/// One interrupted match of `ruleset`, its server taken away by `kill -{how}` at
/// `hold_at`; `false` when the game was over before that step (some games of Q-Game
/// are, whatever the step).
fn interrupted(ruleset: &str, how: &str, hold_at: usize, store: &[&str]) -> bool {
    let data = tempfile::tempdir().expect("temp dir");
    let (tcp, http) = (free_address(), free_address());
    let flags = [&["--deadline", "*=60s", "--resume-grace", "20s"][..], store].concat();
    let mut served = serve_at(data.path(), &tcp, &http, &flags);
    let (held, hold) = mpsc::channel();
    let taken = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = ["ann", "bob"]
        .into_iter()
        .map(|who| {
            let name = format!("{who}-{ruleset}-{how}-{hold_at}").to_lowercase();
            // Whichever player is first prompted at the step holds its decision.
            let hold_at = Some(Hold {
                at: hold_at,
                taken: taken.clone(),
                held: held.clone(),
            });
            let (tcp, ruleset) = (tcp.clone(), ruleset.to_string());
            std::thread::spawn(move || scripted_player(tcp, name, ruleset, hold_at))
        })
        .collect();
    let began = Instant::now();
    drop(held);
    loop {
        match hold.recv_timeout(Duration::from_millis(200)) {
            Ok(()) => break,
            // Both players are done: the game ended before the step.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                for player in players {
                    let _ = player.join();
                }
                return false;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => assert!(
                began.elapsed() < Duration::from_secs(300),
                "{ruleset}: the match reached step {hold_at}"
            ),
        }
    }
    let reached = began.elapsed();
    signal(&served.child, how);
    let _ = served.child.wait();
    let gone = began.elapsed();
    let again = serve_at(data.path(), &tcp, &http, store);
    let back = began.elapsed();
    assert!(
        again
            .banner
            .iter()
            .any(|l| l == "resumed  1 match(es) left running by the previous run"),
        "{ruleset}: {:?}",
        again.banner
    );
    let played: Vec<Played> = players
        .into_iter()
        .map(|player| {
            player
                .join()
                .expect("the player's thread")
                .unwrap_or_else(|why| panic!("{ruleset} ({how}): {why}"))
        })
        .collect();
    println!(
        "  held at {reached:?}, server gone at {gone:?}, back at {back:?}, game over at {:?}",
        began.elapsed()
    );
    let match_id = played[0].match_id;
    assert_eq!(played[1].match_id, match_id);
    assert_eq!(played[0].outcome, played[1].outcome);
    assert!(
        played.iter().all(|p| p.comebacks >= 1),
        "{ruleset}: both came back"
    );
    let (status, record) = get(&again.http, &format!("/api/matches/{match_id}/record"));
    assert_eq!(status, 200, "{record}");
    let record: MatchRecord = serde_json::from_value(record).expect("a record");
    arbiter_rulesets::registry()
        .replay(&record, true)
        .unwrap_or_else(|e| panic!("{ruleset}: the record verifies: {e}"));
    assert_eq!(
        record.resumptions.len(),
        1,
        "{ruleset}: {:?}",
        record.resumptions
    );
    assert!(
        record.resumptions[0].step >= hold_at,
        "{ruleset}: {:?}",
        record.resumptions
    );
    assert!(
        record.stand_ins.is_empty(),
        "{ruleset}: {:?}",
        record.stand_ins
    );
    assert_eq!(
        serde_json::to_value(&record.outcome).expect("json"),
        played[0].outcome,
        "{ruleset}: the outcome told is the one stored"
    );
    same_as_uninterrupted(&record);
    true
}

/// Every ruleset, both ways of losing the server, at a step drawn for each run (printed,
/// so a failure can be run again at the same step with `ARBITER_TEST_STEP`, and one
/// ruleset alone with `ARBITER_TEST_RULESET`).
fn every_ruleset(store: &[&str]) {
    let fixed: Option<usize> = std::env::var("ARBITER_TEST_STEP")
        .ok()
        .and_then(|s| s.parse().ok());
    let drawn = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as usize);
    let only = std::env::var("ARBITER_TEST_RULESET").ok();
    for (n, ruleset) in arbiter_rulesets::all().iter().enumerate() {
        if only.as_deref().is_some_and(|only| only != ruleset.id()) {
            continue;
        }
        for (k, how) in ["KILL", "TERM"].into_iter().enumerate() {
            // Early enough that every ruleset's game is still going on (a Nim game
            // may be over after two moves).
            let latest = if ruleset.id() == "nim" { 1 } else { 4 };
            let step = fixed.unwrap_or(1 + (drawn / (1 + n * 2 + k)) % latest);
            println!("{} with kill -{how} at step {step}", ruleset.id());
            if !interrupted(ruleset.id(), how, step, store) {
                println!("  the game was over before step {step}; again at step 1");
                assert!(
                    interrupted(ruleset.id(), how, 1, store),
                    "a game of one move"
                );
            }
        }
    }
}

#[test]
fn every_ruleset_goes_on_after_kill_and_stop_on_sqlite() {
    every_ruleset(&[]);
}

#[test]
fn every_ruleset_goes_on_after_kill_and_stop_on_postgres() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let database = runtime.block_on(arbiter_store::testing::ScratchDatabase::create());
    every_ruleset(&["--database", &database.url]);
    drop(database);
}

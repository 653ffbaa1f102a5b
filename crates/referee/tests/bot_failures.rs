//! Bots that misbehave never stall or crash a match: a panic counts as a missed
//! decision (and the bot is rebuilt), a refused answer costs what the ruleset's policy
//! says, and a bot that thinks past its deadline is timed out while the runtime goes on.

use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use crate::common::{finish, start};
use arbiter_engine::{DynState, LogEntry, Seat, TimeoutPolicy};
use arbiter_referee::{Program, SeatKind, SeatSetup};
use arbiter_rulesets::HouseBot;
use serde_json::{json, Value};

struct Panics;

impl HouseBot for Panics {
    fn decide(&mut self, _state: &dyn DynState, _seat: Seat) -> Result<Value, String> {
        panic!("boom");
    }
}

struct AnswersNonsense;

impl HouseBot for AnswersNonsense {
    fn decide(&mut self, _state: &dyn DynState, _seat: Seat) -> Result<Value, String> {
        Ok(json!({"nonsense": true}))
    }
}

/// Blocks its thread until the test releases it, then answers the first legal action.
struct Stuck(Arc<Mutex<mpsc::Receiver<()>>>);

impl HouseBot for Stuck {
    fn decide(&mut self, state: &dyn DynState, seat: Seat) -> Result<Value, String> {
        let release = self.0.lock().map_err(|e| e.to_string())?;
        release.recv().map_err(|e| e.to_string())?;
        state
            .legal(seat)
            .into_iter()
            .next()
            .ok_or_else(|| "no legal action".to_string())
    }
}

fn program(name: &str, make: impl Fn() -> Box<dyn HouseBot> + Send + Sync + 'static) -> SeatSetup {
    SeatSetup {
        name: name.to_string(),
        kind: SeatKind::Program(Program::new(name, make)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_bot_in_qgame_is_ejected_with_the_panic_recorded() {
    let seats = vec![
        program("panics", || Box::new(Panics)),
        SeatSetup::house("dag", "dag", 1),
        SeatSetup::house("ldasg", "ldasg", 2),
    ];
    // A long deadline: the ejection comes from the panic, not from the clock.
    let (handle, mirror) = start("qgame", 51, seats, Duration::from_secs(30));
    let record = finish(&handle, &mirror).await;
    let reason = record
        .log
        .iter()
        .find_map(|entry| match entry {
            LogEntry::Eject {
                seat: 0, reason, ..
            } => Some(reason.clone()),
            _ => None,
        })
        .expect("the panicking seat was ejected");
    assert_eq!(
        reason,
        "missed the per-call time limit (the bot panicked: boom)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_bot_in_tae_forfeits_each_decision_and_the_game_ends() {
    let seats = vec![
        program("panics", || Box::new(Panics)),
        SeatSetup::house("random", "random", 1),
    ];
    let (handle, mirror) = start("tae", 52, seats, Duration::from_secs(30));
    let record = finish(&handle, &mirror).await;
    let game = crate::common::ruleset("tae").game;
    let fresh = game
        .new_state(&game.default_config(), 2, 52)
        .expect("state");
    let TimeoutPolicy::Act(default_action) = fresh.on_timeout(0) else {
        panic!("tae acts for the seat");
    };
    let seat0: Vec<&LogEntry> = record
        .log
        .iter()
        .filter(|e| {
            matches!(
                e,
                LogEntry::Act { seat: 0, .. } | LogEntry::Eject { seat: 0, .. }
            )
        })
        .collect();
    assert!(!seat0.is_empty());
    for entry in seat0 {
        assert!(
            matches!(entry, LogEntry::Act { action, .. } if *action == default_action),
            "{entry:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_answering_nonsense_is_ejected_in_qgame_and_forfeits_in_spacecrack() {
    let seats = vec![
        program("nonsense", || Box::new(AnswersNonsense)),
        SeatSetup::house("dag", "dag", 1),
    ];
    let (handle, mirror) = start("qgame", 53, seats, Duration::from_secs(30));
    let record = finish(&handle, &mirror).await;
    assert!(record.log.iter().any(|entry| matches!(
        entry,
        LogEntry::Eject { seat: 0, reason, .. } if reason.starts_with("illegal request: malformed_action")
    )));

    let seats = vec![
        program("nonsense", || Box::new(AnswersNonsense)),
        SeatSetup::house("random", "random", 1),
    ];
    let (handle, mirror) = start("spacecrack", 54, seats, Duration::from_secs(30));
    let record = finish(&handle, &mirror).await;
    let seat0: Vec<&LogEntry> = record
        .log
        .iter()
        .filter(|e| {
            matches!(
                e,
                LogEntry::Act { seat: 0, .. } | LogEntry::Eject { seat: 0, .. }
            )
        })
        .collect();
    assert!(!seat0.is_empty());
    assert!(seat0.iter().all(|entry| matches!(
        entry,
        LogEntry::Act { action, .. } if *action == json!({"type": "turn_timeout"})
    )));
}

/// On a single-threaded runtime: if the bot's search ran on the runtime, the deadline
/// could not fire while it is stuck. It does, and the match goes on without it.
#[tokio::test(flavor = "current_thread")]
async fn a_stuck_bot_is_timed_out_without_blocking_the_runtime() {
    let (release, released) = mpsc::channel::<()>();
    let released = Arc::new(Mutex::new(released));
    let seats = vec![
        program("stuck", move || Box::new(Stuck(released.clone()))),
        SeatSetup::house("dag", "dag", 1),
        SeatSetup::house("ldasg", "ldasg", 2),
    ];
    let (handle, mirror) = start("qgame", 55, seats, Duration::from_millis(100));
    let entries = mirror
        .wait_for("the stuck bot's ejection", |entries| !entries.is_empty())
        .await;
    assert!(matches!(
        &entries[0],
        LogEntry::Eject { seat: 0, reason, .. } if reason == "missed the per-call time limit"
    ));
    // The runtime answers while the bot is still stuck on its thread.
    assert!(handle.status().seats[0].ejected.is_some());
    release.send(()).expect("the bot is waiting");
    let record = finish(&handle, &mirror).await;
    // Its late answer was discarded: seat 0 never acted.
    assert!(!record
        .log
        .iter()
        .any(|e| matches!(e, LogEntry::Act { seat: 0, .. })));
}

/// Plays the first legal placement (or the first legal action) and, after each answer,
/// asks the referee to eject itself: a program that learns of its player's failure only
/// after answering (the Q-Game port's finisher whose `win` call fails).
struct AnswersThenFails;

impl HouseBot for AnswersThenFails {
    fn decide(&mut self, state: &dyn DynState, seat: Seat) -> Result<Value, String> {
        let legal = state.legal(seat);
        let place = legal.iter().find(|a| a.is_array());
        place
            .or(legal.first())
            .cloned()
            .ok_or_else(|| "no legal action".to_string())
    }

    fn ejections_after_answer(&mut self) -> Vec<(Seat, String)> {
        vec![(0, "win: is gone".to_string())]
    }
}

/// An answer that ends the game counts, and the ejection the bot asks for after it is
/// still made: the outcome records the finisher as ejected (ranked after the survivor),
/// and the record, with its ejection after the last move, replays with verification.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ejection_asked_for_after_a_finishing_answer_is_made_after_it() {
    // Seat 0 holds one tile that fits next to the origin: placing it ends the game.
    let config = json!({"state0": {
        "map": [[0, [0, {"shape": "star", "color": "red"}]]],
        "tile*": [{"shape": "square", "color": "blue"}],
        "players": [
            {"score": 0, "tile*": [{"shape": "circle", "color": "red"}]},
            {"score": 0, "tile*": [{"shape": "square", "color": "green"}]}
        ]
    }});
    let seats = vec![
        program("finishes", || Box::new(AnswersThenFails)),
        SeatSetup::house("dag", "dag", 1),
    ];
    let mut setup = arbiter_referee::MatchSetup::new(7, crate::common::ruleset("qgame"), 54, seats);
    setup.config = config;
    setup.deadline = Duration::from_secs(30);
    let mirror = Arc::new(crate::common::Mirror::default());
    let handle = arbiter_referee::Referee::start(setup, mirror.clone()).expect("a valid setup");
    let record = finish(&handle, &mirror).await;
    assert!(
        matches!(record.log.first(), Some(LogEntry::Act { seat: 0, .. })),
        "the finishing placement counts: {:?}",
        record.log
    );
    assert!(
        matches!(&record.log[1..], [LogEntry::Eject { seat: 0, reason, .. }] if reason == "win: is gone"),
        "{:?}",
        record.log
    );
    let outcome = record.outcome.expect("an outcome");
    assert_eq!(outcome.ejected[0].as_deref(), Some("win: is gone"));
    assert_eq!(
        outcome.ranks,
        [2, 1],
        "the finisher is ranked after the survivor"
    );
}

//! A ruleset defect (a panic inside the rules) ends only its own match: the match is
//! stored as aborted, and every seat and spectator still connected is told so with the
//! reason, as when the store gives up, instead of seeing its connection go quiet.

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;

use crate::common::PATIENCE;
use arbiter_engine::{
    Bot, ConfigError, Game, GameRng, Illegal, Outcome, Policy, Ruleset as RulesetDefinition, Seat,
    Turn,
};
use arbiter_referee::{MatchSetup, MatchSink, RecordEvent, Referee, SeatSetup, Stored, ToSeat};
use arbiter_rulesets::Ruleset;
use serde::{Deserialize, Serialize};

/// Two seats count down from 5 in turn; the rules panic when the count reaches 2.
struct Faulty;

/// Nothing to configure.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct NoConfig {}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Count {
    left: u32,
    next: Seat,
}

impl Game for Faulty {
    const ID: &'static str = "faulty";
    const NAME: &'static str = "Faulty countdown";
    type Config = NoConfig;
    type State = Count;
    type Action = u32;
    type View = Count;
    type Event = u32;

    fn seat_counts(_: &NoConfig) -> RangeInclusive<usize> {
        2..=2
    }
    fn seat_count(_: &Count) -> usize {
        2
    }
    fn new(_: &NoConfig, _: usize, _: u64) -> Result<Count, ConfigError> {
        Ok(Count { left: 5, next: 0 })
    }
    fn to_act(state: &Count) -> Turn {
        if state.left == 0 {
            Turn::Over
        } else {
            Turn::One(state.next)
        }
    }
    fn apply(state: &mut Count, seat: Seat, action: &u32) -> Result<Vec<u32>, Illegal> {
        if *action != 1 {
            return Err(Illegal::new("bad_action", "count down by 1"));
        }
        state.left -= 1;
        state.next = 1 - seat;
        assert!(state.left != 2, "a defect in the rules");
        Ok(vec![state.left])
    }
    fn legal(_: &Count, _: Seat) -> Vec<u32> {
        vec![1]
    }
    fn eject(state: &mut Count, _: Seat, _: &str) -> Vec<u32> {
        state.left = 0;
        Vec::new()
    }
    fn view(state: &Count, _: Option<Seat>) -> Count {
        state.clone()
    }
    fn outcome(state: &Count) -> Option<Outcome> {
        (state.left == 0).then(|| Outcome {
            ranks: vec![1, 1],
            scores: vec![0, 0],
            ejected: vec![None, None],
            summary: "a draw".into(),
        })
    }
    fn determinize(state: &Count, _: Seat, _: &mut GameRng) -> Count {
        state.clone()
    }
    fn state_from_view(
        _: &NoConfig,
        view: &Count,
        _: Seat,
        _: &mut GameRng,
    ) -> Result<Count, String> {
        Ok(view.clone())
    }
}

impl RulesetDefinition for Faulty {
    const POLICY: Policy = Policy::LENIENT;
    const RULES_PAGE: &'static str = "";
    const BOTS: &'static [&'static str] = &[];
    fn bot(_: &str, _: u64) -> Option<Box<dyn Bot<Self>>> {
        None
    }
}

/// Keeps every record event (the shared test sink replays only shipped rulesets).
#[derive(Default)]
struct Keep(std::sync::Mutex<Vec<RecordEvent>>);

impl MatchSink for Keep {
    fn record(&self, event: RecordEvent) -> Stored {
        if let Ok(mut events) = self.0.lock() {
            events.push(event);
        }
        Stored::now()
    }
}

#[tokio::test]
async fn a_panic_in_the_rules_aborts_the_match_and_everyone_is_told() {
    let seats = vec![SeatSetup::remote("ann"), SeatSetup::remote("bob")];
    let mut setup = MatchSetup::new(7, Ruleset::of::<Faulty>(), 1, seats);
    setup.deadline = Duration::from_secs(30);
    let kept = Arc::new(Keep::default());
    let handle = Referee::start(setup, kept.clone()).expect("starts");
    let mut ann = handle.attach(0).await.expect("attach ann");
    let mut bob = handle.attach(1).await.expect("attach bob");
    let mut watcher = handle.spectate().await.expect("spectate");

    // Three moves: the third makes the rules panic.
    for seat in [0, 1, 0] {
        let _ = handle.act(seat, serde_json::json!(1)).await;
    }
    let ended = tokio::time::timeout(PATIENCE, handle.wait())
        .await
        .expect("the match ends");
    let reason = ended.expect_err("aborted, not finished");
    assert!(
        reason.to_string().contains("a defect in the rules"),
        "{reason}"
    );

    for (who, connection) in [("ann", &mut ann), ("bob", &mut bob)] {
        let mut told = None;
        while let Some(message) = connection.recv().await {
            if let ToSeat::Aborted { reason } = message {
                told = Some(reason);
            }
        }
        let told = told.unwrap_or_else(|| panic!("{who} was not told"));
        assert!(told.contains("a defect in the rules"), "{who}: {told}");
    }
    let mut told = false;
    while let Some(message) = watcher.recv().await {
        told |= matches!(message, ToSeat::Aborted { .. });
    }
    assert!(told, "the spectator was not told");
    // Stored as aborted after the two moves the store took.
    let events = kept.0.lock().expect("the events");
    let entries = events
        .iter()
        .filter(|e| matches!(e, RecordEvent::Entry { .. }))
        .count();
    assert_eq!(entries, 2);
    assert!(matches!(events.last(), Some(RecordEvent::Aborted { .. })));
}

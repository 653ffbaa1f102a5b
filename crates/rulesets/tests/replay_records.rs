//! Every stored record replays and verifies up to its last entry, whether the match
//! finished, is still running, or was aborted by a crash — even a crash that came after
//! the last action but before the outcome was written. A record that claims an outcome
//! the log does not reach is refused.

use arbiter_engine::ReplayError;
use serde_json::Value;

fn finished_record(ruleset: &arbiter_rulesets::Ruleset) -> arbiter_engine::MatchRecord {
    let seats = vec!["random".to_string(), "random".to_string()];
    let record = ruleset.play_local(&Value::Null, &seats, 11).unwrap();
    assert!(record.outcome.is_some(), "{}: the game ends", ruleset.id());
    record
}

#[test]
fn a_complete_log_without_its_outcome_still_verifies() {
    let registry = arbiter_rulesets::registry();
    for ruleset in arbiter_rulesets::all() {
        let mut record = finished_record(&ruleset);
        // The crash window: every entry stored, the outcome not.
        record.outcome = None;
        let state = registry
            .replay(&record, true)
            .unwrap_or_else(|e| panic!("{}: {e}", ruleset.id()));
        assert!(state.to_act().is_over(), "{}", ruleset.id());
    }
}

#[test]
fn any_prefix_of_a_log_verifies() {
    let registry = arbiter_rulesets::registry();
    for ruleset in arbiter_rulesets::all() {
        let mut record = finished_record(&ruleset);
        record.outcome = None;
        record.log.truncate(record.log.len() / 2);
        registry
            .replay(&record, true)
            .unwrap_or_else(|e| panic!("{}: {e}", ruleset.id()));
    }
}

#[test]
fn an_outcome_the_log_does_not_reach_is_refused() {
    let registry = arbiter_rulesets::registry();
    for ruleset in arbiter_rulesets::all() {
        let mut record = finished_record(&ruleset);
        record.log.pop();
        assert_eq!(
            registry.replay(&record, true).err(),
            Some(ReplayError::OutcomeDiffers),
            "{}",
            ruleset.id()
        );
    }
}

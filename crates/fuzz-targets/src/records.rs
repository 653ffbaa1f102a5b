//! Match records, as `arbiter replay` and the replay pages read them.

use arbiter_engine::MatchRecord;

/// Read `data` as a record and replay it with and without verifying its digests. A
/// record that verifies replays to the outcome it states.
pub fn match_record(data: &[u8]) {
    let Ok(record) = serde_json::from_slice::<MatchRecord>(data) else {
        return;
    };
    let registry = arbiter_rulesets::registry();
    let _ = registry.replay(&record, false);
    if let Ok(state) = registry.replay(&record, true) {
        if let Some(outcome) = &record.outcome {
            assert_eq!(
                state.outcome().as_ref(),
                Some(outcome),
                "a verified record replays to another outcome"
            );
        }
    }
}

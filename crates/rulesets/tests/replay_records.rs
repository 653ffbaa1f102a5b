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

/// A digest that does not follow from the log is named by its entry's index, whatever
/// the entry: the digests form a chain, so each entry's digest is checked on its own.
#[test]
fn a_wrong_digest_is_named_by_its_entry() {
    let registry = arbiter_rulesets::registry();
    for ruleset in arbiter_rulesets::all() {
        let record = finished_record(&ruleset);
        for index in [0, record.log.len() / 2, record.log.len() - 1] {
            let mut tampered = record.clone();
            match &mut tampered.log[index] {
                arbiter_engine::LogEntry::Act { digest, .. }
                | arbiter_engine::LogEntry::Eject { digest, .. } => digest.replace_range(..2, "zz"),
            }
            assert_eq!(
                registry.replay(&tampered, true).err(),
                Some(ReplayError::Diverged { index: Some(index) }),
                "{} entry {index}",
                ruleset.id()
            );
        }
    }
}

/// The chain folds the whole state in at every checkpoint and at the end, and only
/// there: a difference in hidden state that no event shows is caught at the next
/// checkpoint, and recording costs no state serialisation in between.
#[test]
fn the_whole_state_counts_at_checkpoints_only() {
    use arbiter_engine::record::{DigestChain, CHECKPOINT_EVERY};
    let entry = arbiter_engine::LogEntry::Act {
        seat: 0,
        action: Value::from("pass"),
        digest: String::new(),
    };
    let run = |state: &str, entries: usize, over_at_end: bool| {
        let mut chain = DigestChain::new("start");
        let mut asked = Vec::new();
        let digests: Vec<String> = (0..entries)
            .map(|i| {
                let over = over_at_end && i + 1 == entries;
                chain.digest_next(&entry, "events", over, || {
                    asked.push(i);
                    state.to_string()
                })
            })
            .collect();
        (digests, asked)
    };
    let (a, asked) = run("state a", CHECKPOINT_EVERY + 1, true);
    let (b, _) = run("state b", CHECKPOINT_EVERY + 1, true);
    assert_eq!(asked, [CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY]);
    let first_difference = a.iter().zip(&b).position(|(x, y)| x != y);
    assert_eq!(first_difference, Some(CHECKPOINT_EVERY - 1));
    // Without the end, a short game's only checkpoint is its last entry.
    let (short, asked) = run("state a", 3, true);
    assert_eq!(asked, [2]);
    assert_eq!(short[..2], a[..2], "the same entries give the same chain");
}

/// Records of the first format (every entry the digest of the whole state after it)
/// still replay with verification, and a wrong entry is still named.
#[test]
fn records_of_the_first_format_still_verify() {
    let registry = arbiter_rulesets::registry();
    for ruleset in arbiter_rulesets::all() {
        let mut record = finished_record(&ruleset);
        record.format = arbiter_engine::record::STATE_DIGEST_FORMAT;
        let mut digests = Vec::new();
        registry
            .replay_with(&record, false, |index, state| {
                if index.is_some() {
                    digests.push(state.digest());
                }
            })
            .unwrap();
        for (entry, digest) in record.log.iter_mut().zip(digests) {
            match entry {
                arbiter_engine::LogEntry::Act { digest: d, .. }
                | arbiter_engine::LogEntry::Eject { digest: d, .. } => *d = digest,
            }
        }
        registry
            .replay(&record, true)
            .unwrap_or_else(|e| panic!("{}: {e}", ruleset.id()));
        let last = record.log.len() - 1;
        record.log.swap(0, last);
        assert!(
            registry.replay(&record, true).is_err(),
            "{}: a reordered log is refused",
            ruleset.id()
        );
    }
}

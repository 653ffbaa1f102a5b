//! One file per subcommand.

pub mod bench;
pub mod bot;
pub mod harness;
pub mod play;
pub mod replay;
pub mod round_robin;
pub mod rulesets;
pub mod serve;
pub mod show;

use anyhow::anyhow;
use arbiter_engine::{MatchRecord, Outcome};
use arbiter_rulesets::Ruleset;

/// A shipped ruleset by id, or an error listing the known ids.
pub fn find_ruleset(id: &str) -> anyhow::Result<Ruleset> {
    arbiter_rulesets::find(id).ok_or_else(|| {
        let ids: Vec<&str> = arbiter_rulesets::all().iter().map(|r| r.id()).collect();
        anyhow!("unknown ruleset {id:?}; known: {}", ids.join(", "))
    })
}

/// "ldasg#1 wins with 66" in the record's own seat names (the rules only know seats).
pub fn describe_outcome(record: &MatchRecord, outcome: &Outcome) -> String {
    outcome.headline(&record.seats)
}

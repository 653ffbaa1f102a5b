//! `arbiter replay FILE [--verify]`: rebuild a match from its record.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use arbiter_engine::MatchRecord;

#[derive(clap::Args)]
pub struct Args {
    /// A match record written by `arbiter play --record` (or the server).
    file: PathBuf,
    /// Check every entry's digest and the outcome against the record.
    #[arg(long)]
    verify: bool,
    /// Print the spectator's view after every step as JSON lines.
    #[arg(long)]
    views: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let record: MatchRecord = serde_json::from_str(&text).context("not a match record")?;
    let registry = arbiter_rulesets::registry();
    let state = registry.replay_with(&record, args.verify, |_, state| {
        if args.views {
            println!("{}", state.view(None));
        }
    })?;
    if !args.views {
        let verdict = if args.verify {
            "verified: every state matches the record"
        } else {
            "replayed"
        };
        println!("{} entries {verdict}", record.log.len());
        if let Some(outcome) = state.outcome() {
            println!("{}", super::describe_outcome(&record, &outcome));
        }
    }
    Ok(ExitCode::SUCCESS)
}

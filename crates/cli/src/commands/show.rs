//! `arbiter show tae FILE [--turn K]`: follow a recorded game as text.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context};
use arbiter_engine::erased::ErasedState;
use arbiter_engine::{DynState, MatchRecord};
use arbiter_tae::Tae;

#[derive(clap::Args)]
pub struct Args {
    /// The ruleset of the record (text boards exist for tae).
    ruleset: String,
    /// A match record written by `arbiter play --record`.
    file: PathBuf,
    /// Show the board after this many log entries (0 = the start); default the end.
    #[arg(long)]
    turn: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.ruleset != "tae" {
        bail!(
            "no text board for {:?}; `arbiter replay --views` prints any ruleset's views",
            args.ruleset
        );
    }
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let record: MatchRecord = serde_json::from_str(&text).context("not a match record")?;
    if record.ruleset != "tae" {
        bail!(
            "{} holds a {} game, not tae",
            args.file.display(),
            record.ruleset
        );
    }
    let steps = record.log.len();
    let wanted = args.turn.unwrap_or(steps);
    if wanted > steps {
        bail!("the record has {steps} entries; --turn must be 0 to {steps}");
    }
    let mut board = None;
    arbiter_rulesets::registry().replay_with(&record, true, |index, state: &dyn DynState| {
        let step = index.map_or(0, |i| i + 1);
        if step == wanted {
            board = state
                .as_any()
                .downcast_ref::<ErasedState<Tae>>()
                .map(|s| arbiter_tae::render_text(&s.state));
        }
    })?;
    let board = board.ok_or_else(|| anyhow!("could not reach step {wanted}"))?;
    println!("after {wanted} of {steps} log entries");
    print!("{board}");
    Ok(ExitCode::SUCCESS)
}

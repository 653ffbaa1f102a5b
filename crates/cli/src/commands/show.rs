//! `arbiter show RULESET FILE [--turn K]`: follow a recorded game as text, for the
//! rulesets that draw a text board (`Ruleset::text_board`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context};
use arbiter_engine::{DynState, MatchRecord};

#[derive(clap::Args)]
pub struct Args {
    /// The ruleset of the record (tae draws a text board).
    ruleset: String,
    /// A match record written by `arbiter play --record`.
    file: PathBuf,
    /// Show the board after this many log entries (0 = the start); default the end.
    #[arg(long)]
    turn: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let registry = arbiter_rulesets::registry();
    let Some(game) = registry.get(&args.ruleset) else {
        bail!("no ruleset {:?}", args.ruleset);
    };
    let no_board = || {
        anyhow!(
            "no text board for {:?}; `arbiter replay --views` prints any ruleset's views",
            args.ruleset
        )
    };
    let fresh = game.new_state(&game.default_config(), 2, 0);
    if fresh
        .ok()
        .and_then(|s| game.text_board(s.as_ref()))
        .is_none()
    {
        return Err(no_board());
    }
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let record: MatchRecord = serde_json::from_str(&text).context("not a match record")?;
    if record.ruleset != args.ruleset {
        bail!(
            "{} holds a {} game, not {}",
            args.file.display(),
            record.ruleset,
            args.ruleset
        );
    }
    let steps = record.log.len();
    let wanted = args.turn.unwrap_or(steps);
    if wanted > steps {
        bail!("the record has {steps} entries; --turn must be 0 to {steps}");
    }
    let mut board = None;
    registry.replay_with(&record, true, |index, state: &dyn DynState| {
        let step = index.map_or(0, |i| i + 1);
        if step == wanted {
            board = Some(game.text_board(state));
        }
    })?;
    let board = board
        .ok_or_else(|| anyhow!("could not reach step {wanted}"))?
        .ok_or_else(no_board)?;
    println!("after {wanted} of {steps} log entries");
    print!("{board}");
    Ok(ExitCode::SUCCESS)
}

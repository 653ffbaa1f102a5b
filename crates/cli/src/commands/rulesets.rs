//! `arbiter rulesets`: what this build can host.

use std::process::ExitCode;

use serde_json::{json, Value};

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let listing: Vec<Value> = arbiter_rulesets::all()
        .iter()
        .map(|r| {
            let seats = r
                .game
                .seat_counts(&Value::Null)
                .map(|s| vec![*s.start(), *s.end()])
                .unwrap_or_default();
            json!({
                "id": r.id(),
                "name": r.game.name(),
                "seats": seats,
                "bots": r.bots,
                "default_config": r.game.default_config(),
            })
        })
        .collect();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&listing)?);
    } else {
        println!("{:<12} {:<32} {:<7} bots", "id", "name", "seats");
        for r in &listing {
            let seats = format!("{}-{}", r["seats"][0], r["seats"][1]);
            let bots: Vec<&str> = r["bots"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            println!(
                "{:<12} {:<32} {:<7} {}",
                r["id"].as_str().unwrap_or(""),
                r["name"].as_str().unwrap_or(""),
                seats,
                bots.join(", ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

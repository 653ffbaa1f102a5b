//! `arbiter harness RULESET MODE`: the original projects' test programs.
//!
//! Q-Game: the course's `xmap` … `xbaddies` (JSON values on stdin, one JSON value on
//! stdout), and `xserver PORT` / `xclients PORT` (a server or clients of the course's
//! remote protocol on 127.0.0.1:PORT, configured on stdin). Spacegoo and Space Crack:
//! `battle`, one answer line per input line.
//! Bad input gets one line on stderr and exit code 2.

use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use arbiter_qgame_course::harness::HarnessOptions;
use arbiter_qgame_course::{remote, Mode};

/// Largest standard input a harness reads (the course's biggest cases are ~100 KB).
const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

#[derive(clap::Args)]
pub struct Args {
    /// The ruleset: qgame, spacegoo or spacecrack.
    ruleset: String,
    /// The harness: for qgame one of xmap, xlegal, xscore, xstrategy, xgames,
    /// xgames-with-observer, xbaddies, xserver, xclients; for spacegoo and spacecrack
    /// `battle`.
    mode: String,
    /// qgame xserver / xclients: the TCP port (10000 to 60000).
    port: Option<String>,
    /// Per-call time limit for players, in seconds (the course's per-turn limit).
    #[arg(long, default_value_t = 6.0)]
    time_limit: f64,
    /// xgames-with-observer: print every observed state as a JState line on stderr.
    #[arg(long)]
    show: bool,
}

fn read_stdin() -> anyhow::Result<String> {
    let mut text = String::new();
    std::io::stdin()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_string(&mut text)
        .context("standard input is not UTF-8 text")?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        bail!("standard input is larger than {MAX_INPUT_BYTES} bytes");
    }
    Ok(text)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.ruleset.as_str() {
        "qgame" if matches!(args.mode.as_str(), "xserver" | "xclients") => {
            let port = args
                .port
                .as_deref()
                .ok_or_else(|| anyhow!("{} needs a PORT argument", args.mode))?;
            let port = remote::harness::parse_port(port)?;
            let stdin = std::io::stdin().lock();
            if args.mode == "xserver" {
                println!("{}", remote::harness::xserver(stdin, port)?.to_json());
            } else {
                remote::harness::xclients(stdin, port)?;
            }
            // Players stuck in a loop may still hold threads; leave without waiting.
            std::process::exit(0)
        }
        _ if args.port.is_some() => bail!("only qgame xserver and xclients take a PORT"),
        "qgame" => {
            let mode: Mode = args.mode.parse().map_err(|e: String| anyhow!(e))?;
            if !(args.time_limit.is_finite() && args.time_limit > 0.0 && args.time_limit <= 3600.0)
            {
                bail!("--time-limit must be between 0 and 3600 seconds");
            }
            let options = HarnessOptions {
                time_limit: Duration::from_secs_f64(args.time_limit),
                show: args.show,
            };
            let answer = arbiter_qgame_course::run_mode(mode, &read_stdin()?, options)?;
            println!("{answer}");
            // Players stuck in a loop may still hold threads; leave without waiting.
            std::process::exit(0)
        }
        "spacegoo" | "spacecrack" => {
            if args.mode != "battle" {
                bail!(
                    "{} has one harness, battle, not {:?}",
                    args.ruleset,
                    args.mode
                );
            }
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            let result = if args.ruleset == "spacegoo" {
                arbiter_spacegoo::battle_harness(stdin, stdout)
            } else {
                arbiter_spacecrack::battle_harness(stdin, stdout)
            };
            result.map_err(|e| anyhow!(e))?;
            Ok(ExitCode::SUCCESS)
        }
        other => bail!("no harness for ruleset {other:?}"),
    }
}

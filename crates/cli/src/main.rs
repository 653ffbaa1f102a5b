//! `arbiter`: the one binary. Each subcommand lives in `commands/`.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "A referee for turn-based strategy games: rules, bots, replays."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the rulesets, their seat counts, bots and default configurations.
    Rulesets(commands::rulesets::Args),
    /// Play a fresh game locally with built-in bots and print the result.
    Play(commands::play::Args),
    /// Replay a match record; with --verify, fail loudly if any state differs.
    Replay(commands::replay::Args),
    /// The original projects' test harnesses (JSON or lines on stdin, answers on stdout).
    Harness(commands::harness::Args),
    /// Print a recorded game's board as text, at the end or after a given step.
    Show(commands::show::Args),
    /// Run the server: native protocol on TCP, HTTP + WebSocket + API, SQLite by default.
    Serve(Box<commands::serve::Args>),
    /// A built-in bot playing on a server as an ordinary network client.
    Bot(commands::bot::Args),
    /// Built-in players against each other over many games: win rates and ratings.
    RoundRobin(commands::round_robin::Args),
    /// Random playouts and decisions per second for each ruleset.
    Bench(commands::bench::Args),
}

/// mimalloc rather than the system allocator: see the workspace's Cargo.toml.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_) | Command::Bot(_)) {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        Command::Rulesets(args) => commands::rulesets::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Replay(args) => commands::replay::run(args),
        Command::Harness(args) => commands::harness::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Serve(args) => commands::serve::run(*args),
        Command::Bot(args) => commands::bot::run(args),
        Command::RoundRobin(args) => commands::round_robin::run(args),
        Command::Bench(args) => commands::bench::run(args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            // One line, no backtrace: bad input is the user's to fix, not a crash.
            eprintln!("arbiter: {}", format!("{error:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// A command whose output is piped into `head` ends quietly when the reader leaves, as
/// `cat` does, instead of panicking on the broken pipe. Rust ignores SIGPIPE by default;
/// this puts back the default action for the commands that only print. The networked
/// commands keep ignoring it (their socket errors are handled where they happen).
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

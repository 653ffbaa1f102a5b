//! Inputs to start from: real messages, course test inputs and records of played
//! games, so that the fuzzer (and the tests) begin inside each format rather than at
//! random bytes.

use std::path::Path;

use serde_json::Value;

use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::{seeded_rng, Bot, Game};
use rand::seq::IndexedRandom;

/// The Q-Game course's test inputs, kept in the project beside the port.
const COURSE_TESTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../compat/qgame-course/tests/conformance"
);

/// The seed inputs of the target `name` (none for an unknown name).
pub fn seeds(name: &str) -> Vec<Vec<u8>> {
    match name {
        "native_lines" => lines(&[
            r#"{"type":"ping"}"#,
            r#"{"type":"login","name":"ann","password":"secret"}"#,
            r#"{"type":"register","name":"bob","password":"hunter22"}"#,
            r#"{"type":"queue","ruleset":"tae","seats":2}"#,
            r#"{"type":"act","match":3,"action":{"kind":"pass"}}"#,
            r#"{"type":"watch","match":1}"#,
            r#"{"type":"legal","match":1}"#,
            "\u{0}\u{ff}not json",
        ]),
        "spacegoo_lines" => lines(&[
            "login ann secret",
            "send 0 1 3 2 1",
            "nop",
            "send 0 1 -3 2 1",
            "send 'a' \"b\" 1 2 3",
            "quit",
        ]),
        "qgame_harness" => ["m3", "m4", "m5", "m6"]
            .iter()
            .enumerate()
            .flat_map(|(mode, milestone)| {
                course_inputs(&format!("staff/{milestone}"), "-in.json")
                    .into_iter()
                    .map(move |input| [vec![mode as u8], input].concat())
            })
            .collect(),
        "qgame_remote" => {
            let mut out = course_inputs("reference/Integration-Tests", "-config.json");
            out.extend(course_inputs("staff/m8", "-in.json"));
            out
        }
        // One seed per shipped ruleset, whatever their number.
        "ruleset_play" => (0..arbiter_rulesets::all().len())
            .map(|pick| played_lines(u8::try_from(pick).unwrap_or(u8::MAX)))
            .collect(),
        "tae_board" => vec![
            arbiter_tae::board::DEFAULT_BOARD.as_bytes().to_vec(),
            b"A..M..A\n.......\n..MMM..\n.......\nA..M..A\n".to_vec(),
        ],
        "match_record" => vec![
            record::<arbiter_nim::Nim>(&arbiter_nim::Config::default(), arbiter_nim::bots::bot),
            record::<arbiter_spacecrack::SpaceCrack>(
                &arbiter_spacecrack::Config::default(),
                arbiter_spacecrack::bots::bot,
            ),
        ],
        "server_toml" => vec![
            b"http = \"127.0.0.1:8080\"\ntime_bank = \"30s\"\n[deadlines]\nqgame = \"6s\"\n\"*\" = \"10s\"\n"
                .to_vec(),
            b"rate = 50.0\nburst = 100\nmax_line = 65536\nspacegoo = \"off\"\n".to_vec(),
        ],
        _ => Vec::new(),
    }
}

/// Each line alone, and all of them as one input.
fn lines(lines: &[&str]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| format!("{l}\n").into_bytes())
        .collect();
    out.push(lines.join("\n").into_bytes());
    out
}

/// The files under the course's test folder `folder` whose names end with `suffix`.
fn course_inputs(folder: &str, suffix: &str) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(Path::new(COURSE_TESTS).join(folder)) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// A `ruleset_play` input: the ruleset picked by `pick`, two seats, the default
/// configuration, then random legal moves, with `null` for a seat that owes none.
fn played_lines(pick: u8) -> Vec<u8> {
    const SEATS: usize = 2;
    let registry = arbiter_rulesets::registry();
    let ids = registry.ids();
    let mut out = vec![pick, SEATS as u8, b'\n'];
    let Some(game) = registry.get(ids[usize::from(pick) % ids.len()]) else {
        return out;
    };
    let Ok(mut state) = game.new_state(&Value::Null, SEATS, crate::rulesets::SEED) else {
        return out;
    };
    let mut rng = seeded_rng(u64::from(pick));
    for turn in 0..32 {
        let seat = turn % (SEATS + 1);
        let action = state.legal(seat).choose(&mut rng).cloned();
        let line = action.clone().unwrap_or(Value::Null).to_string();
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        if let Some(action) = action {
            let _ = state.apply(seat, &action);
        }
    }
    out
}

/// A ruleset's bot constructor (`bots::bot`): a name and a seed to a bot.
type BotMaker<G> = fn(&str, u64) -> Option<Box<dyn Bot<G>>>;

/// The record of a game between random bots, as JSON.
fn record<G: Game>(config: &G::Config, bot: BotMaker<G>) -> Vec<u8> {
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..2).filter_map(|s| bot("random", s)).collect();
    let names = vec!["ann".to_string(), "bob".to_string()];
    play_local::<G>(config, names, &mut bots, 11, LocalOptions::default())
        .ok()
        .and_then(|played| serde_json::to_vec(&played.record).ok())
        .unwrap_or_default()
}

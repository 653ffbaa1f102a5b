//! The Q-Game course's JSON: the test harness's inputs (`xmap`, `xlegal`, `xscore`,
//! `xstrategy`) and the remote protocol's messages and configurations.

use std::time::Duration;

use arbiter_qgame_course::edge::{Edge, GameEdge};
use arbiter_qgame_course::harness::HarnessOptions;
use arbiter_qgame_course::remote::messages::{parse_choice, parse_void, Call};
use arbiter_qgame_course::remote::wire::{JsonReader, WireError};
use arbiter_qgame_course::remote::{ClientConfig, RefereeConfig, ServerConfig, SpecialClient};
use arbiter_qgame_course::{run_mode, Mode};

/// The harness modes that answer from their input alone (the game-playing modes run
/// players on timed threads: they are covered by the course's conformance tests).
const MODES: [Mode; 4] = [Mode::XMap, Mode::XLegal, Mode::XScore, Mode::XStrategy];

/// The first byte picks a harness mode; the rest is its standard input.
pub fn qgame_harness(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let mode = MODES[usize::from(pick) % MODES.len()];
    let input = String::from_utf8_lossy(input);
    let options = HarnessOptions {
        time_limit: Duration::from_secs(1),
        show: false,
    };
    if let Ok(answer) = run_mode(mode, &input, options) {
        // What the harness prints must read back as JSON.
        let printed = answer.to_string();
        assert!(
            serde_json::from_str::<serde_json::Value>(&printed).is_ok(),
            "the harness printed {printed:?}, which is not JSON"
        );
    }
}

/// The message size bound in the fuzzed reader: small, so that inputs reach it.
const MAX_MESSAGE: usize = 4096;

/// Read `data` as the remote protocol's stream of JSON values, and take each as every
/// kind of message and configuration the course's programs read, as one session would
/// (the edge chosen by the first values scales the later ones).
pub fn qgame_remote(data: &[u8]) {
    let mut reader = JsonReader::with_limit(data, MAX_MESSAGE);
    let mut game_edge = GameEdge::default();
    let edge = Edge::identity();
    for _ in 0..=data.len() + 1 {
        let value = match reader.next_exact() {
            Ok(value) => value,
            Err(WireError::Closed(_)) | Err(WireError::TooLarge(_)) => return,
            Err(WireError::NotJson(why)) => {
                assert!(!why.is_empty(), "a refusal without a reason");
                return;
            }
            Err(other) => panic!("reading from memory gave {other:?}"),
        };
        let _ = Call::from_exact(value.clone(), &mut game_edge);
        let _ = parse_void(&value);
        let _ = parse_choice(value.clone(), &edge);
        let _ = ServerConfig::from_exact(&value);
        let _ = ClientConfig::from_exact(&value);
        let _ = RefereeConfig::from_exact(&value);
        let _ = SpecialClient::parse(&value);
    }
    panic!("the JSON reader did not finish {} bytes", data.len());
}

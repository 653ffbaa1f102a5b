//! The course's test harnesses (§12): JSON values on stdin, one JSON value out.
//!
//! Bonus values are pinned per mode as the course graded them: `xscore` 6 with no
//! finish bonus, `xgames` 6/6, `xgames-with-observer` and `xbaddies` 8/4.

use std::str::FromStr;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;

use arbiter_qgame::placement::check_placements;
use arbiter_qgame::scoring::score_placement;
use arbiter_qgame::{Config, JPub, JState, Map, Placement, State, Step, Strategy, Tile};

use crate::actors::{ActorLevel, ActorSpec};
use crate::player::CoursePlayer;
use crate::referee::run_game;
use crate::timed::TimedPlayer;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    XMap,
    XLegal,
    XScore,
    XStrategy,
    XGames,
    XGamesWithObserver,
    XBaddies,
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(word: &str) -> Result<Mode, String> {
        Ok(match word {
            "xmap" => Mode::XMap,
            "xlegal" => Mode::XLegal,
            "xscore" => Mode::XScore,
            "xstrategy" => Mode::XStrategy,
            "xgames" => Mode::XGames,
            "xgames-with-observer" => Mode::XGamesWithObserver,
            "xbaddies" => Mode::XBaddies,
            other => return Err(format!("unknown harness mode {other:?}")),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HarnessError {
    #[error("input is not JSON: {0}")]
    NotJson(String),
    #[error("input does not match the expected schema: {0}")]
    Schema(String),
    #[error("network: {0}")]
    Network(String),
    /// A bad command-line argument.
    #[error("{0}")]
    Usage(String),
}

/// Options that are not part of the input.
#[derive(Debug, Clone, Copy)]
pub struct HarnessOptions {
    /// Per-call time limit for players (the course's `per-turn`, 6 s).
    pub time_limit: Duration,
    /// `xgames-with-observer --show`: report every observed state (as JState lines on
    /// standard error).
    pub show: bool,
}

impl Default for HarnessOptions {
    fn default() -> Self {
        HarnessOptions {
            time_limit: Duration::from_secs(6),
            show: false,
        }
    }
}

/// Run one harness mode on the whole of stdin's text.
pub fn run_mode(mode: Mode, input: &str, options: HarnessOptions) -> Result<Value, HarnessError> {
    let values = serde_json::Deserializer::from_str(input)
        .into_iter::<Value>()
        .collect::<Result<Vec<Value>, _>>()
        .map_err(|e| HarnessError::NotJson(e.to_string()))?;
    let mut values = values.into_iter();
    let mut next = |what: &str| {
        values
            .next()
            .ok_or_else(|| HarnessError::Schema(format!("missing {what} in the input")))
    };
    match mode {
        Mode::XMap => {
            let map: Map = parse(next("JMap")?, "JMap")?;
            let tile: Tile = parse(next("JTile")?, "JTile")?;
            Ok(serde_json::to_value(map.candidates(tile)).unwrap_or_default())
        }
        Mode::XLegal => {
            let state: JPub = parse(next("JPub")?, "JPub")?;
            let placements: Vec<Placement> = parse(next("JPlacements")?, "JPlacements")?;
            Ok(
                match check_placements(&state.map, &state.me.tiles, &placements) {
                    Ok(extended) => serde_json::to_value(extended).unwrap_or_default(),
                    Err(_) => Value::Bool(false),
                },
            )
        }
        Mode::XScore => {
            let map: Map = parse(next("JMap")?, "JMap")?;
            let placements: Vec<Placement> = parse(next("JPlacements")?, "JPlacements")?;
            if placements.is_empty() {
                return Err(HarnessError::Schema("JPlacements must not be empty".into()));
            }
            Ok(Value::from(score_placement(&map, &placements, 6)))
        }
        Mode::XStrategy => {
            let strategy: Strategy = parse(next("JStrategy")?, "JStrategy")?;
            let state: JPub = parse(next("JPub")?, "JPub")?;
            Ok(
                match strategy.step(&state.map, &state.me.tiles, state.pile_count) {
                    Step::Pass => Value::from("pass"),
                    Step::Replace => Value::from("replace"),
                    Step::Place(placement) => serde_json::to_value(placement).unwrap_or_default(),
                },
            )
        }
        Mode::XGames | Mode::XGamesWithObserver | Mode::XBaddies => {
            let (qbo, fbo, level) = match mode {
                Mode::XGames => (6, 6, ActorLevel::Exceptions),
                Mode::XGamesWithObserver => (8, 4, ActorLevel::Cheats),
                _ => (8, 4, ActorLevel::Loops),
            };
            let jstate: JState = parse(next("JState")?, "JState")?;
            let actors = next("JActors")?;
            let actors = actors
                .as_array()
                .ok_or_else(|| HarnessError::Schema("JActors must be an array".into()))?
                .iter()
                .map(|a| ActorSpec::parse(a, level).map_err(HarnessError::Schema))
                .collect::<Result<Vec<_>, _>>()?;
            if actors.len() != jstate.players.len() {
                return Err(HarnessError::Schema(format!(
                    "{} actors for {} players in the state",
                    actors.len(),
                    jstate.players.len()
                )));
            }
            let config = Config {
                qbo,
                fbo,
                state0: None,
            };
            let state = State::from_jstate(&jstate, &config)
                .map_err(|e| HarnessError::Schema(e.to_string()))?;
            let players: Vec<Box<dyn CoursePlayer>> = actors
                .iter()
                .map(|spec| {
                    Box::new(TimedPlayer::spawn(
                        Box::new(spec.build()),
                        options.time_limit,
                    )) as Box<dyn CoursePlayer>
                })
                .collect();
            let show = options.show && mode == Mode::XGamesWithObserver;
            let result = run_game(state, players, |observed| {
                if show {
                    eprintln!("{}", serde_json::to_string(observed).unwrap_or_default());
                }
            });
            Ok(result.to_json())
        }
    }
}

fn parse<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, HarnessError> {
    serde_json::from_value(value).map_err(|e| HarnessError::Schema(format!("bad {what}: {e}")))
}

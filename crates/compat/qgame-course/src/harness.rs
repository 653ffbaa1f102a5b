//! The course's test harnesses (§12): JSON values on stdin, one JSON value out.
//!
//! Bonus values are pinned per mode as the course graded them: `xscore` 6 with no
//! finish bonus, `xgames` 6/6, `xgames-with-observer` and `xbaddies` 8/4.
//!
//! Input is read as the course's graded reference read it: integers exactly (`-0` is
//! 0, coordinates may have any number of digits and are printed back as given, see
//! [`crate::edge`]), a JRow naming a column twice keeps its last cell, and `xstrategy`
//! takes the strategy and the state in either order.

use std::str::FromStr;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;

use arbiter_qgame::placement::check_placements;
use arbiter_qgame::scoring::score_placement;
use arbiter_qgame::{Config, JPub, JState, Map, Placement, State, Step, Strategy, Tile};

use crate::actors::{ActorLevel, ActorSpec};
use crate::edge::{Edge, Role};
use crate::exact::ExactJson;
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

/// Run one harness mode on the whole of stdin's text. The answer keeps the input's
/// integers exactly (print it with `Display`): coordinates may be of any size, and are
/// only brought within the rules' range for the run (see [`crate::edge`]).
pub fn run_mode(
    mode: Mode,
    input: &str,
    options: HarnessOptions,
) -> Result<ExactJson, HarnessError> {
    let values = ExactJson::parse_stream(input).map_err(HarnessError::NotJson)?;
    let mut values = values.into_iter();
    let mut next = |what: &str| {
        values
            .next()
            .ok_or_else(|| HarnessError::Schema(format!("missing {what} in the input")))
    };
    match mode {
        Mode::XMap => {
            let (edge, map, tile) =
                read_two((next("JMap")?, Role::Map), (next("JTile")?, Role::Other))?;
            let map: Map = parse(map, "JMap")?;
            let tile: Tile = parse(tile, "JTile")?;
            Ok(edge.write(&to_value(map.candidates(tile)), Role::Coordinates))
        }
        Mode::XLegal => {
            let (edge, state, placements) = read_two(
                (next("JPub")?, Role::WithMap),
                (next("JPlacements")?, Role::Placements),
            )?;
            let state: JPub = parse(state, "JPub")?;
            let placements: Vec<Placement> = parse(placements, "JPlacements")?;
            Ok(
                match check_placements(&state.map, &state.me.tiles, &placements) {
                    Ok(extended) => edge.write(&to_value(extended), Role::Map),
                    Err(_) => ExactJson::Bool(false),
                },
            )
        }
        Mode::XScore => {
            let (_, map, placements) = read_two(
                (next("JMap")?, Role::Map),
                (next("JPlacements")?, Role::Placements),
            )?;
            let map: Map = parse(map, "JMap")?;
            let placements: Vec<Placement> = parse(placements, "JPlacements")?;
            if placements.is_empty() {
                return Err(HarnessError::Schema("JPlacements must not be empty".into()));
            }
            Ok(ExactJson::from_value(&Value::from(score_placement(
                &map,
                &placements,
                6,
            ))))
        }
        Mode::XStrategy => {
            let first = next("JStrategy")?;
            let second = next("JPub")?;
            // Some graded inputs give the state first. A JStrategy is a string and a
            // JPub an object, so the types tell which is which.
            let (strategy, state) = match (&first, &second) {
                (ExactJson::String(_), _) => (first, second),
                (_, ExactJson::String(_)) => (second, first),
                _ => (first, second),
            };
            let (edge, strategy, state) =
                read_two((strategy, Role::Other), (state, Role::WithMap))?;
            let strategy: Strategy = parse(strategy, "JStrategy")?;
            let state: JPub = parse(state, "JPub")?;
            Ok(
                match strategy.step(&state.map, &state.me.tiles, state.pile_count) {
                    Step::Pass => ExactJson::String("pass".into()),
                    Step::Replace => ExactJson::String("replace".into()),
                    Step::Place(placement) => edge.write(&to_value(placement), Role::Placement),
                },
            )
        }
        Mode::XGames | Mode::XGamesWithObserver | Mode::XBaddies => {
            let (qbo, fbo, level) = match mode {
                Mode::XGames => (6, 6, ActorLevel::Exceptions),
                Mode::XGamesWithObserver => (8, 4, ActorLevel::Cheats),
                _ => (8, 4, ActorLevel::Loops),
            };
            let (edge, jstate, actors) = read_two(
                (next("JState")?, Role::WithMap),
                (next("JActors")?, Role::Other),
            )?;
            let jstate: JState = parse(jstate, "JState")?;
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
                ..Config::default()
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
                    eprintln!("{}", edge.write(&to_value(observed), Role::WithMap));
                }
            });
            Ok(ExactJson::from_value(&result.to_json()))
        }
    }
}

/// Read a mode's two inputs through the coordinate edge.
fn read_two(
    first: (ExactJson, Role),
    second: (ExactJson, Role),
) -> Result<(Edge, Value, Value), HarnessError> {
    let (edge, values) = Edge::read(vec![first, second]).map_err(HarnessError::Schema)?;
    let mut values = values.into_iter();
    match (values.next(), values.next()) {
        (Some(a), Some(b)) => Ok((edge, a, b)),
        _ => Err(HarnessError::Schema("missing input".into())),
    }
}

fn to_value(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

fn parse<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, HarnessError> {
    serde_json::from_value(value).map_err(|e| HarnessError::Schema(format!("bad {what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED_STAR: &str = r#"{"color":"red","shape":"star"}"#;
    const BLUE_STAR: &str = r#"{"color":"blue","shape":"star"}"#;
    const RED_CIRCLE: &str = r#"{"color":"red","shape":"circle"}"#;

    /// The answer exactly as the harness prints it.
    fn run(mode: Mode, input: &str) -> Result<String, HarnessError> {
        run_mode(mode, input, HarnessOptions::default()).map(|answer| answer.to_string())
    }

    fn coord(row: &str, column: &str) -> String {
        format!(r#"{{"row":{row},"column":{column}}}"#)
    }

    #[test]
    fn minus_zero_is_the_integer_zero_in_coordinates() {
        let around_origin = format!(
            "[{},{},{},{}]",
            coord("-1", "0"),
            coord("0", "-1"),
            coord("0", "1"),
            coord("1", "0")
        );
        let plain = format!("[[0,[0,{RED_STAR}]]] {BLUE_STAR}");
        assert_eq!(run(Mode::XMap, &plain).unwrap(), around_origin);
        let minus = format!("[[-0,[-0,{RED_STAR}]]] {BLUE_STAR}");
        assert_eq!(run(Mode::XMap, &minus).unwrap(), around_origin);
        // In a placement's coordinate too.
        let public = format!(
            r#"{{"map":[[0,[0,{RED_STAR}]]],"tile*":3,"players":[{{"score":0,"tile*":[{RED_CIRCLE}]}}]}}"#
        );
        let placement =
            format!(r#"[{{"coordinate":{{"row":-0,"column":1}},"1tile":{RED_CIRCLE}}}]"#);
        assert_eq!(
            run(Mode::XLegal, &format!("{public} {placement}")).unwrap(),
            format!(
                "[[0,[0,{}],[1,{}]]]",
                tile("star", "red"),
                tile("circle", "red")
            )
        );
    }

    /// A tile as the harness prints it (shape first).
    fn tile(shape: &str, color: &str) -> String {
        format!(r#"{{"shape":"{shape}","color":"{color}"}}"#)
    }

    /// Rows of 28 digits and columns of 52, as the course's tests had: the answer names
    /// the same integers, exactly.
    #[test]
    fn coordinates_of_any_size_are_read_and_printed_back_exactly() {
        let row = "1234567890123456789012345678";
        let column = "-1234567890123456789012345678901234567890123456789012";
        let input = format!("[[{row},[{column},{RED_STAR}]]] {BLUE_STAR}");
        let expected = format!(
            "[{},{},{},{}]",
            coord("1234567890123456789012345677", column),
            coord(row, "-1234567890123456789012345678901234567890123456789013"),
            coord(row, "-1234567890123456789012345678901234567890123456789011"),
            coord("1234567890123456789012345679", column)
        );
        assert_eq!(run(Mode::XMap, &input).unwrap(), expected);

        // xlegal: the extended map comes back with the same huge integers; a placement
        // far away from them is not adjacent.
        let public = format!(
            r#"{{"map":[[{row},[{column},{RED_STAR}]]],"tile*":3,"players":[{{"score":0,"tile*":[{RED_CIRCLE}]}}]}}"#
        );
        let next_column = "-1234567890123456789012345678901234567890123456789011";
        let placement = |r: &str, c: &str| {
            format!(r#"[{{"coordinate":{{"row":{r},"column":{c}}},"1tile":{RED_CIRCLE}}}]"#)
        };
        assert_eq!(
            run(
                Mode::XLegal,
                &format!("{public} {}", placement(row, next_column))
            )
            .unwrap(),
            format!(
                "[[{row},[{column},{}],[{next_column},{}]]]",
                tile("star", "red"),
                tile("circle", "red")
            )
        );
        assert_eq!(
            run(Mode::XLegal, &format!("{public} {}", placement("0", "0"))).unwrap(),
            "false"
        );
    }

    /// Two groups of tiles 10^40 columns apart stay apart, and each is answered around
    /// its own cells.
    #[test]
    fn far_apart_tiles_stay_apart() {
        let far = "10000000000000000000000000000000000000000";
        let input = format!("[[0,[0,{RED_STAR}],[{far},{RED_STAR}]]] {RED_CIRCLE}");
        let expected = format!(
            "[{},{},{},{},{},{},{},{}]",
            coord("-1", "0"),
            coord("-1", far),
            coord("0", "-1"),
            coord("0", "1"),
            coord("0", "9999999999999999999999999999999999999999"),
            coord("0", "10000000000000000000000000000000000000001"),
            coord("1", "0"),
            coord("1", far)
        );
        assert_eq!(run(Mode::XMap, &input).unwrap(), expected);
    }

    #[test]
    fn xstrategy_takes_the_strategy_and_the_state_in_either_order() {
        let public = format!(
            r#"{{"map":[[0,[0,{RED_STAR}]]],"tile*":3,"players":[{{"score":0,"tile*":[{RED_CIRCLE}]}}]}}"#
        );
        let expected = format!(
            r#"{{"coordinate":{},"1tile":{}}}"#,
            coord("-1", "0"),
            tile("circle", "red")
        );
        assert_eq!(
            run(Mode::XStrategy, &format!(r#""dag" {public}"#)).unwrap(),
            expected
        );
        assert_eq!(
            run(Mode::XStrategy, &format!(r#"{public} "dag""#)).unwrap(),
            expected
        );
    }

    /// A row that names a column twice: the later cell is the one on the map.
    #[test]
    fn a_column_named_twice_in_a_row_keeps_its_last_tile() {
        let map = format!("[[0,[0,{RED_STAR}],[0,{BLUE_STAR}]]]");
        let blue_square = r#"{"color":"blue","shape":"square"}"#;
        let around_origin = format!(
            "[{},{},{},{}]",
            coord("-1", "0"),
            coord("0", "-1"),
            coord("0", "1"),
            coord("1", "0")
        );
        // A blue square fits next to the blue star, not next to the red one.
        assert_eq!(
            run(Mode::XMap, &format!("{map} {blue_square}")).unwrap(),
            around_origin
        );
        assert_eq!(
            run(Mode::XMap, &format!("{map} {RED_CIRCLE}")).unwrap(),
            "[]"
        );
    }
}

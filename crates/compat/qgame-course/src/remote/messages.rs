//! The four calls and their replies as JSON (background §11.2):
//! `["setup",[JPub,[JTile…]]]`, `["take-turn",[JPub]]`, `["new-tiles",[[JTile…]]]`,
//! `["win",[Boolean]]`; the replies are `"void"`, or a JChoice for `take-turn`.
//! Both directions are checked strictly: exact arity, exact keys, known words.
//!
//! Messages are read and written with their integers exact: a JPub's map may name
//! coordinates of any size or `-0`, and they travel through the game's coordinate
//! [`edge`](crate::edge) — the server's from its state0, a client's from the first
//! JPub it is sent — so a JChoice names cells in the terms of the JPub it answers.

use std::fmt::Display;

use serde::de::DeserializeOwned;
use serde_json::{json, Map as JsonObject, Value};

use arbiter_qgame::{Action, JPub, Tile};

use crate::edge::{Edge, GameEdge, Role};
use crate::exact::ExactJson;

/// A call from the referee to a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    Setup(JPub, Vec<Tile>),
    TakeTurn(JPub),
    NewTiles(Vec<Tile>),
    Win(bool),
}

impl Call {
    pub fn method(&self) -> &'static str {
        match self {
            Call::Setup(..) => "setup",
            Call::TakeTurn(_) => "take-turn",
            Call::NewTiles(_) => "new-tiles",
            Call::Win(_) => "win",
        }
    }

    /// The call as the server sends it, its JPub's coordinates written out through the
    /// game's `edge`.
    pub fn to_exact(&self, edge: &Edge) -> ExactJson {
        let args = match self {
            Call::Setup(state, hand) => {
                vec![(json!(state), Role::WithMap), (json!(hand), Role::Other)]
            }
            Call::TakeTurn(state) => vec![(json!(state), Role::WithMap)],
            Call::NewTiles(tiles) => vec![(json!(tiles), Role::Other)],
            Call::Win(won) => vec![(json!(won), Role::Other)],
        };
        ExactJson::Array(vec![
            ExactJson::String(self.method().into()),
            ExactJson::Array(
                args.iter()
                    .map(|(arg, role)| edge.write(arg, *role))
                    .collect(),
            ),
        ])
    }

    /// Read a call as a client receives it, its JPub's coordinates read in through the
    /// game's `edge` (which the first JPub chooses).
    pub fn from_exact(value: ExactJson, edge: &mut GameEdge) -> Result<Call, String> {
        let call = match value {
            ExactJson::Array(mut call) => match call.as_mut_slice() {
                [ExactJson::String(method), ExactJson::Array(args)] => {
                    let with_jpub = matches!(method.as_str(), "setup" | "take-turn");
                    let args = std::mem::take(args)
                        .into_iter()
                        .enumerate()
                        .map(|(i, arg)| match i {
                            0 if with_jpub => edge.read(arg, Role::WithMap),
                            _ => arg.to_value(),
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    json!([method, args])
                }
                _ => ExactJson::Array(call).to_value()?,
            },
            other => other.to_value()?,
        };
        Call::from_json(&call)
    }

    /// Read a call whose coordinates are already the game's.
    pub fn from_json(value: &Value) -> Result<Call, String> {
        let (method, args) = match value.as_array().map(Vec::as_slice) {
            Some([Value::String(method), Value::Array(args)]) => (method.as_str(), args),
            _ => return Err(format!("a call is [MName, [Arg, …]], not {value}")),
        };
        match (method, args.as_slice()) {
            ("setup", [state, hand]) => Ok(Call::Setup(
                typed(state, "setup's JPub")?,
                typed(hand, "setup's tiles")?,
            )),
            ("take-turn", [state]) => Ok(Call::TakeTurn(typed(state, "take-turn's JPub")?)),
            ("new-tiles", [tiles]) => Ok(Call::NewTiles(typed(tiles, "new-tiles' tiles")?)),
            ("win", [Value::Bool(won)]) => Ok(Call::Win(*won)),
            _ => Err(format!("not a call with the right arguments: {value}")),
        }
    }
}

fn typed<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, String> {
    serde_json::from_value(value.clone()).map_err(|e| format!("bad {what}: {e}"))
}

/// The reply to `setup`, `new-tiles` and `win`.
pub fn void_reply() -> ExactJson {
    ExactJson::String("void".into())
}

/// Check a reply that must be `"void"`.
pub fn parse_void(reply: &ExactJson) -> Result<(), String> {
    match reply {
        ExactJson::String(word) if word == "void" => Ok(()),
        other => Err(format!("expected \"void\", got {}", abbreviate(other))),
    }
}

/// Read a `take-turn` reply, its coordinates read in through the game's `edge`.
pub fn parse_choice(reply: ExactJson, edge: &Edge) -> Result<Action, String> {
    let reply = edge
        .read_more(reply, Role::Placements)
        .map_err(|e| format!("not a JChoice: {e}"))?;
    check_choice(&reply)
}

/// A JChoice as the client sends it, its coordinates written out through the game's
/// `edge`.
pub fn choice_to_exact(choice: &Action, edge: &GameEdge) -> ExactJson {
    edge.write(&json!(choice), Role::Placements)
}

/// `"pass"`, `"replace"`, or a non-empty JPlacements whose objects have exactly the
/// keys of the data definition.
fn check_choice(reply: &Value) -> Result<Action, String> {
    if let Value::Array(placements) = reply {
        for placement in placements {
            let object = exact_keys(placement, &["coordinate", "1tile"], "a 1Placement")?;
            exact_keys(&object["coordinate"], &["row", "column"], "a JCoordinate")?;
            exact_keys(&object["1tile"], &["color", "shape"], "a JTile")?;
        }
    }
    serde_json::from_value(reply.clone()).map_err(|e| format!("not a JChoice: {e}"))
}

fn exact_keys<'v>(
    value: &'v Value,
    keys: &[&str],
    what: &str,
) -> Result<&'v JsonObject<String, Value>, String> {
    match value {
        Value::Object(object)
            if object.len() == keys.len() && keys.iter().all(|k| object.contains_key(*k)) =>
        {
            Ok(object)
        }
        other => Err(format!(
            "{what} must be an object with exactly the keys {keys:?}, not {}",
            abbreviate(other)
        )),
    }
}

/// A value for an error message, cut to a readable length.
fn abbreviate(value: &impl Display) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_qgame::{Coord, Map, Placement, Shape};

    fn red(shape: Shape) -> Tile {
        Tile::new(shape, arbiter_qgame::Color::Red)
    }

    fn jpub() -> JPub {
        JPub {
            map: Map::starting_with(red(Shape::Star)),
            pile_count: 3,
            me: arbiter_qgame::JPlayer {
                score: 4,
                tiles: vec![red(Shape::Circle)],
                name: Some("A".into()),
            },
            other_scores: vec![1, 2],
        }
    }

    /// Write a call as the server does and read it as a client does.
    fn round_trip(call: &Call, edge: &mut GameEdge) -> Call {
        let text = call.to_exact(&Edge::identity()).to_string();
        Call::from_exact(ExactJson::parse(&text).unwrap(), edge).unwrap()
    }

    #[test]
    fn calls_round_trip() {
        for call in [
            Call::Setup(jpub(), vec![red(Shape::Circle)]),
            Call::TakeTurn(jpub()),
            Call::NewTiles(vec![]),
            Call::Win(true),
        ] {
            assert_eq!(round_trip(&call, &mut GameEdge::default()), call);
        }
        assert_eq!(
            Call::Win(false).to_exact(&Edge::identity()).to_string(),
            r#"["win",[false]]"#
        );
    }

    #[test]
    fn malformed_calls_are_refused() {
        for bad in [
            json!(["win", [1]]),
            json!(["win", true]),
            json!(["win", [true, false]]),
            json!(["lose", [true]]),
            json!({"win": [true]}),
            json!(["new-tiles", [[{"color": "red"}]]]),
            json!(["take-turn", []]),
            json!(["take-turn", [{"map": 1}]]),
        ] {
            let exact = ExactJson::from_value(&bad);
            assert!(
                Call::from_exact(exact, &mut GameEdge::default()).is_err(),
                "{bad}"
            );
        }
    }

    fn choice(reply: Value) -> Result<Action, String> {
        parse_choice(ExactJson::from_value(&reply), &Edge::identity())
    }

    #[test]
    fn replies_are_checked_strictly() {
        let void = |reply: Value| parse_void(&ExactJson::from_value(&reply));
        assert_eq!(void(json!("void")), Ok(()));
        assert!(void(json!("Void")).is_err());
        assert!(void(json!(null)).is_err());
        assert_eq!(choice(json!("pass")), Ok(Action::Pass));
        assert_eq!(choice(json!("replace")), Ok(Action::Replace));
        let good = json!([{"coordinate": {"row": 0, "column": 1},
                           "1tile": {"color": "red", "shape": "circle"}}]);
        assert_eq!(
            choice(good),
            Ok(Action::Place(vec![Placement::new(
                Coord::new(0, 1),
                red(Shape::Circle)
            )]))
        );
        for bad in [
            json!("void"),
            json!([]),
            json!([{"oord": {"row": 0, "column": 1}, "1tile": {"color": "red", "shape": "circle"}}]),
            json!([{"coordinate": {"row": 0, "column": 1},
                    "1tile": {"color": "red", "shape": "circle", "x": 1}}]),
            json!([{"coordinate": {"row": 0.5, "column": 1},
                    "1tile": {"color": "red", "shape": "circle"}}]),
        ] {
            assert!(choice(bad.clone()).is_err(), "{bad}");
        }
    }

    /// A JChoice's `-0` is the integer 0 (serde_json alone reads it as a float).
    #[test]
    fn minus_zero_in_a_choice_reads_as_zero() {
        let reply = ExactJson::parse(
            r#"[{"coordinate":{"row":-0,"column":-0},"1tile":{"color":"red","shape":"circle"}}]"#,
        )
        .unwrap();
        assert_eq!(
            parse_choice(reply, &Edge::identity()),
            Ok(Action::Place(vec![Placement::new(
                Coord::new(0, 0),
                red(Shape::Circle)
            )]))
        );
    }

    /// A client sent a map whose row has 28 digits and whose column 52 reads it near
    /// zero and names the cells of its answer in the same digits; a later call's new
    /// tile is read consistently with the first.
    #[test]
    fn a_client_answers_in_the_coordinates_it_was_sent() {
        let row = "1234567890123456789012345678";
        let column = "-1234567890123456789012345678901234567890123456789012";
        let star = r#"{"color":"red","shape":"star"}"#;
        let jpub = |map: &str| {
            format!(
                r#"{{"map":{map},"tile*":3,"players":[{{"score":0,"tile*":[{{"color":"red","shape":"circle"}}]}},0]}}"#
            )
        };
        let mut edge = GameEdge::default();
        let setup = format!(
            r#"["setup",[{},[]]]"#,
            jpub(&format!("[[{row},[{column},{star}]]]"))
        );
        let Call::Setup(state, _) =
            Call::from_exact(ExactJson::parse(&setup).unwrap(), &mut edge).unwrap()
        else {
            panic!("a setup call");
        };
        assert_eq!(state.map.iter().next().unwrap().0, Coord::new(0, 0));

        let next_column = "-1234567890123456789012345678901234567890123456789011";
        let turn = format!(
            r#"["take-turn",[{}]]"#,
            jpub(&format!(
                "[[{row},[{column},{star}],[{next_column},{star}]]]"
            ))
        );
        let Call::TakeTurn(state) =
            Call::from_exact(ExactJson::parse(&turn).unwrap(), &mut edge).unwrap()
        else {
            panic!("a take-turn call");
        };
        let cells: Vec<Coord> = state.map.iter().map(|(at, _)| at).collect();
        assert_eq!(cells, [Coord::new(0, 0), Coord::new(0, 1)]);

        let answer = Action::Place(vec![Placement::new(Coord::new(-1, 1), red(Shape::Circle))]);
        assert_eq!(
            choice_to_exact(&answer, &edge).to_string(),
            format!(
                r#"[{{"coordinate":{{"row":1234567890123456789012345677,"column":{next_column}}},"1tile":{{"shape":"circle","color":"red"}}}}]"#
            )
        );
    }
}

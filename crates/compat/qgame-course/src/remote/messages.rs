//! The four calls and their replies as JSON (background §11.2):
//! `["setup",[JPub,[JTile…]]]`, `["take-turn",[JPub]]`, `["new-tiles",[[JTile…]]]`,
//! `["win",[Boolean]]`; the replies are `"void"`, or a JChoice for `take-turn`.
//! Both directions are checked strictly: exact arity, exact keys, known words.

use serde::de::DeserializeOwned;
use serde_json::{json, Map as JsonObject, Value};

use arbiter_qgame::{Action, JPub, Tile};

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

    pub fn to_json(&self) -> Value {
        let args = match self {
            Call::Setup(state, hand) => json!([state, hand]),
            Call::TakeTurn(state) => json!([state]),
            Call::NewTiles(tiles) => json!([tiles]),
            Call::Win(won) => json!([won]),
        };
        json!([self.method(), args])
    }

    /// Read a call as a client receives it.
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
pub fn void_reply() -> Value {
    Value::from("void")
}

/// Check a reply that must be `"void"`.
pub fn parse_void(reply: &Value) -> Result<(), String> {
    match reply {
        Value::String(word) if word == "void" => Ok(()),
        other => Err(format!("expected \"void\", got {}", abbreviate(other))),
    }
}

/// Read a `take-turn` reply: `"pass"`, `"replace"`, or a non-empty JPlacements whose
/// objects have exactly the keys of the data definition.
pub fn parse_choice(reply: &Value) -> Result<Action, String> {
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
fn abbreviate(value: &Value) -> String {
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

    #[test]
    fn calls_round_trip() {
        for call in [
            Call::Setup(jpub(), vec![red(Shape::Circle)]),
            Call::TakeTurn(jpub()),
            Call::NewTiles(vec![]),
            Call::Win(true),
        ] {
            let text = serde_json::to_string(&call.to_json()).unwrap();
            let back = Call::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
            assert_eq!(back, call);
        }
        assert_eq!(Call::Win(false).to_json(), json!(["win", [false]]));
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
        ] {
            assert!(Call::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replies_are_checked_strictly() {
        assert_eq!(parse_void(&json!("void")), Ok(()));
        assert!(parse_void(&json!("Void")).is_err());
        assert!(parse_void(&json!(null)).is_err());
        assert_eq!(parse_choice(&json!("pass")), Ok(Action::Pass));
        assert_eq!(parse_choice(&json!("replace")), Ok(Action::Replace));
        let good = json!([{"coordinate": {"row": 0, "column": 1},
                           "1tile": {"color": "red", "shape": "circle"}}]);
        assert_eq!(
            parse_choice(&good),
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
            assert!(parse_choice(&bad).is_err(), "{bad}");
        }
    }
}

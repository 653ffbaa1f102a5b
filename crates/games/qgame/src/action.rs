//! A turn's answer, in the course's JChoice form: `"pass"`, `"replace"`, or a
//! non-empty JPlacements array. The native protocol uses the same JSON, so course
//! clients and Arbiter clients speak one action language.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::placement::Placement;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Action {
    #[default]
    Pass,
    /// Exchange the whole hand (the course calls it "replace").
    Replace,
    Place(Vec<Placement>),
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Action::Pass => serializer.serialize_str("pass"),
            Action::Replace => serializer.serialize_str("replace"),
            Action::Place(placements) => placements.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(word) if word == "pass" => Ok(Action::Pass),
            Value::String(word) if word == "replace" => Ok(Action::Replace),
            Value::String(word) => Err(D::Error::custom(format!(
                "unknown choice {word:?}: expected \"pass\", \"replace\" or a list of placements"
            ))),
            Value::Array(items) => {
                let placements: Vec<Placement> = serde_json::from_value(Value::Array(items))
                    .map_err(|e| D::Error::custom(format!("bad placement: {e}")))?;
                if placements.is_empty() {
                    return Err(D::Error::custom("a placement list must not be empty"));
                }
                Ok(Action::Place(placements))
            }
            other => Err(D::Error::custom(format!(
                "expected \"pass\", \"replace\" or a list of placements, got {other}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_course_forms() {
        assert_eq!(
            serde_json::from_str::<Action>(r#""pass""#).unwrap(),
            Action::Pass
        );
        assert_eq!(
            serde_json::from_str::<Action>(r#""replace""#).unwrap(),
            Action::Replace
        );
        let text =
            r#"[{"coordinate":{"row":0,"column":1},"1tile":{"color":"red","shape":"star"}}]"#;
        let action: Action = serde_json::from_str(text).unwrap();
        assert!(matches!(&action, Action::Place(p) if p.len() == 1));
        let back: Action = serde_json::from_value(serde_json::to_value(&action).unwrap()).unwrap();
        assert_eq!(back, action);
        for bad in [
            r#"[]"#,
            r#""swap""#,
            r#"7"#,
            r#"[{"oord":{"row":0,"column":1},"1tile":{"color":"red","shape":"star"}}]"#,
        ] {
            assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad}");
        }
    }
}

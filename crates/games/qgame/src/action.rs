//! A turn's answer, in the course's JChoice form: `"pass"`, `"replace"`, or a
//! non-empty JPlacements array. The native protocol uses the same JSON, so course
//! clients and Arbiter clients speak one action language.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::placement::Placement;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum QAction {
    #[default]
    Pass,
    /// Exchange the whole hand (the course calls it "replace").
    Replace,
    Place(Vec<Placement>),
}

impl Serialize for QAction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            QAction::Pass => serializer.serialize_str("pass"),
            QAction::Replace => serializer.serialize_str("replace"),
            QAction::Place(placements) => placements.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for QAction {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(word) if word == "pass" => Ok(QAction::Pass),
            Value::String(word) if word == "replace" => Ok(QAction::Replace),
            Value::String(word) => Err(D::Error::custom(format!(
                "unknown choice {word:?}: expected \"pass\", \"replace\" or a list of placements"
            ))),
            Value::Array(items) => {
                let placements: Vec<Placement> = serde_json::from_value(Value::Array(items))
                    .map_err(|e| D::Error::custom(format!("bad placement: {e}")))?;
                if placements.is_empty() {
                    return Err(D::Error::custom("a placement list must not be empty"));
                }
                Ok(QAction::Place(placements))
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
            serde_json::from_str::<QAction>(r#""pass""#).unwrap(),
            QAction::Pass
        );
        assert_eq!(
            serde_json::from_str::<QAction>(r#""replace""#).unwrap(),
            QAction::Replace
        );
        let text =
            r#"[{"coordinate":{"row":0,"column":1},"1tile":{"color":"red","shape":"star"}}]"#;
        let action: QAction = serde_json::from_str(text).unwrap();
        assert!(matches!(&action, QAction::Place(p) if p.len() == 1));
        let back: QAction = serde_json::from_value(serde_json::to_value(&action).unwrap()).unwrap();
        assert_eq!(back, action);
        for bad in [
            r#"[]"#,
            r#""swap""#,
            r#"7"#,
            r#"[{"oord":{"row":0,"column":1},"1tile":{"color":"red","shape":"star"}}]"#,
        ] {
            assert!(serde_json::from_str::<QAction>(bad).is_err(), "{bad}");
        }
    }
}

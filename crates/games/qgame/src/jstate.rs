//! The course's JSON data definitions (§10): JPlayer, JState (the referee's view) and
//! JPub (one player's view). These are wire formats; the rules work on `State`.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::map::Map;
use crate::tile::Tile;

/// JPlayer: score and hand, and from milestone 8 on a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JPlayer {
    pub score: u32,
    #[serde(rename = "tile*")]
    pub tiles: Vec<Tile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// JState: the map, the pile (front first) and the players in turn order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JState {
    pub map: Map,
    #[serde(rename = "tile*")]
    pub pile: Vec<Tile>,
    pub players: Vec<JPlayer>,
}

/// JPub: what one player may know: the map, the pile's size, itself in full, and the
/// other players' scores in turn order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JPub {
    pub map: Map,
    pub pile_count: usize,
    pub me: JPlayer,
    pub other_scores: Vec<u32>,
}

impl Serialize for JPub {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut players = vec![serde_json::to_value(&self.me).map_err(serde::ser::Error::custom)?];
        players.extend(self.other_scores.iter().map(|s| Value::from(*s)));
        serde_json::json!({ "map": self.map, "tile*": self.pile_count, "players": players })
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JPub {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            map: Map,
            #[serde(rename = "tile*")]
            pile_count: usize,
            players: Vec<Value>,
        }
        let raw = Raw::deserialize(deserializer)?;
        let mut players = raw.players.into_iter();
        let me: JPlayer = players
            .next()
            .ok_or_else(|| D::Error::custom("JPub players must start with the player itself"))
            .and_then(|v| serde_json::from_value(v).map_err(D::Error::custom))?;
        let other_scores = players
            .map(|v| serde_json::from_value::<u32>(v).map_err(D::Error::custom))
            .collect::<Result<_, _>>()?;
        Ok(JPub {
            map: raw.map,
            pile_count: raw.pile_count,
            me,
            other_scores,
        })
    }
}

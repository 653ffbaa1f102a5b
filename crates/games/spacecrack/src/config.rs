//! Match options (background §2.12) with the decided defaults and their ranges.
//!
//! Configs arrive as JSON from lobbies and records, so reading one is done by hand:
//! every refusal names the field and its allowed range, which serde's derived messages
//! do not. Reading also validates, so a config that parses can start a game.

use std::ops::RangeInclusive;

use arbiter_engine::ConfigError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How a turn's command points are spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TurnMode {
    /// Everyone with points left acts whenever they like; arrival order decides.
    #[default]
    Concurrent,
    /// One player at a time spends all of their points, in seat order; the first seat
    /// rotates each turn (for play-by-email and asynchronous games).
    Sequential,
}

/// What building on a planet that already holds the builder's ship does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BuildOnOccupied {
    /// Refused (the prototype client's rule; keeps one ship per planet).
    #[default]
    Reject,
    /// The new ship's size is added to the ship already there.
    Merge,
}

/// What the perimeter ("frontier") bonus of §2.13 rewards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PerimeterMode {
    /// A planet bordering an opponent's planet produces `perimeter_bonus` % more crack.
    #[default]
    FrontierCrack,
    /// A defender on a frontier planet fights as if `perimeter_bonus` % larger.
    DefenderEdge,
}

/// One match's rules. `Default` is the decided ruleset (`rules/spacecrack.md`).
///
/// The map seed of §2.12 is the match seed given to `Game::new`, so it is not a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>")]
pub struct Config {
    /// Number of turns, 5–50.
    pub turns: u32,
    /// Board size parameter `s`, 5–30 (12 gives 45 planets).
    pub board_size: u32,
    /// Command points gained each turn, 2–10.
    pub command_points: u32,
    /// Crack produced by a planet, as a percentage of its size, 10–100.
    pub crack_pct: u32,
    /// Extra percentage for core planets, 0–100.
    pub interior_bonus: u32,
    /// Whether players may end their turn early (`EndTurn`) and save points.
    pub allow_pass: bool,
    /// Most points carried into the next turn, 0–20; `None` (JSON `null`) means the same
    /// as `command_points`.
    pub cp_carry_cap: Option<u32>,
    /// Per-turn deadline for the referee in seconds, 0–3600; 0 = none. The rules never
    /// read a clock: at the deadline the referee sends `turn_timeout` for each seat still
    /// in `to_act` (see [`crate::Action::TurnTimeout`]).
    pub turn_timeout_secs: u32,
    pub turn_mode: TurnMode,
    pub build_on_occupied: BuildOnOccupied,
    /// End the game as soon as only one player has planets or ships (2+ seats).
    pub end_on_elimination: bool,
    /// Mirror planet sizes so every start corner sees the same map.
    pub symmetric_sizes: bool,
    /// Perimeter bonus in percent, 0–100; 0 = off.
    pub perimeter_bonus: u32,
    pub perimeter_mode: PerimeterMode,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            turns: 15,
            board_size: 12,
            command_points: 5,
            crack_pct: 50,
            interior_bonus: 50,
            allow_pass: true,
            cp_carry_cap: None,
            turn_timeout_secs: 0,
            turn_mode: TurnMode::Concurrent,
            build_on_occupied: BuildOnOccupied::Reject,
            end_on_elimination: true,
            symmetric_sizes: false,
            perimeter_bonus: 0,
            perimeter_mode: PerimeterMode::FrontierCrack,
        }
    }
}

/// The integer fields with their allowed ranges, in the order errors are reported.
pub const RANGES: &[(&str, RangeInclusive<u32>)] = &[
    ("turns", 5..=50),
    ("board_size", 5..=30),
    ("command_points", 2..=10),
    ("crack_pct", 10..=100),
    ("interior_bonus", 0..=100),
    ("cp_carry_cap", 0..=20),
    ("turn_timeout_secs", 0..=3600),
    ("perimeter_bonus", 0..=100),
];

const FIELDS: &[&str] = &[
    "turns",
    "board_size",
    "command_points",
    "crack_pct",
    "interior_bonus",
    "allow_pass",
    "cp_carry_cap",
    "turn_timeout_secs",
    "turn_mode",
    "build_on_occupied",
    "end_on_elimination",
    "symmetric_sizes",
    "perimeter_bonus",
    "perimeter_mode",
];

fn range_of(field: &str) -> RangeInclusive<u32> {
    RANGES
        .iter()
        .find(|(name, _)| *name == field)
        .map_or(0..=u32::MAX, |(_, range)| range.clone())
}

fn out_of_range(field: &str, got: impl std::fmt::Display) -> ConfigError {
    let range = range_of(field);
    ConfigError::new(format!(
        "`{field}` must be an integer from {} to {}, got {got}",
        range.start(),
        range.end()
    ))
}

fn check(field: &str, value: u32) -> Result<(), ConfigError> {
    if range_of(field).contains(&value) {
        Ok(())
    } else {
        Err(out_of_range(field, value))
    }
}

fn read_u32(field: &str, value: &Value) -> Result<u32, ConfigError> {
    let number = value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| out_of_range(field, value))?;
    check(field, number)?;
    Ok(number)
}

fn read_bool(field: &str, value: &Value) -> Result<bool, ConfigError> {
    value
        .as_bool()
        .ok_or_else(|| ConfigError::new(format!("`{field}` must be true or false, got {value}")))
}

fn read_enum<T: serde::de::DeserializeOwned>(
    field: &str,
    value: &Value,
    choices: &str,
) -> Result<T, ConfigError> {
    serde_json::from_value(value.clone())
        .map_err(|_| ConfigError::new(format!("`{field}` must be one of {choices}, got {value}")))
}

impl Config {
    /// The carry cap in force: `cp_carry_cap`, or `command_points` when unset.
    pub fn carry_cap(&self) -> u32 {
        self.cp_carry_cap.unwrap_or(self.command_points)
    }

    /// Check every range; the first violation is the error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check("turns", self.turns)?;
        check("board_size", self.board_size)?;
        check("command_points", self.command_points)?;
        check("crack_pct", self.crack_pct)?;
        check("interior_bonus", self.interior_bonus)?;
        if let Some(cap) = self.cp_carry_cap {
            check("cp_carry_cap", cap)?;
        }
        check("turn_timeout_secs", self.turn_timeout_secs)?;
        check("perimeter_bonus", self.perimeter_bonus)?;
        Ok(())
    }

    /// Read a JSON object; missing fields take their defaults.
    pub fn from_json(map: &Map<String, Value>) -> Result<Config, ConfigError> {
        if let Some(unknown) = map.keys().find(|key| !FIELDS.contains(&key.as_str())) {
            return Err(ConfigError::new(format!(
                "unknown field `{unknown}`; the fields are {}",
                FIELDS.join(", ")
            )));
        }
        let mut config = Config::default();
        for (key, value) in map {
            match key.as_str() {
                "turns" => config.turns = read_u32(key, value)?,
                "board_size" => config.board_size = read_u32(key, value)?,
                "command_points" => config.command_points = read_u32(key, value)?,
                "crack_pct" => config.crack_pct = read_u32(key, value)?,
                "interior_bonus" => config.interior_bonus = read_u32(key, value)?,
                "allow_pass" => config.allow_pass = read_bool(key, value)?,
                "cp_carry_cap" => {
                    config.cp_carry_cap = match value {
                        Value::Null => None,
                        _ => Some(read_u32(key, value).map_err(|_| {
                            ConfigError::new(format!(
                                "`cp_carry_cap` must be null (= command_points) or an integer from 0 to 20, got {value}"
                            ))
                        })?),
                    }
                }
                "turn_timeout_secs" => config.turn_timeout_secs = read_u32(key, value)?,
                "turn_mode" => {
                    config.turn_mode = read_enum(key, value, "\"concurrent\", \"sequential\"")?
                }
                "build_on_occupied" => {
                    config.build_on_occupied = read_enum(key, value, "\"reject\", \"merge\"")?
                }
                "end_on_elimination" => config.end_on_elimination = read_bool(key, value)?,
                "symmetric_sizes" => config.symmetric_sizes = read_bool(key, value)?,
                "perimeter_bonus" => config.perimeter_bonus = read_u32(key, value)?,
                "perimeter_mode" => {
                    config.perimeter_mode =
                        read_enum(key, value, "\"frontier_crack\", \"defender_edge\"")?
                }
                _ => {}
            }
        }
        config.validate()?;
        Ok(config)
    }
}

impl TryFrom<Map<String, Value>> for Config {
    type Error = String;

    fn try_from(map: Map<String, Value>) -> Result<Self, Self::Error> {
        Config::from_json(&map).map_err(|e| e.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<Config, String> {
        serde_json::from_str::<Config>(json).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_are_the_decided_ruleset() {
        let config = parse("{}").unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.turns, 15);
        assert_eq!(config.board_size, 12);
        assert_eq!(config.command_points, 5);
        assert_eq!(config.crack_pct, 50);
        assert_eq!(config.interior_bonus, 50);
        assert!(config.allow_pass);
        assert_eq!(config.carry_cap(), 5);
        assert_eq!(config.turn_mode, TurnMode::Concurrent);
        assert_eq!(config.build_on_occupied, BuildOnOccupied::Reject);
        assert!(config.end_on_elimination);
        assert!(!config.symmetric_sizes);
        assert_eq!(config.perimeter_bonus, 0);
        assert_eq!(config.perimeter_mode, PerimeterMode::FrontierCrack);
    }

    #[test]
    fn round_trips_through_json() {
        let config = Config {
            cp_carry_cap: Some(7),
            turn_mode: TurnMode::Sequential,
            perimeter_mode: PerimeterMode::DefenderEdge,
            perimeter_bonus: 25,
            ..Config::default()
        };
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(parse(&json).unwrap(), config);
        let default_json = serde_json::to_string(&Config::default()).unwrap();
        assert_eq!(parse(&default_json).unwrap(), Config::default());
    }

    #[test]
    fn carry_cap_follows_command_points_when_unset() {
        let config = parse(r#"{"command_points": 8}"#).unwrap();
        assert_eq!(config.carry_cap(), 8);
        let config = parse(r#"{"command_points": 8, "cp_carry_cap": 0}"#).unwrap();
        assert_eq!(config.carry_cap(), 0);
    }

    #[test]
    fn every_range_is_enforced_at_both_ends() {
        for (field, range) in RANGES {
            let low = format!("{{\"{field}\": {}}}", range.start());
            let high = format!("{{\"{field}\": {}}}", range.end());
            assert!(parse(&low).is_ok(), "{field} low end");
            assert!(parse(&high).is_ok(), "{field} high end");
            let above = format!("{{\"{field}\": {}}}", range.end() + 1);
            let error = parse(&above).unwrap_err();
            assert!(error.contains(field), "{error}");
            assert!(error.contains(&range.end().to_string()), "{error}");
            if *range.start() > 0 {
                let below = format!("{{\"{field}\": {}}}", range.start() - 1);
                let error = parse(&below).unwrap_err();
                assert!(error.contains(field), "{error}");
                assert!(error.contains(&range.start().to_string()), "{error}");
            }
        }
    }
}

//! JServerConfig, JRefereeConfig and JClientConfig (background §10), parsed strictly as
//! the reference does: every field present, no field unknown, every value of its type
//! and within its documented range. Any violation is one readable message.
//!
//! They are read with their integers exact: state0's coordinates may be `-0` or of any
//! size, and are brought near zero through an [`Edge`] that the game's messages then
//! cross too, so the players see state0's own coordinates.

use std::time::Duration;

use serde_json::Value;

use arbiter_qgame::{Config, JState, State};

use crate::actors::{ActorLevel, ActorSpec};
use crate::edge::{Edge, Role};
use crate::exact::ExactJson;

/// Ports the course's programs accept.
pub const PORTS: std::ops::RangeInclusive<u64> = 10_000..=60_000;

#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    pub port: u16,
    /// Waiting periods before giving up (fewer than 10).
    pub server_tries: u32,
    /// Length of one waiting period (under 30 s).
    pub server_wait: Duration,
    /// How long a new connection has to send its name (under 10 s).
    pub wait_for_signup: Duration,
    pub quiet: bool,
    pub referee: RefereeConfig,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefereeConfig {
    /// The starting state; its players are matched to the signed-up clients by position.
    pub state0: JState,
    /// How state0's coordinates were brought within the rules' range, and so how the
    /// game's coordinates go out to the players and come back.
    pub edge: Edge,
    pub quiet: bool,
    /// Q bonus and finish bonus (`config-s`).
    pub qbo: u32,
    pub fbo: u32,
    /// The time limit of every call (at most 6 s).
    pub per_turn: Duration,
    /// Report every observed state (a JState line on standard error).
    pub observe: bool,
}

impl RefereeConfig {
    /// The rules' state for this configuration.
    pub fn initial_state(&self) -> Result<State, String> {
        let rules = Config {
            qbo: self.qbo,
            fbo: self.fbo,
            state0: None,
            // The course's referee: dealt tiles go out in `new-tiles` calls.
            course_calls: true,
        };
        State::from_jstate(&self.state0, &rules).map_err(|e| format!("bad state0: {e}"))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    pub port: u16,
    pub host: String,
    /// Pause before launching each client (under 10 s), so sign-up order is the
    /// order of `players`.
    pub wait: Duration,
    pub quiet: bool,
    pub players: Vec<ActorSpec>,
}

/// The clients that break the sign-up protocol (named by a JSON string after some
/// Bonus client configurations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialClient {
    /// Connects and never sends a name.
    DivergeBeforeSending,
    /// Sends the name `sendnameloop`, then never answers a call.
    SendNameLoop,
}

impl SpecialClient {
    pub fn parse(value: &ExactJson) -> Result<SpecialClient, String> {
        match value {
            ExactJson::String(name) if name == "divergeBeforeSending" => {
                Ok(SpecialClient::DivergeBeforeSending)
            }
            ExactJson::String(name) if name == "sendnameloop" => Ok(SpecialClient::SendNameLoop),
            _ => Err(format!(
                "a special client is \"divergeBeforeSending\" or \"sendnameloop\", not {value}"
            )),
        }
    }
}

impl ServerConfig {
    /// A configuration serde_json has read (integers beyond 64 bits, and `-0`, already
    /// turned into floats).
    pub fn from_json(value: &Value) -> Result<ServerConfig, String> {
        ServerConfig::from_exact(&ExactJson::from_value(value))
    }

    /// A configuration as read from its text (what `xserver` does).
    pub fn from_exact(value: &ExactJson) -> Result<ServerConfig, String> {
        let fields = Fields::exactly(
            value,
            "JServerConfig",
            &[
                "port",
                "server-tries",
                "server-wait",
                "wait-for-signup",
                "quiet",
                "ref-spec",
            ],
        )?;
        Ok(ServerConfig {
            port: fields.port("port")?,
            server_tries: fields.natural_below("server-tries", 10)? as u32,
            server_wait: Duration::from_secs(fields.natural_below("server-wait", 30)?),
            wait_for_signup: Duration::from_secs(fields.natural_below("wait-for-signup", 10)?),
            quiet: fields.boolean("quiet")?,
            referee: RefereeConfig::from_exact(fields.get("ref-spec"))?,
        })
    }
}

impl RefereeConfig {
    /// Its state0 read through a coordinate [`Edge`] chosen for it.
    pub fn from_exact(value: &ExactJson) -> Result<RefereeConfig, String> {
        let fields = Fields::exactly(
            value,
            "JRefereeConfig",
            &["state0", "quiet", "config-s", "per-turn", "observe"],
        )?;
        let not_a_state = |e: String| format!("JRefereeConfig: state0 is not a JState: {e}");
        let (edge, state0) =
            Edge::read_one(fields.get("state0").clone(), Role::WithMap).map_err(not_a_state)?;
        let state0: JState =
            serde_json::from_value(state0).map_err(|e| not_a_state(e.to_string()))?;
        let bonuses = Fields::exactly(
            fields.get("config-s"),
            "JRefereeStateConfig",
            &["qbo", "fbo"],
        )?;
        let per_turn = fields.number("per-turn")?;
        if !(per_turn > 0.0 && per_turn <= 6.0) {
            return Err(format!(
                "JRefereeConfig: per-turn must be more than 0 and at most 6 seconds, not {per_turn}"
            ));
        }
        let config = RefereeConfig {
            state0,
            edge,
            quiet: fields.boolean("quiet")?,
            qbo: bonuses.natural_below("qbo", 11)? as u32,
            fbo: bonuses.natural_below("fbo", 11)? as u32,
            per_turn: Duration::from_secs_f64(per_turn),
            observe: fields.boolean("observe")?,
        };
        config.initial_state()?;
        Ok(config)
    }
}

impl ClientConfig {
    /// A configuration serde_json has read.
    pub fn from_json(value: &Value) -> Result<ClientConfig, String> {
        ClientConfig::from_exact(&ExactJson::from_value(value))
    }

    /// A configuration as read from its text (what `xclients` does).
    pub fn from_exact(value: &ExactJson) -> Result<ClientConfig, String> {
        let fields = Fields::exactly(
            value,
            "JClientConfig",
            &["port", "host", "wait", "quiet", "players"],
        )?;
        let ExactJson::String(host) = fields.get("host") else {
            return Err("JClientConfig: host must be a string".into());
        };
        let players = fields
            .get("players")
            .to_value()
            .map_err(|e| format!("JClientConfig: players: {e}"))?;
        let players = players
            .as_array()
            .ok_or("JClientConfig: players must be an array of JActors")?
            .iter()
            .map(|actor| {
                ActorSpec::parse_any_name(actor, ActorLevel::Loops)
                    .map_err(|e| format!("JClientConfig: players: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ClientConfig {
            port: fields.port("port")?,
            host: host.to_string(),
            wait: Duration::from_secs(fields.natural_below("wait", 10)?),
            quiet: fields.boolean("quiet")?,
            players,
        })
    }
}

/// A configuration object whose key set has been checked. As in serde_json's `Value`,
/// a key given twice counts once, with its last value.
struct Fields<'v> {
    what: &'static str,
    object: &'v ExactJson,
}

impl<'v> Fields<'v> {
    fn exactly(object: &'v ExactJson, what: &'static str, keys: &[&str]) -> Result<Self, String> {
        let ExactJson::Object(entries) = object else {
            return Err(format!("{what} must be a JSON object"));
        };
        if let Some(missing) = keys.iter().find(|k| object.get(k).is_none()) {
            return Err(format!("{what} lacks the field {missing:?}"));
        }
        if let Some((extra, _)) = entries.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            return Err(format!("{what} has an unknown field {extra:?}"));
        }
        Ok(Fields { what, object })
    }

    /// A checked key's value.
    fn get(&self, key: &str) -> &'v ExactJson {
        self.object.get(key).unwrap_or(&ExactJson::Null)
    }

    /// A non-negative integer that fits in 64 bits.
    fn natural(&self, key: &str) -> Option<u64> {
        match self.get(key) {
            ExactJson::Int(n) => n.to_i64().and_then(|n| u64::try_from(n).ok()),
            _ => None,
        }
    }

    fn natural_below(&self, key: &str, bound: u64) -> Result<u64, String> {
        match self.natural(key) {
            Some(n) if n < bound => Ok(n),
            _ => Err(format!(
                "{}: {key} must be a natural number below {bound}, not {}",
                self.what,
                self.get(key)
            )),
        }
    }

    fn number(&self, key: &str) -> Result<f64, String> {
        let number = match self.get(key) {
            ExactJson::Int(n) => n.to_number(),
            ExactJson::Number(n) => Some(n.clone()),
            _ => None,
        };
        number
            .and_then(|n| n.as_f64())
            .ok_or_else(|| format!("{}: {key} must be a number", self.what))
    }

    fn boolean(&self, key: &str) -> Result<bool, String> {
        match self.get(key) {
            ExactJson::Bool(b) => Ok(*b),
            _ => Err(format!("{}: {key} must be true or false", self.what)),
        }
    }

    fn port(&self, key: &str) -> Result<u16, String> {
        match self.natural(key) {
            Some(port) if PORTS.contains(&port) => Ok(port as u16),
            _ => Err(format!(
                "{}: {key} must be a port number from {} to {}, not {}",
                self.what,
                PORTS.start(),
                PORTS.end(),
                self.get(key)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn server_config() -> Value {
        json!({
            "port": 45678, "server-tries": 2, "server-wait": 20, "wait-for-signup": 2,
            "quiet": true,
            "ref-spec": {
                "state0": {
                    "map": [[0, [0, {"color": "red", "shape": "star"}]]],
                    "tile*": [],
                    "players": [
                        {"name": "A", "score": 0, "tile*": []},
                        {"name": "B", "score": 0, "tile*": []}
                    ]
                },
                "quiet": true, "config-s": {"qbo": 8, "fbo": 4}, "per-turn": 6,
                "observe": false
            }
        })
    }

    #[test]
    fn a_reference_server_config_parses() {
        let config = ServerConfig::from_json(&server_config()).unwrap();
        assert_eq!(config.port, 45678);
        assert_eq!(config.server_tries, 2);
        assert_eq!(config.server_wait, Duration::from_secs(20));
        assert_eq!(config.wait_for_signup, Duration::from_secs(2));
        assert_eq!(config.referee.per_turn, Duration::from_secs(6));
        assert_eq!((config.referee.qbo, config.referee.fbo), (8, 4));
        assert_eq!(config.referee.state0.players.len(), 2);
    }

    /// As in the harnesses: a state0 row naming a column twice keeps the last tile.
    #[test]
    fn a_state0_column_named_twice_keeps_its_last_tile() {
        let mut config = server_config();
        config["ref-spec"]["state0"]["map"] = json!([[0,
            [0, {"color": "red", "shape": "star"}],
            [0, {"color": "blue", "shape": "circle"}]]]);
        let config = ServerConfig::from_json(&config).unwrap();
        let cells: Vec<_> = config.referee.state0.map.iter().collect();
        assert_eq!(
            cells,
            vec![(
                arbiter_qgame::Coord::new(0, 0),
                arbiter_qgame::Tile::new(arbiter_qgame::Shape::Circle, arbiter_qgame::Color::Blue)
            )]
        );
    }

    /// state0's coordinates as the course writes them: `-0` is 0, and a 28-digit row and
    /// a 52-digit column are brought near zero, then go out in their own digits.
    #[test]
    fn a_state0_with_minus_zero_or_huge_coordinates_is_read() {
        let red_star = r#"{"color":"red","shape":"star"}"#;
        let text = |row: &str, column: &str| {
            let mut config = server_config();
            config["ref-spec"]["state0"]["map"] = json!("MAP");
            config
                .to_string()
                .replace(r#""MAP""#, &format!("[[{row},[{column},{red_star}]]]"))
        };
        let read = |text: &str| ServerConfig::from_exact(&ExactJson::parse(text).unwrap());

        let zero = read(&text("-0", "-0")).unwrap();
        assert_eq!(zero.referee.edge, Edge::identity());
        let cells: Vec<_> = zero.referee.state0.map.iter().map(|(at, _)| at).collect();
        assert_eq!(cells, [arbiter_qgame::Coord::new(0, 0)]);

        let (row, column) = (
            "1234567890123456789012345678",
            "-1234567890123456789012345678901234567890123456789012",
        );
        let huge = read(&text(row, column)).unwrap();
        let map = serde_json::to_value(&huge.referee.state0.map).unwrap();
        assert_eq!(
            huge.referee.edge.write(&map, Role::Map).to_string(),
            format!(r#"[[{row},[{column},{{"shape":"star","color":"red"}}]]]"#)
        );
    }

    #[test]
    fn server_config_errors_name_the_field() {
        type Change = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(Change, &str)> = vec![
            (
                Box::new(|c| {
                    c.as_object_mut().unwrap().remove("server-wait");
                }),
                "lacks the field \"server-wait\"",
            ),
            (
                Box::new(|c| c["extra"] = json!(1)),
                "unknown field \"extra\"",
            ),
            (Box::new(|c| c["port"] = json!(80)), "port must be a port"),
            (Box::new(|c| c["server-wait"] = json!(30)), "server-wait"),
            (Box::new(|c| c["server-tries"] = json!("2")), "server-tries"),
            (
                Box::new(|c| c["quiet"] = json!(1)),
                "quiet must be true or false",
            ),
            (
                Box::new(|c| c["ref-spec"]["per-turn"] = json!(7)),
                "per-turn",
            ),
            (
                Box::new(|c| c["ref-spec"]["config-s"]["qbo"] = json!(11)),
                "qbo",
            ),
            (
                Box::new(|c| {
                    c["ref-spec"]["config-s"]
                        .as_object_mut()
                        .unwrap()
                        .remove("fbo");
                }),
                "JRefereeStateConfig lacks the field \"fbo\"",
            ),
            (
                Box::new(|c| c["ref-spec"]["state0"]["map"] = json!([])),
                "state0",
            ),
            (Box::new(|c| c["ref-spec"]["state0"] = json!(3)), "state0"),
        ];
        for (change, expected) in cases {
            let mut config = server_config();
            change(&mut config);
            let error = ServerConfig::from_json(&config).unwrap_err();
            assert!(
                error.contains(expected),
                "{error:?} should mention {expected:?}"
            );
        }
    }

    #[test]
    fn client_configs_allow_any_name_but_check_the_rest() {
        let config = json!({
            "port": 45714, "host": "127.0.0.1", "wait": 2, "quiet": true,
            "players": [["λ", "dag"], ["infL2", "ldasg", "take-turn", 2],
                        ["ch", "ldasg", "a cheat", "no-fit"]]
        });
        let parsed = ClientConfig::from_json(&config).unwrap();
        assert_eq!(parsed.players.len(), 3);
        assert_eq!(parsed.players[0].name, "λ");
        assert_eq!(parsed.wait, Duration::from_secs(2));
        for (key, bad) in [
            ("wait", json!(10)),
            ("host", json!(1)),
            ("players", json!([["A", "smart"]])),
        ] {
            let mut changed = config.clone();
            changed[key] = bad;
            assert!(ClientConfig::from_json(&changed).is_err(), "{key}");
        }
        let special = |name: &str| SpecialClient::parse(&ExactJson::String(name.into()));
        assert!(special("sendnameloop").is_ok());
        assert!(special("somethingElse").is_err());
    }
}

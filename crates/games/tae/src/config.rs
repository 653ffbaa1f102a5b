//! Match options. `Config::default()` is the decided ruleset (rules/tae.md).

use serde::{Deserialize, Serialize};

use arbiter_engine::ConfigError;

use crate::board::{board_from_text, default_board, Board};
use crate::kind::{Kind, Tiles};

/// Fewest and most seats.
pub const MIN_SEATS: usize = 2;
pub const MAX_SEATS: usize = 4;
/// Limits on the numeric options, so a config cannot ask for absurd games.
pub const MAX_HAND: u32 = 12;
pub const MAX_BOMBERS: u32 = 10;
pub const MAX_BAG_PER_KIND: u32 = 10_000;
/// The game ends when this many artifacts or fewer remain, so a board needs more.
pub const END_ARTIFACTS: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// A custom board as text (`.` plain, `M` uninhabitable, `A` artifact; the last line
    /// is row 0). `None` is the default 16 × 11 board.
    pub board: Option<String>,
    /// The bag's colonists (the artifact cells' scientist colonies are extra).
    pub bag: Tiles,
    /// Colonists in a full hand.
    pub hand_size: u32,
    /// The leader kinds each player owns (at most one of each kind).
    pub leaders: Vec<Kind>,
    /// One-shot bombers per player.
    pub bombers: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            board: None,
            bag: Tiles::new(47, 36, 30, 30),
            hand_size: 6,
            leaders: Kind::ALL.to_vec(),
            bombers: 2,
        }
    }
}

impl Config {
    /// Check every option for `seats` players and build the starting board.
    pub fn validate(&self, seats: usize) -> Result<Board, ConfigError> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(ConfigError::new(format!(
                "seats: TaE needs {MIN_SEATS} to {MAX_SEATS} players, got {seats}"
            )));
        }
        let board = match &self.board {
            Some(text) => board_from_text(text)?,
            None => default_board(),
        };
        let artifacts = board.artifact_count();
        if artifacts <= END_ARTIFACTS {
            return Err(ConfigError::new(format!(
                "board: needs at least {} artifact cells (the game ends when {END_ARTIFACTS} \
                 or fewer remain), this board has {artifacts}",
                END_ARTIFACTS + 1
            )));
        }
        if !(1..=MAX_HAND).contains(&self.hand_size) {
            return Err(ConfigError::new(format!(
                "hand_size: must be 1 to {MAX_HAND}, got {}",
                self.hand_size
            )));
        }
        if self.bombers > MAX_BOMBERS {
            return Err(ConfigError::new(format!(
                "bombers: must be 0 to {MAX_BOMBERS}, got {}",
                self.bombers
            )));
        }
        if self.leaders.is_empty() {
            return Err(ConfigError::new(
                "leaders: each player needs at least one leader kind",
            ));
        }
        for (i, kind) in self.leaders.iter().enumerate() {
            if self.leaders[..i].contains(kind) {
                return Err(ConfigError::new(format!(
                    "leaders: {kind:?} is listed twice (a player has at most one leader of each kind)"
                )));
            }
        }
        for kind in Kind::ALL {
            let n = self.bag.get(kind);
            if n > MAX_BAG_PER_KIND {
                return Err(ConfigError::new(format!(
                    "bag.{}: must be 0 to {MAX_BAG_PER_KIND}, got {n}",
                    serde_name(kind)
                )));
            }
        }
        let needed = seats as u32 * self.hand_size;
        if self.bag.total() < needed {
            return Err(ConfigError::new(format!(
                "bag: holds {} colonists but {seats} hands of {} need {needed}",
                self.bag.total(),
                self.hand_size
            )));
        }
        Ok(board)
    }
}

fn serde_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Scientist => "scientist",
        Kind::Mining => "mining",
        Kind::Merchant => "merchant",
        Kind::Settler => "settler",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(config: &Config, seats: usize) -> String {
        match config.validate(seats) {
            Ok(_) => String::from("accepted"),
            Err(e) => e.0,
        }
    }

    #[test]
    fn default_is_the_decided_ruleset() {
        let config = Config::default();
        assert_eq!(config.bag, Tiles::new(47, 36, 30, 30));
        assert_eq!(config.bag.total(), 143);
        assert_eq!(config.hand_size, 6);
        assert_eq!(config.bombers, 2);
        assert_eq!(config.leaders.len(), 4);
        for seats in 2..=4 {
            assert!(config.validate(seats).is_ok());
        }
    }

    #[test]
    fn bad_configs_are_rejected_with_the_field_named() {
        let base = Config::default();
        assert!(err(&base, 1).starts_with("seats:"));
        assert!(err(&base, 5).starts_with("seats:"));
        let c = Config {
            hand_size: 0,
            ..base.clone()
        };
        assert!(err(&c, 2).starts_with("hand_size:"));
        let c = Config {
            bombers: 11,
            ..base.clone()
        };
        assert!(err(&c, 2).starts_with("bombers:"));
        let c = Config {
            leaders: vec![],
            ..base.clone()
        };
        assert!(err(&c, 2).starts_with("leaders:"));
        let c = Config {
            leaders: vec![Kind::Merchant, Kind::Merchant],
            ..base.clone()
        };
        assert!(err(&c, 2).contains("twice"));
        let c = Config {
            bag: Tiles::new(3, 3, 3, 3),
            ..base.clone()
        };
        assert!(err(&c, 3).starts_with("bag:"));
        let c = Config {
            bag: Tiles::new(MAX_BAG_PER_KIND + 1, 0, 0, 0),
            ..base.clone()
        };
        assert!(err(&c, 2).starts_with("bag.scientist:"));
        let c = Config {
            board: Some("..A\n.A.\n".into()),
            ..base.clone()
        };
        assert!(err(&c, 2).contains("at least 3 artifact cells"));
        let c = Config {
            board: Some("..A\n.A\n".into()),
            ..base.clone()
        };
        assert!(err(&c, 2).contains("not rectangular"));
        let c = Config {
            board: Some("AAA\n.?.\n".into()),
            ..base
        };
        assert!(err(&c, 2).contains("unknown character"));
    }

    #[test]
    fn unknown_fields_are_refused() {
        let parsed: Result<Config, _> = serde_json::from_str(r#"{"hand":6}"#);
        assert!(parsed.is_err());
        let parsed: Config = serde_json::from_str(r#"{"bombers":1}"#).unwrap();
        assert_eq!(parsed.bombers, 1);
        assert_eq!(parsed.hand_size, 6);
    }
}

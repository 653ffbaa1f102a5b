//! Bad configurations and seat counts are refused with errors that name the field and
//! its range, both through the typed API and through the registry's JSON.

use arbiter_engine::{Game, Registry};
use arbiter_spacecrack::config::RANGES;
use arbiter_spacecrack::{Config, SpaceCrack};
use serde_json::json;

fn registry_error(config: serde_json::Value) -> String {
    let mut registry = Registry::new();
    registry.register::<SpaceCrack>();
    let game = registry.get("spacecrack").unwrap();
    match game.new_state(&config, 2, 1) {
        Ok(_) => panic!("{config} was accepted"),
        Err(error) => {
            // The registry's other entry points agree.
            assert!(game.normalize_config(&config).is_err());
            assert!(game.seat_counts(&config).is_err());
            error.to_string()
        }
    }
}

#[test]
fn out_of_range_numbers_name_field_and_range() {
    let cases = [
        (
            json!({"turns": 4}),
            "`turns` must be an integer from 5 to 50, got 4",
        ),
        (
            json!({"turns": 51}),
            "`turns` must be an integer from 5 to 50, got 51",
        ),
        (
            json!({"board_size": 31}),
            "`board_size` must be an integer from 5 to 30, got 31",
        ),
        (
            json!({"board_size": 4}),
            "`board_size` must be an integer from 5 to 30, got 4",
        ),
        (
            json!({"command_points": 1}),
            "`command_points` must be an integer from 2 to 10, got 1",
        ),
        (
            json!({"crack_pct": 9}),
            "`crack_pct` must be an integer from 10 to 100, got 9",
        ),
        (
            json!({"interior_bonus": 101}),
            "`interior_bonus` must be an integer from 0 to 100, got 101",
        ),
        (
            json!({"turn_timeout_secs": 3601}),
            "`turn_timeout_secs` must be an integer from 0 to 3600, got 3601",
        ),
        (
            json!({"perimeter_bonus": 101}),
            "`perimeter_bonus` must be an integer from 0 to 100, got 101",
        ),
        (
            json!({"turns": -3}),
            "`turns` must be an integer from 5 to 50, got -3",
        ),
        (
            json!({"turns": 7.5}),
            "`turns` must be an integer from 5 to 50, got 7.5",
        ),
        (
            json!({"turns": "15"}),
            "`turns` must be an integer from 5 to 50, got \"15\"",
        ),
        (
            json!({"turns": 99999999999u64}),
            "`turns` must be an integer from 5 to 50, got 99999999999",
        ),
        (
            json!({"cp_carry_cap": 21}),
            "`cp_carry_cap` must be null (= command_points) or an integer from 0 to 20, got 21",
        ),
    ];
    for (config, expected) in cases {
        let error = registry_error(config.clone());
        assert_eq!(
            error,
            format!("invalid configuration: {expected}"),
            "{config}"
        );
    }
}

#[test]
fn wrong_types_and_unknown_fields() {
    let error = registry_error(json!({"allow_pass": "yes"}));
    assert!(
        error.contains("`allow_pass` must be true or false"),
        "{error}"
    );
    let error = registry_error(json!({"turn_mode": "realtime"}));
    assert!(
        error.contains(
            "`turn_mode` must be one of \"concurrent\", \"sequential\", got \"realtime\""
        ),
        "{error}"
    );
    let error = registry_error(json!({"build_on_occupied": 1}));
    assert!(
        error.contains("`build_on_occupied` must be one of"),
        "{error}"
    );
    let error = registry_error(json!({"perimeter_mode": "edge"}));
    assert!(error.contains("`perimeter_mode` must be one of"), "{error}");
    let error = registry_error(json!({"turn": 10}));
    assert!(error.contains("unknown field `turn`"), "{error}");
    assert!(error.contains("turns"), "{error}");
    let error = registry_error(json!([1, 2]));
    assert!(error.contains("invalid configuration"), "{error}");
}

#[test]
fn typed_configs_are_validated_by_new() {
    for (field, range) in RANGES {
        let mut value = serde_json::to_value(Config::default()).unwrap();
        value[field] = json!(range.end() + 1);
        // Build the bad config field by field, bypassing the JSON reader's checks.
        let mut config = Config::default();
        let bad = range.end() + 1;
        match *field {
            "turns" => config.turns = bad,
            "board_size" => config.board_size = bad,
            "command_points" => config.command_points = bad,
            "crack_pct" => config.crack_pct = bad,
            "interior_bonus" => config.interior_bonus = bad,
            "cp_carry_cap" => config.cp_carry_cap = Some(bad),
            "turn_timeout_secs" => config.turn_timeout_secs = bad,
            "perimeter_bonus" => config.perimeter_bonus = bad,
            other => panic!("untested field {other}"),
        }
        let error = SpaceCrack::new(&config, 2, 0).unwrap_err().to_string();
        assert!(error.contains(&format!("`{field}`")), "{error}");
        assert!(error.contains(&range.end().to_string()), "{error}");
        assert!(serde_json::from_value::<Config>(value).is_err());
    }
}

#[test]
fn seat_counts() {
    let config = Config::default();
    assert_eq!(SpaceCrack::seat_counts(&config), 1..=4);
    for seats in 1..=4 {
        assert!(SpaceCrack::new(&config, seats, 0).is_ok());
    }
    for seats in [0, 5, 100] {
        let error = SpaceCrack::new(&config, seats, 0).unwrap_err().to_string();
        assert!(error.contains("1 to 4 seats"), "{error}");
        assert!(error.contains(&format!("got {seats}")), "{error}");
    }
}

#[test]
fn registry_fills_defaults_and_accepts_null() {
    let mut registry = Registry::new();
    registry.register::<SpaceCrack>();
    let game = registry.get("spacecrack").unwrap();
    assert_eq!(game.name(), "Space Crack");
    let normalized = game.normalize_config(&serde_json::Value::Null).unwrap();
    assert_eq!(normalized, game.default_config());
    assert_eq!(normalized["turns"], 15);
    assert_eq!(normalized["board_size"], 12);
    assert_eq!(normalized["cp_carry_cap"], serde_json::Value::Null);
    let partial = game.normalize_config(&json!({"turns": 20})).unwrap();
    assert_eq!(partial["turns"], 20);
    assert_eq!(partial["command_points"], 5);
    assert!(game.new_state(&json!({}), 4, 9).is_ok());
    assert!(game.new_state(&json!({}), 5, 9).is_err());
}

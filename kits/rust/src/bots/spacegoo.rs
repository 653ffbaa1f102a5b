//! Rocket Scissor Spacegoo: simulate each send's battle, play the best one.
//!
//! The server's legal list is a sample (`crates/games/spacegoo/RULES.md`): `"nop"`, and
//! for every planet we own and every other planet, "send all its ships" and "send half
//! of each type". For each send to a planet that is not ours, this bot simulates the
//! battle (the rules' rock-paper-scissors damage) against the garrison as it will be when
//! the fleet lands (an enemy planet keeps producing), and scores it: ships destroyed
//! minus ships lost, plus, when the planet falls, its production over the next 20 rounds
//! (twice for an enemy planet: it is also the enemy's loss), a little more for half
//! fleets (home stays defended), nothing for a planet a fleet of ours is already flying
//! to. It plays the best send that gains something; otherwise `"nop"`. One command a
//! round: a second one disqualifies, so the kit sends exactly one answer per prompt.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::bot::{Bot, Prompt};

/// Ships of the three types.
type Ships = [f64; 3];

/// (multiplier, minimum damage) by (defender type - attacker type) mod 3.
const MATCHUPS: [(f64, f64); 3] = [(0.1, 1.0), (0.25, 2.0), (0.01, 1.0)];

pub struct Spacegoo;

impl Bot for Spacegoo {
    fn decide(&mut self, view: &Value, legal: &[Value], _prompt: &Prompt) -> Value {
        let me = view["player_id"].as_i64().unwrap_or(0);
        let planets: HashMap<i64, &Value> = planets(view)
            .map(|p| (p["id"].as_i64().unwrap_or(-1), p))
            .collect();
        let underway: HashSet<i64> = view["fleets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["owner_id"].as_i64() == Some(me))
            .filter_map(|f| f["target"].as_i64())
            .collect();
        let mut best = json!("nop");
        let mut best_gain = 0.0;
        for action in legal {
            let Some(send) = action.get("send") else {
                continue;
            };
            let gain = send_gain(view, &planets, &underway, send);
            if gain > best_gain {
                best = action.clone();
                best_gain = gain;
            }
        }
        best
    }
}

fn planets(view: &Value) -> impl Iterator<Item = &Value> {
    view["planets"].as_array().into_iter().flatten()
}

fn ships(value: &Value) -> Ships {
    [0, 1, 2].map(|i| value[i].as_f64().unwrap_or(0.0))
}

/// One round of damage from `attacker` to `defender`.
fn battle_round(attacker: Ships, defender: Ships) -> Ships {
    let mut out = defender;
    for (d, ships) in out.iter_mut().enumerate() {
        for (a, &count) in attacker.iter().enumerate() {
            let (multiplier, minimum) = MATCHUPS[(d + 3 - a) % 3];
            let minimum = if count > 0.0 { minimum } else { 0.0 };
            *ships -= (count * multiplier).max(minimum);
        }
        *ships = ships.max(0.0);
    }
    out
}

/// Both sides' survivors after a battle (truncated to whole ships).
fn battle(mut s1: Ships, mut s2: Ships) -> (Ships, Ships) {
    let total = |s: &Ships| s.iter().sum::<f64>();
    while total(&s1) > 0.0 && total(&s2) > 0.0 {
        (s1, s2) = (battle_round(s2, s1), battle_round(s1, s2));
    }
    (s1.map(f64::trunc), s2.map(f64::trunc))
}

/// Ships destroyed minus ships lost, plus, when the planet falls, its production over
/// the next 20 rounds (counted twice when taken from the enemy).
fn send_gain(
    view: &Value,
    planets: &HashMap<i64, &Value>,
    underway: &HashSet<i64>,
    send: &Value,
) -> f64 {
    let me = view["player_id"].as_i64().unwrap_or(0);
    let (Some(origin), Some(target)) = (
        send["origin"].as_i64().and_then(|id| planets.get(&id)),
        send["target"].as_i64().and_then(|id| planets.get(&id)),
    ) else {
        return 0.0;
    };
    let target_id = target["id"].as_i64().unwrap_or(-1);
    let owner = target["owner_id"].as_i64().unwrap_or(0);
    if owner == me || underway.contains(&target_id) {
        return 0.0; // ours already, or a fleet of ours is on its way
    }
    let dx = origin["x"].as_f64().unwrap_or(0.0) - target["x"].as_f64().unwrap_or(0.0);
    let dy = origin["y"].as_f64().unwrap_or(0.0) - target["y"].as_f64().unwrap_or(0.0);
    let eta = dx.hypot(dy).ceil();
    let enemy = owner != 0;
    let production = ships(&target["production"]);
    let mut garrison = ships(&target["ships"]);
    if enemy {
        // an enemy planet keeps producing until the fleet lands
        for (s, p) in garrison.iter_mut().zip(production) {
            *s += p * eta;
        }
    }
    let sent = ships(&send["ships"]);
    let (left, garrison_left) = battle(sent, garrison);
    let sum = |s: Ships| s.iter().sum::<f64>();
    let lost = sum(sent) - sum(left);
    let destroyed = if enemy {
        sum(garrison) - sum(garrison_left)
    } else {
        0.0
    };
    if sum(garrison_left) > 0.0 {
        return destroyed - lost;
    }
    let max_rounds = view["max_rounds"].as_f64().unwrap_or(0.0);
    let round = view["round"].as_f64().unwrap_or(0.0);
    let rounds = (max_rounds - round - eta).clamp(0.0, 20.0);
    let taken = sum(production) * rounds * if enemy { 2.0 } else { 1.0 };
    // half fleets keep home safe
    let defended = if sent != ships(&origin["ships"]) {
        1.1
    } else {
        1.0
    };
    (taken + destroyed - lost) * defended
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_fleet_beats_a_small_garrison() {
        let (left, garrison) = battle([50.0, 50.0, 50.0], [5.0, 5.0, 5.0]);
        assert_eq!(garrison, [0.0, 0.0, 0.0]);
        assert!(left.iter().sum::<f64>() > 100.0, "{left:?}");
    }
}

//! Tigris & Euphrates in space: a one-ply heuristic over the server's legal list.
//!
//! The view's `prompt` field says which decision is owed (`crates/games/tae/RULES.md`):
//! - act: score every legal action (colonies that pay us, leaders placed from hand, no
//!   bombs or withdrawals) and play the best; `"pass"` when nothing scores above 0;
//! - commit: as defender commit just enough to win (ties go to the defender), as
//!   attacker commit everything when that can beat the defender's base;
//! - choose_conflict, harvest: the first option.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::{json, Value};

use crate::bot::{Bot, Prompt};

/// Which resource each leader kind collects.
const RESOURCE: [(&str, &str); 4] = [
    ("scientist", "technology"),
    ("mining", "raw_materials"),
    ("merchant", "money"),
    ("settler", "people"),
];

pub struct Tae;

impl Bot for Tae {
    fn decide(&mut self, view: &Value, legal: &[Value], _prompt: &Prompt) -> Value {
        match view["prompt"]["prompt"].as_str() {
            Some("commit") => return commit(view, legal),
            Some("act") => {}
            _ => return legal[0].clone(), // choose_conflict or harvest: the first option is fine
        }
        let board = Board::new(view);
        let mut best = None;
        let mut best_score = 0.0;
        for action in legal {
            let score = board.score(action);
            if score > best_score {
                best = Some(action);
                best_score = score;
            }
        }
        let pass = legal.iter().find(|a| *a == "pass");
        best.or(pass).unwrap_or(&legal[0]).clone()
    }
}

fn commit(view: &Value, legal: &[Value]) -> Value {
    let battle = &view["prompt"]["battle"];
    let most = legal
        .iter()
        .filter_map(|a| a["commit"]["count"].as_i64())
        .max()
        .unwrap_or(0);
    let attacker_base = battle["attacker_base"].as_i64().unwrap_or(0);
    let defender_base = battle["defender_base"].as_i64().unwrap_or(0);
    let count = match battle["attacker_commit"].as_i64() {
        // we attack: the defender answers after us
        None if attacker_base + most > defender_base => most,
        None => 0,
        // we defend: just enough to win (ties go to the defender)
        Some(attacker_commit) => {
            let need = attacker_base + attacker_commit - defender_base;
            if need <= most {
                need.max(0)
            } else {
                0
            }
        }
    };
    json!({"commit": {"count": count}})
}

struct Board {
    me: u64,
    cells: HashMap<(i64, i64), Value>,
    leaders_in_hand: HashSet<String>,
    /// Leader kinds whose resource we have least of.
    needy: HashSet<&'static str>,
    /// Region id → {leader kind: owner}.
    leaders: HashMap<i64, HashMap<String, u64>>,
    /// Region id → artifacts in it.
    artifacts: HashMap<i64, u32>,
}

impl Board {
    fn new(view: &Value) -> Board {
        let me = view["seat"].as_u64().unwrap_or(0);
        let cells_list = view["cells"].as_array().cloned().unwrap_or_default();
        let player = &view["players"][me as usize];
        let leaders_in_hand = player["leaders_in_hand"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|k| k.as_str().map(String::from))
            .collect();
        let resource = |name: &str| player["resources"][name].as_i64().unwrap_or(0);
        let lowest = RESOURCE.iter().map(|(_, r)| resource(r)).min().unwrap_or(0);
        let needy = RESOURCE
            .iter()
            .filter(|(_, r)| resource(r) == lowest)
            .map(|(kind, _)| *kind)
            .collect();
        let mut leaders: HashMap<i64, HashMap<String, u64>> = HashMap::new();
        let mut artifacts = HashMap::new();
        for c in &cells_list {
            let Some(region) = c["region"].as_i64() else {
                continue;
            };
            if let (Some(kind), Some(owner)) =
                (c["leader"]["kind"].as_str(), c["leader"]["owner"].as_u64())
            {
                leaders
                    .entry(region)
                    .or_default()
                    .insert(kind.to_string(), owner);
            }
            if c["artifact"].as_bool() == Some(true) {
                *artifacts.entry(region).or_insert(0) += 1;
            }
        }
        let cells = cells_list
            .into_iter()
            .map(|c| {
                (
                    (c["x"].as_i64().unwrap_or(0), c["y"].as_i64().unwrap_or(0)),
                    c,
                )
            })
            .collect();
        Board {
            me,
            cells,
            leaders_in_hand,
            needy,
            leaders,
            artifacts,
        }
    }

    /// The regions of the cells next to `at` (`{"x", "y"}`), smallest id first.
    fn regions_next_to(&self, at: &Value) -> BTreeSet<i64> {
        let (x, y) = (at["x"].as_i64().unwrap_or(0), at["y"].as_i64().unwrap_or(0));
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .filter_map(|(dx, dy)| self.cells.get(&(x + dx, y + dy)))
            .filter_map(|cell| cell["region"].as_i64())
            .collect()
    }

    fn score(&self, action: &Value) -> f64 {
        if !action.is_object() {
            return 0.0; // "pass"
        }
        let no_leaders = HashMap::new();
        let leaders_of = |region: Option<&i64>| {
            region
                .and_then(|r| self.leaders.get(r))
                .unwrap_or(&no_leaders)
        };
        if let Some(colonize) = action.get("colonize") {
            let kind = colonize["kind"].as_str().unwrap_or("");
            let regions = self.regions_next_to(&colonize["at"]);
            let bonus = if self.needy.contains(kind) { 3.0 } else { 0.0 };
            if regions.is_empty() {
                return 0.5;
            }
            if regions.len() > 1 {
                // joins regions: an external conflict if leaders clash
                let kinds: Vec<&HashMap<String, u64>> =
                    regions.iter().map(|r| leaders_of(Some(r))).collect();
                let clash = kinds.iter().enumerate().any(|(i, a)| {
                    kinds[i + 1..]
                        .iter()
                        .any(|b| a.keys().any(|k| b.contains_key(k)))
                });
                return if clash { -5.0 } else { 0.2 };
            }
            let leaders = leaders_of(regions.first());
            let payee = leaders.get(kind).or(leaders.get("settler"));
            return match payee {
                Some(&owner) if owner == self.me => 10.0 + bonus, // +1 of that resource for us
                Some(_) => -2.0,                                  // it would pay an opponent
                None => 1.0,
            };
        }
        if let Some(place) = action.get("place_leader") {
            let kind = place["kind"].as_str().unwrap_or("");
            if !self.leaders_in_hand.contains(kind) {
                return -1.0; // moving a leader already on the board: rarely worth it
            }
            let regions = self.regions_next_to(&place["at"]);
            let region = regions.first();
            if leaders_of(region).contains_key(kind) {
                return -3.0; // an internal conflict we might lose
            }
            let mut score = 6.0 + if self.needy.contains(kind) { 2.0 } else { 0.0 };
            let artifacts = region
                .and_then(|r| self.artifacts.get(r))
                .copied()
                .unwrap_or(0);
            if kind == "merchant" && artifacts >= 2 {
                score += 5.0; // harvests an artifact at the end of the turn
            }
            return score;
        }
        -10.0 // bomb, swap, withdraw_leader: leave them to smarter bots
    }
}

//! Space Crack: grab planets, win battles, build where it pays.
//!
//! The server's legal list is complete (`crates/games/spacecrack/RULES.md`): every move
//! of each own ship to a neighbouring planet, every affordable build, and `end_turn`.
//! Seats act concurrently, so an action picked from an older view may be refused
//! (`rejected`: another seat took the planet first); the kit then asks for the legal
//! list again and this bot chooses again. Scores, one ply:
//! - move onto an enemy ship we beat: big; onto one we do not beat: never;
//! - move onto a free or enemy planet: good, bigger planets better;
//! - move through our own land: by how much closer it brings the ship to a planet we do
//!   not own (breadth-first distance on the planet graph);
//! - build: good on a planet next to land we do not own;
//! - `end_turn`: keeps the points for later; chosen when nothing else scores above it.

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use crate::bot::{Bot, Prompt};

pub struct SpaceCrack;

impl Bot for SpaceCrack {
    fn decide(&mut self, view: &Value, legal: &[Value], prompt: &Prompt) -> Value {
        let me = Some(prompt.seat as u64);
        let by_id = |list: &str| -> HashMap<u64, &Value> {
            let items = view[list].as_array().into_iter().flatten();
            items.filter_map(|x| Some((x["id"].as_u64()?, x))).collect()
        };
        let planets = by_id("planets");
        let ships = by_id("ships");
        let distance = distances_to_unowned(&planets, me);
        let far = |planet: &Value| {
            planet
                .as_u64()
                .and_then(|p| distance.get(&p))
                .map_or(99.0, |&d| d as f64)
        };
        let size = |x: &Value| x["size"].as_f64().unwrap_or(0.0);
        let mut best = None;
        let mut best_score = 0.1; // end_turn's score
        for action in legal {
            let mut score = -1.0;
            match action["type"].as_str() {
                Some("move_ship") => {
                    let ship = action["ship"].as_u64().and_then(|id| ships.get(&id));
                    let target = action["planet"].as_u64().and_then(|id| planets.get(&id));
                    let (Some(ship), Some(target)) = (ship, target) else {
                        continue;
                    };
                    let enemy = target["ship"].as_u64().and_then(|id| ships.get(&id));
                    if let Some(enemy) = enemy.filter(|e| e["owner"].as_u64() != me) {
                        score = if size(ship) > size(enemy) {
                            20.0 + size(target)
                        } else {
                            -10.0
                        };
                    } else if target["owner"].as_u64() != me {
                        let taken = if target["owner"].is_null() { 0.0 } else { 3.0 };
                        score = 10.0 + size(target) + taken;
                    } else {
                        let closer = far(&ship["planet"]) - far(&target["id"]);
                        score = 2.0 * closer + if enemy.is_some() { 0.5 } else { 0.0 };
                    }
                }
                Some("build_ship") => {
                    let Some(planet) = action["planet"].as_u64().and_then(|id| planets.get(&id))
                    else {
                        continue;
                    };
                    let neighbours = planet["neighbours"].as_array().into_iter().flatten();
                    let frontier = neighbours
                        .filter_map(|n| n.as_u64().and_then(|id| planets.get(&id)))
                        .any(|n| n["owner"].as_u64() != me);
                    if frontier {
                        score = 5.0 + size(planet) / 2.0;
                    }
                }
                _ => {}
            }
            if score > best_score {
                best = Some(action);
                best_score = score;
            }
        }
        let end_turn = legal.iter().find(|a| a["type"] == "end_turn");
        best.or(end_turn).unwrap_or(&legal[0]).clone()
    }
}

/// Steps from each planet to the nearest planet that is not ours.
fn distances_to_unowned(planets: &HashMap<u64, &Value>, me: Option<u64>) -> HashMap<u64, u32> {
    let mut queue: VecDeque<u64> = planets
        .iter()
        .filter(|(_, p)| p["owner"].as_u64() != me)
        .map(|(&id, _)| id)
        .collect();
    let mut distance: HashMap<u64, u32> = queue.iter().map(|&id| (id, 0)).collect();
    while let Some(id) = queue.pop_front() {
        let neighbours = planets[&id]["neighbours"].as_array().into_iter().flatten();
        for n in neighbours.filter_map(Value::as_u64) {
            if !distance.contains_key(&n) && planets.contains_key(&n) {
                distance.insert(n, distance[&id] + 1);
                queue.push_back(n);
            }
        }
    }
    distance
}

//! Secret Nim: Bouton's nim-sum, and a double card spent when it wins at once.
//!
//! The server's legal list is complete (`crates/games/nim/RULES.md`): every take of 1 up
//! to all the stones of a heap, and, while our own card (`cards[our seat]`) is an
//! unspent `double`, every pair of takes from two different heaps. Whoever takes the
//! last stone wins. This bot:
//! - holding a double with exactly two heaps left: empties both, and wins;
//! - otherwise plays plain Nim (Bouton, 1901): when the XOR of the heaps (the nim-sum)
//!   is not zero, takes from a heap `h` where `heaps[h] ^ sum < heaps[h]`, leaving
//!   `heaps[h] ^ sum` stones and a nim-sum of zero (with one heap left, it takes the
//!   whole heap and wins);
//! - with a nim-sum of zero (lost in plain two-player Nim, if the others play well)
//!   takes 1 stone from the largest heap and waits for a mistake.
//!
//! It sends only a move the server lists: should its view be out of date, the server's
//! first legal action instead.

use std::cmp::Reverse;

use serde_json::{json, Value};

use crate::bot::{Bot, Prompt};

pub struct Nim;

impl Bot for Nim {
    fn decide(&mut self, view: &Value, legal: &[Value], prompt: &Prompt) -> Value {
        let heaps: Vec<u64> = view["heaps"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|stones| stones.as_u64().unwrap_or(0))
            .collect();
        let left: Vec<usize> = (0..heaps.len()).filter(|&h| heaps[h] > 0).collect();
        let action = if view["cards"][prompt.seat] == "double" && left.len() == 2 {
            let takes: Vec<Value> = left
                .iter()
                .map(|&h| json!({"heap": h, "count": heaps[h]}))
                .collect();
            json!({ "double": takes })
        } else {
            json!({ "take": nim_sum_take(&heaps) })
        };
        if legal.contains(&action) {
            action
        } else {
            legal[0].clone()
        }
    }
}

/// Bouton's take: leave a nim-sum of zero when we can, else 1 from the largest heap.
fn nim_sum_take(heaps: &[u64]) -> Value {
    let sum = heaps.iter().fold(0u64, |acc, &stones| acc ^ stones);
    let balancing = heaps
        .iter()
        .enumerate()
        .find(|&(_, &stones)| sum != 0 && (stones ^ sum) < stones);
    if let Some((heap, &stones)) = balancing {
        return json!({"heap": heap, "count": stones - (stones ^ sum)});
    }
    // The first of the largest heaps.
    let largest = heaps
        .iter()
        .enumerate()
        .max_by_key(|&(h, &stones)| (stones, Reverse(h)))
        .map_or(0, |(h, _)| h);
    json!({"heap": largest, "count": 1})
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn prompt(seat: usize) -> Prompt {
        Prompt {
            match_id: 1,
            step: 0,
            deadline_ms: 1000,
            time_bank_ms: 0,
            turn: Value::Null,
            ruleset: "nim".into(),
            seat,
            players: vec![],
            config: Value::Null,
            rejected: None,
            tries: 0,
            legal_step: 0,
            time_left: Duration::from_secs(1),
            budget: Duration::from_secs(1),
        }
    }

    /// The server's legal list: every take, and every double when `double`.
    fn legal(heaps: &[u64], double: bool) -> Vec<Value> {
        let takes: Vec<Value> = (0..heaps.len())
            .flat_map(|h| (1..=heaps[h]).map(move |count| json!({"heap": h, "count": count})))
            .collect();
        let mut legal: Vec<Value> = takes.iter().map(|t| json!({ "take": t })).collect();
        if double {
            for (i, first) in takes.iter().enumerate() {
                for second in &takes[i + 1..] {
                    if first["heap"] != second["heap"] {
                        legal.push(json!({ "double": [first, second] }));
                    }
                }
            }
        }
        legal
    }

    fn view(heaps: &[u64], cards: [&str; 2]) -> Value {
        json!({"heaps": heaps, "cards": cards, "ejected": [null, null], "next": 0, "winner": null})
    }

    /// The bot's move for `seat`, from the server's whole legal list.
    fn move_for(heaps: &[u64], cards: [&str; 2], seat: usize) -> Value {
        let legal = legal(heaps, cards[seat] == "double");
        Nim.decide(&view(heaps, cards), &legal, &prompt(seat))
    }

    #[test]
    fn it_leaves_a_nim_sum_of_zero() {
        let action = move_for(&[3, 4, 5], ["plain", "hidden"], 0);
        assert_eq!(action, json!({"take": {"heap": 0, "count": 2}})); // 1 ^ 4 ^ 5 == 0
        let action = move_for(&[0, 0, 1], ["plain", "hidden"], 0);
        assert_eq!(action, json!({"take": {"heap": 2, "count": 1}}));
    }

    #[test]
    fn on_a_nim_sum_of_zero_it_takes_one_from_the_largest_heap() {
        let action = move_for(&[2, 2], ["plain", "hidden"], 0);
        assert_eq!(action, json!({"take": {"heap": 0, "count": 1}}));
    }

    #[test]
    fn a_double_empties_the_last_two_heaps() {
        let action = move_for(&[0, 2, 3], ["hidden", "double"], 1);
        let both = json!({"double": [{"heap": 1, "count": 2}, {"heap": 2, "count": 3}]});
        assert_eq!(action, both);
        // Somebody else's double is not ours to spend.
        let action = move_for(&[0, 2, 3], ["plain", "hidden"], 0);
        assert_eq!(action, json!({"take": {"heap": 2, "count": 1}}));
    }

    #[test]
    fn a_stale_view_still_gets_a_listed_move() {
        let view = view(&[3, 4, 5], ["plain", "hidden"]);
        let legal = legal(&[1, 0, 0], false);
        assert_eq!(Nim.decide(&view, &legal, &prompt(0)), legal[0]);
    }
}

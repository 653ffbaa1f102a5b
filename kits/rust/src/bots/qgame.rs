//! Q-Game: place tiles, as many and as well-scoring as a quick greedy search finds.
//!
//! The server's legal list is a sample (`crates/games/qgame/RULES.md`): `"pass"`,
//! `"replace"` when the pile allows, and every single-tile placement. This bot scores
//! each single tile as the rules score it, then tries to extend the best ones along
//! their row or column with more tiles from the hand (checking the fit rule itself),
//! and plays the best placement found. With no placement it replaces its hand (or
//! passes). A refused multi-tile placement (should our own check be wrong) costs nothing
//! in a native match: the next try uses only the server's single-tile placements.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::bot::{Bot, Prompt};

/// A board cell: (row, column).
type Cell = (i64, i64);

pub struct QGame;

impl Bot for QGame {
    fn decide(&mut self, view: &Value, legal: &[Value], prompt: &Prompt) -> Value {
        let singles: Vec<Vec<Value>> = legal.iter().filter_map(|a| a.as_array().cloned()).collect();
        if singles.is_empty() {
            let replace = legal.iter().any(|a| a == "replace");
            return json!(if replace { "replace" } else { "pass" });
        }
        let game = Game::new(view);
        let mut ranked = singles;
        ranked.sort_by_key(|a| -game.points(a)); // stable: ties keep the server's order
        if prompt.rejected.is_some() {
            return Value::Array(ranked.swap_remove(0)); // our own search was wrong once
        }
        let mut best_points = game.points(&ranked[0]);
        let mut best = ranked[0].clone();
        for start in ranked.iter().take(8) {
            for along in [(0, 1), (1, 0)] {
                // extend along the row, then along the column
                let placement = game.extend(start, along);
                let points = game.points(&placement);
                if points > best_points {
                    best = placement;
                    best_points = points;
                }
            }
        }
        Value::Array(best)
    }
}

/// Where a placement (`{"coordinate": {"row", "column"}, "1tile": tile}`) goes.
fn key(placement: &Value) -> Cell {
    let c = &placement["coordinate"];
    (
        c["row"].as_i64().unwrap_or(0),
        c["column"].as_i64().unwrap_or(0),
    )
}

struct Game {
    board: HashMap<Cell, Value>,
    hand: Vec<Value>,
    qbo: i64,
    fbo: i64,
}

impl Game {
    fn new(view: &Value) -> Game {
        // `map` is a list of rows: [row, [column, tile], [column, tile], ...]
        let mut board = HashMap::new();
        for row in view["map"].as_array().into_iter().flatten() {
            let r = row[0].as_i64().unwrap_or(0);
            for entry in row.as_array().into_iter().flatten().skip(1) {
                board.insert((r, entry[0].as_i64().unwrap_or(0)), entry[1].clone());
            }
        }
        let you = view["you"].as_u64().unwrap_or(0) as usize;
        let hand = view["players"][you]["hand"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        Game {
            board,
            hand,
            qbo: view["qbo"].as_i64().unwrap_or(8),
            fbo: view["fbo"].as_i64().unwrap_or(4),
        }
    }

    /// The fit rule, on both axes (RULES.md: "How to play", a turn).
    fn fits(board: &HashMap<Cell, Value>, cell: Cell, tile: &Value) -> bool {
        let (r, c) = cell;
        if board.contains_key(&cell) {
            return false;
        }
        let mut touching = false;
        for axis in [[(0, -1), (0, 1)], [(-1, 0), (1, 0)]] {
            let neighbours: Vec<&Value> = axis
                .iter()
                .filter_map(|(dr, dc)| board.get(&(r + dr, c + dc)))
                .collect();
            touching |= !neighbours.is_empty();
            let same = |field: &str| neighbours.iter().all(|n| n[field] == tile[field]);
            match neighbours.len() {
                1 if neighbours[0]["shape"] != tile["shape"]
                    && neighbours[0]["color"] != tile["color"] =>
                {
                    return false
                }
                2 if !(same("shape") || same("color")) => return false,
                _ => {}
            }
        }
        touching
    }

    /// Grow a single-tile placement with hand tiles at the ends of its line.
    fn extend(&self, start: &[Value], along: Cell) -> Vec<Value> {
        let mut board = self.board.clone();
        let mut hand = self.hand.clone();
        let mut placement = Vec::new();
        for p in start {
            board.insert(key(p), p["1tile"].clone());
            if let Some(i) = hand.iter().position(|t| *t == p["1tile"]) {
                hand.remove(i);
            }
            placement.push(p.clone());
        }
        let mut grown = true;
        while grown && !hand.is_empty() {
            grown = false;
            'ends: for end in Game::ends(&board, key(&placement[0]), along) {
                for i in 0..hand.len() {
                    if Game::fits(&board, end, &hand[i]) {
                        let tile = hand.remove(i);
                        board.insert(end, tile.clone());
                        placement.push(
                            json!({"coordinate": {"row": end.0, "column": end.1}, "1tile": tile}),
                        );
                        grown = true;
                        break 'ends;
                    }
                }
            }
        }
        placement
    }

    /// The empty cells just past both ends of the run through `cell`.
    fn ends(board: &HashMap<Cell, Value>, cell: Cell, along: Cell) -> [Cell; 2] {
        let (dr, dc) = along;
        [1, -1].map(|sign| {
            let (mut r, mut c) = cell;
            while board.contains_key(&(r, c)) {
                r += sign * dr;
                c += sign * dc;
            }
            (r, c)
        })
    }

    /// The rules' score of a placement (tiles, runs, Q bonus, finish bonus).
    fn points(&self, placement: &[Value]) -> i64 {
        let mut board = self.board.clone();
        for p in placement {
            board.insert(key(p), p["1tile"].clone());
        }
        let cells: Vec<Cell> = placement.iter().map(key).collect();
        let row_line = cells.len() == 1 || cells.iter().all(|&(r, _)| r == cells[0].0);
        let (along, across) = if row_line {
            ((0, 1), (1, 0))
        } else {
            ((1, 0), (0, 1))
        };
        let mut total = cells.len() as i64;
        let mut seen = HashSet::new();
        for &cell in &cells {
            let run = Game::run(&board, cell, along);
            if run.len() >= 2 && seen.insert(run[0]) {
                total += self.run_points(&board, &run);
            }
            let run = Game::run(&board, cell, across);
            if run.len() >= 2 {
                total += self.run_points(&board, &run);
            }
        }
        if placement.len() == self.hand.len() {
            total += self.fbo;
        }
        total
    }

    /// The cells of the run through `cell` along `along`, from its first end.
    fn run(board: &HashMap<Cell, Value>, cell: Cell, along: Cell) -> Vec<Cell> {
        let (dr, dc) = along;
        let (mut r, mut c) = cell;
        while board.contains_key(&(r - dr, c - dc)) {
            r -= dr;
            c -= dc;
        }
        let mut run = Vec::new();
        while board.contains_key(&(r, c)) {
            run.push((r, c));
            r += dr;
            c += dc;
        }
        run
    }

    fn run_points(&self, board: &HashMap<Cell, Value>, run: &[Cell]) -> i64 {
        let distinct = |field: &str| {
            run.iter()
                .map(|cell| board[cell][field].to_string())
                .collect::<HashSet<_>>()
                .len()
        };
        let q = run.len() == 6 && (distinct("color") == 6 || distinct("shape") == 6);
        run.len() as i64 + if q { self.qbo } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_two_is_extended_with_a_fitting_tile() {
        let red = |shape: &str| json!({"shape": shape, "color": "red"});
        let view = json!({
            "map": [[0, [0, red("star")]]],
            "players": [{"hand": [red("circle"), red("square"), {"shape": "8star", "color": "blue"}]}],
            "you": 0, "qbo": 8, "fbo": 4,
        });
        let game = Game::new(&view);
        let single = [json!({"coordinate": {"row": 0, "column": 1}, "1tile": red("circle")})];
        assert_eq!(game.points(&single), 1 + 2);
        let grown = game.extend(&single, (0, 1));
        assert_eq!(grown.len(), 2, "{grown:?}");
        assert_eq!(game.points(&grown), 2 + 3);
    }
}

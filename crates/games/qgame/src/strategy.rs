//! The course strategies (§8): `dag` (dumb and greedy) and `ldasg` (less dumb and
//! still greedy), one step at a time and iterated into a whole turn.

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::coord::Coord;
use crate::map::Map;
use crate::placement::{validate_placements, Placement};
use crate::tile::Tile;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    Dag,
    Ldasg,
}

/// One step's answer: the xstrategy harness prints exactly this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Pass,
    Replace,
    Place(Placement),
}

impl Strategy {
    /// Choose one step: the smallest tile (tile order) that has a candidate, placed at
    /// the smallest candidate (`dag`) or the most constrained one (`ldasg`, most
    /// occupied neighbours, ties by row-column order). With no candidate at all: pass
    /// if the hand is larger than the pile, otherwise replace.
    pub fn step(self, map: &Map, hand: &[Tile], pile_count: usize) -> Step {
        let mut sorted = hand.to_vec();
        sorted.sort();
        for tile in sorted {
            let candidates = map.candidates(tile);
            let chosen = match self {
                Strategy::Dag => candidates.first().copied(),
                // `candidates` is in row-column order, so the first maximum wins ties.
                Strategy::Ldasg => {
                    candidates
                        .iter()
                        .copied()
                        .fold(None, |best: Option<Coord>, c| match best {
                            Some(b) if map.occupied_neighbours(b) >= map.occupied_neighbours(c) => {
                                Some(b)
                            }
                            _ => Some(c),
                        })
                }
            };
            if let Some(at) = chosen {
                return Step::Place(Placement::new(at, tile));
            }
        }
        if hand.len() > pile_count {
            Step::Pass
        } else {
            Step::Replace
        }
    }

    /// A whole turn: repeat the one-step choice on the map and hand as extended by the
    /// placements so far; stop at pass/replace, or when the next placement would make
    /// the list illegal against the original state (never backtracking).
    pub fn turn(self, map: &Map, hand: &[Tile], pile_count: usize) -> Action {
        let mut placements: Vec<Placement> = Vec::new();
        let mut current_map = map.clone();
        let mut current_hand = hand.to_vec();
        loop {
            match self.step(&current_map, &current_hand, pile_count) {
                Step::Pass | Step::Replace if !placements.is_empty() => {
                    return Action::Place(placements)
                }
                Step::Pass => return Action::Pass,
                Step::Replace => return Action::Replace,
                Step::Place(placement) => {
                    placements.push(placement);
                    if validate_placements(map, hand, &placements).is_err() {
                        placements.pop();
                        return if placements.is_empty() {
                            Action::Pass
                        } else {
                            Action::Place(placements)
                        };
                    }
                    current_map.place(placement.coordinate, placement.tile);
                    if let Some(i) = current_hand.iter().position(|t| *t == placement.tile) {
                        current_hand.remove(i);
                    }
                }
            }
        }
    }
}

//! Scoring a placement (§5) on the map that already holds the placed tiles.

use std::collections::BTreeSet;

use crate::coord::Coord;
use crate::map::Map;
use crate::placement::{placement_axis, Placement};
use crate::tile::{Color, Shape};

/// Length of a Q: exactly six tiles.
const Q_LENGTH: usize = 6;

/// Points for `placements` on `map_after`, before any finish bonus: one per tile, the
/// length of every run of two or more in the placement line that holds a new tile (once
/// per run), the length of each placed tile's orthogonal run of two or more, and
/// `q_bonus` for every counted run that is a Q.
pub fn score_placement(map_after: &Map, placements: &[Placement], q_bonus: u32) -> u32 {
    let axis = placement_axis(placements);
    let mut points = placements.len() as u32;
    let mut line_runs: BTreeSet<Vec<Coord>> = BTreeSet::new();
    for placement in placements {
        line_runs.insert(map_after.run_through(placement.coordinate, axis));
    }
    let orthogonal_runs = placements
        .iter()
        .map(|p| map_after.run_through(p.coordinate, axis.other()));
    for run in line_runs.into_iter().chain(orthogonal_runs) {
        if run.len() >= 2 {
            points += run.len() as u32;
            if is_q(map_after, &run) {
                points += q_bonus;
            }
        }
    }
    points
}

/// A Q: exactly six tiles holding all six colours or all six shapes.
fn is_q(map: &Map, run: &[Coord]) -> bool {
    if run.len() != Q_LENGTH {
        return false;
    }
    let tiles: Vec<_> = run.iter().filter_map(|c| map.get(*c)).collect();
    let colours: BTreeSet<Color> = tiles.iter().map(|t| t.color).collect();
    let shapes: BTreeSet<Shape> = tiles.iter().map(|t| t.shape).collect();
    colours.len() == Q_LENGTH || shapes.len() == Q_LENGTH
}

/// Score a placement already known to be legal by placing it on `map`, scoring, and
/// taking it off again: no copy of the map per candidate (bots try many).
pub fn score_tentatively(map: &mut Map, placements: &[Placement], q_bonus: u32) -> u32 {
    for p in placements {
        map.place(p.coordinate, p.tile);
    }
    let points = score_placement(map, placements, q_bonus);
    for p in placements.iter().rev() {
        map.remove(p.coordinate);
    }
    points
}

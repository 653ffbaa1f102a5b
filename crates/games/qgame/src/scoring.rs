//! Scoring a placement (§5) on the map that already holds the placed tiles.

use crate::map::{Map, Run};
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
    // Each run in the placement line once: where its first placed tile is.
    let line_runs = placements.iter().enumerate().filter_map(|(i, placement)| {
        let run = map_after.run(placement.coordinate, axis)?;
        let counted = placements[..i].iter().any(|p| run.contains(p.coordinate));
        (!counted).then_some(run)
    });
    let orthogonal_runs = placements
        .iter()
        .filter_map(|p| map_after.run(p.coordinate, axis.other()));
    let run_points = |run: Run| match run.len {
        0 | 1 => 0,
        len if is_q(map_after, run) => len as u32 + q_bonus,
        len => len as u32,
    };
    placements.len() as u32
        + line_runs.map(run_points).sum::<u32>()
        + orthogonal_runs.map(run_points).sum::<u32>()
}

/// A Q: exactly six tiles holding all six colours or all six shapes.
fn is_q(map: &Map, run: Run) -> bool {
    if run.len != Q_LENGTH {
        return false;
    }
    // Bit sets of the shapes and colours seen.
    let (shapes, colours) =
        run.cells()
            .filter_map(|at| map.get(at))
            .fold((0u8, 0u8), |(shapes, colours), tile| {
                (
                    shapes | 1 << tile.shape as u8,
                    colours | 1 << tile.color as u8,
                )
            });
    shapes.count_ones() as usize == Shape::ALL.len()
        || colours.count_ones() as usize == Color::ALL.len()
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

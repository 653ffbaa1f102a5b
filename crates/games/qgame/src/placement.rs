//! Placement requests (§3.2): ownership, the line rule, and each step adjacent and
//! fitting on the map as extended by the steps before it.

use serde::{Deserialize, Serialize};

use crate::coord::Coord;
use crate::error::QgameError;
use crate::map::{fits_with, Axis, Map};
use crate::tile::Tile;

/// 1Placement: one tile at one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub coordinate: Coord,
    #[serde(rename = "1tile")]
    pub tile: Tile,
}

impl Placement {
    pub fn new(coordinate: Coord, tile: Tile) -> Self {
        Placement { coordinate, tile }
    }
}

/// The axis a legal placement lies on: a row when all cells share a row (a single tile
/// counts as a row placement), otherwise the common column.
pub fn placement_axis(placements: &[Placement]) -> Axis {
    match placements.first() {
        Some(first)
            if placements
                .iter()
                .all(|p| p.coordinate.row == first.coordinate.row) =>
        {
            Axis::Row
        }
        _ => Axis::Column,
    }
}

/// Check a request against the map and the hand without copying the map: each step
/// is judged on the map plus the steps before it.
pub fn validate_placements(
    map: &Map,
    hand: &[Tile],
    placements: &[Placement],
) -> Result<(), QgameError> {
    let first = placements.first().ok_or(QgameError::EmptyPlacement)?;
    let mut unused: Vec<Tile> = hand.to_vec();
    for placement in placements {
        let index = unused
            .iter()
            .position(|t| *t == placement.tile)
            .ok_or(QgameError::TileNotOwned(placement.tile))?;
        unused.swap_remove(index);
    }
    let same_row = placements
        .iter()
        .all(|p| p.coordinate.row == first.coordinate.row);
    let same_column = placements
        .iter()
        .all(|p| p.coordinate.column == first.coordinate.column);
    if !same_row && !same_column {
        return Err(QgameError::NotInLine);
    }
    for (step, &Placement { coordinate, tile }) in placements.iter().enumerate() {
        let earlier = &placements[..step];
        let get = |at: Coord| {
            map.get(at)
                .or_else(|| earlier.iter().find(|p| p.coordinate == at).map(|p| p.tile))
        };
        if get(coordinate).is_some() {
            return Err(QgameError::Occupied(coordinate));
        }
        if coordinate.neighbours().iter().all(|n| get(*n).is_none()) {
            return Err(QgameError::NotAdjacent(coordinate));
        }
        if !fits_with(get, coordinate, tile) {
            return Err(QgameError::DoesNotFit {
                tile,
                at: coordinate,
            });
        }
    }
    Ok(())
}

/// Check a request against the map and the hand; on success return the extended map.
pub fn check_placements(
    map: &Map,
    hand: &[Tile],
    placements: &[Placement],
) -> Result<Map, QgameError> {
    validate_placements(map, hand, placements)?;
    let mut extended = map.clone();
    for placement in placements {
        extended.place(placement.coordinate, placement.tile);
    }
    Ok(extended)
}

//! The incremental move generator against from-scratch definitions: the frontier the
//! map keeps through placements and removals, the legal list built from it, and the
//! random draw that reads one action from it without building the list.

use std::collections::BTreeSet;

use arbiter_engine::{seeded_rng, Game, GameRng, Turn};
use arbiter_qgame::legal::LegalList;
use arbiter_qgame::{Action, Color, Config, Coord, Map, Placement, Qgame, Shape, State, Tile};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::Rng;

/// Empty cells next to a tile, found by looking at every tile.
fn free_adjacent_from_scratch(map: &Map) -> Vec<Coord> {
    let cells: BTreeSet<Coord> = map
        .iter()
        .flat_map(|(at, _)| at.neighbours())
        .filter(|&next| map.get(next).is_none())
        .collect();
    cells.into_iter().collect()
}

/// The fit rule tile by tile, as the background states it.
fn fits_from_scratch(map: &Map, at: Coord, tile: Tile) -> bool {
    let fits_line = |before: Option<Tile>, after: Option<Tile>| match (before, after) {
        (None, None) => true,
        (Some(one), None) | (None, Some(one)) => tile.shape == one.shape || tile.color == one.color,
        (Some(a), Some(b)) => {
            (tile.shape == a.shape && tile.shape == b.shape)
                || (tile.color == a.color && tile.color == b.color)
        }
    };
    fits_line(map.get(at.left()), map.get(at.right()))
        && fits_line(map.get(at.up()), map.get(at.down()))
}

/// `Qgame::legal` as it was first written: every free adjacent cell tested for every
/// distinct tile kind in the hand.
fn legal_from_scratch(state: &State, seat: usize) -> Vec<Action> {
    if state.active() != Some(seat) {
        return Vec::new();
    }
    let hand = &state.players[seat].hand;
    let mut actions = vec![Action::Pass];
    if state.pile.len() >= hand.len() {
        actions.push(Action::Replace);
    }
    let mut kinds = hand.clone();
    kinds.sort();
    kinds.dedup();
    let free = free_adjacent_from_scratch(&state.map);
    for tile in kinds {
        for &at in free
            .iter()
            .filter(|&&at| fits_from_scratch(&state.map, at, tile))
        {
            actions.push(Action::Place(vec![Placement::new(at, tile)]));
        }
    }
    actions
}

fn kind(index: usize) -> Tile {
    Tile::new(Shape::ALL[index / 6], Color::ALL[index % 6])
}

/// Everything the map keeps about its frontier equals a recomputation.
fn assert_frontier_is_fresh(map: &Map) {
    let cells = free_adjacent_from_scratch(map);
    assert_eq!(map.free_adjacent().collect::<Vec<_>>(), cells);
    let frontier = map.frontier();
    for (at, fitting) in frontier.iter() {
        assert!(map.is_free_adjacent(at));
        for tile in Tile::all_kinds() {
            assert_eq!(
                fitting.contains(tile),
                fits_from_scratch(map, at, tile),
                "{tile} at {at:?}"
            );
        }
    }
    for tile in Tile::all_kinds() {
        let places: Vec<Coord> = cells
            .iter()
            .copied()
            .filter(|&at| fits_from_scratch(map, at, tile))
            .collect();
        assert_eq!(map.candidates(tile), places);
        assert_eq!(frontier.count_places(tile), places.len());
        for (n, &at) in places.iter().enumerate() {
            assert_eq!(frontier.nth_place(tile, n), Some(at));
        }
        assert_eq!(frontier.nth_place(tile, places.len()), None);
    }
    // The same tiles with no history, put down in sorted order or read whole: the same
    // frontier.
    let mut rebuilt = Map::default();
    for (at, tile) in map.iter() {
        rebuilt.place(at, tile);
    }
    assert_eq!(rebuilt.frontier(), frontier);
    let json = serde_json::to_value(map).unwrap();
    let read: Map = serde_json::from_value(json).unwrap();
    assert_eq!(read.frontier(), frontier);
}

/// A small area, so that placements crowd, touch, fill holes and get removed again.
fn edit() -> impl Strategy<Value = (i32, i32, usize, bool)> {
    (
        -4i32..4,
        -4i32..4,
        0usize..36,
        proptest::bool::weighted(0.25),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_frontier_kept_through_placements_and_removals_equals_a_recomputation(
        edits in proptest::collection::vec(edit(), 1..80)
    ) {
        let mut map = Map::default();
        for (row, column, index, remove) in edits {
            let at = Coord::new(row, column);
            if remove {
                map.remove(at);
            } else {
                map.place(at, kind(index));
            }
            assert_frontier_is_fresh(&map);
            for tile in [kind(index), kind(35 - index)] {
                assert_eq!(map.fits(at, tile), fits_from_scratch(&map, at, tile));
            }
        }
    }
}

/// The frontier stays exact at the edge of the grid, where a neighbour saturates to
/// the cell itself.
#[test]
fn the_frontier_is_exact_at_the_edge_of_the_grid() {
    let mut map = Map::default();
    let corner = Coord::new(i32::MIN, i32::MAX);
    map.place(corner, kind(0));
    map.place(Coord::new(i32::MIN, i32::MAX - 1), kind(1));
    assert_frontier_is_fresh(&map);
    map.remove(corner);
    assert_frontier_is_fresh(&map);
}

/// Random play from fresh games and a small `state0`, checking every decision: the
/// legal list is the from-scratch one, in the same order; `random_action` returns what
/// `legal(..).choose(rng)` would and leaves the generator in the same state, for the
/// seat to act and for any other seat; [`LegalList::get`] finds each listed action.
#[test]
fn random_action_draws_exactly_what_choosing_from_the_legal_list_draws() {
    let mut rng = seeded_rng(11);
    let mut decisions = 0;
    for (seats, seed) in [(2, 1), (3, 2), (4, 3), (2, 4)] {
        let mut state = Qgame::new(&Config::default(), seats, seed).unwrap();
        while let Turn::One(seat) = Qgame::to_act(&state) {
            let legal = Qgame::legal(&state, seat);
            assert_eq!(legal, legal_from_scratch(&state, seat));
            for asked in 0..seats {
                assert_draws_agree(&state, asked, &rng);
            }
            if decisions % 25 == 0 {
                let list = LegalList::of(&state, seat).unwrap();
                assert_eq!(list.len(), legal.len());
                for (index, action) in legal.iter().enumerate() {
                    assert_eq!(list.get(index).as_ref(), Some(action));
                }
                assert_eq!(list.get(legal.len()), None);
            }
            let action = Qgame::random_action(&state, seat, &mut rng).unwrap();
            Qgame::apply(&mut state, seat, &action).unwrap();
            decisions += 1;
            // Burn a varying number of draws, so the choices start from many states.
            for _ in 0..rng.random_range(0..3) {
                rng.random::<u64>();
            }
        }
        assert_draws_agree(&state, 0, &rng);
    }
    assert!(decisions > 1000, "only {decisions} decisions");
}

fn assert_draws_agree(state: &State, seat: usize, rng: &GameRng) {
    let (mut drawing, mut choosing) = (rng.clone(), rng.clone());
    let drawn = Qgame::random_action(state, seat, &mut drawing);
    let chosen = Qgame::legal(state, seat).choose(&mut choosing).cloned();
    assert_eq!(drawn, chosen);
    assert!(drawing == choosing, "the generators drifted apart");
}

//! Drawing one turn action uniformly without judging the whole board: the random
//! playouts' draw.
//!
//! Listing the legal turn actions judges every crowded cell for every leader (which
//! regions border it, with each leader lifted) — about two thirds of a random game's
//! time. A playout needs one action, not the list, so it draws by rejection: uniformly
//! from a superset that costs a few cell-set operations
//! ([`TurnActions::candidates`]: leaders may go to any free, inhabitable cell next to a
//! scientist colony, colonists to any free cell of their terrain), and keeps the draw
//! if the per-cell rules of `actions.rs` accept it, else draws again. Every legal
//! action is in the superset once, so each is drawn with the same probability; most
//! draws are kept at once (the superset holds little more than the list).
//!
//! The draws differ from the engine's default (`legal(..).choose(rng)`); the property
//! tests check that the superset filtered by the same acceptance is exactly the legal
//! list, in order, and that the draws are legal and evenly spread.

use rand::Rng;

use arbiter_engine::{GameRng, Seat};

use crate::actions::Action;
use crate::legal::{joins_three_kingdoms, TurnActions};
use crate::lift::Lifted;
use crate::state::State;

/// Draws before giving up on the superset and drawing from the exact list (still
/// uniform: the fallback draws every legal action alike, whatever was rejected).
/// Reached only on boards where most candidate cells border two regions.
const MAX_REJECTIONS: usize = 64;

/// One of the turn actions of `seat` (the phase is `Act` and `seat` owes it), each with
/// the same probability; `None` for an unknown seat.
pub(crate) fn turn_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
    // Borrowed where it was returned, not moved out of its `Option`: it is a few
    // hundred bytes.
    let candidates = TurnActions::candidates(state, seat);
    let candidates = candidates.as_ref()?;
    let len = candidates.len();
    for _ in 0..MAX_REJECTIONS {
        let action = candidates.get(rng.random_range(..len))?;
        if accepts(state, seat, &action) {
            return Some(action);
        }
    }
    let exact = TurnActions::new(state, seat)?;
    exact.get(rng.random_range(..exact.len()))
}

/// Whether a candidate is legal. A candidate cell is free, of its colonist's terrain
/// or (for a leader) inhabitable and next to a scientist colony, so only the regions
/// around it are left to judge: a leader may not border two (with itself lifted off
/// its cell), a colony may not join three kingdoms. The other candidates are exact.
/// Only for candidates: the per-cell rules of `actions.rs` judge any action.
pub(crate) fn accepts(state: &State, seat: Seat, action: &Action) -> bool {
    let board = state.board();
    match *action {
        Action::PlaceLeader { kind, at } => board.id(at).is_some_and(|to| {
            let from = board.find_leader(seat, kind);
            !Lifted::new(board, from).joins_regions(to)
        }),
        Action::Colonize { at, .. } => board
            .id(at)
            .is_some_and(|to| !joins_three_kingdoms(board, to)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use arbiter_engine::{seeded_rng, Turn};

    use super::*;
    use crate::flow;
    use crate::game::legal;
    use crate::random_play::{config, play};
    use crate::state::Phase;

    /// Positions where a seat chooses a turn action: every 40th state of a few random
    /// matches on each test board.
    fn turn_positions() -> Vec<(State, Seat)> {
        let mut out = Vec::new();
        for pick in 0..3 {
            let mut visited = 0;
            play(&config(pick), 3, u64::from(pick) + 11, None, |state| {
                visited += 1;
                if let (Phase::Act, Turn::One(seat)) = (state.phase(), flow::to_act(state)) {
                    if visited % 40 == 0 {
                        out.push((state.clone(), seat));
                    }
                }
            });
        }
        out
    }

    /// The kind of action, for counting draws by group (every cell of a kind of
    /// action together), where a bias spread over many cells shows.
    fn group(action: &Action) -> String {
        match action {
            Action::PlaceLeader { kind, .. } => format!("place {kind:?}"),
            Action::Colonize { kind, .. } => format!("colonize {kind:?}"),
            Action::Bomb { .. } => "bomb".to_string(),
            Action::Swap { .. } => "swap".to_string(),
            _ => format!("{action:?}"),
        }
    }

    /// Pearson's statistic of `observed` counts against `expected` ones, with whether
    /// it stays within about seven standard deviations of its mean (the generator is
    /// seeded, so the verdict never flickers).
    fn pearson_within_bounds(
        observed: &HashMap<String, f64>,
        expected: &HashMap<String, f64>,
    ) -> (f64, bool) {
        let chi2: f64 = expected
            .iter()
            .map(|(key, &e)| (observed.get(key).copied().unwrap_or(0.0) - e).powi(2) / e)
            .sum();
        let df = (expected.len().max(2) - 1) as f64;
        (chi2, chi2 < df + 7.0 * (2.0 * df).sqrt())
    }

    /// The draws are spread evenly over the legal list: at each position, 200 draws
    /// per legal action reach every action, and Pearson's statistic against the
    /// uniform distribution passes both per action and per kind of action. A sampler
    /// that drew bombs a tenth less often than it should fails the second.
    #[test]
    fn draws_are_uniform_over_the_legal_list() {
        let positions = turn_positions();
        assert!(positions.len() >= 6, "{} positions", positions.len());
        let mut rng = seeded_rng(0x5A3F);
        for (state, seat) in positions.iter().take(8) {
            let listed = legal(state, *seat);
            let per_action = 200.0;
            let (mut by_action, mut by_group) = (HashMap::new(), HashMap::new());
            let (mut expected_action, mut expected_group) = (HashMap::new(), HashMap::new());
            for action in &listed {
                expected_action.insert(format!("{action:?}"), per_action);
                *expected_group.entry(group(action)).or_insert(0.0) += per_action;
            }
            for _ in 0..listed.len() * per_action as usize {
                let drawn = turn_action(state, *seat, &mut rng).expect("pass is legal");
                *by_action.entry(format!("{drawn:?}")).or_insert(0.0) += 1.0;
                *by_group.entry(group(&drawn)).or_insert(0.0) += 1.0;
            }
            assert_eq!(by_action.len(), listed.len(), "every legal action drawn");
            for (observed, expected) in
                [(&by_action, &expected_action), (&by_group, &expected_group)]
            {
                let (chi2, within) = pearson_within_bounds(observed, expected);
                assert!(
                    within,
                    "chi-square {chi2:.1} over {} classes",
                    expected.len()
                );
            }
        }
    }
}

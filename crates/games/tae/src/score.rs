//! Scoring: artifacts level the lowest resources, the score is the lowest of the four,
//! and ties compare the sorted resource vectors, lowest first.

use arbiter_engine::Outcome;

use crate::kind::{Kind, Resources};
use crate::state::{EndReason, Phase, State};

/// Spend each artifact, one at a time, on the currently lowest resource (the first in
/// kind order on ties). Greedy levelling maximises the minimum, and also the sorted
/// vector lexicographically, so it is the best use of the wildcards.
pub fn levelled(resources: &Resources, artifacts: u32) -> [u32; 4] {
    let mut totals = resources.to_array();
    for _ in 0..artifacts {
        let mut lowest = 0;
        for i in 1..4 {
            if totals[i] < totals[lowest] {
                lowest = i;
            }
        }
        totals[lowest] += 1;
    }
    totals
}

/// The comparison key: the levelled totals sorted ascending (higher key = better).
pub fn score_key(resources: &Resources, artifacts: u32) -> Vec<u32> {
    let mut key = levelled(resources, artifacts).to_vec();
    key.sort_unstable();
    key
}

/// The score: the lowest levelled resource.
pub fn score(resources: &Resources, artifacts: u32) -> u32 {
    levelled(resources, artifacts)
        .into_iter()
        .min()
        .unwrap_or(0)
}

/// The outcome once the game is over: ranks by the sorted key (ejected seats last,
/// equal keys share the rank).
pub fn outcome(state: &State) -> Option<Outcome> {
    let Phase::Over(end) = &state.phase else {
        return None;
    };
    let keys: Vec<Vec<u32>> = state
        .players
        .iter()
        .map(|p| score_key(&p.resources, p.artifacts))
        .collect();
    let ejected: Vec<Option<String>> = state.players.iter().map(|p| p.ejected.clone()).collect();
    let ranks = Outcome::rank_by(&keys, &ejected);
    let scores: Vec<i64> = state
        .players
        .iter()
        .map(|p| i64::from(score(&p.resources, p.artifacts)))
        .collect();
    let winner_seats: Vec<usize> = (0..ranks.len())
        .filter(|&s| ranks[s] == 1 && ejected[s].is_none())
        .collect();
    let winners: Vec<String> = winner_seats.iter().map(|s| format!("seat {s}")).collect();
    let why = match end {
        EndReason::Artifacts { left } => format!("{left} artifacts left"),
        EndReason::BagEmpty => "the bag could not refill every hand".to_string(),
        EndReason::AllPassed => "every player passed a whole round".to_string(),
        EndReason::LastPlayer => "every other seat was ejected".to_string(),
    };
    let best = winner_seats.first().map_or(0, |&s| scores[s]);
    let summary = match winners.len() {
        0 => format!("no winner ({why})"),
        1 => format!("{} wins with {best} ({why})", winners[0]),
        _ => format!("{} share the win with {best} ({why})", winners.join(", ")),
    };
    Some(Outcome {
        ranks,
        scores,
        ejected,
        summary,
    })
}

/// Resource names in kind order (for reports).
pub fn resource_names() -> [&'static str; 4] {
    Kind::ALL.map(Kind::resource_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposal_score_example() {
        // Player 1: 4 Raw Materials, 10 Money, 2 Technology, 12 People → 2.
        // Player 2: 3 of each → 3, and wins.
        let p1 = Resources::new(2, 4, 10, 12);
        let p2 = Resources::new(3, 3, 3, 3);
        assert_eq!(score(&p1, 0), 2);
        assert_eq!(score(&p2, 0), 3);
        assert!(score_key(&p2, 0) > score_key(&p1, 0));
    }

    #[test]
    fn artifacts_level_the_lowest() {
        let r = Resources::new(1, 3, 5, 9);
        assert_eq!(levelled(&r, 1), [2, 3, 5, 9]);
        assert_eq!(levelled(&r, 3), [4, 3, 5, 9]);
        assert_eq!(score(&r, 3), 3);
        assert_eq!(score_key(&r, 4), vec![4, 4, 5, 9]);
    }
}

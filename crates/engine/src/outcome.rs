//! The result of a finished game: ranks with ties, scores and reasons.

use serde::{Deserialize, Serialize};

use crate::game::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Rank of each seat, 1 = best. Equal ranks are ties; several seats at rank 1 share
    /// the win. An ejected seat ranks below every surviving seat.
    pub ranks: Vec<u32>,
    /// Each seat's final score in the ruleset's own unit.
    pub scores: Vec<i64>,
    /// For each seat, why it was ejected or disqualified, if it was.
    pub ejected: Vec<Option<String>>,
    /// One line for people, e.g. "seat 1 wins with 42 points".
    pub summary: String,
}

impl Outcome {
    /// Ranks from a sort key per seat (higher key = better). Equal keys tie. Ejected
    /// seats (with `ejected[seat]` set) always rank after every survivor, and tie with
    /// each other.
    pub fn rank_by<K: Ord + Clone>(keys: &[K], ejected: &[Option<String>]) -> Vec<u32> {
        let n = keys.len();
        (0..n)
            .map(|seat| {
                let better = (0..n)
                    .filter(
                        |&other| match (ejected[seat].is_some(), ejected[other].is_some()) {
                            (false, true) => false,
                            (true, false) => true,
                            (true, true) => false,
                            (false, false) => keys[other] > keys[seat],
                        },
                    )
                    .count();
                better as u32 + 1
            })
            .collect()
    }

    /// The ranks as results count them when the players of `leavers` left the game
    /// (a house bot finished it for them): the leavers share the last place, below
    /// every other seat, whatever their bots achieved (a game every seat left is one
    /// nobody won: for ratings, a draw of equals); the others keep their order among
    /// themselves. With no leavers these are the game's own ranks.
    pub fn ranks_with_leavers(&self, leavers: &[Seat]) -> Vec<u32> {
        ranks_with_leavers(&self.ranks, leavers)
    }

    /// The seats sharing first place.
    pub fn winners(&self) -> Vec<Seat> {
        (0..self.ranks.len())
            .filter(|&s| self.ranks[s] == 1 && self.ejected[s].is_none())
            .collect()
    }

    /// One line for people with the seats' own names (account names on a server):
    /// "ann wins with 66", "ann and bob share the win with 30", "nobody wins". The
    /// rules only know seat numbers; whoever knows the names says it this way, so a
    /// winner is named the same way everywhere. Winners whose scores differ (a
    /// spacegoo game that reaches its last round is a draw whatever the ships) each
    /// get their own: "ann (3934) and bob (33526) share the win".
    pub fn headline(&self, names: &[String]) -> String {
        let winners = self.winners();
        let name = |s: Seat| names.get(s).cloned().unwrap_or_else(|| format!("seat {s}"));
        let score = |s: Seat| self.scores.get(s).copied().unwrap_or_default();
        match winners.as_slice() {
            [] => "nobody wins".to_string(),
            [one] => format!("{} wins with {}", name(*one), score(*one)),
            [first, rest @ ..] if rest.iter().all(|&s| score(s) == score(*first)) => {
                let named: Vec<String> = winners.iter().map(|&s| name(s)).collect();
                format!(
                    "{} share the win with {}",
                    named.join(" and "),
                    score(*first)
                )
            }
            _ => {
                let named: Vec<String> = winners
                    .iter()
                    .map(|&s| format!("{} ({})", name(s), score(s)))
                    .collect();
                format!("{} share the win", named.join(" and "))
            }
        }
    }

    /// True when more than one seat shares first place (or nobody won).
    pub fn is_draw(&self) -> bool {
        self.winners().len() != 1
    }
}

/// [`Outcome::ranks_with_leavers`] for ranks read without their outcome (a stored
/// match's seats).
pub fn ranks_with_leavers(ranks: &[u32], leavers: &[Seat]) -> Vec<u32> {
    let left = |seat: Seat| leavers.contains(&seat);
    let stayed = (0..ranks.len()).filter(|&seat| !left(seat)).count();
    (0..ranks.len())
        .map(|seat| match left(seat) {
            true => stayed as u32 + 1,
            false => {
                let better = (0..ranks.len())
                    .filter(|&other| !left(other) && ranks[other] < ranks[seat])
                    .count();
                better as u32 + 1
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tied(scores: Vec<i64>) -> Outcome {
        Outcome {
            ranks: vec![1; scores.len()],
            ejected: vec![None; scores.len()],
            scores,
            summary: "a draw".into(),
        }
    }

    #[test]
    fn headlines_name_the_winners_and_each_score_when_they_differ() {
        let names = ["ann".to_string(), "bob".to_string()];
        assert_eq!(
            tied(vec![30, 30]).headline(&names),
            "ann and bob share the win with 30"
        );
        assert_eq!(
            tied(vec![3934, 33526]).headline(&names),
            "ann (3934) and bob (33526) share the win"
        );
        let mut one = tied(vec![66, 10]);
        one.ranks = vec![1, 2];
        assert_eq!(one.headline(&names), "ann wins with 66");
        assert_eq!(tied(vec![]).headline(&names), "nobody wins");
    }

    #[test]
    fn leavers_rank_below_everyone_who_stayed() {
        let mut outcome = tied(vec![50, 10, 30]);
        outcome.ranks = vec![1, 3, 2];
        assert_eq!(outcome.ranks_with_leavers(&[]), vec![1, 3, 2]);
        // The bot won seat 0's game for a player who had left: last, the rest move up.
        assert_eq!(outcome.ranks_with_leavers(&[0]), vec![3, 2, 1]);
        // Two leavers share the last place below the one who stayed.
        assert_eq!(outcome.ranks_with_leavers(&[0, 2]), vec![2, 1, 2]);
        // Every seat left: nobody is ahead of anybody (for ratings, a draw; nobody
        // wins, since results never count a leaver's seat as a win).
        assert_eq!(outcome.ranks_with_leavers(&[0, 1, 2]), vec![1, 1, 1]);
        // A shared win with a leaver is the other seat's win.
        assert_eq!(tied(vec![5, 5]).ranks_with_leavers(&[1]), vec![1, 2]);
    }

    #[test]
    fn ranks_tie_and_put_ejected_last() {
        let ejected = vec![None, None, Some("timeout".to_string()), None];
        let ranks = Outcome::rank_by(&[5, 9, 100, 9], &ejected);
        assert_eq!(ranks, vec![3, 1, 4, 1]);
    }
}

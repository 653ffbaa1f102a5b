//! Ratings from a round-robin's games, replayed in game order: Elo for two seats (what
//! the spacegoo reference used), Weng-Lin (an open TrueSkill-like system) for 3–4 seats.

use skillratings::elo::{elo, EloConfig, EloRating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

/// One game for the ratings: the players by seat and their ranks (1 = best).
pub struct RatedGame<'a> {
    pub players: &'a [usize],
    pub ranks: &'a [u32],
}

/// Which system rated the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RatingSystem {
    Elo,
    WengLin,
}

/// Final ratings of `players` participants after `games` in order. Elo starts at
/// 1000 with K = 32; Weng-Lin reports mu, starting at 25.
pub fn rate(players: usize, seats: usize, games: &[RatedGame<'_>]) -> (RatingSystem, Vec<f64>) {
    if seats == 2 {
        let mut ratings = vec![EloRating::new(); players];
        let config = EloConfig::new();
        for game in games {
            let (a, b) = (game.players[0], game.players[1]);
            let outcome = match game.ranks[0].cmp(&game.ranks[1]) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
            };
            let (ra, rb) = elo(&ratings[a], &ratings[b], &outcome, &config);
            ratings[a] = ra;
            ratings[b] = rb;
        }
        (
            RatingSystem::Elo,
            ratings.iter().map(|r| r.rating).collect(),
        )
    } else {
        let mut ratings = vec![WengLinRating::new(); players];
        let config = WengLinConfig::new();
        for game in games {
            let teams: Vec<[WengLinRating; 1]> =
                game.players.iter().map(|&p| [ratings[p]]).collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(game.ranks)
                .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank as usize)))
                .collect();
            let updated = weng_lin_multi_team(&ranked, &config);
            for (&player, team) in game.players.iter().zip(updated) {
                if let Some(&rating) = team.first() {
                    ratings[player] = rating;
                }
            }
        }
        (
            RatingSystem::WengLin,
            ratings.iter().map(|r| r.rating).collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_rise_and_losers_fall() {
        let order = [0usize, 1];
        let games: Vec<RatedGame> = (0..10)
            .map(|_| RatedGame {
                players: &order,
                ranks: &[1, 2],
            })
            .collect();
        let (system, r) = rate(2, 2, &games);
        assert_eq!(system, RatingSystem::Elo);
        assert!(r[0] > 1000.0 && r[1] < 1000.0);

        let order3 = [2usize, 0, 1];
        let games: Vec<RatedGame> = (0..5)
            .map(|_| RatedGame {
                players: &order3,
                ranks: &[1, 2, 3],
            })
            .collect();
        let (system, r) = rate(3, 3, &games);
        assert_eq!(system, RatingSystem::WengLin);
        assert!(r[2] > r[0] && r[0] > r[1]);
    }
}

//! The rating arithmetic, pure: skillratings does the maths, this maps ranks onto it and
//! ratings onto the number people see.

use skillratings::elo::{elo, EloConfig, EloRating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

use super::RatingSystem;
use crate::error::StoreError;

/// Elo's K factor, as in the spacegoo reference server.
pub const ELO_K: f64 = 10.0;
/// Where every displayed rating starts: the Elo start, and Weng-Lin's shown value
/// `1000 + 40 · (mu − 3·sigma)` for a new player (mu 25, sigma 25/3).
pub const INITIAL_DISPLAY: i64 = 1000;
const ELO_START: f64 = 1000.0;
/// Weng-Lin points shown per unit of the cautious estimate `mu − 3·sigma`.
const WENG_LIN_SCALE: f64 = 40.0;

/// A rating as stored: Elo keeps its rating in `mu` and 0 in `sigma`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

pub(crate) fn initial(system: RatingSystem) -> Skill {
    match system {
        RatingSystem::Elo => Skill {
            mu: ELO_START,
            sigma: 0.0,
        },
        RatingSystem::WengLin => {
            let start = WengLinRating::new();
            Skill {
                mu: start.rating,
                sigma: start.uncertainty,
            }
        }
    }
}

/// The number shown and paired on. Weng-Lin shows a cautious estimate (the skill the
/// player almost surely has), so an unproven player does not top the board by luck.
pub(crate) fn display(system: RatingSystem, skill: Skill) -> i64 {
    let shown = match system {
        RatingSystem::Elo => skill.mu,
        RatingSystem::WengLin => {
            INITIAL_DISPLAY as f64 + WENG_LIN_SCALE * (skill.mu - 3.0 * skill.sigma)
        }
    };
    shown.round() as i64
}

/// New skills after one match; `ranks[i]` is player i's place (1 = best, equal = tie).
pub(crate) fn update(
    system: RatingSystem,
    skills: &[Skill],
    ranks: &[u32],
) -> Result<Vec<Skill>, StoreError> {
    if skills.len() != ranks.len() || skills.len() < 2 {
        return Err(StoreError::InvalidResult(format!(
            "{} players with {} ranks: a rated result needs two or more players",
            skills.len(),
            ranks.len()
        )));
    }
    match system {
        RatingSystem::Elo => {
            let [a, b] = skills else {
                return Err(StoreError::InvalidResult(format!(
                    "Elo rates two players, not {}",
                    skills.len()
                )));
            };
            let outcome = match ranks[0].cmp(&ranks[1]) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
            };
            let (a, b) = elo(
                &EloRating { rating: a.mu },
                &EloRating { rating: b.mu },
                &outcome,
                &EloConfig { k: ELO_K },
            );
            Ok(vec![
                Skill {
                    mu: a.rating,
                    sigma: 0.0,
                },
                Skill {
                    mu: b.rating,
                    sigma: 0.0,
                },
            ])
        }
        RatingSystem::WengLin => {
            let players: Vec<[WengLinRating; 1]> = skills
                .iter()
                .map(|s| {
                    [WengLinRating {
                        rating: s.mu,
                        uncertainty: s.sigma,
                    }]
                })
                .collect();
            let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = players
                .iter()
                .zip(ranks)
                .map(|(p, &r)| (&p[..], MultiTeamOutcome::new(r as usize)))
                .collect();
            Ok(weng_lin_multi_team(&teams, &WengLinConfig::new())
                .into_iter()
                .map(|team| {
                    let p = team[0];
                    Skill {
                        mu: p.rating,
                        sigma: p.uncertainty,
                    }
                })
                .collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_moves_five_points_between_equals() {
        let start = initial(RatingSystem::Elo);
        let after = update(RatingSystem::Elo, &[start, start], &[1, 2]).expect("rated");
        assert_eq!(display(RatingSystem::Elo, after[0]), 1005);
        assert_eq!(display(RatingSystem::Elo, after[1]), 995);
        let drawn = update(RatingSystem::Elo, &[start, start], &[1, 1]).expect("rated");
        assert_eq!(drawn[0], start);
    }

    #[test]
    fn weng_lin_orders_four_players_by_place_and_shrinks_uncertainty() {
        let start = initial(RatingSystem::WengLin);
        assert_eq!(display(RatingSystem::WengLin, start), INITIAL_DISPLAY);
        let after = update(RatingSystem::WengLin, &[start; 4], &[3, 1, 4, 2]).expect("rated");
        let mu: Vec<f64> = after.iter().map(|s| s.mu).collect();
        assert!(mu[1] > mu[3] && mu[3] > mu[0] && mu[0] > mu[2], "{mu:?}");
        assert!(after.iter().all(|s| s.sigma < start.sigma));
    }

    #[test]
    fn weng_lin_ties_are_symmetric() {
        let start = initial(RatingSystem::WengLin);
        let after = update(RatingSystem::WengLin, &[start; 3], &[1, 1, 3]).expect("rated");
        assert!((after[0].mu - after[1].mu).abs() < 1e-12);
        assert!(after[2].mu < start.mu);
    }

    #[test]
    fn elo_refuses_more_than_two_and_anything_refuses_one() {
        let e = initial(RatingSystem::Elo);
        assert!(update(RatingSystem::Elo, &[e; 3], &[1, 2, 3]).is_err());
        assert!(update(RatingSystem::WengLin, &[e], &[1]).is_err());
        assert!(update(RatingSystem::WengLin, &[e; 2], &[1]).is_err());
    }

    #[test]
    fn two_seat_rulesets_use_elo() {
        assert_eq!(RatingSystem::for_seat_counts(2..=2), RatingSystem::Elo);
        assert_eq!(RatingSystem::for_seat_counts(2..=4), RatingSystem::WengLin);
        assert_eq!(RatingSystem::for_seat_counts(1..=4), RatingSystem::WengLin);
    }
}

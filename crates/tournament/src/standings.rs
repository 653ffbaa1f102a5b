//! The table of standings: points first, then tie-breaks that depend on the format.
//!
//! Every value is an integer, so equal really is equal and the order never rests on
//! float rounding. Which tie-breaks apply, in order:
//!
//! - **Two seats, Swiss or round-robin**: Buchholz, Sonneborn-Berger, wins.
//! - **Arena**: Buchholz, then fewer games played (the same points from fewer games is
//!   a better average).
//! - **Pools, 3–4 seats** (Swiss or round-robin): placements, then Buchholz.
//!
//! Only *played* games (finished, not forfeits) count towards the tie-breaks that sum
//! over opponents: a forfeit scores, but nobody was met. Running games count for
//! nothing at all. Byes add points and nothing else.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::points::{game_points, placements, BYE};
use crate::{ByeRecord, Entrant, EntrantId, Format, GameRecord, HalfPoints};

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// 1-based; entrants with equal points and equal tie-breaks share a rank (1, 1, 3).
    pub rank: u32,
    pub entrant: EntrantId,
    pub points: HalfPoints,
    /// Finished games that were played (forfeits are counted apart).
    pub played: u32,
    /// Played games in which it finished alone in first place.
    pub wins: u32,
    /// Played games in which it shared first place.
    pub draws: u32,
    /// Played games in which someone finished ahead of it, or which its player left
    /// to the house bot.
    pub losses: u32,
    pub byes: u32,
    /// Finished forfeit games, won or lost.
    pub forfeits: u32,
    /// The format's tie-breaks, in the order they apply.
    pub tiebreaks: Vec<Tiebreak>,
}

/// One tie-break value. Its unit and direction follow from its name:
///
/// | name | value | better |
/// | --- | --- | --- |
/// | `buchholz` | half-points: the sum of every opponent's points | higher |
/// | `sonneborn_berger` | quarter-points: the sum over games of the opponent's half-points × my half-points in that game | higher |
/// | `wins` | a count | higher |
/// | `games_played` | a count | lower |
/// | `placements` | the sum of my place (1 = first) over played games | lower |
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tiebreak {
    pub name: &'static str,
    pub value: i64,
}

impl Tiebreak {
    pub const BUCHHOLZ: &'static str = "buchholz";
    pub const SONNEBORN_BERGER: &'static str = "sonneborn_berger";
    pub const WINS: &'static str = "wins";
    pub const GAMES_PLAYED: &'static str = "games_played";
    pub const PLACEMENTS: &'static str = "placements";
    /// Every name a tie-break may have.
    pub const NAMES: [&'static str; 5] = [
        Self::BUCHHOLZ,
        Self::SONNEBORN_BERGER,
        Self::WINS,
        Self::GAMES_PLAYED,
        Self::PLACEMENTS,
    ];

    /// Whether a lower value ranks higher (`games_played`, `placements`).
    pub fn lower_is_better(&self) -> bool {
        matches!(self.name, Self::GAMES_PLAYED | Self::PLACEMENTS)
    }

    /// How many units of `value` make one point: 2 for half-points, 4 for
    /// quarter-points, 1 for counts.
    pub fn per_point(&self) -> i64 {
        match self.name {
            Self::BUCHHOLZ => 2,
            Self::SONNEBORN_BERGER => 4,
            _ => 1,
        }
    }

    /// The value in points (or as a count), for display.
    pub fn as_f64(&self) -> f64 {
        self.value as f64 / self.per_point() as f64
    }

    /// `a` against `b` for one tie-break, better first.
    fn better(&self, other: &Tiebreak) -> Ordering {
        if self.lower_is_better() {
            self.value.cmp(&other.value)
        } else {
            other.value.cmp(&self.value)
        }
    }
}

/// Shown in points: `buchholz` 15 as "7.5", `sonneborn_berger` 13 as "3.25".
impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = self.per_point();
        let whole = self.value.div_euclid(per);
        let part = self.value.rem_euclid(per);
        match (per, part) {
            (_, 0) => write!(f, "{whole}"),
            (2, _) => write!(f, "{whole}.5"),
            (4, 2) => write!(f, "{whole}.5"),
            (4, _) => write!(f, "{whole}.{}", part * 25),
            _ => unreachable!("counts have no fractions"),
        }
    }
}

/// A tie-break as read: the name must be one of [`Tiebreak::NAMES`], kept as the
/// static string (the field is `&'static str` so that a name is never misspelt).
#[derive(Deserialize)]
struct NamedValue {
    name: String,
    value: i64,
}

// Written out rather than derived: a derived impl of a struct with a `&'static str`
// field borrows from the input, and so could only read from `'static` data.
impl<'de> Deserialize<'de> for Tiebreak {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Tiebreak, D::Error> {
        let read = NamedValue::deserialize(deserializer)?;
        let name = Tiebreak::NAMES
            .iter()
            .find(|known| **known == read.name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown tie-break {:?}, expected one of {:?}",
                    read.name,
                    Tiebreak::NAMES
                ))
            })?;
        Ok(Tiebreak {
            name,
            value: read.value,
        })
    }
}

/// What one entrant's records add up to, before the tie-breaks.
#[derive(Default)]
struct Tally {
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    byes: u32,
    forfeits: u32,
    /// Each played game's opponents, with my half-points in that game.
    opponents: Vec<(EntrantId, u32)>,
    /// The sum of my places in played games.
    placements: i64,
}

/// The standings of every entrant (withdrawn ones included, ranked like the others),
/// best first: points, then the tie-breaks in order, then rating (higher first), then
/// id (lower first). A repeated entrant counts once.
///
/// `seats` is the tournament's table size: 3 or 4 (outside an arena) choose the pools
/// tie-breaks. Opponents' points come from the records, so an opponent missing from
/// `entrants` still counts with the points it scored.
pub fn standings(
    format: Format,
    seats: usize,
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
) -> Vec<Standing> {
    let mut points: HashMap<EntrantId, u32> = HashMap::new();
    let mut tallies: HashMap<EntrantId, Tally> = HashMap::new();
    for game in games {
        let Some(ranks) = game.ranks.as_ref().filter(|r| r.len() == game.seats.len()) else {
            continue;
        };
        let scored = game_points(ranks);
        let places = placements(ranks);
        for (seat, &id) in game.seats.iter().enumerate() {
            *points.entry(id).or_default() += scored[seat].0;
            let tally = tallies.entry(id).or_default();
            if game.forfeit {
                tally.forfeits += 1;
                continue;
            }
            tally.played += 1;
            tally.placements += i64::from(places[seat]);
            let ahead = ranks.iter().filter(|&&r| r < ranks[seat]).count();
            let level = ranks.iter().filter(|&&r| r == ranks[seat]).count() - 1;
            match (ahead, level) {
                // Left to the house bot: lost, whatever the bot did.
                _ if ranks[seat] == crate::points::LEFT => tally.losses += 1,
                (0, 0) => tally.wins += 1,
                (0, _) => tally.draws += 1,
                _ => tally.losses += 1,
            }
            for (other, &opponent) in game.seats.iter().enumerate() {
                if other != seat {
                    tally.opponents.push((opponent, scored[seat].0));
                }
            }
        }
    }
    for bye in byes {
        *points.entry(bye.entrant).or_default() += BYE.0;
        tallies.entry(bye.entrant).or_default().byes += 1;
    }

    let mut seen = std::collections::HashSet::new();
    let mut lines: Vec<(Standing, f64)> = entrants
        .iter()
        .filter(|e| seen.insert(e.id))
        .map(|entrant| {
            let tally = tallies.remove(&entrant.id).unwrap_or_default();
            let tiebreaks = tiebreaks(format, seats, &tally, &points);
            let standing = Standing {
                rank: 0,
                entrant: entrant.id,
                points: HalfPoints(points.get(&entrant.id).copied().unwrap_or(0)),
                played: tally.played,
                wins: tally.wins,
                draws: tally.draws,
                losses: tally.losses,
                byes: tally.byes,
                forfeits: tally.forfeits,
                tiebreaks,
            };
            (standing, entrant.rating)
        })
        .collect();

    let level = |a: &Standing, b: &Standing| {
        b.points.cmp(&a.points).then_with(|| {
            a.tiebreaks
                .iter()
                .zip(&b.tiebreaks)
                .map(|(x, y)| x.better(y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    };
    lines.sort_by(|(a, ra), (b, rb)| {
        level(a, b)
            .then(rb.total_cmp(ra))
            .then(a.entrant.cmp(&b.entrant))
    });
    let mut out: Vec<Standing> = Vec::with_capacity(lines.len());
    for (position, (mut standing, _)) in lines.into_iter().enumerate() {
        standing.rank = match out.last() {
            Some(previous) if level(previous, &standing).is_eq() => previous.rank,
            _ => position as u32 + 1,
        };
        out.push(standing);
    }
    out
}

/// The tie-breaks of one entrant, in the order they apply for the format.
fn tiebreaks(
    format: Format,
    seats: usize,
    tally: &Tally,
    points: &HashMap<EntrantId, u32>,
) -> Vec<Tiebreak> {
    let final_points = |id: &EntrantId| i64::from(points.get(id).copied().unwrap_or(0));
    let buchholz = Tiebreak {
        name: Tiebreak::BUCHHOLZ,
        value: tally.opponents.iter().map(|(id, _)| final_points(id)).sum(),
    };
    if format == Format::Arena {
        return vec![
            buchholz,
            Tiebreak {
                name: Tiebreak::GAMES_PLAYED,
                value: i64::from(tally.played),
            },
        ];
    }
    if seats >= 3 {
        return vec![
            Tiebreak {
                name: Tiebreak::PLACEMENTS,
                value: tally.placements,
            },
            buchholz,
        ];
    }
    // Opponent's half-points × my half-points is the opponent's points × my points in
    // quarter points (½ · ½ = ¼): a draw adds half the opponent's points, exactly.
    let sonneborn_berger = tally
        .opponents
        .iter()
        .map(|(id, mine)| final_points(id) * i64::from(*mine))
        .sum();
    vec![
        buchholz,
        Tiebreak {
            name: Tiebreak::SONNEBORN_BERGER,
            value: sonneborn_berger,
        },
        Tiebreak {
            name: Tiebreak::WINS,
            value: i64::from(tally.wins),
        },
    ]
}

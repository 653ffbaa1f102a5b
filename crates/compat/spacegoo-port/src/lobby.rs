//! The port's lobby and the reference's pairing (background §6): every pairing interval
//! the waiting players are sorted by rating; while two or more wait, a first player is
//! drawn uniformly and a second at a normally distributed distance (σ = 2 places) in
//! that order, redrawn until it is another account. The one with the higher (or equal)
//! rating becomes player 1. Players left over keep waiting.

use parking_lot::Mutex;

use arbiter_store::AccountId;
use rand::Rng;
use rand_distr::{Distribution, Normal};

/// Draws of the second index before falling back to the nearest other account (the
/// reference redrew forever; with σ = 2 that ends quickly unless nobody else fits).
const MAX_DRAWS: usize = 64;

/// Pairs (player 1, player 2) and the players left waiting.
pub type Pairing<T> = (Vec<(Waiting<T>, Waiting<T>)>, Vec<Waiting<T>>);

/// A logged-in player waiting for a game.
#[derive(Debug)]
pub struct Waiting<T> {
    pub account: AccountId,
    pub name: String,
    /// Rating when the player logged in.
    pub rating: f64,
    /// Where to tell the player its game (a connection's channel).
    pub notify: T,
}

/// Players waiting for a game, in arrival order.
#[derive(Debug)]
pub struct Lobby<T> {
    waiting: Mutex<Vec<Waiting<T>>>,
}

impl<T> Default for Lobby<T> {
    fn default() -> Self {
        Lobby {
            waiting: Mutex::new(Vec::new()),
        }
    }
}

impl<T> Lobby<T> {
    pub fn join(&self, waiting: Waiting<T>) {
        self.waiting.lock().push(waiting);
    }

    /// Take an account out of the lobby (it left before being paired).
    pub fn leave(&self, account: AccountId) {
        self.waiting.lock().retain(|w| w.account != account);
    }

    pub fn len(&self) -> usize {
        self.waiting.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drop waiting players for whom `gone` holds (their connection closed), then pair
    /// the rest. Each pair comes as (player 1, player 2).
    pub fn pair(
        &self,
        rng: &mut impl Rng,
        gone: impl Fn(&T) -> bool,
    ) -> Vec<(Waiting<T>, Waiting<T>)> {
        let mut waiting = self.waiting.lock();
        waiting.retain(|w| !gone(&w.notify));
        let entries = std::mem::take(&mut *waiting);
        let (pairs, rest) = pair_by_rating(entries, rng);
        *waiting = rest;
        pairs
    }
}

/// The reference's pairing over `entries`; returns the pairs (player 1 first) and the
/// entries left, in rating order.
pub fn pair_by_rating<T>(mut entries: Vec<Waiting<T>>, rng: &mut impl Rng) -> Pairing<T> {
    // Stable: equal ratings keep arrival order.
    entries.sort_by(|a, b| a.rating.total_cmp(&b.rating));
    let mut pairs = Vec::new();
    while entries.len() >= 2 {
        let first = rng.random_range(0..entries.len());
        let Some(second) = draw_partner(&entries, first, rng) else {
            break;
        };
        let (low, high) = if first < second {
            (first, second)
        } else {
            (second, first)
        };
        let player1 = entries.remove(high);
        let player2 = entries.remove(low);
        pairs.push((player1, player2));
    }
    (pairs, entries)
}

/// The second index for `first`: trunc(gauss(first, 2)) clamped to the list, another
/// index and another account. `None` when nobody else can play `first`'s account…
/// which only happens when every entry is that account.
fn draw_partner<T>(entries: &[Waiting<T>], first: usize, rng: &mut impl Rng) -> Option<usize> {
    let fits = |index: usize| index != first && entries[index].account != entries[first].account;
    if let Ok(normal) = Normal::new(first as f64, 2.0) {
        for _ in 0..MAX_DRAWS {
            let drawn = normal.sample(rng) as i64;
            let index = drawn.clamp(0, entries.len() as i64 - 1) as usize;
            if fits(index) {
                return Some(index);
            }
        }
    }
    (0..entries.len())
        .filter(|&i| fits(i))
        .min_by_key(|&i| i.abs_diff(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::seeded_rng;

    fn waiting(account: AccountId, rating: f64) -> Waiting<()> {
        Waiting {
            account,
            name: format!("p{account}"),
            rating,
            notify: (),
        }
    }

    #[test]
    fn pairs_everyone_it_can_and_the_higher_rating_is_player_one() {
        let mut rng = seeded_rng(3);
        for n in 0..9 {
            let entries: Vec<_> = (0..n)
                .map(|i| waiting(i, 1000.0 + (i * 37 % 11) as f64))
                .collect();
            let (pairs, rest) = pair_by_rating(entries, &mut rng);
            assert_eq!(pairs.len(), n as usize / 2);
            assert_eq!(rest.len(), n as usize % 2);
            for (one, two) in &pairs {
                assert!(one.rating >= two.rating);
                assert_ne!(one.account, two.account);
            }
        }
    }

    #[test]
    fn never_pairs_an_account_with_itself() {
        let mut rng = seeded_rng(5);
        let (pairs, rest) = pair_by_rating(vec![waiting(1, 1000.0), waiting(1, 1000.0)], &mut rng);
        assert!(pairs.is_empty());
        assert_eq!(rest.len(), 2);
        let entries = vec![waiting(1, 900.0), waiting(1, 1000.0), waiting(2, 1100.0)];
        let (pairs, rest) = pair_by_rating(entries, &mut rng);
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].0.account, pairs[0].1.account), (2, 1));
        assert_eq!(rest.len(), 1);
    }

    #[test]
    fn close_ratings_meet_more_often_than_distant_ones() {
        let mut rng = seeded_rng(11);
        let mut near = 0;
        let mut far = 0;
        for _ in 0..400 {
            let entries: Vec<_> = (0..10)
                .map(|i| waiting(i, f64::from(i as i32) * 100.0))
                .collect();
            let (pairs, _) = pair_by_rating(entries, &mut rng);
            for (one, two) in pairs {
                if one.account.abs_diff(two.account) <= 2 {
                    near += 1;
                } else {
                    far += 1;
                }
            }
        }
        // A uniformly random pairing of 10 puts 17 of 45 possible pairs (38%) within
        // two places; the reference's draw does much better.
        assert!(near * 2 > near + far, "near {near}, far {far}");
    }

    #[test]
    fn the_lobby_drops_the_gone_and_keeps_the_rest() {
        let lobby: Lobby<bool> = Lobby::default();
        for (account, gone) in [(1, false), (2, true), (3, false), (4, false)] {
            lobby.join(Waiting {
                account,
                name: String::new(),
                rating: 1000.0,
                notify: gone,
            });
        }
        lobby.leave(4);
        let pairs = lobby.pair(&mut seeded_rng(1), |gone| *gone);
        assert_eq!(pairs.len(), 1);
        assert!(lobby.is_empty());
    }
}

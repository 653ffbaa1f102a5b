//! Built-in players: `random`, `reference` and `greedy`.
//!
//! `reference` is the reference spacegoo benchmark policy (issue 14), so that
//! `arbiter bench spacegoo --bot reference` compares speeds on equal terms. Each
//! round, with probability 0.3 (`rng.random::<f64>() < 0.3`, Python's
//! `random.random() < 0.3`, drawn every round): if the player owns a planet and there is
//! a planet it does not own, send half of each ship type (`ships // 2`) from its first
//! planet in id order with the largest total of ships to a uniformly chosen planet it
//! does not own; otherwise pass.
//!
//! `greedy` scores every send of [`Game::legal`]'s sample by its *immediate gain* and
//! plays the best one, or `nop` when no send gains anything. The gain of sending `S`
//! from `o` to `t` (arriving after `d = distance(o, t)` rounds) is computed with the
//! real [`battle`] against the garrison `t` will have on arrival (its ships now, plus
//! `d` rounds of production if a player owns it; other fleets in flight are ignored):
//! - `t` is ours: 0 (reinforcing gains nothing now);
//! - the attack takes `t`: `production(t) × min(20, rounds left after arrival)`
//!   (what the planet will build for us in the next 20 rounds), plus the enemy ships
//!   destroyed if `t` was the enemy's, minus our ships lost;
//! - the attack fails: enemy ships destroyed (0 on a neutral planet) minus ours lost.
//!
//! Ties are broken by the bot's own seeded ChaCha generator.

use arbiter_engine::bot::RandomBot;
use arbiter_engine::{Bot, Game, GameRng, Seat};
use rand::seq::IndexedRandom;
use rand::Rng;

use crate::actions::Action;
use crate::battle::battle;
use crate::game::Spacegoo;
use crate::map::NEUTRAL;
use crate::state::{player_id, State};

/// Names accepted by [`bot`].
/// Weakest first: the web lobby labels the last of a ruleset's bots (after these comes
/// `mcts`) the strongest.
pub const BOT_NAMES: &[&str] = &["random", "reference", "greedy"];

/// How often `reference` acts: the reference policy's 0.3.
pub const REFERENCE_ACT_PROBABILITY: f64 = 0.3;

/// Rounds of future production a capture is worth to `greedy`.
pub const GREEDY_HORIZON: i64 = 20;

/// A built-in bot by name, seeded.
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Spacegoo>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "reference" => Some(Box::new(ReferenceBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => None,
    }
}

fn sum(ships: &[i64; 3]) -> i64 {
    ships.iter().fold(0i64, |a, &b| a.saturating_add(b))
}

/// The immediate gain of `action` for `seat` (0 for `nop` and for sends the engine would
/// ignore).
pub fn immediate_gain(state: &State, seat: Seat, action: &Action) -> i64 {
    let Action::Send(order) = action else {
        return 0;
    };
    let world = state.world();
    let me = player_id(seat);
    let planet = |id: i64| usize::try_from(id).ok().and_then(|i| world.planets.get(i));
    let (Some(origin), Some(target)) = (planet(order.origin), planet(order.target)) else {
        return 0;
    };
    if origin.owner_id != me || origin.id == target.id || target.owner_id == me {
        return 0;
    }
    let ships: [i64; 3] = std::array::from_fn(|k| order.ships[k].max(0).min(origin.ships[k]));
    if sum(&ships) == 0 {
        return 0;
    }
    let travel = origin.distance(target);
    let enemy = target.owner_id != NEUTRAL;
    let growth = if enemy { i64::from(travel) } else { 0 };
    let garrison: [i64; 3] = std::array::from_fn(|k| {
        target.ships[k].saturating_add(target.production[k].saturating_mul(growth))
    });
    let (attackers_left, garrison_left) = battle(ships, garrison);
    let lost = sum(&ships) - sum(&attackers_left);
    let destroyed = if enemy {
        sum(&garrison) - sum(&garrison_left)
    } else {
        0
    };
    if sum(&garrison_left) > 0 {
        return destroyed - lost;
    }
    let arrival = i64::from(world.round) + i64::from(travel);
    let rounds_left = (i64::from(world.max_rounds) - arrival).clamp(0, GREEDY_HORIZON);
    sum(&target.production).saturating_mul(rounds_left) + destroyed - lost
}

/// The reference policy (see the module doc): a benchmark opponent, weak on purpose.
pub struct ReferenceBot {
    rng: GameRng,
}

impl ReferenceBot {
    pub fn new(seed: u64) -> Self {
        ReferenceBot {
            rng: arbiter_engine::seeded_rng(seed),
        }
    }
}

impl Bot<Spacegoo> for ReferenceBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        // The coin is tossed every round, before the board is looked at, as the
        // policy states.
        if self.rng.random::<f64>() >= REFERENCE_ACT_PROBABILITY {
            return Action::Nop;
        }
        let me = player_id(seat);
        let planets = &state.world().planets;
        // Which planets are the player's follows no pattern, so both passes below
        // select with arithmetic rather than branch on it (a mispredicted branch per
        // planet was most of this bot's time).
        // Pass 1: the planets it does not own, and the source: `max` keeps the first
        // of equal totals (the lowest id); totals in i128 so huge garrisons compare
        // exactly, and a planet not its own counts as less than any.
        let mut not_mine = 0usize;
        let (mut source, mut best) = (None, i128::MIN);
        for planet in planets {
            let mine = planet.owner_id == me;
            not_mine += usize::from(!mine);
            let total: i128 = planet.ships.iter().map(|&n| i128::from(n)).sum();
            let total = if mine { total } else { i128::MIN };
            // Any three i64 sum to more than i128::MIN, so every own planet counts.
            if total > best {
                (source, best) = (Some(planet), total);
            }
        }
        let Some(source) = source else {
            return Action::Nop;
        };
        if not_mine == 0 {
            return Action::Nop;
        }
        // Pass 2: the `pick`-th planet it does not own is the one before which `pick`
        // of them come, so its index counts the planets whose running count of
        // not-owned planets (inclusive) is at most `pick`.
        let pick = self.rng.random_range(0..not_mine);
        let (mut seen, mut target) = (0usize, 0usize);
        for planet in planets {
            seen += usize::from(planet.owner_id != me);
            target += usize::from(seen <= pick);
        }
        let Some(target) = planets.get(target) else {
            return Action::Nop;
        };
        // Python's `ships // 2` floors; `div_euclid` by 2 is the same for every sign.
        Action::send(source.id, target.id, source.ships.map(|n| n.div_euclid(2)))
    }
}

/// Best immediate gain, else `nop`.
pub struct GreedyBot {
    rng: GameRng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot {
            rng: arbiter_engine::seeded_rng(seed),
        }
    }
}

impl Bot<Spacegoo> for GreedyBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let mut best_gain = 0i64;
        let mut best: Vec<Action> = Vec::new();
        for action in Spacegoo::legal(state, seat) {
            let gain = immediate_gain(state, seat, &action);
            if gain > best_gain {
                best_gain = gain;
                best.clear();
            }
            if gain == best_gain && gain > 0 {
                best.push(action);
            }
        }
        best.choose(&mut self.rng).cloned().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::SendOrder;
    use crate::config::Config;
    use crate::map::Planet;

    #[test]
    fn names_resolve() {
        for name in BOT_NAMES {
            assert!(bot(name, 1).is_some());
        }
        assert!(bot("nobody", 1).is_none());
    }

    #[test]
    fn greedy_takes_the_weak_rich_planet_and_passes_when_nothing_gains() {
        let mut planets = vec![
            Planet::new(0, 0, 0, 0, [0, 0, 0]),
            Planet::new(1, -10, 0, 1, [0, 0, 0]),
            Planet::new(2, 10, 0, 2, [0, 0, 0]),
            Planet::new(3, -10, 8, 0, [5, 5, 5]),
        ];
        planets[0].ships = [500, 500, 500];
        planets[1].ships = [100, 100, 100];
        planets[2].ships = [500, 500, 500];
        planets[3].ships = [1, 1, 1];
        let state = State::with_planets(&Config::default(), planets);
        let mut greedy = GreedyBot::new(3);
        let Action::Send(order) = greedy.decide(&state, 0) else {
            panic!("greedy should attack");
        };
        assert_eq!((order.origin, order.target), (1, 3));

        let mut hopeless = state.clone();
        hopeless.world.planets[3].ships = [1000, 1000, 1000];
        assert_eq!(greedy.decide(&hopeless, 0), Action::Nop);
    }

    /// A hand-built board: planets with these owners and garrisons, in id order.
    fn board(planets: &[(u8, [i64; 3])]) -> State {
        let planets = planets
            .iter()
            .enumerate()
            .map(|(i, &(owner, ships))| {
                let mut planet = Planet::new(i, 3 * i as i64, 0, owner, [1, 1, 1]);
                planet.ships = ships;
                planet
            })
            .collect();
        State::with_planets(&Config::default(), planets)
    }

    /// The reference policy as the issue words it, with branches and filters: the
    /// oracle for `ReferenceBot::decide`, which selects without branching.
    fn reference_as_worded(rng: &mut GameRng, state: &State, seat: Seat) -> Action {
        if rng.random::<f64>() >= REFERENCE_ACT_PROBABILITY {
            return Action::Nop;
        }
        let me = player_id(seat);
        let planets = &state.world().planets;
        let total = |p: &Planet| p.ships.iter().map(|&n| i128::from(n)).sum::<i128>();
        let mine: Vec<&Planet> = planets.iter().filter(|p| p.owner_id == me).collect();
        let others: Vec<&Planet> = planets.iter().filter(|p| p.owner_id != me).collect();
        if mine.is_empty() || others.is_empty() {
            return Action::Nop;
        }
        let mut source = mine[0];
        for &planet in &mine[1..] {
            if total(planet) > total(source) {
                source = planet;
            }
        }
        let target = others[rng.random_range(0..others.len())];
        Action::send(source.id, target.id, source.ships.map(|n| n.div_euclid(2)))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// On boards of 1 to 70 planets (more than a machine word of them too) with
        /// owners 0 to 3 and garrisons small, huge or any (half the boards held to
        /// small ones, as games make, where equal totals are common), the bot sends
        /// exactly what the worded policy sends, drawing the same numbers.
        #[test]
        fn reference_decides_as_worded(
            planets in proptest::collection::vec(
                (0u8..4, proptest::array::uniform3(proptest::prop_oneof![
                    3 => 0i64..100,
                    1 => (i64::MAX - 3)..=i64::MAX,
                    1 => proptest::prelude::any::<i64>(),
                ])),
                1..70,
            ),
            small in proptest::prelude::any::<bool>(),
            seat in 0usize..2,
            seed in proptest::prelude::any::<u64>(),
        ) {
            let held = |ships: [i64; 3]| match small {
                true => ships.map(|n| n.rem_euclid(100)),
                false => ships,
            };
            let planets: Vec<(u8, [i64; 3])> =
                planets.into_iter().map(|(owner, ships)| (owner, held(ships))).collect();
            let state = board(&planets);
            let (mut bot, mut rng) = (ReferenceBot::new(seed), arbiter_engine::seeded_rng(seed));
            for _ in 0..20 {
                proptest::prop_assert_eq!(
                    bot.decide(&state, seat),
                    reference_as_worded(&mut rng, &state, seat)
                );
            }
        }
    }

    /// The sends of `decisions` rounds of `reference` for `seat` on one board.
    fn reference_sends(state: &State, seat: Seat, seed: u64, decisions: usize) -> Vec<SendOrder> {
        let mut bot = ReferenceBot::new(seed);
        (0..decisions)
            .filter_map(|_| match bot.decide(state, seat) {
                Action::Send(order) => Some(order),
                Action::Nop => None,
            })
            .collect()
    }

    #[test]
    fn reference_sends_half_of_each_type_from_the_first_largest_planet() {
        // Player 1 owns 0 (total 12), 2 and 4 (total 31 each, 2 first), 5 (total 30).
        let state = board(&[
            (1, [4, 4, 4]),
            (0, [9, 9, 9]),
            (1, [7, 0, 24]),
            (2, [50, 50, 50]),
            (1, [11, 10, 10]),
            (1, [30, 0, 0]),
        ]);
        let sends = reference_sends(&state, 0, 7, 200);
        assert!(!sends.is_empty());
        for order in &sends {
            assert_eq!(order.origin, 2, "ties go to the lowest id");
            assert_eq!(order.ships, [3, 0, 12], "floor half of [7, 0, 24]");
            assert!(
                [1, 3].contains(&order.target),
                "target {} is owned",
                order.target
            );
        }
        // Both planets it does not own are chosen, the neutral and the enemy's.
        for target in [1, 3] {
            assert!(sends.iter().any(|o| o.target == target), "never {target}");
        }
        // Player 2 sees the board from its side: its only planet, and any other.
        for order in reference_sends(&state, 1, 7, 200) {
            assert_eq!((order.origin, order.ships), (3, [25, 25, 25]));
            assert_ne!(order.target, 3);
        }
    }

    #[test]
    fn reference_passes_when_it_owns_nothing_or_everything() {
        let nothing = board(&[(2, [5, 5, 5]), (0, [5, 5, 5])]);
        assert!(reference_sends(&nothing, 0, 1, 500).is_empty());
        let everything = board(&[(1, [5, 5, 5]), (1, [9, 9, 9])]);
        assert!(reference_sends(&everything, 0, 1, 500).is_empty());
    }

    #[test]
    fn reference_acts_in_about_thirty_percent_of_rounds() {
        let state = board(&[(1, [10, 10, 10]), (2, [10, 10, 10]), (0, [1, 1, 1])]);
        let rounds = 10_000;
        let acted = reference_sends(&state, 0, 2024, rounds).len();
        // 3000 expected, standard deviation about 46: a band of ±4 of them.
        assert!(
            (2_820..=3_180).contains(&acted),
            "acted in {acted} of {rounds}"
        );
    }

    /// A whole default game ends without a fault, and the engine's bot playout counts
    /// its rounds as the board does (two sealed decisions a round).
    #[test]
    fn reference_plays_a_whole_default_game_and_bot_playout_counts_its_rounds() {
        let mut state = Spacegoo::new(&Config::default(), 2, 5).unwrap();
        let mut bots = [ReferenceBot::new(1), ReferenceBot::new(2)];
        while let arbiter_engine::Turn::Sealed(waiting) = Spacegoo::to_act(&state) {
            let seat = waiting[0];
            let action = bots[seat].decide(&state, seat);
            Spacegoo::apply(&mut state, seat, &action).unwrap();
        }
        let rounds = state.world().round;
        assert!(rounds > 0 && rounds <= Config::default().max_rounds);
        assert!((0..2).all(|seat| state.disqualification(seat).is_none()));

        let mut seats: Vec<Box<dyn Bot<Spacegoo>>> = vec![
            Box::new(ReferenceBot::new(1)),
            Box::new(ReferenceBot::new(2)),
        ];
        let played =
            arbiter_engine::playout::bot_playout(&Config::default(), 5, &mut seats, 10_000)
                .unwrap();
        assert_eq!(played.rounds, rounds as usize);
        assert_eq!(played.decisions, 2 * rounds as usize);
        assert_eq!(played.outcome, Spacegoo::outcome(&state));
    }
}

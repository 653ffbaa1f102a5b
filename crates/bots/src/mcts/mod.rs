//! Information-set Monte Carlo tree search, generic over [`Game`].
//!
//! Each iteration draws a fresh determinization of the position the bot was given
//! ([`Game::determinize`] for its own seat), walks the shared tree with UCB while every
//! move on the way is one the bot can observe, adds one node, plays a rollout (the
//! guide's policy, capped in depth) and backs up each seat's reward from the outcome's
//! ranks (or the guide's estimate when the rollout was cut off).
//!
//! Turn models:
//! - `One(seat)`: that seat picks a child, maximising its own reward.
//! - `AnyOf(seats)`: the bot's seat at the root; below it, the seat that moves next is
//!   drawn at random, as the arrival order of concurrent players is unknown.
//! - `Sealed(seats)`: the bot's own sealed move is a tree edge; the other sealed moves
//!   cannot be observed when the bot chooses, so they are sampled with the rollout
//!   policy and the walk stays on the same node (open loop).
//!
//! The bot never sees more than the state [`Bot::decide`] receives: every iteration
//! re-draws that state's secrets, and the root's moves come from that state.

mod tree;

use std::sync::Arc;
use std::time::Instant;

use arbiter_engine::guide::{fingerprint, Guide, Uninformed};
use arbiter_engine::{seeded_rng, Bot, Game, GameRng, Seat, Turn};
use rand::seq::IndexedRandom;
use rand::Rng;

use crate::options::{BotOptions, Budget};
use crate::reward::Rewards;

use tree::{Tree, ROOT};

pub use arbiter_engine::guide::DEFAULT_EXPLORATION;

/// Steps an iteration may take inside the tree before it gives up on the walk (a
/// ruleset that never ends a turn must not hang the bot).
const MAX_TREE_STEPS: usize = 10_000;

/// The statistics of one move at the root after a search.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceStats<A> {
    pub action: A,
    pub visits: u32,
    /// Mean reward of the bot's seat after this move, in [0, 1].
    pub mean: f64,
}

/// What one search found: the root's moves with their statistics, in the order the
/// guide listed them for the position.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchReport<A> {
    pub iterations: u64,
    pub choices: Vec<ChoiceStats<A>>,
}

impl<A: Clone> SearchReport<A> {
    /// The most visited moves, with the best mean among those (several when tied).
    pub fn best_choices(&self) -> Vec<&A> {
        let top = self.choices.iter().map(|c| (c.visits, c.mean)).fold(
            None,
            |best: Option<(u32, f64)>, key| match best {
                Some(b) if b >= key => Some(b),
                _ => Some(key),
            },
        );
        self.choices
            .iter()
            .filter(|c| Some((c.visits, c.mean)) == top)
            .map(|c| &c.action)
            .collect()
    }

    /// The first of [`SearchReport::best_choices`].
    pub fn best(&self) -> Option<&A> {
        self.best_choices().first().copied()
    }
}

/// The MCTS bot for game `G`.
pub struct Mcts<G: Game> {
    guide: Arc<dyn Guide<G>>,
    budget: Budget,
    rng: GameRng,
}

impl<G: Game> Mcts<G> {
    /// A bot without ruleset knowledge ([`Uninformed`]).
    pub fn new(options: &BotOptions, seed: u64) -> Self {
        Self::with_guide(options, seed, Arc::new(Uninformed))
    }

    /// A bot using `guide` for candidates, rollouts and evaluation.
    pub fn with_guide(options: &BotOptions, seed: u64, guide: Arc<dyn Guide<G>>) -> Self {
        Mcts {
            guide,
            budget: options.budget(),
            rng: seeded_rng(seed),
        }
    }

    /// Search from `state` (already determinized for `seat`) and report the root.
    /// An empty report means `seat` has nothing to decide here.
    pub fn search(&mut self, state: &G::State, seat: Seat) -> SearchReport<G::Action> {
        let exploration = self.guide.exploration();
        let mut tree = Tree::new(seat);
        if !G::to_act(state).includes(seat) {
            return SearchReport {
                iterations: 0,
                choices: Vec::new(),
            };
        }
        let root_moves: Vec<(u64, G::Action)> = self
            .guide
            .root_candidates(state, seat)
            .into_iter()
            .map(|a| (fingerprint(seat, &a), a))
            .collect();
        let mut iterations = 0u64;
        // One move needs no search.
        if root_moves.len() > 1 {
            let started = Instant::now();
            while !self.budget.spent(started, iterations) {
                self.iterate(&mut tree, state, seat, &root_moves, exploration);
                iterations += 1;
            }
        }
        let choices = root_moves
            .into_iter()
            .map(|(key, action)| {
                let (visits, mean) = tree
                    .child(ROOT, seat, key, &action)
                    .map(|c| (tree.nodes[c].visits, tree.nodes[c].mean()))
                    .unwrap_or((0, 0.0));
                ChoiceStats {
                    action,
                    visits,
                    mean,
                }
            })
            .collect();
        SearchReport {
            iterations,
            choices,
        }
    }

    /// One iteration: determinize, select and expand, roll out, back up.
    ///
    /// The root's moves are the bot's own, which depend only on what its seat knows,
    /// so they are listed once per search (`root_moves`) rather than per iteration.
    fn iterate(
        &mut self,
        tree: &mut Tree<G::Action>,
        given: &G::State,
        root_seat: Seat,
        root_moves: &[(u64, G::Action)],
        exploration: f64,
    ) {
        let mut state = G::determinize(given, root_seat, &mut self.rng);
        let mut node = ROOT;
        let mut path = vec![ROOT];
        let mut at_root = true;
        for _ in 0..MAX_TREE_STEPS {
            let Some((seat, observed)) = self.mover(&G::to_act(&state), root_seat, at_root) else {
                break;
            };
            if !observed {
                self.rollout_step(&mut state, seat);
                continue;
            }
            at_root = false;
            let candidates: Vec<(u64, G::Action)> = if node == ROOT && seat == root_seat {
                root_moves.to_vec()
            } else {
                self.guide
                    .candidates(&state, seat)
                    .into_iter()
                    .map(|a| (fingerprint(seat, &a), a))
                    .collect()
            };
            if candidates.is_empty() {
                G::eject(&mut state, seat, "no legal action");
                continue;
            }
            let mut available = Vec::with_capacity(candidates.len());
            let mut untried = Vec::new();
            for (key, action) in candidates {
                match tree.child(node, seat, key, &action) {
                    Some(child) => available.push(child),
                    None => untried.push((key, action)),
                }
            }
            for &child in &available {
                tree.nodes[child].available += 1;
            }
            if !untried.is_empty() {
                let pick = self.rng.random_range(0..untried.len());
                let (key, action) = untried.swap_remove(pick);
                let applied = G::apply_quietly(&mut state, seat, &action).is_ok();
                let child = tree.expand(node, seat, key, action);
                path.push(child);
                if !applied {
                    G::eject(&mut state, seat, "illegal action");
                }
                break;
            }
            let Some(child) = tree.select(&available, exploration) else {
                break;
            };
            path.push(child);
            node = child;
            let applied = match &tree.nodes[child].action {
                Some(action) => G::apply_quietly(&mut state, seat, action).is_ok(),
                None => false,
            };
            if !applied {
                G::eject(&mut state, seat, "illegal action");
            }
        }
        let rewards = self.rollout(&mut state);
        tree.backup(&path, |seat| rewards.of(seat));
    }

    /// Who moves next and whether the bot's seat can observe that move.
    fn mover(&mut self, turn: &Turn, root_seat: Seat, at_root: bool) -> Option<(Seat, bool)> {
        match turn {
            Turn::Over => None,
            Turn::One(seat) => Some((*seat, true)),
            Turn::AnyOf(seats) if seats.is_empty() => None,
            Turn::AnyOf(seats) if at_root && seats.contains(&root_seat) => Some((root_seat, true)),
            Turn::AnyOf(seats) => Some((seats[self.rng.random_range(0..seats.len())], true)),
            Turn::Sealed(seats) if seats.contains(&root_seat) => Some((root_seat, true)),
            Turn::Sealed(seats) => seats.first().map(|&seat| (seat, false)),
        }
    }

    /// Play one move for `seat` with the rollout policy (eject it if it has none).
    fn rollout_step(&mut self, state: &mut G::State, seat: Seat) {
        let applied = match self.guide.rollout_action(state, seat, &mut self.rng) {
            Some(action) => G::apply_quietly(state, seat, &action).is_ok(),
            None => false,
        };
        if !applied {
            G::eject(state, seat, "no legal action");
        }
    }

    /// Play on to the end or the guide's depth, and score the result.
    fn rollout(&mut self, state: &mut G::State) -> Rewards {
        for _ in 0..self.guide.rollout_depth(state) {
            let Some(seat) = G::playout_seat(state, &mut self.rng) else {
                break;
            };
            self.rollout_step(state, seat);
        }
        if let Some(outcome) = G::outcome(state) {
            return Rewards::from_outcome(&outcome);
        }
        match self.guide.evaluate(state) {
            Some(values) => Rewards::Estimated(values),
            None => Rewards::Unknown,
        }
    }
}

impl<G: Game> Bot<G> for Mcts<G>
where
    G::Action: Default,
{
    fn decide(&mut self, state: &G::State, seat: Seat) -> G::Action {
        let report = self.search(state, seat);
        // Ties (common when every rollout was cut off without an estimate) are broken
        // by the bot's generator rather than by list order, which would favour
        // whatever `legal` lists first (often passing).
        report
            .best_choices()
            .choose(&mut self.rng)
            .map(|&a| a.clone())
            .unwrap_or_default()
    }
}

//! The active player's legal turn actions, worked out for the whole board at once as
//! cell sets: counted with popcounts and indexed directly, so one action is read off
//! without building the list, and `legal` lists them without judging each cell on its
//! own. The per-cell rules (`actions.rs`) stay the reference: the property tests check
//! that exactly the actions listed here are accepted there. The same runs over a
//! cheaper superset ([`TurnActions::candidates`]) are what random playouts draw from
//! (`sample.rs`).
//!
//! The order is that of the `legal` list, which records index into: pass;
//! for each of the player's leader kinds, its placements by ascending cell, then its
//! withdrawal if it stands on the board; for each colonist kind in hand (kind order),
//! its colonies by ascending cell; bombs by ascending cell; swaps (see `swaps.rs`).

use arbiter_engine::Seat;
use smallvec::SmallVec;

use crate::actions::{Action, MAX_SWAP};
use crate::board::{Board, Pos};
use crate::cellset::CellSet;
use crate::kind::{Kind, Tiles};
use crate::lift::Lifted;
use crate::regions::NO_REGION;
use crate::state::State;
use crate::swaps::{sub_multisets, swap_count};

/// Every legal turn action of one seat, as sets of cells per kind of action.
pub(crate) struct TurnActions<'a> {
    board: &'a Board,
    hand: Tiles,
    /// Where each leader kind may be placed or moved to.
    placements: Placements,
    /// Where a colonist other than a mining robot may settle.
    settlements: CellSet,
    /// Where a mining robot may settle.
    mines: CellSet,
    /// Where a bomber may strike.
    bombs: CellSet,
    /// The runs of the list, in order, with their lengths: at most [`MAX_RUNS`]
    /// (pass, four leader kinds placed and withdrawn, four colonist kinds, bombs,
    /// swaps). The first `runs` are used.
    blocks: [(Block, u32); MAX_RUNS],
    runs: usize,
}

/// Runs in a list of turn actions: pass, four leader kinds placed and withdrawn, four
/// colonist kinds, bombs, swaps. A player's leader kinds are distinct (the config's
/// validation refuses a kind listed twice, and states are built only from a validated
/// config), so no list holds more.
const MAX_RUNS: usize = 1 + 2 * Kind::ALL.len() + Kind::ALL.len() + 2;

/// Where leaders may go: one set for every kind (the sampler's superset), or one per
/// kind, by [`Kind::index`] (the exact list: a leader on the board is judged lifted
/// off its cell). Shared, the superset copies no set for each leader.
enum Placements {
    Shared(CellSet),
    PerKind([CellSet; 4]),
}

impl Placements {
    fn of(&self, kind: Kind) -> &CellSet {
        match self {
            Placements::Shared(cells) => cells,
            Placements::PerKind(by_kind) => &by_kind[kind.index()],
        }
    }
}

/// A run of consecutive actions of the list.
#[derive(Debug, Clone, Copy)]
enum Block {
    Pass,
    Place(Kind),
    Withdraw(Kind),
    Colonize(Kind),
    Bomb,
    Swaps,
}

impl Block {
    /// The action a cell at `at` stands for, in a block of cell actions.
    fn at(self, at: Pos) -> Option<Action> {
        match self {
            Block::Place(kind) => Some(Action::PlaceLeader { kind, at }),
            Block::Colonize(kind) => Some(Action::Colonize { kind, at }),
            Block::Bomb => Some(Action::Bomb { at }),
            Block::Pass | Block::Withdraw(_) | Block::Swaps => None,
        }
    }
}

impl<'a> TurnActions<'a> {
    /// The turn actions of `seat` (the phase is `Act`); `None` for an unknown seat.
    pub fn new(state: &'a State, seat: Seat) -> Option<TurnActions<'a>> {
        let board = state.board();
        let masks = board.masks();
        let free = free_cells(board);
        let mut leader_ground =
            LeaderGround::new(free.and(&masks.inhabitable).and(board.near_scientists()));
        let colony_ground = free.minus(&judge_crowded_cells(board, &free, &mut leader_ground));
        let grid = board.grid();
        let mut by_kind = [
            grid.no_cells(),
            grid.no_cells(),
            grid.no_cells(),
            grid.no_cells(),
        ];
        for &kind in &state.player(seat)?.leaders {
            by_kind[kind.index()] = leader_ground.targets(board, board.find_leader(seat, kind));
        }
        TurnActions::assemble(
            state,
            seat,
            Placements::PerKind(by_kind),
            colony_ground.and(&masks.inhabitable),
            colony_ground.minus(&masks.inhabitable),
        )
    }

    /// A superset of the turn actions of `seat`, for drawing by rejection
    /// (`sample.rs`): every leader may go to any free, inhabitable cell next to a
    /// scientist colony and every colonist to any free cell of its terrain, whatever
    /// regions and kingdoms border the cell; pass, withdrawals, bombs and swaps are
    /// exact. A few cell-set operations: no cell is judged on its own.
    pub fn candidates(state: &'a State, seat: Seat) -> Option<TurnActions<'a>> {
        let board = state.board();
        let masks = board.masks();
        let free = free_cells(board);
        let ground = free.and(&masks.inhabitable).and(board.near_scientists());
        TurnActions::assemble(
            state,
            seat,
            Placements::Shared(ground),
            free.and(&masks.inhabitable),
            free.minus(&masks.inhabitable),
        )
    }

    /// The runs of the list from where leaders may go and where colonists may settle.
    fn assemble(
        state: &'a State,
        seat: Seat,
        placements: Placements,
        settlements: CellSet,
        mines: CellSet,
    ) -> Option<TurnActions<'a>> {
        let player = state.player(seat)?;
        let board = state.board();
        let (grid, masks) = (board.grid(), board.masks());
        // Built in the `Option` it is returned in, and filled there: the list is a few
        // hundred bytes, and building it apart and then wrapping it copied it once
        // more; the caller borrows it there too (see `sample::turn_action`).
        let mut built = Some(TurnActions {
            board,
            hand: player.hand,
            placements,
            settlements,
            mines,
            bombs: grid
                .all_cells()
                .minus(&masks.destroyed)
                .minus(&masks.leaders)
                .minus(&masks.artifacts),
            blocks: [(Block::Pass, 0); MAX_RUNS],
            runs: 0,
        });
        let actions = built.as_mut()?;
        actions.push_run(Block::Pass, 1);
        // One set for every leader kind: counted once.
        let shared = match &actions.placements {
            Placements::Shared(cells) => Some(cells.count()),
            Placements::PerKind(_) => None,
        };
        for &kind in &player.leaders {
            let count = shared.unwrap_or_else(|| actions.placements.of(kind).count());
            actions.push_run(Block::Place(kind), count);
            if board.find_leader(seat, kind).is_some() {
                actions.push_run(Block::Withdraw(kind), 1);
            }
        }
        // Three colonist kinds share the settlements: each set counted once.
        let (settlements, mines) = (actions.settlements.count(), actions.mines.count());
        for kind in Kind::ALL {
            if player.hand.get(kind) > 0 {
                let count = if kind == Kind::Mining {
                    mines
                } else {
                    settlements
                };
                actions.push_run(Block::Colonize(kind), count);
            }
        }
        if player.bombers > 0 {
            actions.push_run(Block::Bomb, actions.bombs.count());
        }
        actions.push_run(Block::Swaps, swap_count(&player.hand));
        built
    }

    /// Append a run of `len` actions. Runs are counted in `u32` to keep the list of
    /// runs small to move: a run is at most one action per cell (4,096 on the largest
    /// board) or the swaps of one hand.
    fn push_run(&mut self, block: Block, len: usize) {
        self.blocks[self.runs] = (block, len as u32);
        self.runs += 1;
    }

    /// The runs in use.
    fn runs(&self) -> &[(Block, u32)] {
        &self.blocks[..self.runs]
    }

    fn colony_cells(&self, kind: Kind) -> &CellSet {
        if kind == Kind::Mining {
            &self.mines
        } else {
            &self.settlements
        }
    }

    /// The cells of a block of cell actions.
    fn cells(&self, block: Block) -> Option<&CellSet> {
        match block {
            Block::Place(kind) => Some(self.placements.of(kind)),
            Block::Colonize(kind) => Some(self.colony_cells(kind)),
            Block::Bomb => Some(&self.bombs),
            Block::Pass | Block::Withdraw(_) | Block::Swaps => None,
        }
    }

    /// How many actions the list holds.
    pub fn len(&self) -> usize {
        self.runs().iter().map(|&(_, len)| len as usize).sum()
    }

    /// The `index`-th action of the list.
    pub fn get(&self, mut index: usize) -> Option<Action> {
        for &(block, len) in self.runs() {
            let len = len as usize;
            if index < len {
                return self.nth(block, index);
            }
            index -= len;
        }
        None
    }

    /// The whole list.
    pub fn list(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(self.len());
        let pos = |cell| self.board.pos(cell);
        for &(block, _) in self.runs() {
            match block {
                Block::Place(kind) => self.placements.of(kind).for_each(|cell| {
                    out.push(Action::PlaceLeader {
                        kind,
                        at: pos(cell),
                    })
                }),
                Block::Colonize(kind) => self.colony_cells(kind).for_each(|cell| {
                    out.push(Action::Colonize {
                        kind,
                        at: pos(cell),
                    })
                }),
                Block::Bomb => self
                    .bombs
                    .for_each(|cell| out.push(Action::Bomb { at: pos(cell) })),
                Block::Swaps => out.extend(
                    sub_multisets(&self.hand, MAX_SWAP).map(|tiles| Action::Swap { tiles }),
                ),
                Block::Pass | Block::Withdraw(_) => out.extend(self.nth(block, 0)),
            }
        }
        out
    }

    /// The `index`-th action of `block`.
    fn nth(&self, block: Block, index: usize) -> Option<Action> {
        if let Some(cells) = self.cells(block) {
            return cells
                .nth(index)
                .and_then(|cell| block.at(self.board.pos(cell)));
        }
        match block {
            Block::Pass => (index == 0).then_some(Action::Pass),
            Block::Withdraw(kind) => (index == 0).then_some(Action::WithdrawLeader { kind }),
            Block::Swaps => sub_multisets(&self.hand, MAX_SWAP)
                .nth(index)
                .map(|tiles| Action::Swap { tiles }),
            Block::Place(_) | Block::Colonize(_) | Block::Bomb => None,
        }
    }
}

/// The cells neither occupied nor destroyed.
fn free_cells(board: &Board) -> CellSet {
    let masks = board.masks();
    board
        .grid()
        .all_cells()
        .minus(&masks.occupied)
        .minus(&masks.destroyed)
}

/// Where leaders may go: judged once for a leader from hand, then adjusted for each
/// leader on the board. Lifting a leader changes what borders a cell only next to the
/// leader, and, if its region splits, at cells that border that region twice.
struct LeaderGround {
    /// Free, inhabitable cells next to a scientist colony.
    ground: CellSet,
    /// The targets of a leader from hand: `ground` less the cells bordering two
    /// regions.
    from_hand: CellSet,
    /// The cells of `ground` bordering one region only, at two cells or more, with
    /// that region (a few dozen at most on the default board: kept on the stack).
    doubly_touched: SmallVec<[(usize, u32); 48]>,
}

/// Judge the free cells next to two occupied cells or more, the only ones that may
/// border two regions (a leader may not go there) or, next to three, three kingdoms (a
/// colony may not): each once, by the distinct regions around it. Tells
/// `leader_ground` and returns the cells that would join three kingdoms.
fn judge_crowded_cells(board: &Board, free: &CellSet, leader_ground: &mut LeaderGround) -> CellSet {
    let grid = board.grid();
    let (crowded, very_crowded) = grid.crowded(&board.masks().occupied);
    let judged = leader_ground
        .ground
        .and(&crowded)
        .or(&free.and(&very_crowded));
    let mut three_kingdoms = grid.no_cells();
    let mut kingdoms: Option<CellSet> = None;
    judged.for_each(|cell| {
        let around = RegionsAround::of(board, cell);
        leader_ground.judge(cell, &around);
        if around.distinct >= 3 {
            let kingdoms = kingdoms.get_or_insert_with(|| self::kingdoms(board));
            if around.distinct_among(kingdoms) >= 3 {
                three_kingdoms.insert(cell);
            }
        }
    });
    three_kingdoms
}

/// Whether a colony on the free cell `cell` would join three kingdoms or more (the
/// rule [`judge_crowded_cells`] applies to every crowded cell at once).
pub(crate) fn joins_three_kingdoms(board: &Board, cell: usize) -> bool {
    let around = RegionsAround::of(board, cell);
    around.distinct >= 3 && around.distinct_among(&kingdoms(board)) >= 3
}

/// The regions on the four sides of a cell, for the judge: [`Board::neighbor_regions`]
/// without building the sorted list. Counted without branches: which regions border a
/// cell is unpredictable, and a mispredicted branch per side cost more than the count.
struct RegionsAround {
    /// The region on each side; [`RegionsAround::NONE`] where empty or off the board.
    sides: [u32; 4],
    /// How many distinct regions.
    distinct: usize,
}

impl RegionsAround {
    const NONE: u32 = NO_REGION;

    fn of(board: &Board, cell: usize) -> RegionsAround {
        let [a, b, c, d] = board.regions_around(cell);
        // Each side counts if it shows a region no earlier side showed.
        let distinct = usize::from(a != Self::NONE)
            + usize::from((b != Self::NONE) & (b != a))
            + usize::from((c != Self::NONE) & (c != a) & (c != b))
            + usize::from((d != Self::NONE) & (d != a) & (d != b) & (d != c));
        RegionsAround {
            sides: [a, b, c, d],
            distinct,
        }
    }

    /// The one region, when there is exactly one.
    fn single(&self) -> Option<u32> {
        (self.distinct == 1).then(|| self.sides.into_iter().min().unwrap_or(Self::NONE))
    }

    /// How many of the distinct regions are in `set`.
    fn distinct_among(&self, set: &CellSet) -> usize {
        let sides = self.sides;
        (0..4)
            .filter(|&i| {
                let region = sides[i];
                region != Self::NONE
                    && !sides[..i].contains(&region)
                    && set.contains(region as usize)
            })
            .count()
    }
}

/// The kingdoms (the regions holding a leader) as a set of region ids: ids are below
/// the number of cells, so a cell set of the board holds them (inline on boards up to
/// 256 cells).
fn kingdoms(board: &Board) -> CellSet {
    let mut set = board.grid().no_cells();
    board.masks().leaders.for_each(|cell| {
        if let Some(region) = board.region(cell) {
            set.insert(region as usize);
        }
    });
    set
}

impl LeaderGround {
    /// `ground`: the free, inhabitable cells next to a scientist colony.
    fn new(ground: CellSet) -> LeaderGround {
        LeaderGround {
            from_hand: ground.clone(),
            doubly_touched: SmallVec::new(),
            ground,
        }
    }

    /// Take in a cell next to two occupied cells or more. Inlined into the judge's
    /// loop: a call per cell cost a tenth of a listing.
    #[inline(always)]
    fn judge(&mut self, cell: usize, around: &RegionsAround) {
        if !self.ground.contains(cell) {
            return;
        }
        if let Some(region) = around.single() {
            self.doubly_touched.push((cell, region));
        } else if around.distinct >= 2 {
            self.from_hand.remove(cell);
        }
    }

    /// Where the leader standing at `from` (`None`: in hand) may go.
    fn targets(&self, board: &Board, from: Option<usize>) -> CellSet {
        let mut targets = self.from_hand.clone();
        let Some(from) = from else {
            return targets;
        };
        let lifted = Lifted::new(board, Some(from));
        for cell in board.neighbors(from) {
            if self.ground.contains(cell) {
                targets.set(cell, !lifted.joins_regions(cell));
            }
        }
        // A cell bordering the leader's region twice borders two regions once the
        // leader is lifted only if the region splits.
        let Some(region) = board.region(from) else {
            return targets;
        };
        let mut splits = None;
        for &(cell, touched) in &self.doubly_touched {
            if touched == region
                && *splits.get_or_insert_with(|| lifted.splits())
                && lifted.joins_regions(cell)
            {
                targets.remove(cell);
            }
        }
        targets
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::seq::IndexedRandom;

    use arbiter_engine::{seeded_rng, Turn};

    use super::*;
    use crate::actions::{bomb_target, check_leader_target, colonize_effect};
    use crate::flow;
    use crate::game::{legal, random_action};
    use crate::random_play::{config, play};
    use crate::sample::accepts;
    use crate::state::Phase;

    /// The board with the leader at `from` taken off, its regions labelled from
    /// scratch: where the original implementation judged a move.
    fn lifted_copy(board: &Board, from: usize) -> Board {
        let mut cells = board.cells().to_vec();
        cells[from].leader = None;
        Board::from_cells(board.width(), board.height(), cells)
    }

    /// The list as the original implementation built it: every cell judged on its own
    /// by the per-cell rules, a moving leader on a lifted copy of the board.
    fn reference_list(state: &State, seat: Seat) -> Vec<Action> {
        let mut out = vec![Action::Pass];
        let Some(player) = state.player(seat) else {
            return out;
        };
        let board = state.board();
        for &kind in &player.leaders {
            let from = board.find_leader(seat, kind);
            let copy = from.map(|from| lifted_copy(board, from));
            let judged = Lifted::new(copy.as_ref().unwrap_or(board), None);
            for to in 0..board.len() {
                if Some(to) != from && check_leader_target(&judged, to).is_ok() {
                    out.push(Action::PlaceLeader {
                        kind,
                        at: board.pos(to),
                    });
                }
            }
            if from.is_some() {
                out.push(Action::WithdrawLeader { kind });
            }
        }
        for kind in Kind::ALL {
            if player.hand.get(kind) > 0 {
                for to in 0..board.len() {
                    if colonize_effect(state, kind, to).is_ok() {
                        out.push(Action::Colonize {
                            kind,
                            at: board.pos(to),
                        });
                    }
                }
            }
        }
        if player.bombers > 0 {
            for id in 0..board.len() {
                if bomb_target(board, id).is_ok() {
                    out.push(Action::Bomb { at: board.pos(id) });
                }
            }
        }
        out.extend(sub_multisets(&player.hand, MAX_SWAP).map(|tiles| Action::Swap { tiles }));
        out
    }

    /// Judging a move on the real board with the leader lifted gives the same answer,
    /// refusal reasons and region counts included, as judging it on a lifted copy.
    fn check_lifted_judgement(state: &State, seat: Seat) {
        let board = state.board();
        for (from, leader) in board.leaders().filter(|(_, l)| l.owner == seat) {
            let copy = lifted_copy(board, from);
            let (lifted, reference) = (Lifted::new(board, Some(from)), Lifted::new(&copy, None));
            for to in (0..board.len()).filter(|&to| to != from) {
                assert_eq!(
                    check_leader_target(&lifted, to),
                    check_leader_target(&reference, to),
                    "{:?} leader lifted from {from} to {to}",
                    leader.kind
                );
            }
        }
    }

    /// Every state of a random match: the cell-set listing equals the per-cell
    /// reference, indexing agrees with listing, the sampler's superset keeps exactly
    /// the list once filtered by its acceptance (so its draws are uniform over the
    /// list), and `random_action` draws a listed action for every seat at every prompt
    /// (at the other prompts, exactly what the engine's default draws).
    fn check_state(state: &State, draws: &mut arbiter_engine::GameRng) {
        let mut acting = None;
        if let (Phase::Act, Turn::One(seat)) = (state.phase(), flow::to_act(state)) {
            let actions = TurnActions::new(state, seat).expect("the active seat exists");
            let list = actions.list();
            assert_eq!(list, reference_list(state, seat));
            assert_eq!(actions.len(), list.len());
            for (i, action) in list.iter().enumerate() {
                assert_eq!(actions.get(i).as_ref(), Some(action), "index {i}");
            }
            assert_eq!(actions.get(list.len()), None);
            let candidates = TurnActions::candidates(state, seat).expect("the seat exists");
            let kept: Vec<Action> = candidates
                .list()
                .into_iter()
                .filter(|action| accepts(state, seat, action))
                .collect();
            assert_eq!(kept, list, "the superset filtered by acceptance");
            check_lifted_judgement(state, seat);
            acting = Some(seat);
        }
        for seat in 0..state.seats() + 1 {
            let listed = legal(state, seat);
            if Some(seat) == acting {
                let drawn = random_action(state, seat, draws).expect("pass is always legal");
                assert!(listed.contains(&drawn), "seat {seat} drew {drawn:?}");
                continue;
            }
            let mut ours = draws.clone();
            let drawn = random_action(state, seat, &mut ours);
            let expected = listed.choose(draws).cloned();
            assert_eq!(drawn, expected, "seat {seat}");
            assert!(
                ours == *draws,
                "seat {seat}: the generator moved differently"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn listing_and_drawing_match_the_per_cell_rules(
            seed in any::<u64>(),
            seats in 2usize..=4,
            board in any::<u8>(),
            ejections in any::<bool>(),
        ) {
            let config = config(board);
            let mut draws = seeded_rng(seed ^ 0xD4A5);
            play(&config, seats, seed, ejections.then_some(120), |state| check_state(state, &mut draws));
        }
    }
}

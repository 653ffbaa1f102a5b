//! Build a position directly, without playing turns to reach it.
//!
//! The original author lost days playing several turns to set up each conflict test
//! (background §4); scenarios fix that. The builder starts from a board text (artifact
//! cells already hold their scientist colony and artifact), empty hands and an empty
//! bag, seat 0 active with two actions, and lets a test place colonies, leaders and
//! destroyed cells and set hands, resources and the bag. `build` relabels the regions
//! and checks every invariant, so a scenario is always a reachable-looking position.

use arbiter_engine::Seat;

use crate::board::{board_from_text, Cell, Leader, Pos};
use crate::kind::{Kind, Resources, Tiles};
use crate::state::{Phase, Player, State, ACTIONS_PER_TURN};

pub struct Scenario {
    state: State,
    errors: Vec<String>,
}

impl Scenario {
    /// A position on `board_text` (same format as custom boards) for `seats` players,
    /// each with all four leaders in hand and two bombers.
    pub fn new(board_text: &str, seats: usize) -> Scenario {
        let mut errors = Vec::new();
        let board = board_from_text(board_text).unwrap_or_else(|e| {
            errors.push(e.to_string());
            crate::board::Board::empty(1, 1)
        });
        let player = Player {
            hand: Tiles::default(),
            resources: Resources::default(),
            artifacts: 0,
            leaders: Kind::ALL.to_vec(),
            bombers: 2,
            discarded: Tiles::default(),
            ejected: None,
        };
        Scenario {
            state: State {
                board,
                bag: Vec::new(),
                players: vec![player; seats.max(1)],
                hand_size: 6,
                active: 0,
                actions_left: ACTIONS_PER_TURN,
                passing_turns: 0,
                turn: 1,
                phase: Phase::Act,
            },
            errors,
        }
    }

    fn edit(mut self, x: u32, y: u32, f: impl FnOnce(&mut Cell)) -> Self {
        match self.state.board.id(Pos::new(x, y)) {
            Some(id) => {
                let mut cell = *self.state.board.cell(id);
                f(&mut cell);
                self.state.board.set_cell(id, cell);
            }
            None => self.errors.push(format!("({x}, {y}) is off the board")),
        }
        self
    }

    /// A colony of `kind` at (x, y).
    pub fn colony(self, x: u32, y: u32, kind: Kind) -> Self {
        self.edit(x, y, |c| c.colony = Some(kind))
    }

    /// Several colonies of one kind.
    pub fn colonies(mut self, kind: Kind, cells: &[(u32, u32)]) -> Self {
        for &(x, y) in cells {
            self = self.colony(x, y, kind);
        }
        self
    }

    /// A scientist colony holding an artifact at (x, y) (any terrain but uninhabitable).
    pub fn artifact(self, x: u32, y: u32) -> Self {
        self.edit(x, y, |c| {
            c.colony = Some(Kind::Scientist);
            c.artifact = true;
        })
    }

    /// `owner`'s `kind` leader at (x, y).
    pub fn leader(self, x: u32, y: u32, owner: Seat, kind: Kind) -> Self {
        self.edit(x, y, |c| c.leader = Some(Leader { owner, kind }))
    }

    /// A destroyed (empty) cell.
    pub fn destroyed(self, x: u32, y: u32) -> Self {
        self.edit(x, y, |c| {
            c.destroyed = true;
            c.colony = None;
            c.artifact = false;
            c.leader = None;
        })
    }

    fn player(mut self, seat: Seat, f: impl FnOnce(&mut Player)) -> Self {
        match self.state.players.get_mut(seat) {
            Some(p) => f(p),
            None => self.errors.push(format!("no seat {seat}")),
        }
        self
    }

    pub fn hand(self, seat: Seat, hand: Tiles) -> Self {
        self.player(seat, |p| p.hand = hand)
    }

    pub fn resources(self, seat: Seat, resources: Resources) -> Self {
        self.player(seat, |p| p.resources = resources)
    }

    pub fn artifacts(self, seat: Seat, n: u32) -> Self {
        self.player(seat, |p| p.artifacts = n)
    }

    pub fn bombers(self, seat: Seat, n: u32) -> Self {
        self.player(seat, |p| p.bombers = n)
    }

    /// The bag, in the order the colonists will be drawn (first drawn first).
    pub fn bag(mut self, draws: &[Kind]) -> Self {
        self.state.bag = draws.iter().rev().copied().collect();
        self
    }

    pub fn hand_size(mut self, n: u32) -> Self {
        self.state.hand_size = n;
        self
    }

    pub fn active(mut self, seat: Seat) -> Self {
        if seat < self.state.players.len() {
            self.state.active = seat;
        } else {
            self.errors.push(format!("no seat {seat} to be active"));
        }
        self
    }

    pub fn actions_left(mut self, n: u32) -> Self {
        self.state.actions_left = n.clamp(1, ACTIONS_PER_TURN);
        self
    }

    /// The position, with every invariant checked.
    pub fn build(self) -> Result<State, String> {
        if !self.errors.is_empty() {
            return Err(self.errors.join("; "));
        }
        self.state.verify()?;
        Ok(self.state)
    }
}

//! The list `Qgame::legal` returns (pass, replace when the pile holds a whole hand, then
//! every single-tile placement: tile kinds in tile order, each at its cells in
//! row-column order), described without being built. Its length and its action at any
//! index come from the frontier's per-kind counts, so a random playout can pick an
//! action without making the few hundred it picks from.

use arbiter_engine::Seat;

use crate::action::Action;
use crate::frontier::Frontier;
use crate::kinds::KindSet;
use crate::placement::Placement;
use crate::state::State;

pub struct LegalList<'s> {
    frontier: &'s Frontier,
    /// Whether replace is listed.
    replace: bool,
    /// The hand's kinds, each listed once.
    kinds: KindSet,
}

impl<'s> LegalList<'s> {
    /// `seat`'s list, or `None` when `seat` is not to act (its list is empty).
    pub fn of(state: &'s State, seat: Seat) -> Option<Self> {
        if state.active() != Some(seat) {
            return None;
        }
        let hand = &state.players.get(seat)?.hand;
        Some(LegalList {
            frontier: state.map.frontier(),
            replace: state.pile.len() >= hand.len(),
            kinds: KindSet::of_tiles(hand),
        })
    }

    pub fn len(&self) -> usize {
        let placements: usize = self
            .kinds
            .iter()
            .map(|tile| self.frontier.count_places(tile))
            .sum();
        1 + usize::from(self.replace) + placements
    }

    /// Never true: pass is always listed.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The action at `index`, as `self.iter().nth(index)` but without walking the list.
    pub fn get(&self, index: usize) -> Option<Action> {
        let mut rest = index;
        for fixed in self.fixed() {
            if rest == 0 {
                return Some(fixed);
            }
            rest -= 1;
        }
        for tile in self.kinds.iter() {
            let count = self.frontier.count_places(tile);
            if rest < count {
                let at = self.frontier.nth_place(tile, rest)?;
                return Some(place_one(Placement::new(at, tile)));
            }
            rest -= count;
        }
        None
    }

    /// Every action in order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        let placements = self.kinds.iter().flat_map(move |tile| {
            self.frontier
                .places_for(tile)
                .map(move |at| place_one(Placement::new(at, tile)))
        });
        self.fixed().chain(placements)
    }

    /// The actions listed before the placements.
    fn fixed(&self) -> impl Iterator<Item = Action> {
        std::iter::once(Action::Pass).chain(self.replace.then_some(Action::Replace))
    }
}

fn place_one(placement: Placement) -> Action {
    Action::Place(vec![placement])
}

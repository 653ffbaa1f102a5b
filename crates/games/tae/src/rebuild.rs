//! A full state from one seat's view, for players that receive only views.
//!
//! The board layout comes from the configuration and its contents from the view. The
//! view's `unseen` colonists (the bag, the other hands and the other seats' swapped-out
//! colonists) are shuffled and dealt back into the public counts, as `determinize`
//! does; the other seats' resources, which nothing public reveals, are zero. Once the
//! game is over every hand is shown, and the rebuilt state is the real one but for the
//! bag's order.

use rand::seq::SliceRandom;

use arbiter_engine::{GameRng, Seat};

use crate::board::{Board, Cell, Pos};
use crate::config::Config;
use crate::kind::{Kind, Tiles};
use crate::state::{Claim, Conflicts, Phase, Player, State, War};
use crate::view::{ClaimView, PlayerView, PromptView, View};

/// The state `seat` may be in, given its `view`; see `Game::state_from_view`.
pub fn state_from_view(
    config: &Config,
    view: &View,
    seat: Seat,
    rng: &mut GameRng,
) -> Result<State, String> {
    if view.seat != Some(seat) {
        return Err(format!("this is not seat {seat}'s view"));
    }
    let mut board = configured_board(config, view, seat)?;
    place_view_cells(&mut board, view)?;
    let mut pool = shuffled_unseen(view, seat, rng)?;
    let players = view
        .players
        .iter()
        .enumerate()
        .map(|(s, p)| player_from_view(config, s, p, s == seat, &mut pool))
        .collect::<Result<Vec<_>, _>>()?;
    let phase = phase_from_prompt(view, &board)?;
    let state = State {
        board,
        bag: pool,
        players,
        hand_size: view.hand_size,
        active: view.active,
        actions_left: view.actions_left,
        turn: view.turn,
        passing_turns: view.passing_turns,
        phase,
    };
    state.verify()?;
    Ok(state)
}

/// The board the configuration lays out, once the view's seats, hand size and board
/// shape are the configuration's.
fn configured_board(config: &Config, view: &View, seat: Seat) -> Result<Board, String> {
    let seats = view.players.len();
    let board = config.validate(seats).map_err(|e| e.to_string())?;
    if seat >= seats || view.active >= seats {
        return Err(format!("seat {seat} in a view of {seats} seats"));
    }
    if view.hand_size != config.hand_size {
        return Err("the view's hand size is not the configuration's".to_string());
    }
    if (view.width, view.height) != (board.width(), board.height())
        || view.cells.len() != board.len()
    {
        return Err("the view's board is not the configuration's".to_string());
    }
    Ok(board)
}

/// Put the view's cell contents on `board`. The terrain is checked, not taken: the
/// view's cells are the configuration's board played on, not another board.
fn place_view_cells(board: &mut Board, view: &View) -> Result<(), String> {
    let seats = view.players.len();
    let mut cells = Vec::with_capacity(board.len());
    for (id, cell) in view.cells.iter().enumerate() {
        if board.pos(id) != Pos::new(cell.x, cell.y) || board.cell(id).terrain != cell.terrain {
            return Err(format!(
                "cell ({}, {}) is not the configuration's",
                cell.x, cell.y
            ));
        }
        if cell.leader.is_some_and(|l| l.owner >= seats) {
            return Err(format!(
                "the leader at ({}, {}) has no seat",
                cell.x, cell.y
            ));
        }
        cells.push(Cell {
            terrain: cell.terrain,
            destroyed: cell.destroyed,
            colony: cell.colony,
            artifact: cell.artifact,
            leader: cell.leader,
        });
    }
    board.set_cells(cells)
}

/// The colonists nobody shows `seat` (the bag and the hands and discards the view
/// hides), once they add up to the public counts. They are listed in canonical order
/// and shuffled by `rng` only, so the other seats' secrets cannot reach the deal.
fn shuffled_unseen(view: &View, seat: Seat, rng: &mut GameRng) -> Result<Vec<Kind>, String> {
    let mut pool = view.unseen;
    let mut hidden = view.bag_count as u32;
    for (s, p) in view.players.iter().enumerate() {
        if s == seat {
            continue;
        }
        for (shown, count) in [(p.hand, p.hand_count), (p.discarded, p.discarded_count)] {
            match shown {
                Some(tiles) if pool.contains(&tiles) && tiles.total() == count => pool.take(&tiles),
                Some(_) => return Err(format!("seat {s}'s colonists do not add up")),
                None => hidden += count,
            }
        }
    }
    if pool.total() != hidden {
        return Err(format!(
            "the view hides {hidden} colonists but leaves {} unseen",
            pool.total()
        ));
    }
    let mut pool: Vec<Kind> = pool.to_kinds();
    pool.shuffle(rng);
    Ok(pool)
}

/// Seat `s`'s pieces from its part of the view: what the view shows as it is, hidden
/// colonists dealt from `pool`, and resources nothing reveals as zero.
fn player_from_view(
    config: &Config,
    s: Seat,
    p: &PlayerView,
    own: bool,
    pool: &mut Vec<Kind>,
) -> Result<Player, String> {
    if own {
        check_own_colonists(p)?;
    }
    check_leaders(config, s, p)?;
    // Hand before discards, from the back of the pool, as `determinize` deals.
    let hand = deal(pool, p.hand, p.hand_count);
    let discarded = deal(pool, p.discarded, p.discarded_count);
    Ok(Player {
        hand,
        resources: p.resources.unwrap_or_default(),
        artifacts: p.artifacts,
        leaders: config.leaders.clone(),
        bombers: p.bombers,
        discarded,
        ejected: p.ejected.clone(),
    })
}

/// The seat's own colonists are the one secret it knows, so they are taken as shown
/// and must be shown and agree with their public counts.
fn check_own_colonists(p: &PlayerView) -> Result<(), String> {
    if p.hand.is_none() || p.resources.is_none() || p.discarded.is_none() {
        return Err("the view does not show the seat's own colonists".to_string());
    }
    if p.hand.map(|h| h.total()) != Some(p.hand_count)
        || p.discarded.map(|d| d.total()) != Some(p.discarded_count)
    {
        return Err("the seat's colonists and their counts disagree".to_string());
    }
    Ok(())
}

/// The rebuilt player owns the configuration's leaders, so the view must show exactly
/// those, in hand or on the board.
fn check_leaders(config: &Config, s: Seat, p: &PlayerView) -> Result<(), String> {
    let mut leaders: Vec<Kind> = p
        .leaders_in_hand
        .iter()
        .chain(p.leaders_on_board.iter().map(|(kind, _)| kind))
        .copied()
        .collect();
    leaders.sort();
    let mut configured = config.leaders.clone();
    configured.sort();
    if leaders != configured {
        return Err(format!("seat {s}'s leaders are not the configuration's"));
    }
    Ok(())
}

/// `shown` colonists as they are, or `count` hidden ones from the back of `pool`.
fn deal(pool: &mut Vec<Kind>, shown: Option<Tiles>, count: u32) -> Tiles {
    shown.unwrap_or_else(|| {
        let dealt = pool.split_off(pool.len().saturating_sub(count as usize));
        Tiles::from_kinds(&dealt)
    })
}

/// The phase whose prompt the view shows, its positions turned back into cell ids and
/// every seat it names checked.
fn phase_from_prompt(view: &View, board: &Board) -> Result<Phase, String> {
    let seats = view.players.len();
    let phase = match &view.prompt {
        PromptView::Act { seat: active, .. } => {
            if *active != view.active {
                return Err("the prompt's seat is not the active seat".to_string());
            }
            Phase::Act
        }
        PromptView::ChooseConflict { join, options, .. } => Phase::Conflicts(Conflicts {
            join: join.map(|pos| cell_id(board, pos)).transpose()?,
            pending: seated_wars(options, seats)?,
            battle: None,
        }),
        PromptView::Commit {
            join,
            battle,
            pending,
            ..
        } => {
            seated(battle.attacker, seats)?;
            seated(battle.defender, seats)?;
            Phase::Conflicts(Conflicts {
                join: join.map(|pos| cell_id(board, pos)).transpose()?,
                pending: seated_wars(pending, seats)?,
                battle: Some(battle.clone()),
            })
        }
        PromptView::Harvest {
            seat: owner,
            cells,
            later,
        } => Phase::Harvest {
            claims: harvest_claims(board, seats, *owner, cells, later)?,
        },
        PromptView::Over { end } => Phase::Over(end.clone()),
    };
    Ok(phase)
}

/// The prompted claim first, then the later ones in the order the view lists them.
fn harvest_claims(
    board: &Board,
    seats: usize,
    owner: Seat,
    cells: &[Pos],
    later: &[ClaimView],
) -> Result<Vec<Claim>, String> {
    let mut claims = vec![Claim {
        owner: seated(owner, seats)?,
        cells: cell_ids(board, cells)?,
    }];
    for claim in later {
        claims.push(Claim {
            owner: seated(claim.seat, seats)?,
            cells: cell_ids(board, &claim.cells)?,
        });
    }
    Ok(claims)
}

fn seated(seat: Seat, seats: usize) -> Result<Seat, String> {
    if seat < seats {
        Ok(seat)
    } else {
        Err(format!("the prompt names seat {seat} of {seats}"))
    }
}

fn seated_wars(wars: &[War], seats: usize) -> Result<Vec<War>, String> {
    for war in wars {
        seated(war.attacker, seats)?;
        seated(war.defender, seats)?;
    }
    Ok(wars.to_vec())
}

fn cell_id(board: &Board, pos: Pos) -> Result<usize, String> {
    board
        .id(pos)
        .ok_or_else(|| format!("({}, {}) is off the board", pos.x, pos.y))
}

fn cell_ids(board: &Board, cells: &[Pos]) -> Result<Vec<usize>, String> {
    cells.iter().map(|&pos| cell_id(board, pos)).collect()
}

#[cfg(test)]
mod tests {
    use arbiter_engine::seeded_rng;

    use super::*;
    use crate::determinize::determinize;
    use crate::game::new_game;
    use crate::random_play::{config, play};
    use crate::view::view;

    /// Pins the deal, not just the view: before the end a view rebuilds exactly what
    /// `determinize` deals from the same generator (one shuffle of the canonical pool,
    /// dealt from the back in seat order, hand before discards); at the end, when every
    /// hand is shown, the real state with the bag's kinds reshuffled.
    #[test]
    fn a_view_rebuilds_what_determinize_deals() {
        for pick in 0..3 {
            let config = config(pick);
            for seats in 2..=4 {
                let mut visited = 0u64;
                let seed = u64::from(pick) * 10 + seats as u64;
                play(&config, seats, seed, Some(400), |state| {
                    visited += 1;
                    if !visited.is_multiple_of(3) && !state.is_over() {
                        return;
                    }
                    for seat in 0..seats {
                        let salt = visited * 8 + seat as u64;
                        let seen = view(state, Some(seat));
                        let rebuilt = state_from_view(&config, &seen, seat, &mut seeded_rng(salt))
                            .unwrap_or_else(|e| panic!("seat {seat}, state {visited}: {e}"));
                        assert_eq!(view(&rebuilt, Some(seat)), seen, "the view round-trips");
                        let expected = if state.is_over() {
                            let mut bag = Tiles::from_kinds(&state.bag).to_kinds();
                            bag.shuffle(&mut seeded_rng(salt));
                            State {
                                bag,
                                ..state.clone()
                            }
                        } else {
                            determinize(state, seat, &mut seeded_rng(salt))
                        };
                        assert_eq!(rebuilt, expected, "seat {seat}, state {visited}");
                    }
                });
            }
        }
    }

    /// A view that does not fit the configuration or does not add up is refused, with
    /// the first thing wrong named.
    #[test]
    fn inconsistent_views_are_refused() {
        let config = Config::default();
        let state = new_game(&config, 3, 7).unwrap();
        let refusal = |seat: Seat, tamper: fn(&mut View)| {
            let mut seen = view(&state, Some(1));
            tamper(&mut seen);
            state_from_view(&config, &seen, seat, &mut seeded_rng(1)).unwrap_err()
        };
        assert_eq!(refusal(0, |_| {}), "this is not seat 0's view");
        assert_eq!(
            refusal(1, |v| v.hand_size += 1),
            "the view's hand size is not the configuration's"
        );
        assert_eq!(
            refusal(1, |v| v.width += 1),
            "the view's board is not the configuration's"
        );
        assert_eq!(
            refusal(1, |v| v.cells[0].x = 1),
            "cell (1, 0) is not the configuration's"
        );
        assert_eq!(
            refusal(1, |v| v.players[2].hand = Some(Tiles::new(1, 0, 0, 0))),
            "seat 2's colonists do not add up"
        );
        assert_eq!(
            refusal(1, |v| v.bag_count += 1),
            format!(
                "the view hides {} colonists but leaves {} unseen",
                view(&state, Some(1)).unseen.total() + 1,
                view(&state, Some(1)).unseen.total()
            )
        );
        assert_eq!(
            refusal(1, |v| v.players[1].resources = None),
            "the view does not show the seat's own colonists"
        );
        assert_eq!(
            refusal(1, |v| v.players[1].hand_count += 1),
            "the seat's colonists and their counts disagree"
        );
        assert_eq!(
            refusal(1, |v| v.players[0].leaders_in_hand.pop().map_or((), drop)),
            "seat 0's leaders are not the configuration's"
        );
        assert_eq!(
            refusal(1, |v| v.active = 2),
            "the prompt's seat is not the active seat"
        );
    }
}

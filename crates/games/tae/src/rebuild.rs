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

use crate::board::{Cell, Pos};
use crate::config::Config;
use crate::kind::{Kind, Resources, Tiles};
use crate::state::{Battle, Claim, Conflicts, Phase, Player, State, War};
use crate::view::{PromptView, View};

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
    let seats = view.players.len();
    let mut board = config.validate(seats).map_err(|e| e.to_string())?;
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
    board.set_cells(cells)?;

    // Deal the colonists nobody shows, in canonical order shuffled by `rng` only.
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
    let mut deal = |shown: Option<Tiles>, count: u32| {
        shown.unwrap_or_else(|| {
            let dealt = pool.split_off(pool.len().saturating_sub(count as usize));
            Tiles::from_kinds(&dealt)
        })
    };

    let mut players = Vec::with_capacity(seats);
    for (s, p) in view.players.iter().enumerate() {
        let own = s == seat;
        if own && (p.hand.is_none() || p.resources.is_none() || p.discarded.is_none()) {
            return Err("the view does not show the seat's own colonists".to_string());
        }
        if own
            && (p.hand.map(|h| h.total()) != Some(p.hand_count)
                || p.discarded.map(|d| d.total()) != Some(p.discarded_count))
        {
            return Err("the seat's colonists and their counts disagree".to_string());
        }
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
        let hand = deal(p.hand, p.hand_count);
        let discarded = deal(p.discarded, p.discarded_count);
        players.push(Player {
            hand,
            resources: p.resources.unwrap_or_else(Resources::default),
            artifacts: p.artifacts,
            leaders: config.leaders.clone(),
            bombers: p.bombers,
            discarded,
            ejected: p.ejected.clone(),
        });
    }

    let cell_of = |pos: Pos| {
        board
            .id(pos)
            .ok_or_else(|| format!("({}, {}) is off the board", pos.x, pos.y))
    };
    let cells_of = |cells: &[Pos]| cells.iter().map(|&p| cell_of(p)).collect::<Result<_, _>>();
    let seated = |s: Seat| {
        if s < seats {
            Ok(s)
        } else {
            Err(format!("the prompt names seat {s} of {seats}"))
        }
    };
    let wars = |wars: &[War]| -> Result<Vec<War>, String> {
        for war in wars {
            seated(war.attacker)?;
            seated(war.defender)?;
        }
        Ok(wars.to_vec())
    };
    let phase = match &view.prompt {
        PromptView::Act { seat: active, .. } => {
            if *active != view.active {
                return Err("the prompt's seat is not the active seat".to_string());
            }
            Phase::Act
        }
        PromptView::ChooseConflict { join, options, .. } => Phase::Conflicts(Conflicts {
            join: join.map(cell_of).transpose()?,
            pending: wars(options)?,
            battle: None,
        }),
        PromptView::Commit {
            join,
            battle,
            pending,
            ..
        } => {
            let battle: Battle = battle.clone();
            seated(battle.attacker)?;
            seated(battle.defender)?;
            Phase::Conflicts(Conflicts {
                join: join.map(cell_of).transpose()?,
                pending: wars(pending)?,
                battle: Some(battle),
            })
        }
        PromptView::Harvest {
            seat: owner,
            cells,
            later,
        } => {
            let mut claims = vec![Claim {
                owner: seated(*owner)?,
                cells: cells_of(cells)?,
            }];
            for claim in later {
                claims.push(Claim {
                    owner: seated(claim.seat)?,
                    cells: cells_of(&claim.cells)?,
                });
            }
            Phase::Harvest { claims }
        }
        PromptView::Over { end } => Phase::Over(end.clone()),
    };

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

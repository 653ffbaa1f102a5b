//! Turn flow: dispatching a seat's answer to the current prompt, moving the state
//! machine on until someone owes a decision, the end of a turn (harvest, refill, end
//! check), and ejection.
//!
//! Prompts owed by an ejected seat are answered by the referee with the default (commit
//! 0, the first pending conflict, the lowest artifact cell); an ejected active player's
//! turn ends at once. Only public facts (who is ejected) decide this, never a hand: a
//! seat holding no matching colonist is still prompted, so the prompt reveals nothing.

use arbiter_engine::{EventSink, Seat, Turn};
use smallvec::SmallVec;

use crate::actions::{apply_turn_action, cell_id, Action};
use crate::config::{END_ARTIFACTS, MAX_SEATS};
use crate::conflict;
use crate::error::TaeError;
use crate::events::Event;
use crate::kind::Kind;
use crate::state::{Claim, EndReason, Phase, State, ACTIONS_PER_TURN};

/// Who owes a decision now.
pub fn to_act(state: &State) -> Turn {
    match &state.phase {
        Phase::Over(_) => Turn::Over,
        Phase::Act => Turn::One(state.active),
        Phase::Conflicts(c) => match &c.battle {
            Some(battle) => Turn::One(battle.to_commit()),
            None => Turn::One(state.active),
        },
        Phase::Harvest { claims } => match claims.first() {
            Some(claim) => Turn::One(claim.owner),
            None => Turn::One(state.active),
        },
    }
}

/// Apply `seat`'s answer to the current prompt. On error nothing changed.
pub fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, TaeError> {
    let mut events = Vec::new();
    apply_into(state, seat, action, &mut events)?;
    Ok(events)
}

/// [`apply`] with the events pushed into `events`; a playout passes
/// [`Discard`](arbiter_engine::Discard) and none are built.
pub(crate) fn apply_into(
    state: &mut State,
    seat: Seat,
    action: &Action,
    events: &mut impl EventSink<Event>,
) -> Result<(), TaeError> {
    if state.is_over() {
        return Err(TaeError::GameOver);
    }
    if !to_act(state).includes(seat) || state.is_ejected(seat) {
        return Err(TaeError::NotYourTurn(seat));
    }
    match &state.phase {
        Phase::Act => apply_turn_action(state, seat, action, events)?,
        Phase::Conflicts(c) => match (&c.battle, action) {
            (Some(_), Action::Commit { count }) => conflict::commit(state, seat, *count, events)?,
            (Some(_), Action::Pass) => conflict::commit(state, seat, 0, events)?,
            (None, Action::ChooseConflict { kind }) => conflict::choose(state, *kind, events)?,
            (None, Action::Pass) => {
                let kind = c.pending.first().map(|w| w.kind);
                match kind {
                    Some(kind) => conflict::choose(state, kind, events)?,
                    None => return Err(TaeError::WrongPhase("no conflict to choose")),
                }
            }
            (Some(_), _) => return Err(TaeError::WrongPhase("commit colonists to the conflict")),
            (None, _) => return Err(TaeError::WrongPhase("choose the next conflict")),
        },
        Phase::Harvest { claims } => {
            let Some(claim) = claims.first() else {
                return Err(TaeError::WrongPhase("no artifact to take"));
            };
            let cell = match action {
                Action::TakeArtifact { at } => {
                    let id = cell_id(&state.board, *at)?;
                    if !claim.cells.contains(&id) || !state.board.cell(id).artifact {
                        return Err(TaeError::NotClaimable(*at));
                    }
                    id
                }
                Action::Pass => match claim.cells.first() {
                    Some(&id) => id,
                    None => return Err(TaeError::WrongPhase("no artifact to take")),
                },
                _ => return Err(TaeError::WrongPhase("take an artifact")),
            };
            take_artifact(state, cell, events);
        }
        Phase::Over(_) => return Err(TaeError::GameOver),
    }
    advance(state, events);
    Ok(())
}

fn take_artifact(state: &mut State, cell: usize, events: &mut impl EventSink<Event>) {
    let Phase::Harvest { claims } = &mut state.phase else {
        return;
    };
    if claims.is_empty() {
        return;
    }
    let claim = claims.remove(0);
    state.board.take_artifact(cell);
    if let Some(player) = state.players.get_mut(claim.owner) {
        player.artifacts += 1;
    }
    events.push(Event::ArtifactTaken {
        seat: claim.owner,
        at: state.board.pos(cell),
    });
}

/// What [`advance`] does next; decided from a shared borrow, then carried out.
enum Step {
    Wait,
    EndActions,
    AutoCommit(Seat),
    SortWars,
    AutoHarvest(Option<usize>),
    FinishTurn,
}

/// Move the state machine on until a live seat owes a decision or the game ends.
pub(crate) fn advance(state: &mut State, events: &mut impl EventSink<Event>) {
    loop {
        if state.is_over() {
            return;
        }
        if state.live_seats() < 2 {
            finish(state, EndReason::LastPlayer, events);
            return;
        }
        let step = match &state.phase {
            Phase::Over(_) => Step::Wait,
            Phase::Act if state.actions_left == 0 || state.is_ejected(state.active) => {
                Step::EndActions
            }
            Phase::Act => Step::Wait,
            Phase::Conflicts(c) => match &c.battle {
                Some(battle) if state.is_ejected(battle.to_commit()) => {
                    Step::AutoCommit(battle.to_commit())
                }
                Some(_) => Step::Wait,
                None => Step::SortWars,
            },
            Phase::Harvest { claims } => match claims.first() {
                None => Step::FinishTurn,
                Some(claim) if state.is_ejected(claim.owner) => {
                    Step::AutoHarvest(claim.cells.first().copied())
                }
                Some(_) => Step::Wait,
            },
        };
        match step {
            Step::Wait => return,
            Step::EndActions => start_end_of_turn(state),
            // An ejected seat commits nothing; committing 0 cannot fail.
            Step::AutoCommit(seat) => {
                let _ = conflict::commit(state, seat, 0, events);
            }
            Step::SortWars => {
                if sort_wars(state, events) {
                    return;
                }
            }
            Step::AutoHarvest(Some(cell)) => take_artifact(state, cell, events),
            Step::AutoHarvest(None) => {
                if let Phase::Harvest { claims } = &mut state.phase {
                    claims.remove(0);
                }
            }
            Step::FinishTurn => finish_turn(state, events),
        }
    }
}

/// Between external conflicts: drop the lapsed ones, then start the only one left (or
/// the first, for an ejected active player), or end the conflicts. Returns true when the
/// active player must choose.
fn sort_wars(state: &mut State, events: &mut impl EventSink<Event>) -> bool {
    let Phase::Conflicts(c) = &mut state.phase else {
        return false;
    };
    let (live, lapsed): (Vec<_>, Vec<_>) = std::mem::take(&mut c.pending)
        .into_iter()
        .partition(|war| conflict::war_is_live(&state.board, war));
    for war in lapsed {
        events.push(Event::ConflictLapsed {
            kind: war.kind,
            attacker: war.attacker,
            defender: war.defender,
        });
    }
    let first = live.first().map(|w| w.kind);
    let single = live.len() == 1;
    c.pending = live;
    match first {
        None => {
            state.phase = Phase::Act;
            false
        }
        Some(kind) if single || state.is_ejected(state.active) => {
            // The kind is pending, so choosing it cannot fail.
            let _ = conflict::choose(state, kind, events);
            false
        }
        Some(_) => true,
    }
}

/// End of the active player's actions: find the regions whose merchant leader may take
/// an artifact (regions with at least two artifacts), in region order. Only regions
/// holding a merchant leader can claim, so only theirs are looked at (the first
/// merchant in cell order speaks for a region).
fn start_end_of_turn(state: &mut State) {
    let board = &state.board;
    // The merchants on the board in cell order (the first in a region claims it),
    // found by seat rather than by walking every leader.
    let mut merchants: SmallVec<[(usize, Seat); MAX_SEATS]> = (0..state.players.len())
        .filter_map(|seat| Some((board.find_leader(seat, Kind::Merchant)?, seat)))
        .collect();
    merchants.sort_unstable();
    let mut claims: Vec<(u32, Claim)> = Vec::new();
    for (cell, owner) in merchants {
        let Some(region) = board.region(cell) else {
            continue;
        };
        if claims.iter().any(|(r, _)| *r == region) {
            continue;
        }
        let in_region = || {
            board
                .artifact_cells()
                .filter(move |&c| board.region(c) == Some(region))
        };
        // Counted first: most regions hold fewer than two, and need no list.
        if in_region().nth(1).is_some() {
            claims.push((
                region,
                Claim {
                    owner,
                    cells: in_region().collect(),
                },
            ));
        }
    }
    claims.sort_by_key(|(region, _)| *region);
    state.phase = Phase::Harvest {
        claims: claims.into_iter().map(|(_, claim)| claim).collect(),
    };
}

/// After the harvest: every live player refills to a full hand, the active player first;
/// then the end conditions; then the next live seat's turn.
fn finish_turn(state: &mut State, events: &mut impl EventSink<Event>) {
    let seats = state.players.len();
    let mut short = false;
    for offset in 0..seats {
        let seat = (state.active + offset) % seats;
        if state.is_ejected(seat) {
            continue;
        }
        let need = state
            .hand_size
            .saturating_sub(state.players[seat].hand.total());
        if need == 0 {
            continue;
        }
        let drawn = state.draw(seat, need);
        if (drawn.len() as u32) < need {
            short = true;
        }
        events.push(Event::Drew {
            seat,
            count: drawn.len() as u32,
            kinds: Some(drawn),
        });
    }
    let left = state.board.artifact_count();
    if left <= END_ARTIFACTS {
        finish(state, EndReason::Artifacts { left }, events);
        return;
    }
    if short {
        finish(state, EndReason::BagEmpty, events);
        return;
    }
    if state.passing_turns >= state.live_seats() as u32 {
        finish(state, EndReason::AllPassed, events);
        return;
    }
    let mut next = state.active;
    for _ in 0..seats {
        next = (next + 1) % seats;
        if !state.is_ejected(next) {
            break;
        }
    }
    begin_turn(state, next, events);
}

pub(crate) fn begin_turn(state: &mut State, seat: Seat, events: &mut impl EventSink<Event>) {
    state.active = seat;
    state.actions_left = ACTIONS_PER_TURN;
    state.turn += 1;
    state.phase = Phase::Act;
    events.push(Event::TurnStarted {
        seat,
        turn: state.turn,
    });
}

fn finish(state: &mut State, end: EndReason, events: &mut impl EventSink<Event>) {
    state.phase = Phase::Over(end.clone());
    events.push(Event::GameOver { end });
}

/// Eject a seat: it ranks last, commits 0 in conflicts, takes no more turns and draws
/// no more colonists; its leaders stay on the board. With one live seat left the game
/// ends.
pub fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
    let mut events = Vec::new();
    if state.is_over() {
        return events;
    }
    let Some(player) = state.players.get_mut(seat) else {
        return events;
    };
    if player.ejected.is_some() {
        return events;
    }
    player.ejected = Some(reason.to_string());
    events.push(Event::Ejected {
        seat,
        reason: reason.to_string(),
    });
    advance(state, &mut events);
    events
}

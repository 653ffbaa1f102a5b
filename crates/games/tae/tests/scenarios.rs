//! Rule scenarios, each built directly as a position (no turns played to reach it).
//!
//! Coordinates are (x, y) with y = 0 the bottom row; each board is drawn in a comment
//! with `S` scientist, `R` mining, `M` merchant, `P` settler colonies, `A` artifacts,
//! `~` uninhabitable and leaders as kind letter + owner (`m1` = seat 1's merchant
//! leader), top row first.

mod common;

use arbiter_engine::{Game, Turn};
use arbiter_tae::events::ReturnReason;
use arbiter_tae::scenario::Scenario;
use arbiter_tae::state::{EndReason, Phase};
use arbiter_tae::view::PromptView;
use arbiter_tae::{Action, Event, Kind, Resources, Tae, Tiles};

use common::*;

const S: Kind = Kind::Scientist;
const R: Kind = Kind::Mining;
const M: Kind = Kind::Merchant;
const P: Kind = Kind::Settler;

fn gained(events: &[Event]) -> Vec<(usize, Kind, u32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Gained { seat, kind, amount } => Some((*seat, *kind, *amount)),
            _ => None,
        })
        .collect()
}

/// Proposal, "2 Players, Internal Conflict": seat 0 (Player 1) places a merchant
/// leader into seat 1's merchant region; strengths 2 vs 1; the attacker sends 3
/// scientists (5), the defender none (1); the attacker wins 1 Technology and then earns
/// 1 Money with a merchant colony. After the refill, seat 1 bombs the region apart and
/// places its merchant leader without a conflict.
#[test]
fn proposal_internal_conflict_five_against_one() {
    // y=4  . . . . . . . . A
    // y=3  . . . . . . . . .
    // y=2  S S S S . . . . A
    // y=1  m1 . . S . . . . .
    // y=0  . . . . . . . . A
    let mut state = Scenario::new(
        &board(&[
            "........A",
            ".........",
            "........A",
            ".........",
            "........A",
        ]),
        2,
    )
    .colonies(S, &[(0, 2), (1, 2), (2, 2), (3, 2), (3, 1)])
    .leader(0, 1, 1, M)
    .hand(0, Tiles::new(3, 0, 2, 1))
    .hand(1, Tiles::new(1, 3, 1, 1))
    .bag(&[M, P, R, S, S])
    .build()
    .unwrap();

    let events = act(&mut state, 0, place(M, 2, 1));
    assert!(events.contains(&Event::ConflictStarted {
        kind: M,
        internal: true,
        attacker: 0,
        defender: 1,
        attacker_base: 2,
        defender_base: 1,
    }));
    assert_eq!(to_act(&state), Turn::One(0));
    assert_eq!(
        Tae::legal(&state, 0),
        (0..=3).map(commit).collect::<Vec<_>>(),
        "the attacker may commit 0 to 3 scientists"
    );
    act(&mut state, 0, commit(3));
    // The defender sees the attacker's total before answering.
    assert_eq!(to_act(&state), Turn::One(1));
    match Tae::view(&state, Some(1)).prompt {
        PromptView::Commit { seat, battle, .. } => {
            assert_eq!(seat, 1);
            assert_eq!(battle.attacker_total(), Some(5));
        }
        other => panic!("expected the defender's commit prompt, got {other:?}"),
    }
    assert_eq!(Tae::legal(&state, 1), vec![commit(0), commit(1)]);
    let events = act(&mut state, 1, commit(0));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ConflictResolved {
            winner: 0,
            loser: 1,
            attacker_total: 5,
            defender_total: 1,
            ..
        }
    )));
    assert_eq!(
        leader_at(&state, 0, 1),
        None,
        "the loser's leader left the board"
    );
    assert!(state.leaders_in_hand(1).contains(&M));
    assert_eq!(state.players()[0].resources, Resources::new(1, 0, 0, 0));
    assert_eq!(
        state.players()[0].hand,
        Tiles::new(0, 0, 2, 1),
        "committed scientists are gone"
    );

    // The turn continues: a merchant colony in the region pays seat 0's merchant leader.
    assert_eq!((state.actions_left(), to_act(&state)), (1, Turn::One(0)));
    let events = act(&mut state, 0, colonize(M, 1, 1));
    assert_eq!(gained(&events), vec![(0, M, 1)]);
    assert_eq!(state.players()[0].resources, Resources::new(1, 0, 1, 0));
    // End of turn: both refill to 6 (seat 0 draws 4, seat 1 is full); seat 1 is next.
    assert_eq!(state.players()[0].hand, Tiles::new(1, 1, 2, 2));
    assert_eq!(state.players()[1].hand.total(), 6);
    assert_eq!(state.bag_count(), 1);
    assert_eq!((state.active(), state.turn()), (1, 2));

    // Before the bomb, seat 1's merchant leader at (0, 3) would start a conflict.
    let mut probe = state.clone();
    act(&mut probe, 1, place(M, 0, 3));
    assert!(matches!(probe.phase(), Phase::Conflicts(_)));

    // Seat 1 bombs (1, 2), splitting (0, 2) off, then places its leader there: no conflict.
    let before = region(&state, 0, 2);
    assert_eq!(before, region(&state, 2, 2));
    act(&mut state, 1, Action::Bomb { at: at(1, 2) });
    assert_ne!(region(&state, 0, 2), region(&state, 2, 2));
    assert_eq!(state.players()[1].bombers, 1);
    let events = act(&mut state, 1, place(M, 0, 3));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::ConflictStarted { .. })));
    assert_eq!(leader_at(&state, 0, 3), Some((1, M)));
    assert_eq!(leader_at(&state, 2, 1), Some((0, M)));
}

/// Proposal, "2 Players, External Conflict", with its numbers: on seat 1's turn (the
/// proposal's Player 2) a settler joins seat 1's merchant region (5 merchants) to seat
/// 0's (3). Seat 1 has no merchants to send (5); seat 0 sends 2 of its 3 (5).
///
/// Why the winner differs from the proposal's text: the text names Player 2 the
/// defender and the winner, but its own rule ("the attacker is the player who settled
/// the solar system which connected the two regions"; "in the case of a tie, the
/// defender wins") makes Player 2, who placed the settler, the attacker, and so the
/// tie at 5 goes to Player 1 (seat 0). The text's hands agree with that reading: the
/// side with no merchants to send is the one holding only mining robots and settlers,
/// Player 2's hand. So seat 0 wins and gains 5 Money for the removed colonies plus 1
/// for the leader. Seat 1 then earns 1 People with a settler, and at the end of the
/// turn the merchant leader's owner harvests an artifact.
#[test]
fn proposal_external_conflict_tie_goes_to_the_defender() {
    // y=4  A . S . . . . A . . .
    // y=3  . . m1 . . . . m0 A . .
    // y=2  M M M M M J M M M . .
    // y=1  . p1 . . . . . . . . .
    // y=0  . S . . . . . . . . A
    let mut state = Scenario::new(
        &board(&[
            "A......A...",
            "........A..",
            "...........",
            "...........",
            "..........A",
        ]),
        2,
    )
    .colonies(M, &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)])
    .colonies(S, &[(2, 4), (1, 0)])
    .leader(2, 3, 1, M)
    .leader(1, 1, 1, P)
    .colonies(M, &[(6, 2), (7, 2), (8, 2)])
    .leader(7, 3, 0, M)
    .hand(0, Tiles::new(0, 1, 3, 2))
    .hand(1, Tiles::new(0, 3, 0, 3))
    .bag(&[R, P, S, M])
    .active(1)
    .build()
    .unwrap();

    let events = act(&mut state, 1, colonize(P, 5, 2));
    assert_eq!(gained(&events), vec![], "a joining colony scores nothing");
    assert!(events.contains(&Event::ConflictStarted {
        kind: M,
        internal: false,
        attacker: 1,
        defender: 0,
        attacker_base: 5,
        defender_base: 3,
    }));
    assert_eq!(to_act(&state), Turn::One(1));
    assert_eq!(
        Tae::legal(&state, 1),
        vec![commit(0)],
        "seat 1 holds no merchant"
    );
    act(&mut state, 1, commit(0));
    assert_eq!(to_act(&state), Turn::One(0));
    let events = act(&mut state, 0, commit(2));
    let removed = [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)];
    assert!(events.contains(&Event::ConflictResolved {
        kind: M,
        internal: false,
        winner: 0,
        loser: 1,
        attacker_total: 5,
        defender_total: 5,
        removed: removed.iter().map(|&(x, y)| at(x, y)).collect(),
    }));
    assert_eq!(gained(&events), vec![(0, M, 6)]);
    assert_eq!(state.players()[0].resources, Resources::new(0, 0, 6, 0));
    assert_eq!(state.players()[0].hand, Tiles::new(0, 1, 1, 2));
    for (x, y) in removed {
        assert_eq!(colony(&state, x, y), None);
    }
    assert_eq!(leader_at(&state, 2, 3), None);
    assert!(state.leaders_in_hand(1).contains(&M));
    // The winner's side and the joining colony are untouched.
    assert_eq!(colony(&state, 6, 2), Some(M));
    assert_eq!(colony(&state, 5, 2), Some(P));
    assert_eq!(region(&state, 5, 2), region(&state, 7, 3));

    // Seat 1's turn continues: a settler next to its settler leader earns 1 People.
    let events = act(&mut state, 1, colonize(P, 0, 1));
    assert_eq!(gained(&events), vec![(1, P, 1)]);
    assert_eq!(state.players()[1].resources, Resources::new(0, 0, 0, 1));

    // End of turn: seat 0's merchant leader sits in a region with 2 artifacts.
    assert_eq!(to_act(&state), Turn::One(0));
    assert_eq!(
        Tae::legal(&state, 0),
        vec![
            Action::TakeArtifact { at: at(8, 3) },
            Action::TakeArtifact { at: at(7, 4) }
        ]
    );
    act(&mut state, 0, Action::TakeArtifact { at: at(8, 3) });
    assert_eq!(state.players()[0].artifacts, 1);
    assert_eq!(colony(&state, 8, 3), Some(S), "the colony stays");
    assert_eq!(state.board().artifact_count(), 3);
    // Both refilled (seat 1 first), and seat 0 is active.
    assert_eq!(state.players()[1].hand, Tiles::new(0, 4, 0, 2));
    assert_eq!(state.players()[0].hand, Tiles::new(1, 1, 2, 2));
    assert_eq!((state.active(), to_act(&state)), (0, Turn::One(0)));
}

/// The proposal's "Basic Round": a settler leader collects for a mining robot when the
/// region has no mining leader; a mining leader then collects its own kind.
#[test]
fn proposal_basic_round_settler_fallback() {
    // y=3  A . A . A . . .
    // y=2  . . . . . . . .
    // y=1  . . ~ ~ . . . .
    // y=0  . A . . . . . .
    let mut state = Scenario::new(&board(&["A.A.A...", "........", "..MM....", ".A......"]), 2)
        .hand(0, Tiles::new(0, 2, 2, 2))
        .hand(1, Tiles::new(0, 2, 2, 2))
        .bag(&[S, S])
        .build()
        .unwrap();
    act(&mut state, 0, place(P, 1, 1));
    let events = act(&mut state, 0, colonize(R, 2, 1));
    assert_eq!(gained(&events), vec![(0, R, 1)]);
    assert_eq!(
        state.players()[0].hand.total(),
        6,
        "refilled at the end of the turn"
    );
    act(&mut state, 1, place(R, 0, 0));
    let events = act(&mut state, 1, colonize(R, 3, 1));
    assert_eq!(gained(&events), vec![(1, R, 1)]);
    assert_eq!(state.players()[0].resources, Resources::new(0, 1, 0, 0));
    assert_eq!(state.players()[1].resources, Resources::new(0, 1, 0, 0));
}

/// Colonizing: the matching leader collects; without one, the settler leader; without
/// either, nobody; a colony touching no region scores nothing; terrain rules hold.
#[test]
fn colonizing_with_and_without_the_matching_leader() {
    // y=4  A . A . A . . .
    // y=3  . . . . . . . .
    // y=2  . ~ . . . . . ~
    // y=1  m0 S . . . S s1 .
    // y=0  . p1 . . . . . .
    let mut state = Scenario::new(
        &board(&["A.A.A...", "........", ".M.....M", "........", "........"]),
        2,
    )
    .colony(1, 1, S)
    .leader(0, 1, 0, M)
    .leader(1, 0, 1, P)
    .colony(5, 1, S)
    .leader(6, 1, 1, S)
    .hand(0, Tiles::new(0, 2, 2, 2))
    .hand(1, Tiles::new(6, 0, 0, 0))
    .bag(&[S; 20])
    .build()
    .unwrap();
    // Terrain and hand rules first (refusals change nothing).
    refused(
        &mut state,
        0,
        colonize(R, 2, 1),
        "mining_needs_uninhabitable",
    );
    refused(&mut state, 0, colonize(M, 1, 2), "needs_inhabitable");
    refused(&mut state, 0, colonize(P, 1, 1), "cell_occupied");
    refused(&mut state, 0, colonize(P, 0, 1), "cell_occupied");
    refused(&mut state, 0, colonize(M, 9, 9), "off_board");
    refused(&mut state, 1, colonize(S, 2, 1), "not_your_turn");
    refused(&mut state, 0, colonize(S, 2, 1), "not_in_hand");

    // Matching leader: merchant next to seat 0's merchant leader.
    let events = act(&mut state, 0, colonize(M, 2, 1));
    assert_eq!(gained(&events), vec![(0, M, 1)]);
    // Only the gainer hears of it.
    let secret = events
        .iter()
        .find(|e| matches!(e, Event::Gained { .. }))
        .unwrap();
    assert_eq!(Tae::event_for(secret, Some(0)), Some(secret.clone()));
    assert_eq!(Tae::event_for(secret, Some(1)), None);
    assert_eq!(Tae::event_for(secret, None), None);
    // No mining leader: the settler leader's owner (seat 1) collects.
    let events = act(&mut state, 0, colonize(R, 1, 2));
    assert_eq!(gained(&events), vec![(1, R, 1)]);

    assert_eq!(state.players()[0].resources, Resources::new(0, 0, 1, 0));
    assert_eq!(state.players()[1].resources, Resources::new(0, 1, 0, 0));
    assert_eq!(state.active(), 1);

    // A merchant next to a region holding only a scientist leader: nobody collects.
    let mut s = Scenario::new(
        &board(&["A.A.A...", "........", ".M.....M", "........", "........"]),
        2,
    )
    .colony(5, 1, S)
    .leader(6, 1, 1, S)
    .hand(0, Tiles::new(0, 0, 6, 0))
    .build()
    .unwrap();
    let events = act(&mut s, 0, colonize(M, 4, 1));
    assert_eq!(
        gained(&events),
        vec![],
        "no merchant or settler leader: nobody"
    );
    // Touching no region: a new region, no resource.
    let regions = s.board().region_count();
    let events = act(&mut s, 0, colonize(M, 2, 2));
    assert_eq!(gained(&events), vec![]);
    assert_eq!(s.board().region_count(), regions + 1);
    assert_eq!(s.players()[1].resources, Resources::default());
}

/// A leader must stand on an empty inhabitable cell next to a scientist colony and may
/// not border two regions — judged after lifting a moving leader, so a leader that
/// bridges a region cannot move to a cell touching both halves.
#[test]
fn a_leader_may_not_join_regions() {
    // y=3  A . A . A
    // y=2  . . . . .
    // y=1  S . S . .
    // y=0  ~ . . . .
    let text = board(&["A.A.A", ".....", ".....", "M...."]);
    let mut state = Scenario::new(&text, 2)
        .colonies(S, &[(0, 1), (2, 1)])
        .hand(0, Tiles::new(6, 0, 0, 0))
        .build()
        .unwrap();
    refused(&mut state, 0, place(M, 1, 1), "leader_joins_regions");
    refused(&mut state, 0, place(M, 4, 0), "no_scientist_neighbor");
    refused(&mut state, 0, place(M, 0, 0), "leader_uninhabitable");
    refused(&mut state, 0, place(M, 0, 1), "cell_occupied");
    refused(&mut state, 0, place(M, 0, 2), "leader_joins_regions"); // (0, 1) and (0, 3)
    act(&mut state, 0, place(M, 2, 0));
    refused(&mut state, 0, place(M, 2, 0), "same_cell");

    // y=1  S m0 S      A leader bridging two halves may not move to (1, 0),
    // y=0  S .  S      which would touch both halves once it is lifted.
    let text = board(&["A.A.A", ".....", ".....", "....."]);
    let mut state = Scenario::new(&text, 2)
        .colonies(S, &[(0, 1), (2, 1), (0, 0), (2, 0)])
        .leader(1, 1, 0, M)
        .build()
        .unwrap();
    refused(&mut state, 0, place(M, 1, 0), "leader_joins_regions");
    assert!(!Tae::legal(&state, 0).contains(&place(M, 1, 0)));
    // Another leader may stand there: the region is still one while m0 bridges it.
    assert!(Tae::legal(&state, 0).contains(&place(P, 1, 0)));
    act(&mut state, 0, place(P, 1, 0));
    assert_eq!(region(&state, 1, 0), region(&state, 1, 1));
    // Withdrawing m0 leaves one region: p0 at (1, 0) now bridges the halves.
    act(&mut state, 0, Action::WithdrawLeader { kind: M });
    assert_eq!(region(&state, 0, 1), region(&state, 2, 1));
    assert!(state.leaders_in_hand(0).contains(&M));
}

/// A colony may not join three or more regions that hold leaders; leaderless regions do
/// not count.
#[test]
fn a_colony_joining_three_leader_regions_is_refused() {
    // y=4  . . s0 . .
    // y=3  . . S  . .
    // y=2  m1 S . S p1
    // y=1  . . S  . .
    // y=0  A . A  . A
    let text = board(&[".....", ".....", ".....", ".....", "A.A.A"]);
    let build = |with_north_leader: bool| {
        let mut s = Scenario::new(&text, 2)
            .colonies(S, &[(2, 3), (1, 2), (3, 2), (2, 1)])
            .leader(0, 2, 1, M)
            .leader(4, 2, 1, P)
            .hand(0, Tiles::new(0, 0, 6, 0));
        if with_north_leader {
            s = s.leader(2, 4, 0, S);
        }
        s.build().unwrap()
    };
    let mut state = build(true);
    refused(&mut state, 0, colonize(M, 2, 2), "joins_three_kingdoms");
    assert!(!Tae::legal(&state, 0).contains(&colonize(M, 2, 2)));

    // Without the northern leader only two regions hold leaders (of different kinds):
    // allowed, no conflict, no resource, four regions become one.
    let mut state = build(false);
    let regions = state.board().region_count();
    let events = act(&mut state, 0, colonize(M, 2, 2));
    assert_eq!(gained(&events), vec![]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::ConflictStarted { .. })));
    assert_eq!(state.board().region_count(), regions - 3);
    assert_eq!(region(&state, 0, 2), region(&state, 4, 2));
}

/// Bombing destroys a cell for good, splits its region and returns a leader left with
/// no scientist neighbour; leaders, artifacts and destroyed cells cannot be bombed.
#[test]
fn bombing_splits_a_region_and_returns_a_stranded_leader() {
    // y=4  A . A . A
    // y=3  . . . . .
    // y=2  S S S . .
    // y=1  . p0 . . .
    // y=0  . . . . .
    let text = board(&["A.A.A", ".....", ".....", ".....", "....."]);
    let mut state = Scenario::new(&text, 2)
        .colonies(S, &[(0, 2), (1, 2), (2, 2)])
        .leader(1, 1, 0, P)
        .hand(0, Tiles::new(2, 0, 0, 0))
        .build()
        .unwrap();
    assert_eq!(region(&state, 0, 2), region(&state, 2, 2));
    refused(&mut state, 0, Action::Bomb { at: at(1, 1) }, "bomb_leader");
    refused(
        &mut state,
        0,
        Action::Bomb { at: at(0, 4) },
        "bomb_artifact",
    );
    let events = act(&mut state, 0, Action::Bomb { at: at(1, 2) });
    assert!(events.contains(&Event::Bombed {
        seat: 0,
        at: at(1, 2),
        removed: Some(S)
    }));
    assert!(events.contains(&Event::LeaderReturned {
        seat: 0,
        kind: P,
        from: at(1, 1),
        reason: ReturnReason::NoScientist
    }));
    assert_eq!(leader_at(&state, 1, 1), None);
    assert!(state.leaders_in_hand(0).contains(&P));
    assert_eq!(region(&state, 1, 2), None);
    assert_ne!(region(&state, 0, 2), region(&state, 2, 2));
    let cell = state.board().cell(state.board().id(at(1, 2)).unwrap());
    assert!(cell.destroyed);
    refused(
        &mut state,
        0,
        Action::Bomb { at: at(1, 2) },
        "cell_destroyed",
    );
    refused(&mut state, 0, colonize(S, 1, 2), "cell_destroyed");
    refused(&mut state, 0, place(P, 1, 2), "cell_destroyed");
    act(&mut state, 0, Action::Bomb { at: at(4, 0) });
    assert_eq!(state.players()[0].bombers, 0);
}

/// Two external conflicts at once: the active player chooses the order. Fighting the
/// merchants first removes the colonies that tied seat 0's settler leader to the joined
/// region, so the settler conflict lapses. Fought the other way, both happen.
#[test]
fn the_first_external_conflict_can_make_the_second_lapse() {
    // y=4  . . S  . . . S  . .
    // y=3  . . m0 . . . m1 . .
    // y=2  . p0 M M J M M  M .
    // y=1  . S . . . . p1 . .
    // y=0  . . . . . . S  . .
    let text = board(&[
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let start = Scenario::new(&text, 2)
        .colonies(M, &[(3, 2), (2, 2), (5, 2), (6, 2), (7, 2)])
        .colonies(S, &[(2, 4), (1, 1), (6, 4), (6, 0)])
        .leader(2, 3, 0, M)
        .leader(1, 2, 0, P)
        .leader(6, 3, 1, M)
        .leader(6, 1, 1, P)
        .hand(0, Tiles::new(0, 0, 0, 1))
        .hand(1, Tiles::new(0, 0, 1, 0))
        .build()
        .unwrap();
    let mut state = start.clone();
    act(&mut state, 0, colonize(P, 4, 2));
    assert_eq!(to_act(&state), Turn::One(0), "the active player chooses");
    assert_eq!(
        Tae::legal(&state, 0),
        vec![
            Action::ChooseConflict { kind: M },
            Action::ChooseConflict { kind: P }
        ]
    );
    refused(&mut state, 0, commit(0), "wrong_phase");
    refused(
        &mut state,
        0,
        Action::ChooseConflict { kind: S },
        "no_such_conflict",
    );
    let events = act(&mut state, 0, Action::ChooseConflict { kind: M });
    assert!(events.contains(&Event::ConflictStarted {
        kind: M,
        internal: false,
        attacker: 0,
        defender: 1,
        attacker_base: 2,
        defender_base: 3,
    }));
    act(&mut state, 0, commit(0));
    let events = act(&mut state, 1, commit(0));
    assert_eq!(gained(&events), vec![(1, M, 3)]);
    assert!(events.contains(&Event::ConflictLapsed {
        kind: P,
        attacker: 0,
        defender: 1
    }));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::ConflictStarted { kind: P, .. })));
    assert_eq!(colony(&state, 2, 2), None);
    assert_eq!(colony(&state, 3, 2), None);
    assert_eq!(
        leader_at(&state, 1, 2),
        Some((0, P)),
        "the settler leader stays"
    );
    assert_ne!(region(&state, 1, 2), region(&state, 6, 1));
    assert_eq!(*state.phase(), Phase::Act);
    assert_eq!((state.actions_left(), to_act(&state)), (1, Turn::One(0)));

    // The other order: the settler conflict first (0 vs 0, the defender holds), then the
    // merchant conflict is still standing and starts by itself.
    let mut state = start;
    act(&mut state, 0, colonize(P, 4, 2));
    act(&mut state, 0, Action::ChooseConflict { kind: P });
    act(&mut state, 0, commit(0));
    let events = act(&mut state, 1, commit(0));
    assert_eq!(gained(&events), vec![(1, P, 1)]);
    assert_eq!(leader_at(&state, 1, 2), None);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ConflictStarted {
            kind: M,
            attacker: 0,
            defender: 1,
            attacker_base: 2,
            defender_base: 3,
            ..
        }
    )));
    assert_eq!(to_act(&state), Turn::One(0));
}

/// In a scientist war the loser keeps scientist colonies that hold an artifact or stand
/// next to another leader; only the others are removed and scored.
#[test]
fn the_scientist_conflict_exception() {
    // y=4  . . .  . . . .  . .
    // y=3  . . A  . . . S  . .
    // y=2  m0 S s0 S J S s1 S .
    // y=1  . . S  . . . S  . .
    // y=0  A . A  . . . .  . A
    let text = board(&[
        ".........",
        ".........",
        ".........",
        ".........",
        "A.A.....A",
    ]);
    let mut state = Scenario::new(&text, 2)
        .artifact(2, 3)
        .colonies(S, &[(1, 2), (3, 2), (2, 1)])
        .leader(2, 2, 0, S)
        .leader(0, 2, 0, M)
        .colonies(S, &[(5, 2), (7, 2), (6, 3), (6, 1)])
        .leader(6, 2, 1, S)
        .hand(0, Tiles::new(0, 0, 0, 1))
        .hand(1, Tiles::new(1, 0, 0, 0))
        .build()
        .unwrap();
    // West of the joining settler: (1, 2), (3, 2), (2, 1), (2, 3) and, through (2, 1),
    // the artifact colony at (2, 0): 5. East: 4.
    let events = act(&mut state, 0, colonize(P, 4, 2));
    assert!(events.contains(&Event::ConflictStarted {
        kind: S,
        internal: false,
        attacker: 0,
        defender: 1,
        attacker_base: 5,
        defender_base: 4,
    }));
    act(&mut state, 0, commit(0));
    let events = act(&mut state, 1, commit(1));
    // 5 vs 5: the defender wins. Removed: (3, 2) and (2, 1), next to no other leader
    // and holding no artifact. Kept: (2, 0) and (2, 3) hold artifacts, (1, 2) is next to
    // the merchant leader m0.
    assert!(events.contains(&Event::ConflictResolved {
        kind: S,
        internal: false,
        winner: 1,
        loser: 0,
        attacker_total: 5,
        defender_total: 5,
        removed: vec![at(2, 1), at(3, 2)],
    }));
    assert_eq!(gained(&events), vec![(1, S, 3)]);
    assert_eq!(colony(&state, 2, 3), Some(S));
    assert_eq!(colony(&state, 2, 0), Some(S));
    assert_eq!(colony(&state, 1, 2), Some(S));
    assert_eq!(colony(&state, 3, 2), None);
    assert_eq!(colony(&state, 2, 1), None);
    assert_eq!(
        leader_at(&state, 0, 2),
        Some((0, M)),
        "m0 keeps its scientist"
    );
    assert_eq!(leader_at(&state, 2, 2), None);
    assert_eq!(state.board().artifact_count(), 4);
}

/// Harvest: at the end of the turn the owner of a merchant leader in a region with at
/// least two artifacts takes one of them (a prompt; `Pass` takes the lowest cell);
/// regions with one artifact, or without a merchant leader, give nothing.
#[test]
fn harvest_takes_one_artifact_per_region() {
    // y=3  A S A . A S A
    // y=2  . m1 . . . p0 .
    // y=1  . . . . . . .
    // y=0  A . . . . . A
    let text = board(&["A.A.A.A", ".......", ".......", "A.....A"]);
    let build = || {
        Scenario::new(&text, 2)
            .colonies(S, &[(1, 3), (5, 3)])
            .leader(1, 2, 1, M)
            .leader(5, 2, 0, P)
            .hand(0, Tiles::new(6, 0, 0, 0))
            .hand(1, Tiles::new(6, 0, 0, 0))
            .build()
            .unwrap()
    };
    let mut state = build();
    act(&mut state, 0, Action::Pass);
    // Only the region with the merchant leader is harvested; seat 1 answers.
    assert_eq!(to_act(&state), Turn::One(1));
    match Tae::view(&state, None).prompt {
        PromptView::Harvest { seat, cells, later } => {
            assert_eq!(seat, 1);
            assert_eq!(cells, vec![at(0, 3), at(2, 3)]);
            assert!(later.is_empty());
        }
        other => panic!("expected a harvest prompt, got {other:?}"),
    }
    refused(
        &mut state,
        1,
        Action::TakeArtifact { at: at(4, 3) },
        "not_claimable",
    );
    refused(&mut state, 0, Action::Pass, "not_your_turn");
    let events = act(&mut state, 1, Action::TakeArtifact { at: at(2, 3) });
    assert!(events.contains(&Event::ArtifactTaken {
        seat: 1,
        at: at(2, 3)
    }));
    assert_eq!(state.players()[1].artifacts, 1);
    assert_eq!(colony(&state, 2, 3), Some(S));
    assert_eq!(state.board().artifact_count(), 5);
    assert_eq!((state.active(), to_act(&state)), (1, Turn::One(1)));

    // The default answer takes the lowest cell id.
    let mut state = build();
    act(&mut state, 0, Action::Pass);
    act(&mut state, 1, Action::Pass);
    let board = state.board();
    assert!(board.cell(board.id(at(2, 3)).unwrap()).artifact);
    assert!(!board.cell(board.id(at(0, 3)).unwrap()).artifact);
}

/// The game ends at the end of a turn when two or fewer artifacts remain.
#[test]
fn the_game_ends_when_two_artifacts_remain() {
    // y=2  . . . . . A
    // y=1  A S A . . .
    // y=0  . m1 . . . .
    let text = board(&[".....A", "A.A...", "......"]);
    let mut state = Scenario::new(&text, 2)
        .colony(1, 1, S)
        .leader(1, 0, 1, M)
        .hand(0, Tiles::new(6, 0, 0, 0))
        .hand(1, Tiles::new(6, 0, 0, 0))
        .bag(&[S; 10])
        .build()
        .unwrap();
    act(&mut state, 0, Action::Pass);
    let events = act(&mut state, 1, Action::TakeArtifact { at: at(0, 1) });
    assert!(events.contains(&Event::GameOver {
        end: EndReason::Artifacts { left: 2 }
    }));
    assert_eq!(to_act(&state), Turn::Over);
    assert!(Tae::outcome(&state).is_some());
    refused(&mut state, 0, Action::Pass, "game_over");
}

/// The game ends at the end of a turn in which the bag could not refill every hand;
/// an empty bag alone does not end it while every hand is full.
#[test]
fn the_game_ends_when_the_bag_cannot_refill() {
    let text = board(&["A.A.A", ".....", "....."]);
    let mut state = Scenario::new(&text, 2)
        .hand(0, Tiles::new(6, 0, 0, 0))
        .hand(1, Tiles::new(6, 0, 0, 0))
        .build()
        .unwrap();
    act(&mut state, 0, Action::Pass);
    assert_eq!((state.active(), to_act(&state)), (1, Turn::One(1)));

    let mut state = Scenario::new(&text, 2)
        .hand(0, Tiles::new(5, 0, 0, 0))
        .hand(1, Tiles::new(4, 0, 0, 0))
        .bag(&[M, P])
        .build()
        .unwrap();
    let events = act(&mut state, 0, Action::Pass);
    // Seat 0 (active) refills first and gets its tile; seat 1 gets the last one, short.
    assert_eq!(state.players()[0].hand, Tiles::new(5, 0, 1, 0));
    assert_eq!(state.players()[1].hand, Tiles::new(4, 0, 0, 1));
    assert!(events.contains(&Event::GameOver {
        end: EndReason::BagEmpty
    }));
    assert_eq!(to_act(&state), Turn::Over);
}

/// Scores: artifacts level the lowest resource; ties compare the sorted vectors, lowest
/// first; equal vectors share the win; an ejected seat ranks last.
#[test]
fn tie_break_by_sorted_resources() {
    let text = board(&["A.A.A", ".....", "....."]);
    let end = |state: &mut arbiter_tae::State| {
        act(state, state.active(), Action::Pass);
        assert_eq!(to_act(state), Turn::Over);
        Tae::outcome(state).unwrap()
    };
    // Seat 0: 2 Tech, 3 Raw, 5 Money, 9 People → [2, 3, 5, 9]; seat 1: [2, 4, 4, 4];
    // seat 2 the same as seat 1. All score 2; seats 1 and 2 share the win.
    let mut state = Scenario::new(&text, 3)
        .resources(0, Resources::new(2, 3, 5, 9))
        .resources(1, Resources::new(4, 2, 4, 4))
        .resources(2, Resources::new(4, 4, 2, 4))
        .hand(0, Tiles::new(1, 0, 0, 0))
        .build()
        .unwrap();
    let outcome = end(&mut state);
    assert_eq!(outcome.scores, vec![2, 2, 2]);
    assert_eq!(outcome.ranks, vec![3, 1, 1]);
    assert_eq!(outcome.winners(), vec![1, 2]);

    // An artifact goes to the lowest resource: [1, 3, 5, 9] + 1 = [2, 3, 5, 9] beats
    // [2, 3, 5, 8].
    let mut state = Scenario::new(&text, 2)
        .resources(0, Resources::new(1, 3, 5, 9))
        .artifacts(0, 1)
        .resources(1, Resources::new(2, 3, 5, 8))
        .hand(0, Tiles::new(1, 0, 0, 0))
        .build()
        .unwrap();
    let outcome = end(&mut state);
    assert_eq!(outcome.scores, vec![2, 2]);
    assert_eq!(outcome.ranks, vec![1, 2]);

    // Ejected seats rank last whatever their resources.
    let mut state = Scenario::new(&text, 3)
        .resources(0, Resources::new(1, 1, 1, 1))
        .resources(2, Resources::new(9, 9, 9, 9))
        .hand(0, Tiles::new(1, 0, 0, 0))
        .build()
        .unwrap();
    Tae::eject(&mut state, 2, "timeout");
    let outcome = end(&mut state);
    assert_eq!(outcome.ranks, vec![1, 2, 3]);
    assert!(outcome.ejected[2].is_some());
}

/// An internal-conflict tie goes to the defender; an ejected defender commits 0; `Pass`
/// at a commit prompt commits 0; over-committing is refused.
#[test]
fn ties_timeouts_and_ejections_in_conflicts() {
    // y=3  A . A  . A
    // y=2  . . .  . .
    // y=1  S m1 S . .     m1 has strength 2; seat 0's merchant leader enters at
    // y=0  . . .  . .     (2, 0) with strength 1 (the scientist at (2, 1)).
    let text = board(&["A.A.A", ".....", ".....", "....."]);
    let build = || {
        Scenario::new(&text, 3)
            .colonies(S, &[(0, 1), (2, 1)])
            .leader(1, 1, 1, M)
            .hand(0, Tiles::new(2, 0, 0, 0))
            .hand(1, Tiles::new(1, 0, 0, 0))
            .bag(&[S; 10])
            .build()
            .unwrap()
    };
    let mut state = build();
    act(&mut state, 0, place(M, 2, 0));
    refused(&mut state, 0, commit(3), "commit_too_many");
    act(&mut state, 0, commit(1)); // 1 + 1 = 2
    act(&mut state, 1, Action::Pass); // 2 + 0 = 2: tie, the defender holds
    assert_eq!(leader_at(&state, 1, 1), Some((1, M)));
    assert_eq!(leader_at(&state, 2, 0), None);
    assert_eq!(state.players()[1].resources, Resources::new(1, 0, 0, 0));

    // The defender is ejected before answering: it commits 0 and the attacker's 3 win.
    let mut state = build();
    act(&mut state, 0, place(M, 2, 0));
    act(&mut state, 0, commit(2)); // 1 + 2 = 3
    let events = Tae::eject(&mut state, 1, "timeout");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ConflictResolved {
            winner: 0,
            defender_total: 2,
            ..
        }
    )));
    assert_eq!(leader_at(&state, 2, 0), Some((0, M)));
    assert_eq!(leader_at(&state, 1, 1), None);
    assert_eq!(to_act(&state), Turn::One(0), "seat 0's turn goes on");
    // With one live seat left the game ends.
    Tae::eject(&mut state, 2, "timeout");
    assert_eq!(to_act(&state), Turn::Over);
    assert_eq!(Tae::outcome(&state).unwrap().ranks, vec![1, 2, 2]);
}

/// Ejecting the active player ends its turn; the others play on.
#[test]
fn an_ejected_active_player_loses_its_turns() {
    let text = board(&["A.A.A", ".....", "....."]);
    let mut state = Scenario::new(&text, 3)
        .hand(0, Tiles::new(6, 0, 0, 0))
        .hand(1, Tiles::new(6, 0, 0, 0))
        .hand(2, Tiles::new(6, 0, 0, 0))
        .build()
        .unwrap();
    Tae::eject(&mut state, 0, "disconnected");
    assert_eq!((state.active(), to_act(&state)), (1, Turn::One(1)));
    assert!(Tae::legal(&state, 0).is_empty());
    // Seat 1 gives an order (a round of only passing would end the game).
    let order = Tae::legal(&state, 1)
        .into_iter()
        .find(|a| *a != Action::Pass)
        .expect("an order");
    act(&mut state, 1, order);
    act(&mut state, 1, Action::Pass);
    act(&mut state, 2, Action::Pass);
    assert_eq!(state.active(), 1, "seat 0 is skipped");
}

/// Swapping discards 1–6 colonists out of the game and draws as many (fewer if the bag
/// runs out); others learn only how many. The same action may be taken twice.
#[test]
fn swapping_colonists() {
    let text = board(&["A.A.A", ".....", "....."]);
    let mut state = Scenario::new(&text, 2)
        .hand(0, Tiles::new(3, 1, 1, 1))
        .hand(1, Tiles::new(6, 0, 0, 0))
        .bag(&[M, M, P])
        .build()
        .unwrap();
    let swap = |s, r, m, p| Action::Swap {
        tiles: Tiles::new(s, r, m, p),
    };
    refused(&mut state, 0, swap(0, 0, 0, 0), "swap_count");
    refused(&mut state, 0, swap(4, 1, 1, 1), "swap_count");
    refused(&mut state, 0, swap(0, 2, 0, 0), "swap_not_in_hand");
    let events = act(&mut state, 0, swap(2, 0, 0, 0));
    assert_eq!(state.players()[0].hand, Tiles::new(1, 1, 3, 1));
    assert_eq!(state.players()[0].discarded, Tiles::new(2, 0, 0, 0));
    for event in &events {
        match Tae::event_for(event, Some(1)) {
            Some(Event::Swapped {
                count, discarded, ..
            }) => {
                assert_eq!((count, discarded), (2, None));
            }
            Some(Event::Drew { count, kinds, .. }) => assert_eq!((count, kinds), (2, None)),
            other => panic!("unexpected event {other:?}"),
        }
    }
    // The same action again: only one colonist is left to draw.
    act(&mut state, 0, swap(0, 1, 1, 0));
    assert_eq!(state.players()[0].hand, Tiles::new(1, 0, 2, 2));
    assert_eq!(state.bag_count(), 0);
    // The turn ended and the refill came up short: the game is over.
    assert_eq!(to_act(&state), Turn::Over);
    assert_eq!(
        *state.phase(),
        Phase::Over(EndReason::BagEmpty),
        "a hand of 5 could not be refilled"
    );
}

/// Two merchant leaders' regions with two artifacts each: the harvest prompt lists the
/// second claim too, so a seat rebuilding the state from its view alone asks the right
/// seats in the right order.
#[test]
fn a_two_claim_harvest_rebuilds_from_a_view() {
    // y=3  A S A . A S A
    // y=2  . m1 . . . m0 .
    let text = board(&["A.A.A.A", ".......", ".......", "A.....A"]);
    let config = arbiter_tae::Config {
        board: Some(text.clone()),
        ..Default::default()
    };
    let mut state = Scenario::new(&text, 2)
        .colonies(S, &[(1, 3), (5, 3)])
        .leader(1, 2, 1, M)
        .leader(5, 2, 0, M)
        .hand(0, Tiles::new(6, 0, 0, 0))
        .hand(1, Tiles::new(6, 0, 0, 0))
        .build()
        .unwrap();
    act(&mut state, 0, Action::Pass);
    let PromptView::Harvest { later, .. } = Tae::view(&state, Some(0)).prompt else {
        panic!("expected a harvest prompt");
    };
    assert_eq!(later.len(), 1, "the second region's claim is listed");
    for step in 0..2u64 {
        arbiter_engine::testkit::assert_state_from_view_round_trips::<Tae>(
            &config, &state, 2, step,
        );
        let Turn::One(seat) = to_act(&state) else {
            panic!("the harvest prompts one seat");
        };
        act(&mut state, seat, Action::Pass);
    }
    arbiter_engine::testkit::assert_state_from_view_round_trips::<Tae>(&config, &state, 2, 9);
}

/// A full round in which every seat still playing passes without an order ends the
/// game (otherwise absent or passing players would keep it alive forever); an order by
/// anyone in between starts the count again.
#[test]
fn a_whole_round_of_passing_ends_the_game() {
    let config = arbiter_tae::Config::default();
    let mut state = Tae::new(&config, 3, 7).expect("a game");
    let pass = |state: &mut arbiter_tae::State| {
        let seat = state.active();
        act(state, seat, Action::Pass);
    };
    pass(&mut state);
    pass(&mut state);
    assert_eq!(state.passing_turns(), 2);
    assert!(
        !state.is_over(),
        "two of three seats passing is not a round"
    );
    // The third seat gives an order: the count starts again.
    let seat = state.active();
    let order = Tae::legal(&state, seat)
        .into_iter()
        .find(|a| *a != Action::Pass)
        .expect("an order");
    act(&mut state, seat, order);
    while !state.is_over() && state.active() == seat {
        let owed = to_act(&state).seats()[0];
        act(&mut state, owed, Action::Pass);
    }
    assert_eq!(state.passing_turns(), 0);
    pass(&mut state);
    pass(&mut state);
    assert!(!state.is_over());
    pass(&mut state);
    assert_eq!(state.phase(), &Phase::Over(EndReason::AllPassed));
    let outcome = Tae::outcome(&state).expect("scored as usual");
    assert_eq!(outcome.ranks.len(), 3);
    assert!(outcome.summary.contains("passed"), "{}", outcome.summary);
}

/// Ejected seats take no turns, so the round is of the seats still playing.
#[test]
fn a_round_of_passing_counts_only_the_seats_still_playing() {
    let config = arbiter_tae::Config::default();
    let mut state = Tae::new(&config, 3, 11).expect("a game");
    let first = state.active();
    let gone = (first + 2) % 3;
    Tae::eject(&mut state, gone, "left");
    act(&mut state, first, Action::Pass);
    assert!(!state.is_over());
    let second = state.active();
    act(&mut state, second, Action::Pass);
    assert_eq!(state.phase(), &Phase::Over(EndReason::AllPassed));
}

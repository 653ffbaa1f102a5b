//! A text picture of a game for people (`arbiter show tae FILE`): the board as a grid,
//! a legend, the public counters and the current prompt. Only public information is
//! printed until the game is over; then hands, resources and scores are shown too.

use std::fmt::Write;

use crate::board::{Cell, Terrain};
use crate::kind::Kind;
use crate::score;
use crate::state::{EndReason, Phase, State};

/// The board's token for one cell (at most 2 characters).
fn token(cell: &Cell) -> String {
    if cell.destroyed {
        return "#".into();
    }
    if let Some(leader) = cell.leader {
        return format!(
            "{}{}",
            leader.kind.letter().to_ascii_lowercase(),
            leader.owner
        );
    }
    match (cell.colony, cell.artifact) {
        (Some(_), true) => "A".into(),
        (Some(kind), false) => kind.letter().to_string(),
        (None, _) => match cell.terrain {
            Terrain::Uninhabitable => "~".into(),
            Terrain::Plain | Terrain::Artifact => ".".into(),
        },
    }
}

/// Kinds as letters: lowercase for leaders, uppercase for colonists.
fn kinds(list: &[Kind], leaders: bool) -> String {
    if list.is_empty() {
        return "-".into();
    }
    list.iter()
        .map(|k| {
            let letter = k.letter();
            if leaders {
                letter.to_ascii_lowercase().to_string()
            } else {
                letter.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn render_text(state: &State) -> String {
    let board = &state.board;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Tigris & Euphrates in space — turn {}, seat {} active",
        state.turn, state.active
    );
    let header: String = (0..board.width()).map(|x| format!("{x:>3}")).collect();
    let _ = writeln!(out, "    {header}");
    for y in (0..board.height()).rev() {
        let row: String = (0..board.width())
            .map(|x| {
                let id = y * board.width() + x;
                format!("{:>3}", token(board.cell(id)))
            })
            .collect();
        let _ = writeln!(out, "{y:>3} {row}");
    }
    let _ = writeln!(out, "    {header}");
    let _ = writeln!(
        out,
        "legend: . empty  ~ uninhabitable (board files: M)  # destroyed  A scientist colony with artifact"
    );
    let _ = writeln!(
        out,
        "        colonies S scientist  R mining robot  M merchant  P settler"
    );
    let _ = writeln!(
        out,
        "        leaders: lowercase kind + owner seat, e.g. m1 = seat 1's merchant leader"
    );
    let _ = writeln!(
        out,
        "bag: {} colonists   artifacts on board: {}   regions: {}",
        state.bag.len(),
        board.artifact_count(),
        board.region_count()
    );
    let over = state.is_over();
    for (seat, p) in state.players.iter().enumerate() {
        let on_board: Vec<String> = p
            .leaders
            .iter()
            .filter_map(|&k| {
                board.find_leader(seat, k).map(|c| {
                    let pos = board.pos(c);
                    format!("{}@{},{}", k.letter().to_ascii_lowercase(), pos.x, pos.y)
                })
            })
            .collect();
        let _ =
            write!(
            out,
            "seat {seat}{}: hand {}  leaders in hand: {}  on board: {}  bombers {}  artifacts {}",
            if seat == state.active && !over { " *" } else { "" },
            p.hand.total(),
            kinds(&state.leaders_in_hand(seat), true),
            if on_board.is_empty() { "-".into() } else { on_board.join(" ") },
            p.bombers,
            p.artifacts,
        );
        if let Some(reason) = &p.ejected {
            let _ = write!(out, "  EJECTED ({reason})");
        }
        let _ = writeln!(out);
        if over {
            let r = &p.resources;
            let _ = writeln!(
                out,
                "        hand {}  Technology {}  Raw Materials {}  Money {}  People {}  → score {}",
                kinds(&p.hand.to_kinds(), false),
                r.technology,
                r.raw_materials,
                r.money,
                r.people,
                score::score(r, p.artifacts)
            );
        }
    }
    let _ = writeln!(out, "{}", describe_phase(state));
    if let Some(outcome) = score::outcome(state) {
        let _ = writeln!(out, "result: {}", outcome.summary);
    }
    out
}

fn describe_phase(state: &State) -> String {
    let board = &state.board;
    match &state.phase {
        Phase::Act => format!(
            "waiting for: seat {} to act ({} action{} left)",
            state.active,
            state.actions_left,
            if state.actions_left == 1 { "" } else { "s" }
        ),
        Phase::Conflicts(c) => match &c.battle {
            Some(b) => {
                let kind = if b.internal { "internal" } else { "external" };
                let attacker = match b.attacker_commit {
                    Some(n) => format!("{}+{}={}", b.attacker_base, n, b.attacker_base + n),
                    None => format!("base {}", b.attacker_base),
                };
                format!(
                    "{kind} {:?} conflict: attacker seat {} ({attacker}) vs defender seat {} \
                     (base {}); waiting for seat {} to commit {} colonists",
                    b.kind,
                    b.attacker,
                    b.defender,
                    b.defender_base,
                    b.to_commit(),
                    b.support_kind().colonist_name()
                )
            }
            None => format!(
                "waiting for: seat {} to choose the next conflict among {}",
                state.active,
                c.pending
                    .iter()
                    .map(|w| format!("{:?}", w.kind))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
        Phase::Harvest { claims } => match claims.first() {
            Some(claim) => format!(
                "waiting for: seat {} to take one artifact of {}",
                claim.owner,
                claim
                    .cells
                    .iter()
                    .map(|&c| board.pos(c).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None => "end of turn".into(),
        },
        Phase::Over(end) => match end {
            EndReason::Artifacts { left } => format!("game over: {left} artifacts left"),
            EndReason::BagEmpty => "game over: the bag could not refill every hand".into(),
            EndReason::AllPassed => "game over: every player passed a whole round".into(),
            EndReason::LastPlayer => "game over: every other seat was ejected".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{Resources, Tiles};
    use crate::scenario::Scenario;

    #[test]
    fn renders_the_grid_counters_and_secrets_only_at_the_end() {
        // y=2  A . ~ . A
        // y=1  S m1 # R .
        // y=0  . . . . A
        let state = Scenario::new("A.M.A\n...M.\n....A\n", 2)
            .colony(0, 1, Kind::Scientist)
            .leader(1, 1, 1, Kind::Merchant)
            .destroyed(2, 1)
            .colony(3, 1, Kind::Mining)
            .hand(0, Tiles::new(1, 2, 0, 0))
            .resources(0, Resources::new(3, 1, 4, 1))
            .build()
            .unwrap();
        let text = render_text(&state);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "      0  1  2  3  4");
        assert_eq!(lines[2], "  2   A  .  ~  .  A");
        assert_eq!(lines[3], "  1   S m1  #  R  .");
        assert_eq!(lines[4], "  0   .  .  .  .  A");
        assert!(text.contains("legend:"));
        assert!(text.contains("bag: 0 colonists   artifacts on board: 3"));
        assert!(text.contains("seat 1: hand 0  leaders in hand: s r p  on board: m@1,1"));
        assert!(text.contains("waiting for: seat 0 to act (2 actions left)"));
        assert!(
            !text.contains("Technology"),
            "resources are secret mid-game"
        );

        // Ending the turn with an empty bag ends the game: everything is shown.
        let mut state = state;
        assert!(crate::flow::apply(&mut state, 0, &crate::actions::Action::Pass).is_ok());
        let text = render_text(&state);
        assert!(text
            .contains("hand S R R  Technology 3  Raw Materials 1  Money 4  People 1  → score 1"));
        assert!(text.contains("game over: the bag could not refill every hand"));
        assert!(text.contains("result: seat 0 wins with 1"));
    }
}

//! The course's game server (background §11): sign players up, then referee one game
//! between them, each player reached through a [`ProxyPlayer`]. Turn order is
//! sign-up order and the players of `state0` are matched to them by position.

use std::net::TcpListener;

use crate::edge::Role;
use crate::referee::{run_game, CourseResult};
use crate::remote::config::ServerConfig;
use crate::remote::proxy_player::ProxyPlayer;
use crate::remote::signup::{sign_up, SignupRules};
use crate::CoursePlayer;

/// Sign up players on `listener` and run the game; `[[],[]]` when too few came or
/// the game cannot be set up (the reference's referee crashes then, and the server
/// prints the empty result).
pub fn serve(config: &ServerConfig, listener: TcpListener) -> CourseResult {
    let rules = SignupRules {
        tries: config.server_tries,
        period: config.server_wait,
        name_wait: config.wait_for_signup,
    };
    let recruits = match sign_up(&listener, &rules, !config.quiet) {
        Ok(recruits) => recruits,
        Err(e) => {
            eprintln!("server: sign-up failed: {e}");
            return CourseResult::default();
        }
    };
    // Late comers are refused rather than left waiting in the backlog.
    drop(listener);
    if recruits.is_empty() {
        return CourseResult::default();
    }
    let referee = &config.referee;
    let expected = referee.state0.players.len();
    if recruits.len() != expected {
        eprintln!(
            "server reports referee failure: {} players signed up for a state0 with {expected}",
            recruits.len()
        );
        return CourseResult::default();
    }
    let state = match referee.initial_state() {
        Ok(state) => state,
        Err(e) => {
            eprintln!("server reports referee failure: {e}");
            return CourseResult::default();
        }
    };
    let verbose = !referee.quiet;
    let players: Vec<Box<dyn CoursePlayer>> = recruits
        .into_iter()
        .map(|recruit| {
            Box::new(
                ProxyPlayer::new(recruit.name, recruit.connection, referee.per_turn, verbose)
                    .with_edge(referee.edge.clone()),
            ) as Box<dyn CoursePlayer>
        })
        .collect();
    run_game(state, players, |observed| {
        if referee.observe {
            // In state0's coordinates.
            let observed = serde_json::to_value(observed).unwrap_or_default();
            eprintln!("{}", referee.edge.write(&observed, Role::WithMap));
        }
    })
}

//! The Q-Game port (`arbiter serve --qgame ADDR`): the course's remote protocol
//! (background §11) on a long-running server. Clients sign up with their name (one JSON
//! string, the JName rules, within the name wait); a waiting period starts with the
//! first of them, and a game starts when four have signed up or when the period ends
//! with two or three. Sign-up goes on while games run, so a class can keep playing.
//!
//! Each game is an ordinary match of this server: the referee runs it with the
//! server's Q-Game deadline per call, each seat played through a [`CourseSeat`] that
//! makes the course's calls to its client; the store keeps it (replayable) and rates
//! it; it is listed and watchable while it runs.
//!
//! The course protocol has no passwords, so a course name cannot be proof of a native
//! account: course players are rated under their own accounts, `qgame:<name>`, in a
//! namespace no native registration can enter, created on first sign-up.
//!
//! The exact course server (one game, the graded waiting rules and result line) is
//! `arbiter harness qgame xserver PORT`; this port follows it in everything a client
//! can see on its connection, except that `setup` and `new-tiles` reach a client just
//! before its next `take-turn` rather than right after the previous player's turn, and
//! a client whose turn never comes again gets no `new-tiles` before `win`.

pub mod options;
mod seat;

pub use options::{QgamePortOptions, DEFAULT_ADDRESS};

use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_engine::Seat;
use arbiter_qgame::state::{MAX_PLAYERS, MIN_PLAYERS};
use arbiter_qgame_course::remote::deadline::DeadlineStream;
use arbiter_qgame_course::remote::signup::{read_name, Recruit};
use arbiter_qgame_course::remote::ProxyPlayer;
use arbiter_referee::Program;
use arbiter_store::StoreError;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::hub::start::PortMatch;
use crate::hub::{Hub, SeatPlan};
use crate::matches::Player;
pub use seat::CourseSeat;

/// The namespace of course players' accounts (`qgame:<name>`).
pub const ACCOUNT_NAMESPACE: &str = "qgame";
/// How often the sign-up loop looks for a connection and for shutdown.
const ACCEPT_POLL: Duration = Duration::from_millis(10);
/// Connections whose names are being read at once; more are closed at once (each
/// reader is a thread, and a flood of silent sockets must not become a flood of them).
const MAX_PENDING_NAMES: usize = 64;

/// Run the port on `listener` until `shutdown`: sign-up on a thread of its own (the
/// course connections are blocking sockets), games on the runtime.
pub fn spawn_qgame(
    listener: TcpListener,
    hub: Arc<Hub>,
    options: QgamePortOptions,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        if let Err(error) = sign_up_forever(&listener, &hub, options, &shutdown, &runtime) {
            tracing::error!(%error, "the Q-Game port stopped");
        }
    })
}

/// Collect players in waiting periods and start a game for each group.
fn sign_up_forever(
    listener: &TcpListener,
    hub: &Arc<Hub>,
    options: QgamePortOptions,
    shutdown: &CancellationToken,
    runtime: &tokio::runtime::Handle,
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    if let Ok(address) = listener.local_addr() {
        tracing::info!(%address, "Q-Game port listening");
    }
    let mut waiting: Vec<Recruit> = Vec::new();
    let mut period_end: Option<Instant> = None;
    // Names are read concurrently, each connection with its own time limit, so silent
    // sockets delay nobody: a reader thread per connection reports here.
    let (named_tx, named) = std::sync::mpsc::channel::<(SocketAddr, Result<Recruit, String>)>();
    let pending = Arc::new(AtomicUsize::new(0));
    while !shutdown.is_cancelled() {
        while let Ok((peer, result)) = named.try_recv() {
            match result {
                // Accounts ignore case: `Ann` and `ann` would be one player twice.
                Ok(recruit)
                    if waiting
                        .iter()
                        .any(|w| w.name.eq_ignore_ascii_case(&recruit.name)) =>
                {
                    tracing::info!(%peer, name = %recruit.name, "Q-Game sign-up refused: the name is already waiting");
                    recruit.connection.get_ref().close();
                    hub.metrics.qgame_signup(false);
                }
                Ok(recruit) => {
                    tracing::info!(%peer, name = %recruit.name, "Q-Game player signed up");
                    waiting.push(recruit);
                    hub.metrics.qgame_signup(true);
                    period_end.get_or_insert(Instant::now() + options.signup_period);
                }
                Err(why) => {
                    tracing::info!(%peer, %why, "improper Q-Game sign-up");
                    hub.metrics.qgame_signup(false);
                }
            }
        }
        let due = period_end.is_some_and(|end| Instant::now() >= end);
        if waiting.len() == MAX_PLAYERS || (due && waiting.len() >= MIN_PLAYERS) {
            let group = std::mem::take(&mut waiting);
            runtime.spawn(play_group(hub.clone(), group));
            period_end = None;
            continue;
        }
        if due {
            // Only one came: its wait starts over.
            period_end = Some(Instant::now() + options.signup_period);
        }
        match listener.accept() {
            Ok((stream, peer)) => {
                if pending.load(Ordering::SeqCst) >= MAX_PENDING_NAMES {
                    tracing::warn!(%peer, "Q-Game sign-up refused: too many names being read");
                    drop(stream);
                    hub.metrics.qgame_signup(false);
                    continue;
                }
                pending.fetch_add(1, Ordering::SeqCst);
                let (report, counter) = (named_tx.clone(), pending.clone());
                let wait = options.name_wait;
                let spawned = std::thread::Builder::new()
                    .name("qgame-signup".into())
                    .spawn(move || {
                        let result = stream
                            .set_nonblocking(false)
                            .map_err(|e| e.to_string())
                            .and_then(|()| read_name(DeadlineStream::new(stream), wait));
                        counter.fetch_sub(1, Ordering::SeqCst);
                        let _ = report.send((peer, result));
                    });
                if let Err(error) = spawned {
                    pending.fetch_sub(1, Ordering::SeqCst);
                    tracing::warn!(%peer, %error, "Q-Game sign-up: no thread to read a name");
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(ACCEPT_POLL);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                tracing::warn!(error = %e, "Q-Game port: accept failed");
                std::thread::sleep(ACCEPT_POLL);
            }
        }
    }
    for recruit in waiting {
        recruit.connection.get_ref().close();
    }
    Ok(())
}

/// The course player's account, created on first sign-up.
async fn course_account(hub: &Hub, name: &str) -> Result<Player, StoreError> {
    let account = hub.store.port_account(ACCOUNT_NAMESPACE, name).await?;
    Ok(Player::Account {
        id: account.id,
        name: account.name,
    })
}

/// One game: accounts, the match, then the `win` calls once it is over.
async fn play_group(hub: Arc<Hub>, group: Vec<Recruit>) {
    let Ok(ruleset) = hub.ruleset("qgame").cloned() else {
        tracing::error!("the qgame ruleset is missing");
        return;
    };
    let per_call = hub.config.deadline(ruleset.game.as_ref());
    let mut seats = Vec::new();
    let mut players = Vec::new();
    for recruit in group {
        let player = match course_account(&hub, &recruit.name).await {
            Ok(player) => player,
            Err(error) => {
                tracing::error!(%error, name = %recruit.name, "no account for a Q-Game player; dropped");
                recruit.connection.get_ref().close();
                continue;
            }
        };
        let seat = CourseSeat::new(ProxyPlayer::new(
            recruit.name.clone(),
            recruit.connection,
            per_call,
            false,
        ));
        seats.push(SeatPlan {
            player,
            outbox: None,
        });
        players.push(seat);
    }
    if players.len() < MIN_PLAYERS {
        tracing::warn!("too few Q-Game players left to start a game");
        return;
    }
    let programs = players
        .iter()
        .zip(&seats)
        .map(|(seat, plan)| {
            let seat = seat.clone();
            Program::new(plan.player.name(), move || seat.player())
        })
        .collect();
    let port = PortMatch {
        port: "qgame",
        // A decision may take setup, new-tiles and take-turn, each with its own limit.
        deadline: per_call * 3 + Duration::from_secs(1),
        programs,
    };
    let config = ruleset.game.default_config();
    let (match_id, handle) = match hub.start_port_match(&ruleset, config, seats, port).await {
        Ok(started) => started,
        Err(refusal) => {
            tracing::error!(?refusal, "a Q-Game port match did not start");
            return;
        }
    };
    let outcome = handle.wait().await.ok().and_then(|record| record.outcome);
    let results: Vec<(CourseSeat, bool)> = players
        .into_iter()
        .enumerate()
        .filter_map(|(seat, player)| {
            let outcome = outcome.as_ref()?;
            (!ejected(outcome, seat)).then(|| (player, outcome.winners().contains(&seat)))
        })
        .collect();
    // `win` calls block on the clients; they go to the blocking pool.
    let _ = tokio::task::spawn_blocking(move || {
        for (player, won) in results {
            player.finish(won);
        }
    })
    .await;
    tracing::info!(match_id, "Q-Game port match over");
}

fn ejected(outcome: &arbiter_engine::Outcome, seat: Seat) -> bool {
    outcome
        .ejected
        .get(seat)
        .is_some_and(|reason| reason.is_some())
}

//! The Q-Game port (`arbiter serve --qgame ADDR`): the course's remote protocol
//! (background §11) on a long-running server. Clients sign up with their name (one JSON
//! string, the JName rules, within the name wait); a waiting period starts with the
//! first of them, and a game starts when four have signed up or when the period ends
//! with two or three. Sign-up goes on while games run, so a class can keep playing.
//!
//! Each game is an ordinary match of this server: the referee runs it, each seat
//! played through a [`CourseSeat`] whose game's table makes the course's calls to the
//! clients, each call with the server's Q-Game deadline; the store keeps it
//! (replayable) and rates it; it is listed and watchable while it runs.
//!
//! The course protocol has no passwords, so a course name cannot be proof of a native
//! account: course players are rated under their own accounts, `qgame:<name>`, in a
//! namespace no native registration can enter, created on first sign-up.
//!
//! The exact course server (one game, the graded waiting rules and result line) is
//! `arbiter harness qgame xserver PORT`; this port follows it in everything a client
//! can see on its connection: a game's [`table::CourseTable`] makes the course's calls
//! when the course's referee makes them, and ejects a player whose call fails with
//! what happened as the reason.
//!
//! A player who signed up and left before its game starts is dropped at once: its
//! name is free again and it takes no seat (it would only be ejected at `setup`,
//! perhaps leaving one player alone in a game).
//!
//! In a deployment of several nodes, a connection to a node that does not hold the
//! lobby is carried, before its name is read, to the one that does
//! (`mesh/tunnels.rs`), so that the whole deployment signs up in one waiting period.

mod seat;
pub mod table;

pub use crate::config::qgame_port::{QgamePortOptions, DEFAULT_ADDRESS};

use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_qgame::state::{MAX_PLAYERS, MIN_PLAYERS};
use arbiter_qgame_course::remote::deadline::DeadlineStream;
use arbiter_qgame_course::remote::signup::{read_name, Recruit};
use arbiter_qgame_course::remote::ProxyPlayer;
use arbiter_qgame_course::CoursePlayer;
use arbiter_referee::Program;
use arbiter_store::StoreError;
use parking_lot::Mutex;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::connection::addresses::AddressSlot;
use crate::hub::start::PortMatch;
use crate::hub::{Hub, SeatPlan};
use crate::matches::Player;
use crate::mesh::asks::Port;
use crate::mesh::link::Mesh;
use crate::metrics::Metrics;
pub use seat::CourseSeat;
use seat::HandleEjector;
use table::CourseTable;

/// The namespace of course players' accounts (`qgame:<name>`).
pub const ACCOUNT_NAMESPACE: &str = "qgame";
/// How often the sign-up loop looks for a connection and for shutdown.
const ACCEPT_POLL: Duration = Duration::from_millis(10);
/// Connections whose names are being read at once; more are closed at once (each
/// reader is a thread, and a flood of silent sockets must not become a flood of them).
const MAX_PENDING_NAMES: usize = 64;
/// The most calls one decision can take: every `setup` (the first decision), the
/// seat's `take-turn` and `new-tiles`, and every `win` (the last). The referee's
/// deadline for a decision allows them all, so that only the per-call limit, which
/// each call has on its own, ever decides that a client was late.
const CALLS_PER_DECISION: u32 = 2 * MAX_PLAYERS as u32 + 2;

/// Run the port on `listener` until `shutdown`: sign-up on a thread of its own (the
/// course connections are blocking sockets), games on the runtime.
pub fn spawn_qgame(
    listener: TcpListener,
    hub: Arc<Hub>,
    options: QgamePortOptions,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    let runtime = tokio::runtime::Handle::current();
    if let (Some(mesh), Ok(address)) = (&hub.mesh, listener.local_addr()) {
        mesh.tunnels.port_listens(Port::Qgame, address);
    }
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
    // Each player holds its address's share of the server's connections (counted with
    // the native and spacegoo ones) from acceptance to the end of its game.
    let mut waiting: Vec<(Recruit, AddressSlot)> = Vec::new();
    let mut period_end: Option<Instant> = None;
    // Names are read concurrently, each connection with its own time limit, so silent
    // sockets delay nobody: a reader thread per connection reports here.
    let (named_tx, named) = std::sync::mpsc::channel::<Named>();
    let pending = Arc::new(AtomicUsize::new(0));
    while !shutdown.is_cancelled() {
        // Before any name is judged against them and before any game is formed.
        waiting.retain(|(recruit, _)| {
            let here = still_connected(recruit);
            if !here {
                tracing::info!(name = %recruit.name, "a waiting Q-Game player left before its game");
                recruit.connection.get_ref().close();
            }
            here
        });
        if waiting.is_empty() {
            period_end = None;
        }
        while let Ok((peer, result, slot)) = named.try_recv() {
            match result {
                // Accounts ignore case: `Ann` and `ann` would be one player twice.
                Ok(recruit)
                    if waiting
                        .iter()
                        .any(|(w, _)| w.name.eq_ignore_ascii_case(&recruit.name)) =>
                {
                    tracing::info!(%peer, name = %recruit.name, "Q-Game sign-up refused: the name is already waiting");
                    recruit.connection.get_ref().close();
                    hub.metrics.qgame_signup(false);
                }
                Ok(recruit) => {
                    tracing::info!(%peer, name = %recruit.name, "Q-Game player signed up");
                    waiting.push((recruit, slot));
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
                // Another node's client carried here counts as itself.
                let client = hub
                    .mesh
                    .as_ref()
                    .map_or(peer.ip(), |mesh| mesh.tunnels.client_of(peer));
                let crowd = hub.config.limits.connections_per_address;
                let Some(slot) = hub.addresses.enter(client, crowd) else {
                    // The course protocol has no line for this: the connection closes.
                    tracing::debug!(%peer, crowd, "Q-Game sign-up refused: the address holds its share of connections");
                    hub.metrics.connection_refused("qgame");
                    drop(stream);
                    hub.metrics.qgame_signup(false);
                    continue;
                };
                // As for native connections (no Nagle delay; a client that never
                // reads holds this much).
                let send_buffer = hub.config.limits.socket_send_buffer;
                crate::connection::prepare_accepted(&stream, send_buffer, peer);
                // A connection carried to another node is read there; one read here
                // counts against this node's names in reading (`NameReader::spawn`).
                let reader = NameReader {
                    report: named_tx.clone(),
                    pending: pending.clone(),
                    wait: options.name_wait,
                    metrics: hub.metrics.clone(),
                };
                match hub.mesh.clone() {
                    // One node of several: the client signs up on the node holding the
                    // deployment's lobby, unless this is that node (or it came from
                    // another node already).
                    Some(mesh) if !mesh.tunnels.is_tunnel(peer) => {
                        runtime.spawn(carry_or_read(hub.clone(), mesh, stream, peer, slot, reader));
                    }
                    _ => reader.spawn(stream, peer, slot),
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
    for (recruit, _) in waiting {
        recruit.connection.get_ref().close();
    }
    Ok(())
}

/// Reads a new connection's name on a thread of its own and reports it to the sign-up
/// loop; at most [`MAX_PENDING_NAMES`] at once (the one place that limit is checked).
struct NameReader {
    report: std::sync::mpsc::Sender<Named>,
    pending: Arc<AtomicUsize>,
    wait: Duration,
    metrics: Arc<Metrics>,
}

impl NameReader {
    fn spawn(self, stream: std::net::TcpStream, peer: SocketAddr, slot: AddressSlot) {
        if self.pending.fetch_add(1, Ordering::SeqCst) >= MAX_PENDING_NAMES {
            self.pending.fetch_sub(1, Ordering::SeqCst);
            tracing::warn!(%peer, "Q-Game sign-up refused: too many names being read");
            self.metrics.qgame_signup(false);
            return;
        }
        let NameReader {
            report,
            pending,
            wait,
            metrics: _,
        } = self;
        let counter = pending.clone();
        let spawned = std::thread::Builder::new()
            .name("qgame-signup".into())
            .spawn(move || {
                let result = stream
                    .set_nonblocking(false)
                    .map_err(|e| e.to_string())
                    .and_then(|()| read_name(DeadlineStream::new(stream), wait));
                counter.fetch_sub(1, Ordering::SeqCst);
                let _ = report.send((peer, result, slot));
            });
        if let Err(error) = spawned {
            pending.fetch_sub(1, Ordering::SeqCst);
            tracing::warn!(%peer, %error, "Q-Game sign-up: no thread to read a name");
        }
    }
}

/// Carry a new connection to the node holding the deployment's lobby (see
/// `mesh::tunnels`), holding its address slot until it ends; or, when it is to be
/// served here, read its name as usual.
async fn carry_or_read(
    hub: Arc<Hub>,
    mesh: Arc<Mesh>,
    stream: std::net::TcpStream,
    peer: SocketAddr,
    slot: AddressSlot,
    reader: NameReader,
) {
    let stream = match stream
        .set_nonblocking(true)
        .and_then(|()| tokio::net::TcpStream::from_std(stream))
    {
        Ok(stream) => stream,
        Err(error) => {
            tracing::warn!(%peer, %error, "Q-Game sign-up: cannot take the connection");
            return;
        }
    };
    let Err(stream) = mesh.carry(&hub.store, Port::Qgame, stream, peer).await else {
        return;
    };
    match stream.into_std() {
        Ok(stream) => reader.spawn(stream, peer, slot),
        Err(error) => tracing::warn!(%peer, %error, "Q-Game sign-up: cannot take the connection"),
    }
}

/// The course player's account, created on first sign-up.
async fn course_account(hub: &Hub, name: &str) -> Result<Player, StoreError> {
    let account = hub.store.port_account(ACCOUNT_NAMESPACE, name).await?;
    Ok(Player::Account {
        id: account.id,
        name: account.name,
    })
}

/// A name read (or not) from a new connection, with the connection's address slot.
type Named = (SocketAddr, Result<Recruit, String>, AddressSlot);

/// Whether a waiting player's client still holds its connection: the end of its stream
/// (or a reset) means it left. Bytes it sent early are left for the game to read.
fn still_connected(recruit: &Recruit) -> bool {
    let stream = recruit.connection.get_ref().stream();
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let mut byte = [0u8; 1];
    let here = match stream.peek(&mut byte) {
        Ok(0) => false,
        Ok(_) => true,
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
        ),
    };
    stream.set_nonblocking(false).is_ok() && here
}

/// One game: accounts, the match (whose table makes the course's calls), then any
/// `win` call the table could not make before the match ended.
async fn play_group(hub: Arc<Hub>, group: Vec<(Recruit, AddressSlot)>) {
    // The players' address slots are given back when the game is over.
    let (group, _slots): (Vec<Recruit>, Vec<AddressSlot>) = group.into_iter().unzip();
    let Ok(ruleset) = hub.ruleset("qgame").cloned() else {
        tracing::error!("the qgame ruleset is missing");
        return;
    };
    let per_call = hub.config.deadline(ruleset.game.as_ref());
    let mut seats = Vec::new();
    let mut players: Vec<Box<dyn CoursePlayer>> = Vec::new();
    for recruit in group {
        let player = match course_account(&hub, &recruit.name).await {
            Ok(player) => player,
            Err(error) => {
                tracing::error!(%error, name = %recruit.name, "no account for a Q-Game player; dropped");
                recruit.connection.get_ref().close();
                continue;
            }
        };
        players.push(Box::new(ProxyPlayer::new(
            recruit.name.clone(),
            recruit.connection,
            per_call,
            false,
        )));
        seats.push(SeatPlan {
            player,
            outbox: None,
        });
    }
    if players.len() < MIN_PLAYERS {
        tracing::warn!("too few Q-Game players left to start a game");
        return;
    }
    let (give_handle, handle_given) = tokio::sync::watch::channel(None);
    let ejector = HandleEjector::new(tokio::runtime::Handle::current(), handle_given);
    let table = Arc::new(Mutex::new(CourseTable::new(players, Box::new(ejector))));
    let programs = seats
        .iter()
        .map(|plan| {
            let seat = CourseSeat::new(table.clone());
            Program::new(plan.player.name(), move || seat.player())
        })
        .collect();
    let port = PortMatch {
        port: "qgame",
        deadline: per_call * CALLS_PER_DECISION + Duration::from_secs(1),
        programs,
    };
    let config = serde_json::to_value(table::course_rules())
        .unwrap_or_else(|_| ruleset.game.default_config());
    let (match_id, handle) = match hub.start_port_match(&ruleset, config, seats, port).await {
        Ok(started) => started,
        Err(refusal) => {
            tracing::error!(?refusal, "a Q-Game port match did not start");
            return;
        }
    };
    give_handle.send_replace(Some(handle.clone()));
    let outcome = handle
        .ended()
        .await
        .ok()
        .and_then(|record| record.outcome.clone());
    if let Some(outcome) = outcome {
        let survivors: Vec<usize> = (0..outcome.ranks.len())
            .filter(|&seat| outcome.ejected.get(seat).is_none_or(Option::is_none))
            .collect();
        let winners = outcome.winners();
        // `win` calls block on the clients; they go to the blocking pool.
        let _ =
            tokio::task::spawn_blocking(move || table.lock().finish(&survivors, &winners)).await;
    }
    tracing::info!(match_id, "Q-Game port match over");
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};

    /// A recruit signed up as `name` over loopback, and its client's end.
    fn recruit(name: &str) -> (Recruit, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let mut client =
            TcpStream::connect(listener.local_addr().expect("bound")).expect("connect");
        write!(client, "\"{name}\"").expect("sign up");
        let (server_end, _) = listener.accept().expect("accept");
        let recruit = read_name(DeadlineStream::new(server_end), Duration::from_secs(60))
            .expect("a valid name");
        (recruit, client)
    }

    #[test]
    fn a_waiting_player_whose_client_left_is_seen_gone() {
        // Still there, silent.
        let (quiet, _client) = recruit("ann");
        assert!(still_connected(&quiet));
        // Still there, and it already sent more: kept, for the game to read.
        let (eager, mut client) = recruit("bob");
        write!(client, "\"void\"").expect("send");
        let mut byte = [0u8; 1];
        // A blocking peek returns once the bytes have arrived.
        eager
            .connection
            .get_ref()
            .stream()
            .peek(&mut byte)
            .expect("bytes arrive");
        assert!(still_connected(&eager));
        // Left: its connection is closed.
        let (gone, client) = recruit("cy");
        drop(client);
        // A blocking peek returns once the end of the stream has arrived.
        let _ = gone.connection.get_ref().stream().peek(&mut byte);
        assert!(!still_connected(&gone));
    }
}

//! Live matches: who sits where, which connection each seat is attached to, and the
//! tasks that carry a referee's messages to a connection (a seat's or a spectator's).
//!
//! Seats belong to accounts, not connections: a player who logs in again (on any
//! connection) is attached to every seat it holds in a running match.

mod forward;

pub use forward::encode;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use arbiter_referee::MatchHandle;
use arbiter_store::AccountId;
use serde_json::Value;
use tokio::task::AbortHandle;

use crate::protocol::messages::MatchInfo;
use crate::protocol::Refusal;
use crate::transport::{ConnId, Outbox};
use forward::{forward_seat, forward_spectator};

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq)]
pub enum Player {
    Account { id: AccountId, name: String },
    Bot { bot: String, name: String },
}

impl Player {
    pub fn name(&self) -> &str {
        match self {
            Player::Account { name, .. } | Player::Bot { name, .. } => name,
        }
    }

    pub fn account(&self) -> Option<AccountId> {
        match self {
            Player::Account { id, .. } => Some(*id),
            Player::Bot { .. } => None,
        }
    }
}

/// A match's clock: time per decision, and the time bank each seat starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchClock {
    pub deadline: Duration,
    pub time_bank: Duration,
    /// Missed deadlines in a row after which a seat has abandoned and is ejected;
    /// `None` never (the compatibility ports, whose originals have their own rule).
    pub abandon_after: Option<u32>,
}

impl MatchClock {
    /// Longest time per decision a table may ask for.
    pub const MAX_DEADLINE: Duration = Duration::from_secs(3600);
    /// Shortest time per decision a table may ask for.
    pub const MIN_DEADLINE: Duration = Duration::from_secs(1);
    /// Largest time bank a table may ask for.
    pub const MAX_TIME_BANK: Duration = Duration::from_secs(24 * 3600);
    /// The least time per decision a table gets unless its creator asks for less:
    /// tables are where people play, and people need minutes, not seconds.
    pub const TABLE_DEADLINE: Duration = Duration::from_secs(120);
    /// A table's time bank per seat unless its creator says otherwise.
    pub const TABLE_TIME_BANK: Duration = Duration::from_secs(300);
    /// Missed deadlines in a row that abandon a seat, in queues and (unless the
    /// creator says otherwise) tables: a seat nobody plays would otherwise pass forever.
    pub const ABANDON_AFTER: u32 = 3;
}

/// A match being played on this server.
pub struct LiveMatch {
    pub id: i64,
    pub ruleset: String,
    pub config: Value,
    pub players: Vec<Player>,
    pub rated: bool,
    pub clock: MatchClock,
    pub handle: MatchHandle,
    /// The compatibility port whose connections hold the seats, if any. Such seats
    /// belong to those connections: a native-protocol login never attaches to them.
    pub port: Option<&'static str>,
    /// The connection each seat's messages go to now.
    pub(crate) attached: Mutex<Vec<Option<ConnId>>>,
}

impl LiveMatch {
    pub fn new(
        id: i64,
        ruleset: String,
        config: Value,
        players: Vec<Player>,
        rated: bool,
        clock: MatchClock,
        handle: MatchHandle,
    ) -> LiveMatch {
        let seats = players.len();
        LiveMatch {
            id,
            ruleset,
            config,
            players,
            rated,
            clock,
            handle,
            port: None,
            attached: Mutex::new(vec![None; seats]),
        }
    }

    /// The same match, played by the clients of a compatibility port.
    pub fn through_port(mut self, port: &'static str) -> LiveMatch {
        self.port = Some(port);
        self
    }

    pub fn player_names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name().to_string()).collect()
    }

    pub fn is_attached_to(&self, seat: usize, conn: ConnId) -> bool {
        self.attached.lock().get(seat).copied().flatten() == Some(conn)
    }

    pub fn info(&self) -> MatchInfo {
        MatchInfo {
            match_id: self.id,
            ruleset: self.ruleset.clone(),
            players: self.player_names(),
            rated: self.rated,
            port: self.port.map(str::to_string),
        }
    }
}

#[derive(Default)]
pub struct Matches {
    live: Mutex<BTreeMap<i64, Arc<LiveMatch>>>,
}

impl Matches {
    pub fn insert(&self, live: Arc<LiveMatch>) {
        self.live.lock().insert(live.id, live);
    }

    pub fn remove(&self, id: i64) -> Option<Arc<LiveMatch>> {
        self.live.lock().remove(&id)
    }

    pub fn get(&self, id: i64) -> Option<Arc<LiveMatch>> {
        self.live.lock().get(&id).cloned()
    }

    pub fn count(&self) -> usize {
        self.live.lock().len()
    }

    pub fn list(&self) -> Vec<MatchInfo> {
        self.live.lock().values().map(|m| m.info()).collect()
    }

    /// Every (match, seat) the account holds in a running match of the native
    /// protocol (a port's seats stay with the port's connection).
    pub fn seats_of(&self, account: AccountId) -> Vec<(Arc<LiveMatch>, usize)> {
        self.live
            .lock()
            .values()
            .filter(|live| live.port.is_none())
            .flat_map(|live| {
                live.players
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.account() == Some(account))
                    .map(|(seat, _)| (live.clone(), seat))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The account's seat in `match_id`, or in its only running match when none is named.
    pub fn seat_for(
        &self,
        account: AccountId,
        match_id: Option<i64>,
    ) -> Result<(Arc<LiveMatch>, usize), Refusal> {
        let seats = self.seats_of(account);
        match match_id {
            Some(id) => seats
                .into_iter()
                .find(|(live, _)| live.id == id)
                .ok_or_else(|| {
                    if self.get(id).is_some() {
                        Refusal::new("not_seated", format!("you have no seat in match {id}"))
                    } else {
                        Refusal::new("no_such_match", format!("no running match {id}"))
                    }
                }),
            None => match seats.len() {
                0 => Err(Refusal::new("not_seated", "you play in no running match")),
                1 => Ok(seats.into_iter().next().expect("one seat")),
                _ => Err(Refusal::new(
                    "ambiguous_match",
                    "you play in several matches; say which with \"match\"",
                )),
            },
        }
    }

    /// Send the seat's messages to `outbox` from now on (replacing any other
    /// connection). The referee starts with `joined`, the view and any pending prompt.
    pub async fn attach(&self, live: &Arc<LiveMatch>, seat: usize, outbox: &Outbox) -> bool {
        match live.handle.attach(seat).await {
            Ok(connection) => {
                if let Some(slot) = live.attached.lock().get_mut(seat) {
                    *slot = Some(outbox.conn());
                }
                tokio::spawn(forward_seat(connection, live.clone(), outbox.clone()));
                true
            }
            Err(error) => {
                tracing::debug!(match_id = live.id, seat, %error, "attach refused");
                false
            }
        }
    }

    /// Watch a match on `outbox`; abort the returned task to stop.
    pub async fn spectate(
        &self,
        live: &Arc<LiveMatch>,
        outbox: &Outbox,
    ) -> Result<AbortHandle, Refusal> {
        let connection = live
            .handle
            .spectate()
            .await
            .map_err(|e| Refusal::new("match_over", e.to_string()))?;
        let task = tokio::spawn(forward_spectator(connection, live.id, outbox.clone()));
        Ok(task.abort_handle())
    }
}

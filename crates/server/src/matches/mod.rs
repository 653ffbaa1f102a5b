//! Live matches: who sits where, which connection each seat is attached to, and the
//! tasks that carry a referee's messages to a connection (a seat's or a spectator's).
//!
//! Seats belong to accounts, not connections: a player who logs in again (on any
//! connection) is attached to every seat it holds in a running match.

mod mailbox;

pub use mailbox::encode;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::oneshot;

use arbiter_referee::{Mailbox, MatchAborted, MatchHandle, SeatError, ToSeat};
use arbiter_store::AccountId;
use serde_json::Value;

use crate::connection::{ConnId, Outbox};
use crate::protocol::messages::MatchInfo;
use crate::protocol::Refusal;
use mailbox::{watch_seat, LineMailbox};

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
    /// How long a silent remote seat waits for its player before a house bot plays it
    /// (`arbiter_referee::StandInSetup`); `None`: no stand-in.
    pub stand_in_grace: Option<Duration>,
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
    /// Longest stand-in grace a table may ask for.
    pub const MAX_STAND_IN_GRACE: Duration = Duration::from_secs(3600);
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

/// A connection watching a match. Dropping it stops the match's lines at once (the
/// referee lets the mailbox go at its next message).
pub struct Watching {
    open: Arc<AtomicBool>,
    released: oneshot::Receiver<()>,
}

impl Watching {
    /// The referee has let the mailbox go (the match ended, or the connection fell
    /// behind).
    pub fn is_finished(&mut self) -> bool {
        !matches!(
            self.released.try_recv(),
            Err(oneshot::error::TryRecvError::Empty)
        )
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.open.store(false, Ordering::Relaxed);
    }
}

/// Every running match, and which seats each account holds in them.
#[derive(Default)]
pub struct Matches {
    live: Mutex<Live>,
}

#[derive(Default)]
struct Live {
    by_id: BTreeMap<i64, Arc<LiveMatch>>,
    /// The native-protocol seats each account holds (a port's seats stay with the
    /// port's connection). Every action looks its seat up here, so this is an index
    /// rather than a scan of every running match.
    seats_by_account: HashMap<AccountId, Vec<(i64, usize)>>,
}

impl Matches {
    pub fn insert(&self, live: Arc<LiveMatch>) {
        let mut matches = self.live.lock();
        if live.port.is_none() {
            for (seat, player) in live.players.iter().enumerate() {
                if let Some(account) = player.account() {
                    matches
                        .seats_by_account
                        .entry(account)
                        .or_default()
                        .push((live.id, seat));
                }
            }
        }
        matches.by_id.insert(live.id, live);
    }

    pub fn remove(&self, id: i64) -> Option<Arc<LiveMatch>> {
        let mut matches = self.live.lock();
        let live = matches.by_id.remove(&id)?;
        for account in live.players.iter().filter_map(Player::account) {
            if let Some(seats) = matches.seats_by_account.get_mut(&account) {
                seats.retain(|&(match_id, _)| match_id != id);
                if seats.is_empty() {
                    matches.seats_by_account.remove(&account);
                }
            }
        }
        Some(live)
    }

    pub fn get(&self, id: i64) -> Option<Arc<LiveMatch>> {
        self.live.lock().by_id.get(&id).cloned()
    }

    pub fn count(&self) -> usize {
        self.live.lock().by_id.len()
    }

    /// Every live match (a server that stops suspends them all).
    pub fn all(&self) -> Vec<Arc<LiveMatch>> {
        self.live.lock().by_id.values().cloned().collect()
    }

    pub fn list(&self) -> Vec<MatchInfo> {
        self.live.lock().by_id.values().map(|m| m.info()).collect()
    }

    /// Every (match, seat) the account holds in a running match of the native
    /// protocol (a port's seats stay with the port's connection).
    pub fn seats_of(&self, account: AccountId) -> Vec<(Arc<LiveMatch>, usize)> {
        let matches = self.live.lock();
        let Some(seats) = matches.seats_by_account.get(&account) else {
            return Vec::new();
        };
        seats
            .iter()
            .filter_map(|&(id, seat)| Some((matches.by_id.get(&id)?.clone(), seat)))
            .collect()
    }

    /// The account's seat in `match_id`, or in its only running match when none is named.
    pub fn seat_for(
        &self,
        account: AccountId,
        match_id: Option<i64>,
    ) -> Result<(Arc<LiveMatch>, usize), Refusal> {
        let matches = self.live.lock();
        let seats = matches
            .seats_by_account
            .get(&account)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let found = match match_id {
            Some(id) => seats
                .iter()
                .find(|&&(match_id, _)| match_id == id)
                .ok_or_else(|| {
                    if matches.by_id.contains_key(&id) {
                        Refusal::new("not_seated", format!("you have no seat in match {id}"))
                    } else {
                        Refusal::new("no_such_match", format!("no running match {id}"))
                    }
                })?,
            None => match seats {
                [] => return Err(Refusal::new("not_seated", "you play in no running match")),
                [only] => only,
                _ => {
                    return Err(Refusal::new(
                        "ambiguous_match",
                        "you play in several matches; say which with \"match\"",
                    ))
                }
            },
        };
        let (id, seat) = *found;
        let live = matches
            .by_id
            .get(&id)
            .cloned()
            .ok_or_else(|| Refusal::new("no_such_match", format!("no running match {id}")))?;
        Ok((live, seat))
    }

    /// Send the seat's messages to `outbox` from now on (replacing any other
    /// connection). The referee starts with `joined`, the view and any pending prompt.
    pub async fn attach(&self, live: &Arc<LiveMatch>, seat: usize, outbox: &Outbox) -> bool {
        let (mailbox, released) = LineMailbox::new(live.id, outbox.clone());
        match live.handle.attach_mailbox(seat, Arc::new(mailbox)).await {
            Ok(attachment) => {
                if let Some(slot) = live.attached.lock().get_mut(seat) {
                    *slot = Some(outbox.conn());
                }
                tokio::spawn(watch_seat(
                    attachment,
                    released,
                    live.clone(),
                    outbox.clone(),
                ));
                true
            }
            Err(SeatError::MatchOver) => {
                // The match ended (or was suspended) before this seat's connection was
                // attached: the seats are attached one after another, and a fast
                // opponent can finish a short game (or resign) in between. The seat is
                // told how it ended, as an attached seat was; without it, its client
                // waited forever.
                tracing::debug!(match_id = live.id, seat, "attached after the end");
                let (mailbox, _released) = LineMailbox::new(live.id, outbox.clone());
                let handle = live.handle.clone();
                tokio::spawn(async move {
                    let last = match handle.ended().await {
                        Ok(record) => match ToSeat::finished(&record) {
                            Some(last) => last,
                            None => return,
                        },
                        // Suspended as its server stops: not over, and nothing to
                        // tell (the connection is told `server_restarting`, and the
                        // seat resumes wherever the match goes on).
                        Err(_) if handle.is_suspended() => return,
                        Err(MatchAborted(reason)) => ToSeat::Aborted { reason },
                    };
                    let _ = mailbox.post(last);
                });
                false
            }
            Err(error) => {
                tracing::debug!(match_id = live.id, seat, %error, "attach refused");
                false
            }
        }
    }

    /// Watch a match on `outbox` until the returned [`Watching`] is dropped.
    pub async fn spectate(
        &self,
        live: &Arc<LiveMatch>,
        outbox: &Outbox,
    ) -> Result<Watching, Refusal> {
        let (mailbox, released) = LineMailbox::new(live.id, outbox.clone());
        let open = mailbox.switch();
        live.handle
            .spectate_mailbox(Arc::new(mailbox))
            .await
            .map_err(|e| Refusal::new("match_over", e.to_string()))?;
        Ok(Watching { open, released })
    }
}

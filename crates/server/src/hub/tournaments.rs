//! What this node keeps in memory about tournaments (everything else is in the store):
//! which directors run here and what wakes them, and the connections watching each
//! tournament.

use std::collections::HashMap;
use std::sync::Arc;

use arbiter_store::{AccountId, TournamentId};
use parking_lot::Mutex;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::connection::{ConnId, Outbox};
use crate::protocol::ServerMessage;

/// Bytes of state queued for watchers between two yields (see
/// [`Tournaments::tell_watchers`]).
const TELL_SLICE_BYTES: usize = 256 * 1024;

/// Most tournaments one connection may watch at once.
pub const MAX_WATCHED: usize = 32;

#[derive(Default)]
pub struct Tournaments {
    /// The tournaments whose director runs on this node, and what wakes them.
    running: Mutex<HashMap<TournamentId, Directed>>,
    watchers: Mutex<HashMap<TournamentId, Vec<Outbox>>>,
    /// Entrants connected to another node of a deployment, by account: the stand-in
    /// of their connection there (see `mesh`), which their games reach them through.
    away: Mutex<HashMap<AccountId, Outbox>>,
    /// Cancelled when the server shuts down: directors stop where they are (the store
    /// holds where that is) and go on when it starts again.
    stop: CancellationToken,
    /// The directors' tasks, for a stopping server to wait until none is left halfway
    /// through a step (starting a game's match as the store closes, say).
    directors: TaskTracker,
}

/// A tournament whose director runs here.
#[derive(Default, Clone)]
struct Directed {
    /// Rung when something its director waits for may have happened (a join, a
    /// withdrawal). Directors also look again every few seconds, so a bell rung on
    /// another node of a deployment is not needed, only quicker.
    bell: Arc<Notify>,
    /// Rung when its state changed; its publisher tells the watchers.
    changed: Arc<Notify>,
}

impl Tournaments {
    /// Take tournament `id` for a director on this node: false if one runs already.
    pub fn claim(&self, id: TournamentId) -> bool {
        let mut running = self.running.lock();
        if running.contains_key(&id) {
            return false;
        }
        running.insert(id, Directed::default());
        true
    }

    /// The director of `id` has stopped.
    pub fn release(&self, id: TournamentId) {
        self.running.lock().remove(&id);
    }

    /// The bell of `id`'s director (a bell nobody hears if none runs here).
    pub fn bell(&self, id: TournamentId) -> Arc<Notify> {
        self.running
            .lock()
            .get(&id)
            .map(|d| d.bell.clone())
            .unwrap_or_default()
    }

    /// What `id`'s publisher waits on.
    pub fn changes(&self, id: TournamentId) -> Option<Arc<Notify>> {
        self.running.lock().get(&id).map(|d| d.changed.clone())
    }

    /// Wake the director of `id`, if it runs here.
    pub fn ring(&self, id: TournamentId) {
        if let Some(directed) = self.running.lock().get(&id) {
            directed.bell.notify_one();
        }
    }

    /// The state of `id` changed: its watchers will hear (at most once a period).
    pub fn touch(&self, id: TournamentId) {
        if let Some(directed) = self.running.lock().get(&id) {
            directed.changed.notify_one();
        }
    }

    /// Cancelled when the server stops.
    pub fn stopping(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Run a director's task (see [`Tournaments::stop`]).
    pub fn spawn_director(&self, director: impl std::future::Future<Output = ()> + Send + 'static) {
        self.directors.spawn(director);
    }

    /// The server stops: every director ends where it is.
    pub fn stop(&self) {
        self.stop.cancel();
    }

    /// Stop every director and wait, up to `patience`, until each has ended (each ends
    /// at its next await once stopped, but a step in flight, a store write, is let
    /// finish). False if one was still running after `patience`.
    pub async fn stop_and_wait(&self, patience: std::time::Duration) -> bool {
        self.stop();
        self.directors.close();
        tokio::time::timeout(patience, self.directors.wait())
            .await
            .is_ok()
    }

    /// `outbox` receives the tournament's state whenever it changes. False when the
    /// connection already watches as many tournaments as it may.
    pub fn watch(&self, id: TournamentId, outbox: &Outbox) -> bool {
        let mut watchers = self.watchers.lock();
        let watched = watchers
            .values()
            .filter(|list| list.iter().any(|o| o.conn() == outbox.conn()))
            .count();
        let list = watchers.entry(id).or_default();
        list.retain(|o| !o.is_closed());
        if list.iter().any(|o| o.conn() == outbox.conn()) {
            return true;
        }
        if watched >= MAX_WATCHED {
            return false;
        }
        list.push(outbox.clone());
        true
    }

    pub fn unwatch(&self, id: TournamentId, conn: ConnId) {
        if let Some(list) = self.watchers.lock().get_mut(&id) {
            list.retain(|o| o.conn() != conn && !o.is_closed());
        }
    }

    /// `account`, an entrant of a tournament directed here, is connected to another
    /// node, through `outbox` (its connection's stand-in here).
    pub fn entrant_away(&self, account: AccountId, outbox: &Outbox) {
        let mut away = self.away.lock();
        away.retain(|_, o| !o.is_closed());
        away.insert(account, outbox.clone());
    }

    /// Where `account`'s games reach it on another node, if its connection there is
    /// still open.
    pub fn reach_away(&self, account: AccountId) -> Option<Outbox> {
        let away = self.away.lock();
        away.get(&account).filter(|o| !o.is_closed()).cloned()
    }

    /// Whether anyone here watches `id` (the director builds the state only then).
    pub fn watched(&self, id: TournamentId) -> bool {
        self.watchers
            .lock()
            .get(&id)
            .is_some_and(|list| list.iter().any(|o| !o.is_closed()))
    }

    /// Send `message` to every connection watching `id`; the bytes queued in all.
    ///
    /// A big state to many watchers is sent a slice at a time, yielding between
    /// slices: each line queued wakes that connection's writer, which copies it to its
    /// socket, and a thousand writers woken at once would hold the runtime's workers,
    /// and the moves of every match waiting behind them, for tens of milliseconds.
    pub async fn tell_watchers(&self, id: TournamentId, message: &ServerMessage) -> usize {
        let outboxes: Vec<Outbox> = {
            let mut watchers = self.watchers.lock();
            let Some(list) = watchers.get_mut(&id) else {
                return 0;
            };
            list.retain(|o| !o.is_closed());
            list.clone()
        };
        // One encoding, and one allocation, for everyone.
        let line: Arc<str> = message.to_line().into();
        let mut told = 0;
        let mut since_yield = 0;
        for outbox in outboxes {
            if outbox.send_line(line.clone()) {
                told += line.len();
                since_yield += line.len();
            }
            if since_yield >= TELL_SLICE_BYTES {
                since_yield = 0;
                tokio::task::yield_now().await;
            }
        }
        told
    }
}

//! The director: one task for each tournament that is not over, on the node that owns
//! it. It waits for the start, pairs each round (or, in an arena, whoever is free),
//! starts the games as ordinary matches, and records each result.
//!
//! Everything it decides is in the store before anyone hears of it: a round's pairings
//! are written (once: the store refuses a round twice) before its first match starts,
//! and a game's match id before its players are told. So a director that starts again
//! after a crash reads where it was, goes on with the games whose matches finished,
//! plays again the games whose matches the crash aborted, and pairs nobody twice.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arbiter_rulesets::Ruleset;
use arbiter_store::{
    AccountId, EntrantStatus, MatchStatus, NewRound, TournamentGame, TournamentId, TournamentStatus,
};
use arbiter_tournament::{arena, pools, round_robin, swiss, Format, RoundPairing};
use serde_json::Value;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::arena_book::ArenaBook;
use super::publish::{publish, spawn_publisher};
use super::state::Snapshot;
use crate::hub::Hub;
use crate::matches::{MatchClock, Player};
use crate::protocol::{Refusal, ServerMessage};

/// How often a waiting director looks at the store again without being rung: joins
/// on other nodes of a deployment reach it this way.
const LOOK_AGAIN: Duration = Duration::from_secs(2);
/// How long to wait before trying again after the store failed.
const RETRY: Duration = Duration::from_secs(1);

/// Start the director of tournament `id` (if it is not already running here).
pub fn spawn(hub: &Arc<Hub>, id: TournamentId) {
    if !hub.tournaments.claim(id) {
        return;
    }
    let director = Director {
        hub: hub.clone(),
        id,
    };
    let done = CancellationToken::new();
    spawn_publisher(hub.clone(), id, done.clone());
    hub.tournaments.spawn_director(async move {
        director.run().await;
        done.cancel();
        director.hub.tournaments.release(id);
    });
}

/// What a game needs to start its match: the same for every game of a tournament.
#[derive(Clone)]
struct Table {
    ruleset: Ruleset,
    config: Value,
    rated: bool,
    clock: MatchClock,
}

#[derive(Clone)]
struct Director {
    hub: Arc<Hub>,
    id: TournamentId,
}

impl Director {
    async fn run(&self) {
        let stop = self.hub.tournaments.stopping();
        let mut start_at: Option<Instant> = None;
        let mut end_at: Option<Instant> = None;
        while !stop.is_cancelled() {
            let step = match Snapshot::load(&self.hub.store, self.id).await {
                Ok(Some(snapshot)) if snapshot.tournament.node != self.hub.store.node() => {
                    // Another node took it over while this one seemed silent: the
                    // store refuses this node's rounds now, so stop here.
                    tracing::warn!(tournament = self.id, owner = %snapshot.tournament.node, "tournament directed by another node now");
                    break;
                }
                Ok(Some(snapshot)) => match snapshot.tournament.status {
                    TournamentStatus::Open => self.wait_to_start(&snapshot, &mut start_at).await,
                    TournamentStatus::Running if snapshot.format() == Format::Arena => {
                        self.arena(snapshot, &mut end_at).await
                    }
                    TournamentStatus::Running => self.next_round(snapshot).await,
                    TournamentStatus::Finished | TournamentStatus::Cancelled => break,
                },
                Ok(None) => break,
                Err(error) => Err(Refusal::from(error)),
            };
            if let Err(refusal) = step {
                tracing::warn!(tournament = self.id, code = refusal.code, message = %refusal.message, "tournament director: trying again");
                tokio::select! {
                    _ = tokio::time::sleep(RETRY) => {}
                    _ = stop.cancelled() => {}
                }
            }
        }
    }

    /// Open: start when its time has come or enough have joined; cancel if too few
    /// came. `start_at` is the start time on Tokio's clock, read from the wall clock
    /// once (tests run on paused time, where the wall clock does not move).
    async fn wait_to_start(
        &self,
        snapshot: &Snapshot,
        start_at: &mut Option<Instant>,
    ) -> Result<(), Refusal> {
        let t = &snapshot.tournament;
        if start_at.is_none() {
            *start_at = t.starts_at.map(|at| {
                let wait = u64::try_from(at - wall_ms()).unwrap_or(0);
                Instant::now() + Duration::from_millis(wait)
            });
        }
        let enough = t.start_when.is_some_and(|count| t.entrants >= count);
        let time = start_at.is_some_and(|at| Instant::now() >= at);
        if enough || time {
            let least = self.least_entrants(snapshot)?;
            if (t.entrants as usize) < least {
                self.hub
                    .store
                    .end_tournament(self.id, TournamentStatus::Cancelled)
                    .await?;
                tracing::info!(
                    tournament = self.id,
                    entrants = t.entrants,
                    "tournament cancelled: too few entrants"
                );
                self.ended().await;
                return Ok(());
            }
            self.hub.store.start_tournament(self.id).await?;
            tracing::info!(
                tournament = self.id,
                entrants = t.entrants,
                "tournament started"
            );
            self.hub.tournaments.touch(self.id);
            return Ok(());
        }
        let bell = self.hub.tournaments.bell(self.id);
        let stop = self.hub.tournaments.stopping();
        let look = Instant::now() + LOOK_AGAIN;
        let until = start_at.map_or(look, |at| at.min(look));
        tokio::select! {
            _ = bell.notified() => {}
            _ = tokio::time::sleep_until(until) => {}
            _ = stop.cancelled() => {}
        }
        Ok(())
    }

    /// Swiss and round-robin: play the latest round's undecided games, or write the
    /// next round, or end.
    async fn next_round(&self, snapshot: Snapshot) -> Result<(), Refusal> {
        let t = &snapshot.tournament;
        let undecided: Vec<TournamentGame> = snapshot
            .games
            .iter()
            .filter(|g| g.round == t.round && g.ranks.is_none())
            .cloned()
            .collect();
        if !undecided.is_empty() {
            let table = self.table(&snapshot)?;
            let mut games = JoinSet::new();
            for game in undecided {
                games.spawn(self.clone().play(table.clone(), game));
            }
            while let Some(done) = games.join_next().await {
                if let Ok(Some((game, ranks, forfeit))) = done {
                    self.hub.store.decide_game(game, &ranks, forfeit).await?;
                    self.hub.tournaments.touch(self.id);
                }
            }
            return Ok(());
        }
        let field = self.schedule_field(&snapshot);
        let active = snapshot.field().iter().filter(|e| e.active).count();
        let total = self.total_rounds(&snapshot, &field)?;
        if t.round >= total || (t.format == "swiss" && active < self.least_entrants(&snapshot)?) {
            self.hub
                .store
                .end_tournament(self.id, TournamentStatus::Finished)
                .await?;
            tracing::info!(
                tournament = self.id,
                rounds = t.round,
                "tournament finished"
            );
            self.ended().await;
            return Ok(());
        }
        let next = t.round + 1;
        let pairing = self.pair(&snapshot, &field, next)?;
        let round = self.with_forfeits(&snapshot, next, pairing);
        match self.hub.store.write_round(self.id, &round).await {
            Ok(_) => {}
            // Written meanwhile (another incarnation of this director): read it back.
            Err(arbiter_store::StoreError::Tournament {
                code: "round_written",
                ..
            }) => {}
            Err(error) => return Err(error.into()),
        }
        tracing::info!(
            tournament = self.id,
            round = next,
            games = round.games.len(),
            "round paired"
        );
        self.hub.tournaments.touch(self.id);
        Ok(())
    }

    /// An arena: until its time is up, pair whoever is free (and connected) as soon as
    /// they are; then let the games still running finish, and end. The tally it pairs
    /// from is kept in memory ([`ArenaBook`]); results go to the store as they come.
    ///
    /// `end_at` is the end on Tokio's clock, read from the wall clock once, as the start
    /// is (see [`Self::wait_to_start`]): not again each time the director goes on after
    /// a store error, which on paused time (where the wall clock does not move) would
    /// push the end back every time.
    async fn arena(&self, snapshot: Snapshot, end_at: &mut Option<Instant>) -> Result<(), Refusal> {
        let t = snapshot.tournament.clone();
        let end = *end_at.get_or_insert_with(|| {
            let started = t.started_at.unwrap_or_else(wall_ms);
            let length = t.duration_ms.unwrap_or(0);
            let left = u64::try_from(started + length - wall_ms()).unwrap_or(0);
            Instant::now() + Duration::from_millis(left)
        });
        let table = self.table(&snapshot)?;
        let stop = self.hub.tournaments.stopping();
        let bell = self.hub.tournaments.bell(self.id);
        let mut book = ArenaBook::from_snapshot(&snapshot);
        let mut wave = t.round;
        let mut seats_of: HashMap<i64, Vec<AccountId>> = HashMap::new();
        let mut games = JoinSet::new();
        // Games a crash interrupted go on first.
        for game in snapshot.games.iter().filter(|g| g.ranks.is_none()) {
            seats_of.insert(game.id, game.seats.clone());
            games.spawn(self.clone().play(table.clone(), game.clone()));
        }
        let mut look_at_entrants = Instant::now() + LOOK_AGAIN;
        loop {
            if Instant::now() < end {
                let started = std::time::Instant::now();
                let mut waiting = book.waiting(|id| self.reach(id).is_some());
                let mut pairs = arena::pair(&waiting);
                if pairs.is_empty() && waiting.len() >= 2 && !book.anyone_playing() {
                    // Only entrants who just met are free, and nobody else can become
                    // free: a rematch beats an arena that stops (two entrants, say).
                    for entrant in &mut waiting {
                        entrant.last_opponent = None;
                    }
                    pairs = arena::pair(&waiting);
                }
                self.hub
                    .metrics
                    .tournament_paired(started.elapsed(), waiting.len());
                if !pairs.is_empty() {
                    wave += 1;
                    let round = NewRound {
                        round: wave,
                        games: pairs.iter().map(|p| (p.to_vec(), None)).collect(),
                        byes: Vec::new(),
                    };
                    let written = self.hub.store.write_round(self.id, &round).await?;
                    for game in written {
                        book.paired(&game.seats);
                        seats_of.insert(game.id, game.seats.clone());
                        games.spawn(self.clone().play(table.clone(), game));
                    }
                    self.hub.tournaments.touch(self.id);
                }
            } else if games.is_empty() {
                self.hub
                    .store
                    .end_tournament(self.id, TournamentStatus::Finished)
                    .await?;
                tracing::info!(tournament = self.id, waves = wave, "arena finished");
                self.ended().await;
                return Ok(());
            }
            // Wake at the end to stop pairing, but not once it has passed: a deadline in
            // the past is due at once, and the loop would spin until the last game ended
            // (on paused time, never letting the clock move on to end it).
            let look = if Instant::now() < end {
                look_at_entrants.min(end)
            } else {
                look_at_entrants
            };
            let mut finished = Vec::new();
            tokio::select! {
                Some(done) = games.join_next(), if !games.is_empty() => {
                    finished.push(done);
                    // Games that ended together are recorded together, then paired once.
                    while let Some(done) = games.try_join_next() {
                        finished.push(done);
                    }
                }
                _ = tokio::time::sleep_until(look) => {}
                _ = bell.notified() => look_at_entrants = Instant::now(),
                _ = stop.cancelled() => return Ok(()),
            }
            for done in finished {
                if let Ok(Some((game, ranks, forfeit))) = done {
                    self.hub.store.decide_game(game, &ranks, forfeit).await?;
                    if let Some(seats) = seats_of.remove(&game) {
                        book.decided(&seats, &ranks);
                    }
                    self.hub.tournaments.touch(self.id);
                }
            }
            if Instant::now() >= look_at_entrants {
                // Late entrants and withdrawals (from any node of a deployment).
                book.set_entrants(&self.hub.store.tournament_entrants(self.id).await?);
                look_at_entrants = Instant::now() + LOOK_AGAIN;
            }
        }
    }

    /// Play one game to its result: go on with its match if one runs, take the result
    /// of one that finished, or start a match (again, after one a crash aborted).
    /// `None` when the server is stopping, or the game is no longer this director's.
    async fn play(self, table: Table, game: TournamentGame) -> Option<(i64, Vec<u8>, bool)> {
        let stop = self.hub.tournaments.stopping();
        let mut match_id = game.match_id;
        loop {
            if stop.is_cancelled() {
                return None;
            }
            if let Some(id) = match_id {
                if let Some(live) = self.hub.matches.get(id) {
                    let ended = tokio::select! {
                        ended = live.handle.ended() => ended,
                        _ = stop.cancelled() => return None,
                    };
                    match ended {
                        Ok(record) => {
                            if let Some(outcome) = &record.outcome {
                                let ranks = counted(&outcome.ranks, &record.left_seats());
                                return Some((game.id, ranks, false));
                            }
                        }
                        Err(aborted) => {
                            tracing::warn!(tournament = self.id, game = game.id, match_id = id, %aborted, "a tournament game's match was aborted");
                        }
                    }
                    // The referee's task is gone; give the writer a moment to store
                    // the end before asking the store.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                match self.hub.store.match_summary(id).await {
                    Ok(Some(summary)) if summary.status == MatchStatus::Finished => {
                        let ranks: Vec<u32> = summary
                            .seats
                            .iter()
                            .map(|s| s.rank.unwrap_or(u32::MAX))
                            .collect();
                        let leavers: Vec<usize> = summary
                            .seats
                            .iter()
                            .filter(|s| s.house_bot_from.is_some())
                            .map(|s| s.seat)
                            .collect();
                        return Some((game.id, counted(&ranks, &leavers), false));
                    }
                    Ok(Some(summary)) if summary.status == MatchStatus::Running => {
                        // Starting, or played on another node: look again soon.
                        tokio::time::sleep(RETRY).await;
                        continue;
                    }
                    Ok(_) => {} // aborted: play the game again
                    Err(error) => {
                        tracing::warn!(tournament = self.id, %error, "reading a game's match");
                        tokio::time::sleep(RETRY).await;
                        continue;
                    }
                }
            }
            // The seats' entrants as they are now (one may have withdrawn since the
            // pairing); only theirs, not the whole field's, for every game.
            let entrants = match self
                .hub
                .store
                .tournament_entrants_among(self.id, &game.seats)
                .await
            {
                Ok(entrants) => entrants,
                Err(error) => {
                    tracing::warn!(tournament = self.id, %error, "reading entrants");
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
            };
            // A seat whose entrant has withdrawn forfeits the game instead.
            let gone: HashSet<AccountId> = entrants
                .iter()
                .filter(|e| e.status == EntrantStatus::Withdrawn)
                .map(|e| e.account_id)
                .collect();
            if game.seats.iter().any(|s| gone.contains(s)) {
                return Some((game.id, forfeit_ranks(&game.seats, &gone), true));
            }
            let names: HashMap<AccountId, &str> = entrants
                .iter()
                .map(|e| (e.account_id, e.name.as_str()))
                .collect();
            let players = game
                .seats
                .iter()
                .map(|id| Player::Account {
                    id: *id,
                    name: names
                        .get(id)
                        .map_or_else(|| format!("#{id}"), |name| name.to_string()),
                })
                .collect();
            let live = match self
                .hub
                .launch_tournament_match(
                    &table.ruleset,
                    table.config.clone(),
                    players,
                    table.rated,
                    table.clock,
                    game.id,
                )
                .await
            {
                Ok(live) => live,
                // Decided meanwhile, or the tournament went to another node (this one
                // stopping, or thought dead): the game is no longer this director's.
                Err(refusal) if refusal.code == "game_not_directed_here" => {
                    tracing::info!(tournament = self.id, game = game.id, message = %refusal.message, "a tournament game is not started here");
                    return None;
                }
                Err(refusal) => {
                    tracing::warn!(tournament = self.id, game = game.id, code = refusal.code, message = %refusal.message, "a tournament game could not start");
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
            };
            let outboxes: Vec<_> = game.seats.iter().map(|id| self.reach(*id)).collect();
            self.hub.announce(&live, &outboxes, Some(self.id)).await;
            match_id = Some(live.id);
        }
    }

    /// Where `account`'s next game reaches it: its latest connection here, else its
    /// connection on another node of the deployment, if it named itself to this one.
    fn reach(&self, account: AccountId) -> Option<crate::connection::Outbox> {
        self.hub
            .online
            .latest(account)
            .or_else(|| self.hub.tournaments.reach_away(account))
    }

    /// The next round's pairing, by format and seats.
    fn pair(
        &self,
        snapshot: &Snapshot,
        field: &[AccountId],
        next: u32,
    ) -> Result<RoundPairing, Refusal> {
        let seats = snapshot.tournament.seats as usize;
        let entrants = snapshot.field();
        let games = snapshot.game_records();
        let byes = snapshot.bye_records();
        let index = next as usize - 1;
        Ok(match (snapshot.format(), seats) {
            (Format::Swiss, 2) => swiss::pair(&entrants, &games, &byes, next),
            (Format::Swiss, _) => pools::pair(
                &entrants,
                &games,
                &byes,
                next,
                seats,
                self.least_entrants(snapshot)?,
            ),
            (Format::RoundRobin, 2) => round_robin::schedule(field)
                .into_iter()
                .nth(index)
                .unwrap_or_default(),
            (Format::RoundRobin, _) => pools::round_robin(field, seats)
                .into_iter()
                .nth(index)
                .unwrap_or_default(),
            (Format::Arena, _) => RoundPairing::default(),
        })
    }

    /// A round as the store takes it: games with a withdrawn entrant are decided at
    /// once as forfeits (round-robin schedules are made before anyone withdraws).
    fn with_forfeits(&self, snapshot: &Snapshot, round: u32, pairing: RoundPairing) -> NewRound {
        let gone: HashSet<AccountId> = snapshot
            .entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Withdrawn)
            .map(|e| e.account_id)
            .collect();
        NewRound {
            round,
            games: pairing
                .games
                .into_iter()
                .map(|seats| {
                    let forfeit = seats
                        .iter()
                        .any(|s| gone.contains(s))
                        .then(|| forfeit_ranks(&seats, &gone));
                    (seats, forfeit)
                })
                .collect(),
            byes: pairing.byes,
        }
    }

    /// A round-robin's field, fixed when its first round was paired: everyone in round
    /// 1 (games and byes), in joining order; before that, the active entrants.
    fn schedule_field(&self, snapshot: &Snapshot) -> Vec<AccountId> {
        let in_round_one: HashSet<AccountId> = snapshot
            .games
            .iter()
            .filter(|g| g.round == 1)
            .flat_map(|g| g.seats.iter().copied())
            .chain(
                snapshot
                    .byes
                    .iter()
                    .filter(|b| b.round == 1)
                    .map(|b| b.account_id),
            )
            .collect();
        snapshot
            .entrants
            .iter()
            .filter(|e| {
                if snapshot.tournament.round == 0 {
                    e.status == EntrantStatus::Active
                } else {
                    in_round_one.contains(&e.account_id)
                }
            })
            .map(|e| e.account_id)
            .collect()
    }

    fn total_rounds(&self, snapshot: &Snapshot, field: &[AccountId]) -> Result<u32, Refusal> {
        let seats = snapshot.tournament.seats as usize;
        Ok(match snapshot.format() {
            Format::Swiss => snapshot.tournament.rounds.unwrap_or(1),
            Format::RoundRobin if seats == 2 => round_robin::schedule(field).len() as u32,
            Format::RoundRobin => pools::round_robin(field, seats).len() as u32,
            Format::Arena => 0,
        })
    }

    /// Fewest entrants a game can be played with (the least table of a pool, two for
    /// two-seat formats): fewer at the start cancels the tournament.
    fn least_entrants(&self, snapshot: &Snapshot) -> Result<usize, Refusal> {
        let t = &snapshot.tournament;
        if t.seats == 2 {
            return Ok(2);
        }
        let ruleset = self.hub.ruleset(&t.ruleset)?;
        let least = ruleset
            .game
            .seat_counts(&t.config)
            .map_err(|e| Refusal::new("bad_config", e.to_string()))?;
        Ok((*least.start()).max(2))
    }

    fn table(&self, snapshot: &Snapshot) -> Result<Table, Refusal> {
        let t = &snapshot.tournament;
        Ok(Table {
            ruleset: self.hub.ruleset(&t.ruleset)?.clone(),
            config: t.config.clone(),
            rated: t.rated,
            clock: MatchClock {
                deadline: Duration::from_millis(u64::try_from(t.deadline_ms).unwrap_or(1000)),
                time_bank: Duration::from_millis(u64::try_from(t.time_bank_ms).unwrap_or(0)),
                abandon_after: Some(MatchClock::ABANDON_AFTER),
                stand_in_grace: self.hub.config.stand_in_grace,
            },
        })
    }

    /// The tournament is over: its watchers get the final state and `tournament_ended`.
    async fn ended(&self) {
        publish(&self.hub, self.id).await;
        self.hub
            .tournaments
            .tell_watchers(
                self.id,
                &ServerMessage::TournamentEnded {
                    tournament: self.id,
                },
            )
            .await;
    }
}

/// Ranks as the store keeps them (1 = best), from the referee's.
/// A game's ranks as the tournament counts them: a seat whose player left it to the
/// house bot is [`arbiter_tournament::LEFT`] (a loss, no points, whatever the bot
/// achieved: as the match's results and ratings count it), the others their place.
fn counted(ranks: &[u32], leavers: &[usize]) -> Vec<u8> {
    ranks
        .iter()
        .enumerate()
        .map(|(seat, &rank)| match leavers.contains(&seat) {
            true => arbiter_tournament::LEFT,
            false => u8::try_from(rank).unwrap_or(arbiter_tournament::LEFT - 1),
        })
        .collect()
}

/// A forfeit's ranks: those still in the tournament share first place, the withdrawn
/// share the place after them.
fn forfeit_ranks(seats: &[AccountId], gone: &HashSet<AccountId>) -> Vec<u8> {
    let staying = seats.iter().filter(|s| !gone.contains(s)).count() as u8;
    let last = if staying > 0 { staying + 1 } else { 1 };
    seats
        .iter()
        .map(|s| if gone.contains(s) { last } else { 1 })
        .collect()
}

/// The wall clock in Unix milliseconds (tournament times are wall-clock times).
pub(super) fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

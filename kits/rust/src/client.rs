//! [`Client`]: a logged-in connection that joins matches and plays them.
//!
//! Everything is blocking and happens on the caller's thread, one message at a time:
//! a request is sent, then messages are read (and each match's state updated) until
//! its reply comes. Match messages that arrive meanwhile are never lost.
//!
//! A lost connection, or the server's `server_restarting`, is resumed by itself: the
//! kit connects again with capped exponential backoff and full jitter
//! ([`crate::backoff`]; at least what the server asked), for at most
//! [`Client::reconnect_for`], logs in with its session and gets its seats back, and
//! enters its tournaments again. Every wait has a limit: a reply 90 s, a silent server
//! is pinged after 30 s and counts as lost 30 s later.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::backoff::{backoff_delay, jitter};
use crate::bot::{default_fallback, Prompt};
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::game::{GameResult, Match, PendingPrompt};
use crate::http;
use crate::messages::{ClientMessage, ServerMessage};
use crate::thinking::BotThread;
use crate::PROTOCOL;

/// How long a request waits for its reply (the store may stall a match ~60 s).
const REPLY_TIMEOUT: Duration = Duration::from_secs(90);

/// How long a login step (welcome, options, login) waits for its reply.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);

/// Silence before the kit pings the server; as long again without a word: lost.
const SILENCE: Duration = Duration::from_secs(30);

/// How long a login may leave out a match that the HTTP API says still runs (a server
/// still restoring its matches) before the kit gives the match up.
const NOT_RESUMED_PATIENCE: Duration = Duration::from_secs(30);

/// Server errors while reconnecting that mean "try again later", not "give up".
const RETRY_CODES: [&str; 5] = [
    "shutting_down",
    "store_unavailable",
    "node_unreachable",
    "too_many_connections",
    "internal",
];

/// An answer refused because its decision is closed: not to be retried.
const STALE_CODES: [&str; 2] = ["stale_answer", "bad_step"];

/// Where log lines go: stderr, as the other kits.
fn log(text: &str) {
    eprintln!("{text}");
}

/// At most `n` characters of `text`, for log lines.
fn cut(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// A table to open with [`Client::create_table`].
#[derive(Debug, Clone)]
pub struct TableOptions {
    /// Seats in the match; you take seat 0.
    pub seats: usize,
    /// The house bot for every other seat (`arbiter rulesets` lists them).
    pub house_bot: String,
    /// The ruleset's configuration (missing fields take defaults).
    pub config: Option<Value>,
    /// Time per decision (1 000–3 600 000 ms; default: the server's, at least 2 min).
    pub deadline_ms: Option<u64>,
    /// Each seat's time bank.
    pub time_bank_ms: Option<u64>,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            seats: 2,
            house_bot: "random".into(),
            config: None,
            deadline_ms: None,
            time_bank_ms: None,
        }
    }
}

/// A connection to an Arbiter server that plays matches.
pub struct Client {
    /// The native TCP address, `host:port`.
    pub address: String,
    pub name: String,
    password: String,
    /// The HTTP API's `host:port`, to read an outcome missed while disconnected.
    pub http: Option<String>,
    /// Print every message sent and received (cut to 300 characters) on stderr.
    pub verbose: bool,
    /// Let `decide` think into the time bank before the fallback answers.
    pub use_bank: bool,
    /// Testing: cut the connection after this many answers in a match, once per match.
    pub drop_after: Option<u32>,
    /// How long to keep trying to reconnect after a lost connection (default 120 s).
    pub reconnect_for: Duration,
    /// How long [`Client::queue`] waits for a match (default 600 s; `None`: no limit).
    pub queue_timeout: Option<Duration>,
    /// Every match seen on this client, by id.
    pub matches: HashMap<i64, Match>,
    conn: Option<Connection>,
    /// The token from `registered`/`logged_in`, for `resume` after a lost connection.
    session: Option<String>,
    /// Bumped on every reconnection: a request in flight then asks again.
    generation: u64,
    /// Prompts received so far (each prompt's serial number).
    prompts: u64,
    /// When the server last said anything, and when a silent server was pinged.
    last_heard: Instant,
    pinged: Option<Instant>,
    /// Tournaments entered (joined again after every reconnection), and those over.
    entered: BTreeSet<i64>,
    tournaments_over: HashSet<i64>,
    /// Matches handed out by `queue`, `create_table`, `tournament_game` or `play`.
    claimed: HashSet<i64>,
}

impl Client {
    /// A client for the server at `address` (`host:port`); nothing happens until
    /// [`Client::connect`].
    pub fn new(address: &str, name: &str, password: &str) -> Client {
        Client {
            address: address.to_string(),
            name: name.to_string(),
            password: password.to_string(),
            http: None,
            verbose: false,
            use_bank: false,
            drop_after: None,
            reconnect_for: Duration::from_secs(120),
            queue_timeout: Some(Duration::from_secs(600)),
            matches: HashMap::new(),
            conn: None,
            session: None,
            generation: 0,
            prompts: 0,
            last_heard: Instant::now(),
            pinged: None,
            entered: BTreeSet::new(),
            tournaments_over: HashSet::new(),
            claimed: HashSet::new(),
        }
    }

    // ---- connection and login -------------------------------------------------------

    /// Connect and log in: resume the session if there is one, else register, else
    /// (the name is taken) log in. Returns the running matches whose seats came back.
    pub fn connect(&mut self) -> Result<Vec<i64>> {
        self.conn = None;
        let mut conn = Connection::open(&self.address)?;
        match conn.recv(Some(Duration::from_secs(10)))? {
            Some((ServerMessage::Welcome { protocol, .. }, line)) => {
                if self.verbose {
                    log(&format!("<- {}", cut(&line, 300)));
                }
                if protocol != PROTOCOL {
                    log(&format!(
                        "warning: server speaks protocol {protocol}, this kit {PROTOCOL}"
                    ));
                }
            }
            other => {
                let got = other.map_or("nothing".to_string(), |(_, line)| cut(&line, 100));
                return Err(Error::ConnectionLost(format!(
                    "expected welcome within 10 s, got {got}"
                )));
            }
        }
        self.conn = Some(conn);
        self.last_heard = Instant::now();
        self.pinged = None;
        self.ask_legal_in_prompt()?;
        if let Some(session) = self.session.clone() {
            match self.login(ClientMessage::Resume { session }) {
                Err(e) if e.code() == Some("bad_session") => {}
                done => return done,
            }
        }
        let (name, password) = (self.name.clone(), self.password.clone());
        match self.login(ClientMessage::Register {
            name: name.clone(),
            password: password.clone(),
            bot: true,
        }) {
            Err(e) if e.code() == Some("name_taken") => {}
            done => return done,
        }
        self.login(ClientMessage::Login {
            name,
            password,
            bot: true,
        })
    }

    /// Ask for the legal actions in every prompt on this connection. Per connection:
    /// again after every reconnection, and before logging in, so that a resumed seat's
    /// prompt lists them too. An older server refuses (`error`): the kit then asks
    /// `legal` before each decision.
    fn ask_legal_in_prompt(&mut self) -> Result<()> {
        let options = ClientMessage::Options {
            legal_in_prompt: Some(true),
        };
        match self.raw_request(&options, |m| matches!(m, ServerMessage::Options { .. })) {
            Ok(ServerMessage::Options {
                legal_in_prompt: true,
            }) => Ok(()),
            Ok(_) => {
                log("the server does not put legal actions in prompts");
                Ok(())
            }
            Err(e @ Error::Server { .. }) => {
                log(&format!("options refused (an older server?): {e}"));
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Send a login (`register`, `login` or `resume`) and wait for its reply, waiting
    /// out `login_throttled` refusals (for at most `reconnect_for` in all).
    fn login(&mut self, message: ClientMessage) -> Result<Vec<i64>> {
        let mut waited = Duration::ZERO;
        loop {
            let reply = self.raw_request(&message, |m| {
                matches!(
                    m,
                    ServerMessage::Registered { .. } | ServerMessage::LoggedIn { .. }
                )
            });
            match reply {
                Err(Error::Server {
                    code,
                    retry_after_ms,
                    ..
                }) if code == "login_throttled" && waited < self.reconnect_for => {
                    let wait = Duration::from_millis(retry_after_ms.unwrap_or(1000).max(1));
                    log(&format!(
                        "login throttled: trying again in {:.1} s",
                        wait.as_secs_f64()
                    ));
                    thread::sleep(wait);
                    waited += wait;
                }
                Err(e) => return Err(e),
                Ok(ServerMessage::Registered { session, .. }) => {
                    self.session = session.or(self.session.take());
                    return Ok(Vec::new());
                }
                Ok(ServerMessage::LoggedIn {
                    session, resumed, ..
                }) => {
                    self.session = session.or(self.session.take());
                    return Ok(resumed);
                }
                Ok(_) => unreachable!("only a login reply is wanted"),
            }
        }
    }

    /// Send on the current connection and wait (at most 30 s) for the reply `wanted`
    /// picks, without reconnecting (logging in is part of reconnecting).
    fn raw_request(
        &mut self,
        message: &ClientMessage,
        wanted: impl Fn(&ServerMessage) -> bool,
    ) -> Result<ServerMessage> {
        self.send_now(message)?;
        let end = Instant::now() + LOGIN_TIMEOUT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let conn = self.conn.as_mut().ok_or(not_connected())?;
            let Some((reply, line)) = conn.recv(Some(left))? else {
                return Err(Error::ConnectionLost(format!(
                    "no reply to {} within {} s",
                    message.kind(),
                    LOGIN_TIMEOUT.as_secs()
                )));
            };
            self.handle(&reply, &line);
            if wanted(&reply) {
                return Ok(reply);
            }
            if let Some(e) = as_error(&reply) {
                return Err(e);
            }
        }
    }

    /// After a lost connection: connect again and resume the session; the server
    /// re-attaches every running seat (`joined`, `view` and the pending prompt follow),
    /// and the kit enters its tournaments again (`already_entered`: this connection
    /// watches them again). A match that ended meanwhile gets its outcome from the HTTP
    /// API. Tries with capped exponential backoff and full jitter for at most
    /// [`Client::reconnect_for`], then fails with [`Error::ConnectionLost`].
    pub fn reconnect(&mut self) -> Result<()> {
        self.reconnect_after(None)
    }

    /// [`Client::reconnect`] after `lost`: a `server_restarting` says how long to wait
    /// before the first attempt.
    fn reconnect_after(&mut self, lost: Option<&Error>) -> Result<()> {
        let mut wait = lost.and_then(Error::retry_after).unwrap_or_default();
        if let Some(mut old) = self.conn.take() {
            let (messages, hint) = old.drain();
            for (message, line) in messages {
                self.handle(&message, &line); // an outcome that came before the end, say
            }
            wait = wait.max(hint.unwrap_or_default());
            old.shutdown();
        }
        let started = Instant::now();
        wait = wait.min(self.reconnect_for);
        if !wait.is_zero() {
            log(&format!(
                "the server is restarting: reconnecting in {:.1} s",
                wait.as_secs_f64()
            ));
        }
        let mut attempt: u32 = 0;
        let mut not_resumed_since: Option<Instant> = None;
        let resumed = loop {
            thread::sleep(wait);
            for m in self.matches.values_mut() {
                // A decision still owed is prompted again when the seat is re-attached.
                m.pending = None;
                m.answered = None;
            }
            let logged_in = self.connect();
            let error = match logged_in.and_then(|resumed| {
                self.watch_tournaments_again()?;
                Ok(resumed)
            }) {
                Ok(resumed) => {
                    let missing = self.running_elsewhere(&resumed);
                    if missing.is_empty() {
                        break resumed;
                    }
                    // Running (says the HTTP API) but not given back: a server still
                    // restoring its matches. Log in again shortly, for a while.
                    let since = *not_resumed_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > NOT_RESUMED_PATIENCE {
                        log(&format!(
                            "matches {missing:?} still running but not resumed: giving them up"
                        ));
                        break resumed;
                    }
                    Error::ConnectionLost(format!(
                        "matches {missing:?} are running but were not resumed"
                    ))
                }
                Err(e) if e.code().is_some_and(|code| !RETRY_CODES.contains(&code)) => {
                    return Err(e)
                }
                Err(e) => e,
            };
            if let Some(conn) = self.conn.take() {
                conn.shutdown();
            }
            attempt += 1;
            wait =
                backoff_delay(attempt - 1, jitter()).max(error.retry_after().unwrap_or_default());
            if started.elapsed() + wait > self.reconnect_for {
                return Err(Error::ConnectionLost(format!(
                    "could not reconnect to {} within {} s ({attempt} attempts): {error}",
                    self.address,
                    self.reconnect_for.as_secs()
                )));
            }
            log(&format!(
                "reconnect attempt {attempt} failed: {error}; next in {:.1} s",
                wait.as_secs_f64()
            ));
        };
        self.generation += 1;
        log(&format!("reconnected; resumed matches {resumed:?}"));
        let http = self.http.clone();
        for m in self.matches.values_mut() {
            if m.done || resumed.contains(&m.id) {
                continue;
            }
            // Not resumed: it ended while we were away.
            if let Some(address) = &http {
                match http::match_summary(address, m.id) {
                    Ok(http::MatchSummary {
                        outcome: Some(outcome),
                        ..
                    }) => {
                        m.headline = Some(format!("(outcome read over HTTP) {}", outcome.summary));
                        m.outcome = Some(outcome);
                    }
                    Ok(summary) if summary.status == "aborted" => {
                        m.aborted = Some("aborted (read over HTTP)".into());
                    }
                    Ok(_) => log(&format!("match {} has no outcome over HTTP", m.id)),
                    Err(e) => log(&format!("could not read match {} over HTTP: {e}", m.id)),
                }
            }
            m.pending = None;
            m.done = true;
        }
        Ok(())
    }

    /// A new connection hears nothing of a tournament until it joins again: entered
    /// before, the server answers `already_entered` and this connection watches it.
    fn watch_tournaments_again(&mut self) -> Result<()> {
        let entered: Vec<i64> = self.entered.iter().copied().collect();
        for tournament in entered {
            if self.tournaments_over.contains(&tournament) {
                continue;
            }
            let join = ClientMessage::JoinTournament { tournament };
            match self.raw_request(&join, |m| {
                matches!(m, ServerMessage::TournamentJoined { .. })
            }) {
                Ok(_) => {}
                Err(e) if e.code() == Some("already_entered") => {}
                Err(e @ Error::Server { .. }) => {
                    if matches!(e.code(), Some("tournament_over" | "no_such_tournament")) {
                        self.tournaments_over.insert(tournament);
                    }
                    log(&format!("tournament {tournament}: {e}"));
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Matches of ours that the HTTP API says run, but that this login did not resume
    /// (only with `http`; a seat known to be ejected does not count).
    fn running_elsewhere(&self, resumed: &[i64]) -> Vec<i64> {
        let Some(address) = &self.http else {
            return Vec::new();
        };
        let mut missing: Vec<i64> = self
            .matches
            .values()
            .filter(|m| !m.done && !resumed.contains(&m.id))
            .filter(|m| m.seat.is_none_or(|seat| !m.ejected.contains_key(&seat)))
            .filter(|m| {
                http::match_summary(address, m.id).is_ok_and(|summary| summary.status == "running")
            })
            .map(|m| m.id)
            .collect();
        missing.sort_unstable();
        missing
    }

    // ---- sending and receiving ------------------------------------------------------

    fn send_now(&mut self, message: &ClientMessage) -> Result<()> {
        if self.verbose {
            let mut shown = serde_json::to_value(message).unwrap_or_default();
            for secret in ["password", "session"] {
                if let Some(value) = shown.get_mut(secret) {
                    *value = "***".into(); // logs get pasted into bug reports
                }
            }
            log(&format!("-> {}", cut(&shown.to_string(), 300)));
        }
        self.conn.as_mut().ok_or(not_connected())?.send(message)
    }

    /// Send, reconnecting (and sending again) if the connection is gone.
    pub fn send(&mut self, message: &ClientMessage) -> Result<()> {
        match self.send_now(message) {
            Err(e) if e.is_connection_lost() => {
                self.reconnect_after(Some(&e))?;
                self.send_now(message)
            }
            done => done,
        }
    }

    /// Read one message (reconnecting if the connection is lost), update the matches
    /// and return it; `None` when nothing came within `timeout` (at most 30 s: `None`
    /// waits that long) or after reconnecting. A server silent for 30 s is pinged;
    /// silent 30 s more, the connection counts as lost.
    pub fn pump(&mut self, timeout: Option<Duration>) -> Result<Option<ServerMessage>> {
        let wait = timeout.map_or(SILENCE, |t| t.min(SILENCE));
        let received = match self.conn.as_mut() {
            Some(conn) => conn.recv(Some(wait)),
            None => Err(not_connected()),
        };
        let lost = match received {
            Ok(Some((message, line))) => {
                self.handle(&message, &line);
                return Ok(Some(message));
            }
            Ok(None) => match self.check_alive() {
                Ok(()) => return Ok(None),
                Err(e) => e,
            },
            Err(e) => e,
        };
        log(&format!("{lost}"));
        self.reconnect_after(Some(&lost))?;
        Ok(None)
    }

    /// Ping a server silent for [`SILENCE`]; one that stays silent as long again is gone.
    fn check_alive(&mut self) -> Result<()> {
        match self.pinged {
            Some(pinged) if pinged.elapsed() >= SILENCE => Err(Error::ConnectionLost(format!(
                "the server did not answer a ping within {} s",
                SILENCE.as_secs()
            ))),
            None if self.last_heard.elapsed() >= SILENCE => {
                self.send_now(&ClientMessage::Ping)?;
                self.pinged = Some(Instant::now());
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Send a request and return the reply `wanted` picks; match messages arriving
    /// meanwhile are handled. An `error` reply is [`Error::Server`]; no reply within
    /// 90 s, [`Error::ConnectionLost`].
    pub fn request(
        &mut self,
        message: &ClientMessage,
        wanted: impl Fn(&ServerMessage) -> bool,
    ) -> Result<ServerMessage> {
        loop {
            let generation = self.generation;
            self.send(message)?;
            let asked = Instant::now();
            while generation == self.generation {
                let left = REPLY_TIMEOUT.saturating_sub(asked.elapsed());
                if left.is_zero() {
                    return Err(Error::ConnectionLost(format!(
                        "no reply to {} within {} s",
                        message.kind(),
                        REPLY_TIMEOUT.as_secs()
                    )));
                }
                let Some(reply) = self.pump(Some(left))? else {
                    continue;
                };
                if wanted(&reply) {
                    return Ok(reply);
                }
                if let Some(e) = as_error(&reply) {
                    return Err(e);
                }
            }
            // Reconnected before the reply came: ask again.
        }
    }

    /// Keep each match's state up to date with what the server pushes.
    fn handle(&mut self, message: &ServerMessage, line: &str) {
        if self.verbose {
            log(&format!("<- {}", cut(line, 300)));
        }
        self.last_heard = Instant::now();
        self.pinged = None;
        match message {
            ServerMessage::TournamentEnded { tournament } => {
                self.tournaments_over.insert(*tournament);
            }
            ServerMessage::Tournament { tournament, status }
                if status == "finished" || status == "cancelled" =>
            {
                self.tournaments_over.insert(*tournament);
            }
            _ => {}
        }
        let Some(id) = message.match_id() else {
            return;
        };
        if let ServerMessage::Joined { seat: None, .. } = message {
            return; // a spectator's attachment: not ours to play
        }
        let m = self.matches.entry(id).or_insert_with(|| Match::new(id));
        match message {
            ServerMessage::MatchStarted {
                ruleset,
                config,
                players,
                seat,
                ..
            } => {
                m.ruleset.clone_from(ruleset);
                m.seat = Some(*seat);
                m.players.clone_from(players);
                m.config.clone_from(config);
            }
            ServerMessage::Joined {
                ruleset,
                seat,
                seats,
                config,
                ..
            } => {
                m.ruleset.clone_from(ruleset);
                m.seat = *seat;
                m.players.clone_from(seats);
                m.config.clone_from(config);
            }
            ServerMessage::View { step, view, .. } => {
                m.view.clone_from(view);
                m.step = *step;
            }
            ServerMessage::Prompt {
                step,
                deadline_ms,
                time_bank_ms,
                turn,
                legal,
                ..
            } => {
                self.prompts += 1;
                m.pending = Some(PendingPrompt {
                    serial: self.prompts,
                    step: *step,
                    deadline_ms: *deadline_ms,
                    time_bank_ms: *time_bank_ms,
                    turn: turn.clone(),
                    legal: legal.clone(),
                    received_at: std::time::Instant::now(),
                });
                m.answered = None;
                m.rejected = None;
                m.tries = 0;
            }
            ServerMessage::Rejected { code, message, .. }
                if STALE_CODES.contains(&code.as_str()) =>
            {
                // An answer to a decision already closed (late, or sent around a lost
                // connection): not applied, and not to be retried. The decision owed
                // now has its own prompt (already here, or on its way).
                log(&format!(
                    "match {id}: answer refused as {code}, waiting for the current prompt: {message}"
                ));
            }
            ServerMessage::Rejected { code, message, .. } => {
                // Nothing changed: the same decision is owed, on the same clock.
                m.rejected = Some((code.clone(), message.clone()));
                m.tries += 1;
                if let Some(prompt) = m.answered.take() {
                    m.pending = Some(prompt);
                }
            }
            ServerMessage::Ejected { seat, reason, .. } => {
                m.ejected.insert(*seat, reason.clone());
                if m.seat == Some(*seat) {
                    m.pending = None;
                }
            }
            ServerMessage::Outcome {
                outcome, headline, ..
            } => {
                m.outcome = Some(outcome.clone());
                m.headline = Some(headline.clone()).filter(|h| !h.is_empty());
                m.pending = None;
                m.done = true;
            }
            ServerMessage::Aborted { reason, .. } => {
                let reason = if reason.is_empty() { "aborted" } else { reason };
                m.aborted = Some(reason.to_string());
                m.pending = None;
                m.done = true;
            }
            _ => {}
        }
    }

    // ---- lobby ----------------------------------------------------------------------

    /// The server's rulesets (id, name, seats, bots, default config, deadline).
    pub fn rulesets(&mut self) -> Result<Vec<Value>> {
        match self.request(&ClientMessage::Rulesets, |m| {
            matches!(m, ServerMessage::Rulesets { .. })
        })? {
            ServerMessage::Rulesets { rulesets } => Ok(rulesets),
            _ => unreachable!("only a rulesets reply is wanted"),
        }
    }

    /// A running match with our seat that nobody plays yet (a game that started while
    /// we were away, or a tournament's next game): its id, now claimed.
    fn unclaimed_match(&mut self) -> Option<i64> {
        let id = self
            .matches
            .values()
            .filter(|m| !m.done && m.seat.is_some() && !self.claimed.contains(&m.id))
            .map(|m| m.id)
            .min()?;
        self.claimed.insert(id);
        Some(id)
    }

    /// Wait in the matchmaking queue; returns the match id once paired. A lost
    /// connection leaves the queue, so the kit queues again after reconnecting (unless
    /// the match started meanwhile: its seat comes back on login). Waits at most
    /// [`Client::queue_timeout`] ([`Error::TimedOut`]).
    pub fn queue(
        &mut self,
        ruleset: &str,
        config: Option<Value>,
        seats: Option<usize>,
    ) -> Result<i64> {
        let message = ClientMessage::Queue {
            ruleset: ruleset.to_string(),
            config,
            seats,
        };
        self.join_queue(&message)?;
        let started = Instant::now();
        loop {
            let generation = self.generation;
            match self.pump(Some(SILENCE))? {
                Some(ServerMessage::MatchStarted { match_id, .. }) => {
                    self.claimed.insert(match_id);
                    return Ok(match_id);
                }
                Some(ServerMessage::TableClosed { reason, .. }) => {
                    return Err(Error::Server {
                        code: "table_closed".into(),
                        message: reason,
                        retry_after_ms: None,
                    })
                }
                Some(reply) => {
                    if let Some(e) = as_error(&reply) {
                        return Err(e);
                    }
                }
                None => {}
            }
            if generation != self.generation {
                if let Some(found) = self.unclaimed_match() {
                    return Ok(found); // it started while we were away
                }
                self.join_queue(&message)?;
            }
            if let Some(limit) = self.queue_timeout.filter(|l| started.elapsed() > *l) {
                let _ = self.send_now(&ClientMessage::LeaveQueue);
                return Err(Error::TimedOut(format!(
                    "no match in the {ruleset} queue within {} s",
                    limit.as_secs()
                )));
            }
        }
    }

    fn join_queue(&mut self, message: &ClientMessage) -> Result<()> {
        match self.request(message, |m| matches!(m, ServerMessage::Queued { .. })) {
            Err(e) if e.code() == Some("already_queued") => Ok(()),
            done => done.map(|_| ()),
        }
    }

    /// Open a table, fill the other seats with `options.house_bot` and start it;
    /// returns the match id (you sit in seat 0).
    pub fn create_table(&mut self, ruleset: &str, options: &TableOptions) -> Result<i64> {
        let create = ClientMessage::CreateTable {
            ruleset: ruleset.to_string(),
            seats: options.seats,
            config: options.config.clone(),
            deadline_ms: options.deadline_ms,
            time_bank_ms: options.time_bank_ms,
        };
        let ServerMessage::Table { table, .. } =
            self.request(&create, |m| matches!(m, ServerMessage::Table { .. }))?
        else {
            unreachable!("only a table reply is wanted");
        };
        let start = ClientMessage::StartTable {
            table,
            fill: Some(options.house_bot.clone()).filter(|b| !b.is_empty()),
        };
        let generation = self.generation;
        let match_id =
            match self.request(&start, |m| matches!(m, ServerMessage::MatchStarted { .. })) {
                Ok(ServerMessage::MatchStarted { match_id, .. }) => match_id,
                Ok(_) => unreachable!("only a match_started reply is wanted"),
                // Lost around the start: the match may have started, and come back on
                // login.
                Err(e @ Error::Server { .. }) if generation != self.generation => {
                    self.unclaimed_match().ok_or(e)?
                }
                Err(e) => return Err(e),
            };
        self.claimed.insert(match_id);
        Ok(match_id)
    }

    /// Enter a tournament. Entered before (a bot back after a restart), the server says
    /// `already_entered` and this connection watches it again: fine too. After every
    /// reconnection the kit joins again by itself.
    pub fn join_tournament(&mut self, tournament: i64) -> Result<()> {
        self.entered.insert(tournament);
        let join = ClientMessage::JoinTournament { tournament };
        match self.request(&join, |m| {
            matches!(m, ServerMessage::TournamentJoined { .. })
        }) {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some("already_entered") => Ok(()),
            Err(e) if e.code() == Some("tournament_over") => {
                self.tournaments_over.insert(tournament);
                Ok(())
            }
            Err(e) => {
                self.entered.remove(&tournament);
                Err(e)
            }
        }
    }

    /// The next game the tournament pairs you in (a match id, for [`Client::play`]),
    /// or `None` once the tournament is over. Joins it first. Waits at most `timeout`
    /// for a game ([`Error::TimedOut`]; `None`: as long as the tournament runs).
    pub fn tournament_game(
        &mut self,
        tournament: i64,
        timeout: Option<Duration>,
    ) -> Result<Option<i64>> {
        if !self.entered.contains(&tournament) {
            self.join_tournament(tournament)?;
        }
        let started = Instant::now();
        loop {
            if let Some(found) = self.unclaimed_match() {
                return Ok(Some(found));
            }
            if self.tournaments_over.contains(&tournament) {
                return Ok(None);
            }
            if let Some(limit) = timeout.filter(|l| started.elapsed() > *l) {
                return Err(Error::TimedOut(format!(
                    "no game from tournament {tournament} within {} s",
                    limit.as_secs()
                )));
            }
            self.pump(Some(SILENCE))?;
        }
    }

    // ---- playing --------------------------------------------------------------------

    /// The actions your seat may answer now (empty when it owes nothing), and the step
    /// they answer.
    pub fn legal(&mut self, match_id: i64) -> Result<(u64, Vec<Value>)> {
        let reply = self.request(
            &ClientMessage::Legal { match_id },
            |m| matches!(m, ServerMessage::Legal { match_id: id, .. } if *id == match_id),
        )?;
        match reply {
            ServerMessage::Legal { step, actions, .. } => Ok((step, actions)),
            _ => unreachable!("only a legal reply is wanted"),
        }
    }

    /// Answer the decision your seat owes now, whichever it is (no `step`: prefer
    /// [`Client::act_at`]).
    pub fn act(&mut self, match_id: i64, action: Value) -> Result<()> {
        self.answer(match_id, None, action)
    }

    /// Answer the prompt of `step`: the server refuses an answer to a decision already
    /// closed (`rejected` `stale_answer`) instead of applying it to a later one. If the
    /// connection turns out to be lost, the kit reconnects but does not send the answer
    /// again: the resumed seat is prompted again if the answer never arrived, and a
    /// second answer could cost the seat (spacegoo disqualifies a second command in a
    /// round).
    pub fn act_at(&mut self, match_id: i64, step: u64, action: Value) -> Result<()> {
        self.answer(match_id, Some(step), action)
    }

    fn answer(&mut self, match_id: i64, step: Option<u64>, action: Value) -> Result<()> {
        let act = ClientMessage::Act {
            match_id,
            action,
            step,
        };
        match self.send_now(&act) {
            Err(e) if e.is_connection_lost() => {
                log(&format!("connection lost while answering: {e}"));
                self.reconnect_after(Some(&e))
            }
            done => done,
        }
    }

    /// Give up your seat in the match.
    pub fn resign(&mut self, match_id: i64) -> Result<()> {
        self.send(&ClientMessage::Resign { match_id })
    }

    /// Answer every prompt of the match with `bot` until it ends.
    pub fn play(&mut self, match_id: i64, bot: &mut BotThread) -> Result<GameResult> {
        self.matches
            .entry(match_id)
            .or_insert_with(|| Match::new(match_id));
        self.claimed.insert(match_id);
        loop {
            let m = &self.matches[&match_id];
            if m.done {
                return Ok(GameResult::new(m.clone()));
            }
            if m.pending.is_none() {
                self.pump(Some(SILENCE))?;
            } else {
                self.decide(match_id, bot)?;
            }
        }
    }

    /// The legal actions for the prompt numbered `serial`, asked with `legal`; `None`
    /// when there is nothing to decide after all (the decision changed while we asked,
    /// the server refused, or the seat owes nothing now).
    fn ask_legal(&mut self, match_id: i64, serial: u64) -> Result<Option<(u64, Vec<Value>)>> {
        let legal = self.legal(match_id);
        let m = self.matches.get_mut(&match_id).expect("the match is known");
        let still_owed = m.pending.as_ref().map(|p| p.serial) == Some(serial);
        let (step, legal) = match legal {
            Ok(reply) => reply,
            Err(e @ Error::Server { .. }) => {
                log(&format!("legal refused: {e}"));
                if still_owed {
                    m.pending = None;
                }
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if !still_owed {
            return Ok(None); // while we asked, the decision changed (a new prompt, or the end)
        }
        if legal.is_empty() {
            m.pending = None; // nothing owed now; a prompt comes when something is
            return Ok(None);
        }
        Ok(Some((step, legal)))
    }

    /// One decision: the legal actions (the prompt's, else asked with `legal`), the
    /// bot's choice (within its time), the answer with `act`.
    fn decide(&mut self, match_id: i64, bot: &mut BotThread) -> Result<()> {
        let Some(prompt) = self.matches[&match_id].pending.clone() else {
            return Ok(());
        };
        // After a refusal the prompt's list may be stale: ask again, as when the prompt
        // has none (an older server).
        let listed = match &prompt.legal {
            Some(legal) if !legal.is_empty() && self.matches[&match_id].tries == 0 => {
                Some((prompt.step, legal.clone()))
            }
            _ => None,
        };
        let (legal_step, legal) = match listed {
            Some(listed) => listed,
            None => match self.ask_legal(match_id, prompt.serial)? {
                Some(asked) => asked,
                None => return Ok(()),
            },
        };
        let m = self.matches.get_mut(&match_id).expect("the match is known");
        let left = prompt.deadline_ms as f64 / 1000.0 - prompt.received_at.elapsed().as_secs_f64();
        let per_decision = prompt.deadline_ms.saturating_sub(prompt.time_bank_ms) as f64 / 1000.0;
        let budget = left.min(per_decision).max(0.0);
        let context = Prompt {
            match_id,
            step: prompt.step,
            deadline_ms: prompt.deadline_ms,
            time_bank_ms: prompt.time_bank_ms,
            turn: prompt.turn.clone(),
            ruleset: m.ruleset.clone(),
            seat: m.seat.unwrap_or(0),
            players: m.players.clone(),
            config: m.config.clone(),
            rejected: m.rejected.clone(),
            tries: m.tries,
            legal_step,
            time_left: Duration::from_secs_f64(left.max(0.0)),
            budget: Duration::from_secs_f64(budget),
        };
        let action = if m.tries >= 5 {
            legal[0].clone() // refused again and again: play the server's first choice
        } else {
            // Think until shortly before the time per decision runs out (or the whole
            // deadline, bank included, with `use_bank`); then answer with the fallback.
            let thinking = if self.use_bank { left } else { budget };
            let limit = (thinking - (0.1 * thinking).max(0.2)).max(0.05);
            match bot.decide(&m.view, &legal, &context, Duration::from_secs_f64(limit)) {
                Ok(action) => action,
                Err(why) => {
                    log(&format!("{why}: answering with the fallback"));
                    default_fallback(&legal)
                }
            }
        };
        m.pending = None;
        let step = prompt.step;
        m.answered = Some(prompt);
        m.decisions += 1;
        let decisions = m.decisions;
        self.act_at(match_id, step, action)?;
        if self.drop_after == Some(decisions) {
            log(&format!(
                "testing: dropping the connection after {decisions} answers"
            ));
            if let Some(conn) = &self.conn {
                conn.shutdown();
            }
        }
        Ok(())
    }
}

fn not_connected() -> Error {
    Error::ConnectionLost("not connected".into())
}

/// An `error` message as an [`Error`].
fn as_error(message: &ServerMessage) -> Option<Error> {
    match message {
        ServerMessage::Error {
            code,
            message,
            retry_after_ms,
        } => Some(Error::Server {
            code: code.clone(),
            message: message.clone(),
            retry_after_ms: *retry_after_ms,
        }),
        _ => None,
    }
}

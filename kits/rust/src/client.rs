//! [`Client`]: a logged-in connection that joins matches and plays them.
//!
//! Everything is blocking and happens on the caller's thread, one message at a time:
//! a request is sent, then messages are read (and each match's state updated) until
//! its reply comes. Match messages that arrive meanwhile are never lost.

use std::collections::HashMap;
use std::thread;
use std::time::Duration;

use serde_json::Value;

use crate::bot::{default_fallback, Prompt};
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::game::{GameResult, Match, PendingPrompt};
use crate::http;
use crate::messages::{ClientMessage, ServerMessage};
use crate::thinking::BotThread;
use crate::PROTOCOL;

/// How long a request waits for its reply before asking itself whether it reconnected.
const REPLY_WAIT: Duration = Duration::from_secs(60);

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
    /// Every match seen on this client, by id.
    pub matches: HashMap<i64, Match>,
    conn: Option<Connection>,
    /// The token from `registered`/`logged_in`, for `resume` after a lost connection.
    session: Option<String>,
    /// Bumped on every reconnection: a request in flight then asks again.
    generation: u64,
    /// Prompts received so far (each prompt's serial number).
    prompts: u64,
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
            matches: HashMap::new(),
            conn: None,
            session: None,
            generation: 0,
            prompts: 0,
        }
    }

    // ---- connection and login -------------------------------------------------------

    /// Connect and log in: resume the session if there is one, else register, else
    /// (the name is taken) log in. Returns the running matches whose seats came back.
    pub fn connect(&mut self) -> Result<Vec<i64>> {
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
                    "expected welcome, got {got}"
                )));
            }
        }
        self.conn = Some(conn);
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
    /// out `login_throttled` refusals.
    fn login(&mut self, message: ClientMessage) -> Result<Vec<i64>> {
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
                }) if code == "login_throttled" => {
                    let wait = retry_after_ms.unwrap_or(1000).max(1);
                    log(&format!("login throttled: trying again in {wait} ms"));
                    thread::sleep(Duration::from_millis(wait));
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

    /// Send on the current connection and wait for the reply `wanted` picks, without
    /// reconnecting (logging in is part of reconnecting).
    fn raw_request(
        &mut self,
        message: &ClientMessage,
        wanted: impl Fn(&ServerMessage) -> bool,
    ) -> Result<ServerMessage> {
        self.send_now(message)?;
        loop {
            let conn = self.conn.as_mut().ok_or(not_connected())?;
            let Some((reply, line)) = conn.recv(Some(Duration::from_secs(30)))? else {
                return Err(Error::ConnectionLost(format!(
                    "no reply to {}",
                    message.kind()
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
    /// re-attaches every running seat (`joined`, `view` and the pending prompt follow).
    /// A match that ended meanwhile gets its outcome from the HTTP API.
    pub fn reconnect(&mut self) -> Result<()> {
        if let Some(conn) = self.conn.take() {
            conn.shutdown();
        }
        for m in self.matches.values_mut() {
            // A decision still owed is prompted again when the seat is re-attached.
            m.pending = None;
            m.answered = None;
        }
        let mut attempt = 0;
        let resumed = loop {
            attempt += 1;
            match self.connect() {
                Ok(resumed) => break resumed,
                Err(e @ Error::Server { .. }) => return Err(e),
                Err(e) if attempt >= 20 => {
                    return Err(Error::ConnectionLost(format!("could not reconnect: {e}")))
                }
                Err(e) => {
                    log(&format!("reconnect {attempt} failed: {e}"));
                    thread::sleep(Duration::from_millis((500 * attempt).min(5000)));
                }
            }
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
                match http::match_outcome(address, m.id) {
                    Ok(Some(outcome)) => {
                        m.headline = Some(format!("(outcome read over HTTP) {}", outcome.summary));
                        m.outcome = Some(outcome);
                    }
                    Ok(None) => log(&format!("match {} has no outcome over HTTP", m.id)),
                    Err(e) => log(&format!("could not read match {} over HTTP: {e}", m.id)),
                }
            }
            m.pending = None;
            m.done = true;
        }
        Ok(())
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

    /// Send, reconnecting once if the connection is gone.
    pub fn send(&mut self, message: &ClientMessage) -> Result<()> {
        match self.send_now(message) {
            Err(Error::ConnectionLost(_)) => {
                self.reconnect()?;
                self.send_now(message)
            }
            done => done,
        }
    }

    /// Read one message (reconnecting if the connection is lost), update the matches
    /// and return it; `None` when nothing came within `timeout` or after reconnecting.
    pub fn pump(&mut self, timeout: Option<Duration>) -> Result<Option<ServerMessage>> {
        let received = match self.conn.as_mut() {
            Some(conn) => conn.recv(timeout),
            None => Err(not_connected()),
        };
        match received {
            Ok(Some((message, line))) => {
                self.handle(&message, &line);
                Ok(Some(message))
            }
            Ok(None) => Ok(None),
            Err(e) => {
                log(&format!("{e}"));
                self.reconnect()?;
                Ok(None)
            }
        }
    }

    /// Send a request and return the reply `wanted` picks; match messages arriving
    /// meanwhile are handled. An `error` reply is [`Error::Server`].
    pub fn request(
        &mut self,
        message: &ClientMessage,
        wanted: impl Fn(&ServerMessage) -> bool,
    ) -> Result<ServerMessage> {
        loop {
            let generation = self.generation;
            self.send(message)?;
            while generation == self.generation {
                let Some(reply) = self.pump(Some(REPLY_WAIT))? else {
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

    /// Wait in the matchmaking queue; returns the match id once paired. A lost
    /// connection leaves the queue, so the kit queues again after reconnecting.
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
        loop {
            let generation = self.generation;
            match self.pump(Some(REPLY_WAIT))? {
                Some(ServerMessage::MatchStarted { match_id, .. }) => return Ok(match_id),
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
                self.join_queue(&message)?;
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
        let ServerMessage::MatchStarted { match_id, .. } =
            self.request(&start, |m| matches!(m, ServerMessage::MatchStarted { .. }))?
        else {
            unreachable!("only a match_started reply is wanted");
        };
        Ok(match_id)
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

    /// Answer a prompt. If the connection turns out to be lost, the kit reconnects but
    /// does not send the answer again: the resumed seat is prompted again if the
    /// answer never arrived, and a second answer could cost the seat (spacegoo
    /// disqualifies a second command in a round).
    pub fn act(&mut self, match_id: i64, action: Value) -> Result<()> {
        match self.send_now(&ClientMessage::Act { match_id, action }) {
            Err(Error::ConnectionLost(why)) => {
                log(&format!("connection lost while answering: {why}"));
                self.reconnect()
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
        loop {
            let m = &self.matches[&match_id];
            if m.done {
                return Ok(GameResult::new(m.clone()));
            }
            if m.pending.is_none() {
                self.pump(Some(Duration::from_secs(30)))?;
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
        m.answered = Some(prompt);
        m.decisions += 1;
        let decisions = m.decisions;
        self.act(match_id, action)?;
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

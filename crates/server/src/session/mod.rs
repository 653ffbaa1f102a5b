//! One client connection's state machine: anonymous → logged in, then waiting in a
//! queue, sitting at tables, playing and watching matches (several at once if it likes).
//!
//! Transports hand the session one line at a time; replies go to the connection's
//! [`Outbox`]. What a referee says to a seat or a spectator is forwarded by tasks of its
//! own (see `matches.rs`), so a slow request never delays a prompt.

mod remote;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use arbiter_store::{Account, SessionToken};
use serde_json::Value;

use crate::connection::Outbox;
use crate::hub::Hub;
use crate::matches::Watching;
use crate::mesh::asks::Ask;
use crate::protocol::{
    ClientMessage, FrameError, Refusal, ServerMessage, TokenBucket, PROTOCOL_VERSION,
};
use crate::tournaments::requests as tournaments;
use remote::Reached;

/// Whether the transport should keep reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Close,
}

type Reply = Result<(), Refusal>;

pub struct Session {
    hub: Arc<Hub>,
    outbox: Outbox,
    transport: &'static str,
    peer: SocketAddr,
    account: Option<Account>,
    /// The session token this connection logged in with or was given, closed by `logout`.
    session: Option<SessionToken>,
    /// Messages per second, with bursts.
    rate: TokenBucket,
    /// Protocol errors tolerated; refills slowly so an occasional mistake is forgiven.
    strikes: TokenBucket,
    spectating: HashMap<i64, Watching>,
    /// What this connection reached on other nodes of the deployment.
    reached: Reached,
}

impl Session {
    /// A new connection: greet the client.
    pub fn start(
        hub: Arc<Hub>,
        outbox: Outbox,
        transport: &'static str,
        peer: SocketAddr,
    ) -> Session {
        let limits = &hub.config.limits;
        let rate = TokenBucket::new(limits.rate, limits.burst);
        let strikes = TokenBucket::new(0.1, limits.max_strikes);
        hub.metrics.connection_opened(transport);
        if let Some(mesh) = &hub.mesh {
            mesh.connection_opened(&outbox);
        }
        tracing::debug!(conn = outbox.conn(), %peer, transport, "connection opened");
        outbox.send(&ServerMessage::Welcome {
            protocol: PROTOCOL_VERSION,
            server: format!("arbiter {}", env!("CARGO_PKG_VERSION")),
            rulesets: hub.rulesets.iter().map(|r| r.id().to_string()).collect(),
        });
        Session {
            hub,
            outbox,
            transport,
            peer,
            account: None,
            session: None,
            rate,
            strikes,
            spectating: HashMap::new(),
            reached: Reached::default(),
        }
    }

    /// One complete line (or WebSocket message) from the client.
    pub async fn on_line(&mut self, line: &str) -> Flow {
        self.hub.metrics.message_received();
        // Backpressure, never refusal: over the rate, this connection is read more
        // slowly (the caller reads no further meanwhile), and nothing is dropped.
        self.rate.take_when_ready().await;
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        let message = match ClientMessage::parse(line) {
            Ok(message) => message,
            Err(error) => return self.strike(error.code, error.message),
        };
        // Boxed: handling a message is the largest state a connection's task can be
        // in (inline, it made the TCP connection's task 6,000 bytes rather than 3,136
        // in a test build), and every idle connection would hold it while waiting for
        // its next line; boxed, it exists only while a message is being handled.
        if let Err(refusal) = Box::pin(self.handle(message)).await {
            self.hub.metrics.error_sent(refusal.code);
            self.outbox.send(&ServerMessage::Error {
                code: refusal.code.to_string(),
                message: refusal.message,
                retry_after_ms: refusal.retry_after.map(|d| d.as_millis() as u64),
            });
        }
        if self.outbox.is_closed() {
            Flow::Close
        } else {
            Flow::Continue
        }
    }

    /// A line the framing could not deliver.
    pub fn on_bad_frame(&mut self, error: FrameError) -> Flow {
        match error {
            FrameError::TooLong { limit } => {
                self.refuse(
                    "line_too_long",
                    format!("a message may be at most {limit} bytes; closing the connection"),
                );
                Flow::Close
            }
            FrameError::NotUtf8 => {
                self.strike("bad_utf8", "the line is not UTF-8 text".to_string())
            }
        }
    }

    /// A line was started and never finished.
    pub fn on_line_timeout(&mut self) {
        self.refuse(
            "line_timeout",
            format!(
                "a line stayed unterminated for {} ms; closing the connection",
                self.hub.config.limits.partial_line_timeout.as_millis()
            ),
        );
    }

    /// A WebSocket client sent nothing (not even a pong) for too long: a frame left
    /// half-sent, or a peer that is gone.
    pub fn on_silence(&mut self, silent: std::time::Duration) {
        self.refuse(
            "ws_timeout",
            format!(
                "nothing complete arrived for {} ms, not even a pong; closing the connection",
                silent.as_millis()
            ),
        );
    }

    /// The server is shutting down.
    pub fn server_closing(&mut self) {
        self.send(ServerMessage::ServerRestarting {
            retry_after_ms: crate::protocol::RETRY_AFTER_RESTART.as_millis() as u64,
        });
    }

    /// The connection is gone: leave queues and tables, stop watching. Seats stay
    /// taken (the referee's deadlines run on) so the player can come back.
    pub async fn finish(self) {
        let conn = self.outbox.conn();
        self.hub.matchmaking.leave(conn);
        if let Some(account) = &self.account {
            self.hub.leave_tables(account.id, conn);
            self.hub.online.left(account.id, conn);
        }
        // Dropping each `Watching` stops its match's lines.
        drop(self.spectating);
        if let Some(mesh) = &self.hub.mesh {
            // Boxed, as a message's handling is (see `on_line`): inline, this rare
            // state would be held by every connection's task.
            Box::pin(self.reached.closed(mesh, conn)).await;
            mesh.connection_closed(conn);
        }
        self.hub.metrics.connection_closed(self.transport);
        tracing::debug!(conn, peer = %self.peer, "connection closed");
    }

    fn refuse(&self, code: &str, message: String) {
        self.hub.metrics.error_sent(code);
        self.outbox.send(&ServerMessage::error(code, message));
    }

    /// A protocol error counts against the client; too many close the connection.
    fn strike(&mut self, code: &'static str, message: String) -> Flow {
        self.refuse(code, message);
        if self.strikes.take() {
            Flow::Continue
        } else {
            self.refuse(
                "too_many_errors",
                "too many malformed or excess messages; closing the connection".to_string(),
            );
            self.outbox.close();
            Flow::Close
        }
    }

    fn account(&self) -> Result<&Account, Refusal> {
        self.account
            .as_ref()
            .ok_or_else(|| Refusal::new("not_logged_in", "log in (or register) first"))
    }

    fn send(&self, message: ServerMessage) {
        self.outbox.send(&message);
    }

    async fn handle(&mut self, message: ClientMessage) -> Reply {
        match message {
            ClientMessage::Register {
                name,
                password,
                bot,
            } => self.register(&name, &password, bot).await,
            ClientMessage::Login {
                name,
                password,
                bot,
            } => self.login(&name, &password, bot).await,
            ClientMessage::Resume { session } => self.resume(&session).await,
            ClientMessage::Logout => self.logout().await,
            ClientMessage::Rulesets => {
                self.send(ServerMessage::Rulesets {
                    rulesets: self.hub.ruleset_infos(),
                });
                Ok(())
            }
            ClientMessage::Queue {
                ruleset,
                config,
                seats,
            } => self.queue(&ruleset, &config, seats).await,
            ClientMessage::LeaveQueue => self.leave_queue().await,
            request @ (ClientMessage::Tables
            | ClientMessage::CreateTable { .. }
            | ClientMessage::JoinTable { .. }
            | ClientMessage::AddBot { .. }
            | ClientMessage::LeaveTable { .. }
            | ClientMessage::StartTable { .. }) => self.table_request(request).await,
            ClientMessage::Matches => {
                self.send(ServerMessage::Matches {
                    matches: self.hub.live_matches().await?,
                });
                Ok(())
            }
            ClientMessage::Spectate { match_id } => self.spectate(match_id).await,
            ClientMessage::Unspectate { match_id } => match self.spectating.remove(&match_id) {
                Some(watching) => {
                    // No line of the match follows `unspectated`.
                    drop(watching);
                    self.send(ServerMessage::Unspectated { match_id });
                    Ok(())
                }
                None => self.unspectate_elsewhere(match_id).await,
            },
            ClientMessage::Act {
                match_id,
                seat,
                action,
                step,
            } => self.act(match_id, seat, action, step).await,
            ClientMessage::Resign { match_id, seat } => self.resign(match_id, seat).await,
            ClientMessage::Legal { match_id } => self.legal(match_id).await,
            ClientMessage::TakeSeat { match_id } => {
                let account = self.account()?.id;
                self.hub.take_seat(account, &self.outbox, match_id).await
            }
            ClientMessage::Options { legal_in_prompt } => {
                if let Some(on) = legal_in_prompt {
                    self.outbox.set_legal_in_prompt(on);
                }
                self.send(ServerMessage::Options {
                    legal_in_prompt: self.outbox.legal_in_prompt(),
                });
                Ok(())
            }
            ClientMessage::Ping => {
                self.send(ServerMessage::Pong);
                Ok(())
            }
            ClientMessage::Tournaments => {
                self.send(tournaments::list(&self.hub).await?);
                Ok(())
            }
            ClientMessage::CreateTournament { settings } => {
                let account = self.account()?.clone();
                let id = tournaments::create(&self.hub, Some(&account), &settings).await?;
                self.send(ServerMessage::TournamentCreated { tournament: id });
                Ok(())
            }
            ClientMessage::JoinTournament { tournament } => {
                let account = self.account()?.clone();
                let joined = tournaments::join(&self.hub, &account, &self.outbox, tournament).await;
                // Entered (now, or before: a bot that reconnected): the games reach
                // this connection, wherever the tournament is directed.
                let entered_before = joined.as_ref().is_err_and(|r| r.code == "already_entered");
                if joined.is_ok() || entered_before {
                    self.tournament_elsewhere(tournament, Some(account.id), true)
                        .await;
                }
                if entered_before {
                    // A bot that came back on a new connection joins again: it is
                    // told so, and this connection watches, so that it hears the
                    // state and the end as the old one would have.
                    tournaments::watch(&self.hub, &self.outbox, tournament).await?;
                }
                joined?;
                self.send(ServerMessage::TournamentJoined { tournament });
                tournaments::watch(&self.hub, &self.outbox, tournament).await
            }
            ClientMessage::WithdrawTournament { tournament } => {
                let account = self.account()?.clone();
                tournaments::withdraw(&self.hub, &account, tournament).await?;
                self.send(ServerMessage::TournamentWithdrawn { tournament });
                Ok(())
            }
            ClientMessage::PauseTournament { tournament, paused } => {
                let account = self.account()?.clone();
                tournaments::pause(&self.hub, &account, tournament, paused).await?;
                self.send(ServerMessage::TournamentPaused { tournament, paused });
                Ok(())
            }
            ClientMessage::WatchTournament { tournament } => {
                tournaments::watch(&self.hub, &self.outbox, tournament).await?;
                let account = self.account.as_ref().map(|a| a.id);
                self.tournament_elsewhere(tournament, account, true).await;
                Ok(())
            }
            ClientMessage::UnwatchTournament { tournament } => {
                self.hub.tournaments.unwatch(tournament, self.outbox.conn());
                self.untournament_elsewhere(tournament).await;
                self.send(ServerMessage::TournamentUnwatched { tournament });
                Ok(())
            }
        }
    }

    async fn register(&mut self, name: &str, password: &str, bot: bool) -> Reply {
        if self.account.is_some() {
            return Err(Refusal::new(
                "already_logged_in",
                "this connection is logged in",
            ));
        }
        let account = self.hub.store.register_as(name, password, bot).await?;
        tracing::info!(account = account.id, name = %account.name, bot, "registered");
        let session = self.hub.store.open_session(account.id).await?;
        self.send(ServerMessage::Registered {
            name: account.name.clone(),
            session: session.reveal().to_string(),
            bot: account.bot,
        });
        self.hub.online.logged_in(account.id, &self.outbox);
        self.account = Some(account);
        self.session = Some(session);
        Ok(())
    }

    async fn login(&mut self, name: &str, password: &str, bot: Option<bool>) -> Reply {
        if self.account.is_some() {
            return Err(Refusal::new(
                "already_logged_in",
                "this connection is logged in",
            ));
        }
        let mut account = self
            .hub
            .store
            .login_from(name, password, Some(self.peer.ip()))
            .await?;
        if let Some(bot) = bot.filter(|bot| *bot != account.bot) {
            self.hub.store.set_account_bot(account.id, bot).await?;
            tracing::info!(account = account.id, bot, "the account's kind changed");
            account.bot = bot;
        }
        let session = self.hub.store.open_session(account.id).await?;
        self.logged_in(account, session).await;
        Ok(())
    }

    /// `resume`: log in with a session token instead of a password.
    async fn resume(&mut self, token: &str) -> Reply {
        if self.account.is_some() {
            return Err(Refusal::new(
                "already_logged_in",
                "this connection is logged in",
            ));
        }
        let account = self.hub.store.resume_session(token).await?;
        let session = SessionToken::from_client(token);
        self.logged_in(account, session).await;
        Ok(())
    }

    /// Tell the client who it is, and give it back every seat it holds in a live match
    /// (on any node of the deployment).
    async fn logged_in(&mut self, account: Account, session: SessionToken) {
        let here: Vec<i64> = self
            .hub
            .matches
            .seats_of(account.id)
            .iter()
            .map(|(live, _)| live.id)
            .collect();
        let elsewhere = self.seats_elsewhere(account.id).await;
        let mut resumed = here;
        resumed.extend(elsewhere.iter().map(|seat| seat.match_id));
        resumed.sort_unstable();
        resumed.dedup();
        self.send(ServerMessage::LoggedIn {
            name: account.name.clone(),
            session: session.reveal().to_string(),
            bot: account.bot,
            resumed,
        });
        // Resuming sends `joined`, the seat's view and any pending prompt.
        self.hub.resume_seats(account.id, &self.outbox).await;
        self.resume_elsewhere(account.id, &elsewhere).await;
        self.tournaments_elsewhere(account.id).await;
        self.hub.online.logged_in(account.id, &self.outbox);
        self.account = Some(account);
        self.session = Some(session);
    }

    /// `logout`: the session's token stops working, and the connection closes (seats
    /// stay the account's: logging in again anywhere resumes them).
    async fn logout(&mut self) -> Reply {
        self.account()?;
        if let Some(session) = self.session.take() {
            self.hub.store.close_session(session.reveal()).await?;
        }
        self.send(ServerMessage::LoggedOut);
        self.outbox.close();
        Ok(())
    }

    /// Wait in the queue: this node's, or the deployment's on its matchmaker.
    async fn queue(&mut self, ruleset: &str, config: &Value, seats: Option<usize>) -> Reply {
        let account = self.account()?.clone();
        if self
            .queue_elsewhere(&account, ruleset, config, seats)
            .await?
        {
            return Ok(());
        }
        let queued = self
            .hub
            .join_queue(
                account.id,
                &account.name,
                &self.outbox,
                None,
                ruleset,
                config,
                seats,
            )
            .await?;
        self.send(queued);
        Ok(())
    }

    /// Tables live in one place: this node, or the deployment's matchmaker.
    async fn table_request(&mut self, request: ClientMessage) -> Reply {
        let account = self.account()?.clone();
        if self.table_request_elsewhere(&account, &request).await? {
            return Ok(());
        }
        self.hub
            .table_request(account.id, &account.name, &self.outbox, request)
            .await
    }

    async fn leave_queue(&mut self) -> Reply {
        if let Some(ruleset) = self.hub.matchmaking.leave(self.outbox.conn()) {
            self.send(ServerMessage::LeftQueue { ruleset });
            return Ok(());
        }
        self.leave_queue_elsewhere().await
    }

    /// Watch a live match, here or on another node.
    async fn spectate(&mut self, match_id: i64) -> Reply {
        if self.spectating.contains_key(&match_id) || self.reached.watches(match_id) {
            return Err(Refusal::new(
                "already_spectating",
                format!("you already watch match {match_id}"),
            ));
        }
        if self.hub.matches.get(match_id).is_none() {
            return self.spectate_elsewhere(match_id).await;
        }
        let task = self.hub.spectate(&self.outbox, match_id).await?;
        self.spectating
            .retain(|_, watching| !watching.is_finished());
        self.spectating.insert(match_id, task);
        Ok(())
    }

    async fn act(
        &mut self,
        match_id: Option<i64>,
        seat: Option<usize>,
        action: Value,
        step: Option<usize>,
    ) -> Reply {
        let account = self.account()?.id;
        match self.hub.matches.seat_for(account, match_id) {
            Ok(found) => {
                self.hub
                    .act_in_seat(found, &self.outbox, seat, action, step)
                    .await
            }
            Err(refusal) => {
                self.act_elsewhere(account, match_id, refusal, |from, match_id| Ask::Act {
                    from,
                    account,
                    match_id,
                    seat,
                    action: action.clone(),
                    step,
                })
                .await
            }
        }
    }

    async fn resign(&mut self, match_id: Option<i64>, seat: Option<usize>) -> Reply {
        let account = self.account()?.id;
        match self.hub.matches.seat_for(account, match_id) {
            Ok(found) => self.hub.resign_in_seat(found, seat).await,
            Err(refusal) => {
                self.act_elsewhere(account, match_id, refusal, |from, match_id| Ask::Resign {
                    from,
                    account,
                    match_id,
                    seat,
                })
                .await
            }
        }
    }

    /// The seat's legal actions now, from the referee (only the seat's own: the
    /// account must hold it).
    async fn legal(&mut self, match_id: Option<i64>) -> Reply {
        let account = self.account()?.id;
        let found = match self.hub.matches.seat_for(account, match_id) {
            Ok(found) => found,
            Err(refusal) => {
                return self
                    .act_elsewhere(account, match_id, refusal, |from, match_id| Ask::Legal {
                        from,
                        account,
                        match_id,
                    })
                    .await
            }
        };
        let legal = self.hub.legal_in_seat(found).await?;
        self.send(legal);
        Ok(())
    }
}

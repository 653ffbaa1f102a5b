//! One client connection, in the reference's three phases: before login, waiting in the
//! lobby, and in a game (then the end lines, a short linger, and `closing connection`).
//!
//! Where this departs from the reference, and why:
//! - an empty line is ignored (the reference took it for a lost connection; the rules
//!   say to ignore it);
//! - overlong lines, floods and bytes that are not UTF-8 get a line saying so and are
//!   then treated like the reference's invalid data (a lost connection);
//! - `login` or `quit` during a game closes the connection *and* disqualifies at once
//!   with `connection lost` (the reference closed the socket and let the round's
//!   deadline disqualify with `no command sent`);
//! - a connection that has not logged in within the login timeout is closed.

use std::sync::Arc;
use std::time::Duration;

use arbiter_spacegoo::reasons;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::time::{sleep_until, timeout, Instant};
use tokio_util::sync::CancellationToken;

use crate::accounts;
use crate::games::{current_score, GameResult, Seated};
use crate::lines::{Incoming, LineRate, LineReader};
use crate::lobby::Waiting;
use crate::replies;
use crate::request::{classify, Request};
use crate::script::{Say, SeatScript};
use crate::server::Shared;

/// A write that takes longer than this (a client that stopped reading) breaks the
/// connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the end of a game waits for the store's result before printing a zero
/// rating change.
const RESULT_WAIT: Duration = Duration::from_secs(10);
/// After the last line, how long (and how many bytes) the client's input is still read
/// and dropped while it takes in the last lines and closes, so that they are not lost to
/// a reset (see `LineReader::discard_until_closed`).
const CLOSE_LINGER: Duration = Duration::from_secs(2);
const CLOSE_LINGER_BYTES: usize = 1 << 20;
/// How often a seat is attached again after the referee let go of a connection that
/// fell behind.
const MAX_REATTACH: usize = 3;

/// What one read gave, classified. Overlong lines, floods and bytes that are not UTF-8
/// come as [`Request::Fatal`] with their own line.
enum Read {
    Request(Request),
    Closed,
}

struct Writer {
    half: OwnedWriteHalf,
    broken: bool,
}

impl Writer {
    /// Write one line; a failed or stalled write marks the connection broken and later
    /// writes do nothing.
    async fn line(&mut self, text: &str) {
        if self.broken {
            return;
        }
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        match timeout(WRITE_TIMEOUT, self.half.write_all(&bytes)).await {
            Ok(Ok(())) => {}
            _ => self.broken = true,
        }
    }

    async fn close(&mut self) {
        let _ = timeout(WRITE_TIMEOUT, self.half.shutdown()).await;
    }
}

struct Connection {
    shared: Arc<Shared>,
    shutdown: CancellationToken,
    reader: LineReader<BufReader<OwnedReadHalf>>,
    /// Charged for every line but a game command during a game.
    rate: LineRate,
    /// In a game: game commands are free of the line rate.
    playing: bool,
    writer: Writer,
    /// The logged-in account.
    account: Option<arbiter_store::Account>,
    /// False once the connection counts as lost (nothing more is read).
    reading: bool,
    /// The client's address, for login throttling.
    peer: Option<std::net::IpAddr>,
}

/// Serve one accepted connection to its end.
/// `client` is the client's address (a carried connection's is not its socket's peer).
pub(crate) async fn serve(
    stream: TcpStream,
    client: std::net::IpAddr,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
) {
    let _ = stream.set_nodelay(true);
    let peer = Some(client);
    if let Some(bytes) = shared.options.send_buffer {
        if let Err(error) = socket2::SockRef::from(&stream).set_send_buffer_size(bytes) {
            tracing::debug!(?peer, %error, "cannot set the socket's send buffer");
        }
    }
    let (read, write) = stream.into_split();
    let options = &shared.options;
    let rate = LineRate::new(options.lines_per_second, options.line_burst);
    let reader = LineReader::new(BufReader::new(read), options.max_line);
    let mut connection = Connection {
        shared: shared.clone(),
        shutdown,
        reader,
        rate,
        playing: false,
        writer: Writer {
            half: write,
            broken: false,
        },
        account: None,
        reading: true,
        peer,
    };
    connection.writer.line(replies::WELCOME).await;
    connection.run().await;
    if let Some(account) = &connection.account {
        shared.lobby.leave(account.id);
        shared.online.leave(account.id);
    }
    connection.writer.line(replies::CLOSING).await;
    connection.writer.close().await;
    // Not while the server shuts down: then nobody waits for the client.
    let linger = Instant::now() + CLOSE_LINGER;
    tokio::select! {
        () = connection.reader.discard_until_closed(CLOSE_LINGER_BYTES, linger) => {}
        () = connection.shutdown.cancelled() => {}
    }
}

impl Connection {
    async fn run(&mut self) {
        let Some(waiting) = self.before_login().await else {
            return;
        };
        let Some(seated) = self.in_lobby(waiting).await else {
            return;
        };
        self.in_game(seated).await;
    }

    async fn read(&mut self) -> Read {
        match self.reader.next().await {
            Incoming::Line(text) => {
                let request = classify(&text);
                let free = self.playing && matches!(request, Request::Command(_));
                if !free && !self.rate.allow() {
                    return Read::Request(Request::Fatal(replies::too_many_lines(
                        self.shared.options.lines_per_second,
                    )));
                }
                Read::Request(request)
            }
            Incoming::NotUtf8 => Read::Request(Request::Fatal(replies::INVALID_DATA.to_string())),
            Incoming::TooLong => Read::Request(Request::Fatal(replies::line_too_long(
                self.shared.options.max_line,
            ))),
            Incoming::Closed => Read::Closed,
        }
    }

    async fn say(&mut self, line: &str) {
        self.writer.line(line).await;
    }

    /// Until a successful login: returns where the lobby will announce the game.
    async fn before_login(&mut self) -> Option<oneshot::Receiver<Seated>> {
        let give_up = Instant::now() + self.shared.options.login_timeout;
        let shutdown = self.shutdown.clone();
        loop {
            let read = tokio::select! {
                read = self.read() => read,
                () = sleep_until(give_up) => return None,
                () = shutdown.cancelled() => {
                    self.say(replies::SHUTTING_DOWN).await;
                    return None;
                }
            };
            match read {
                Read::Closed => return None,
                Read::Request(request) => match request {
                    Request::Empty => {}
                    Request::Login { username, password } => {
                        return self.login(&username, &password).await;
                    }
                    Request::Quit => return None,
                    Request::Command(_) | Request::BadNumbers => {
                        self.say(replies::LOGIN_FIRST).await;
                    }
                    Request::Reply(reply) => self.say(&reply).await,
                    Request::Fatal(reply) => {
                        self.say(&reply).await;
                        return None;
                    }
                },
            }
        }
    }

    async fn login(&mut self, username: &str, password: &str) -> Option<oneshot::Receiver<Seated>> {
        let shared = self.shared.clone();
        let create = shared.options.auto_create_accounts;
        let account =
            match accounts::login(&shared.store, username, password, create, self.peer).await {
                Ok(account) => account,
                Err(refused) => {
                    self.say(refused.reply()).await;
                    return None;
                }
            };
        if !shared.online.enter(account.id) {
            self.say(replies::YOU_ARE_ALREADY_LOGGED_IN).await;
            return None;
        }
        self.account = Some(account.clone());
        let score = match current_score(&shared.store, account.id).await {
            Ok(score) => score,
            Err(error) => {
                tracing::error!(%error, "cannot read a spacegoo rating");
                self.say(replies::LOGIN_UNAVAILABLE).await;
                return None;
            }
        };
        self.say(&replies::login_ok(score)).await;
        let (notify, seated) = oneshot::channel();
        shared.lobby.join(Waiting {
            account: account.id,
            name: account.name.clone(),
            rating: score,
            notify,
        });
        Some(seated)
    }

    /// Waiting for a partner.
    async fn in_lobby(&mut self, mut game: oneshot::Receiver<Seated>) -> Option<Seated> {
        let shutdown = self.shutdown.clone();
        loop {
            let read = tokio::select! {
                seated = &mut game => return match seated {
                    Ok(seated) => Some(seated),
                    Err(_) => {
                        self.say(replies::GAME_NOT_STARTED).await;
                        None
                    }
                },
                read = self.read() => read,
                () = shutdown.cancelled() => {
                    self.say(replies::SHUTTING_DOWN).await;
                    return None;
                }
            };
            match read {
                Read::Closed => return None,
                Read::Request(request) => match request {
                    Request::Empty => {}
                    Request::Login { .. } => {
                        self.say(replies::ALREADY_LOGGED_IN).await;
                        return None;
                    }
                    Request::Quit => return None,
                    Request::Command(_) | Request::BadNumbers => {
                        self.say(replies::NOT_IN_A_GAME).await;
                    }
                    Request::Reply(reply) => self.say(&reply).await,
                    Request::Fatal(reply) => {
                        self.say(&reply).await;
                        return None;
                    }
                },
            }
        }
    }

    /// Play the game: client lines go to the referee, the referee's messages come back
    /// as the reference's lines.
    async fn in_game(&mut self, seated: Seated) {
        let seat = seated.seat;
        self.playing = true;
        let mut script = SeatScript::new(seat, seated.config.clone(), seated.names.clone());
        let mut attachments = 0;
        let shutdown = self.shutdown.clone();
        'attach: while attachments <= MAX_REATTACH {
            attachments += 1;
            let Ok(mut referee) = seated.handle.attach(seat).await else {
                break;
            };
            loop {
                tokio::select! {
                    message = referee.recv() => {
                        let Some(message) = message else {
                            // The referee let go: this connection fell behind, or the
                            // match stopped. Attach again while it runs.
                            continue 'attach;
                        };
                        let says = match script.on_message(&message) {
                            Ok(says) => says,
                            Err(error) => {
                                tracing::error!(match_id = seated.match_id, seat, %error);
                                break 'attach;
                            }
                        };
                        for say in says {
                            match say {
                                Say::Line(line) => self.say(&line).await,
                                Say::End { reason, final_state, winner } => {
                                    drop(referee);
                                    self.playing = false;
                                    self.end_of_game(&seated, &reason, &final_state, winner)
                                        .await;
                                    return;
                                }
                                Say::Aborted { reason } => {
                                    drop(referee);
                                    self.playing = false;
                                    self.say(&replies::game_aborted(&reason)).await;
                                    return;
                                }
                            }
                        }
                        if self.writer.broken && self.reading {
                            self.lose_connection(&seated).await;
                        }
                    }
                    read = self.read(), if self.reading => {
                        self.game_line(&seated, &script, read).await;
                    }
                    () = shutdown.cancelled() => {
                        self.say(replies::SHUTTING_DOWN).await;
                        return;
                    }
                }
            }
        }
        // No outcome reached this connection: the match was aborted.
        let reason = match wait_for_result(&seated).await {
            Some(GameResult::Aborted { reason }) => reason,
            _ => "the referee stopped".to_string(),
        };
        self.say(&replies::game_aborted(&reason)).await;
    }

    /// One client line during a game.
    async fn game_line(&mut self, seated: &Seated, script: &SeatScript, read: Read) {
        match read {
            Read::Closed => self.lose_connection(seated).await,
            Read::Request(request) => match request {
                Request::Empty => {}
                Request::Fatal(reply) => {
                    self.say(&reply).await;
                    self.lose_connection(seated).await;
                }
                Request::Login { .. } => {
                    self.say(replies::ALREADY_LOGGED_IN).await;
                    self.lose_connection(seated).await;
                }
                Request::Quit => self.lose_connection(seated).await,
                Request::BadNumbers => self.say(replies::NUMBERS_EXPECTED).await,
                Request::Reply(reply) => self.say(&reply).await,
                Request::Command(action) => {
                    if script.game_over() {
                        self.say(replies::GAME_IS_OVER).await;
                        return;
                    }
                    let action = match serde_json::to_value(&action) {
                        Ok(action) => action,
                        Err(error) => {
                            tracing::error!(%error, "cannot encode a spacegoo command");
                            return;
                        }
                    };
                    if seated.handle.act(seated.seat, action).await.is_err() {
                        self.say(replies::GAME_IS_OVER).await;
                    }
                }
            },
        }
    }

    /// The connection counts as lost: nothing more is read, and the seat is
    /// disqualified (the end lines are still written while the socket takes them).
    async fn lose_connection(&mut self, seated: &Seated) {
        self.reading = false;
        let _ = seated
            .handle
            .eject(seated.seat, reasons::CONNECTION_LOST)
            .await;
    }

    /// The end lines with this player's rating change (signed as the reference printed
    /// it, see [`GameResult::printed_change`]), then a linger during which commands get
    /// `game is over. please disconnect`.
    async fn end_of_game(
        &mut self,
        seated: &Seated,
        reason: &str,
        final_state: &str,
        winner: Option<u8>,
    ) {
        let change = match wait_for_result(seated).await {
            Some(result) => result.printed_change(seated.seat, winner),
            None => {
                tracing::error!(
                    match_id = seated.match_id,
                    "no result from the store in time; printing no rating change"
                );
                0.0
            }
        };
        self.say(&replies::game_ended(reason, change)).await;
        self.say(final_state).await;
        let url = self.shared.options.game_url(seated.match_id);
        self.say(&replies::game_available(&url)).await;

        let until = Instant::now() + self.shared.options.close_delay;
        let shutdown = self.shutdown.clone();
        while self.reading {
            let read = tokio::select! {
                read = self.read() => read,
                () = sleep_until(until) => return,
                () = shutdown.cancelled() => return,
            };
            match read {
                Read::Closed => return,
                Read::Request(request) => match request {
                    Request::Empty => {}
                    Request::Login { .. } => {
                        self.say(replies::ALREADY_LOGGED_IN).await;
                        return;
                    }
                    Request::Quit => return,
                    Request::Command(_) => self.say(replies::GAME_IS_OVER).await,
                    Request::BadNumbers => self.say(replies::NUMBERS_EXPECTED).await,
                    Request::Reply(reply) => self.say(&reply).await,
                    Request::Fatal(reply) => {
                        self.say(&reply).await;
                        return;
                    }
                },
            }
        }
        // Not reading: the connection was lost. Nobody is left to read the final lines,
        // so the account is released at once (a player reconnecting is not told it is
        // still logged in for the length of a linger).
    }
}

/// The store's result for the seat's match, waiting a bounded time.
async fn wait_for_result(seated: &Seated) -> Option<GameResult> {
    let mut result = seated.result.clone();
    let waited = timeout(RESULT_WAIT, result.wait_for(Option::is_some)).await;
    match waited {
        Ok(Ok(result)) => result.clone(),
        _ => None,
    }
}

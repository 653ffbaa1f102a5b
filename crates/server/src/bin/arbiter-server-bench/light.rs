//! The benchmark's light client: a native-protocol player that costs next to nothing,
//! so the benchmark measures the server. It reads lines as text and looks only at what
//! it needs: a `prompt` is answered with one fixed action, written once; `match_started`
//! and `outcome` are counted. One connection may play several matches at once (as a
//! bot author's client may), which keeps 10,000 matches within the machine's limit on
//! open files. Such a client answers every line it has already received before it
//! writes, so the answers to lines that arrived together leave in one write, as a
//! bot's with a buffered writer would.
//!
//! The connections draw their games from one shared pool of seats, not from a share
//! each (see `arbiter_server::client::games` for why); or, for an arena, each joins the
//! tournament once and plays whatever its director pairs it in until it ends.
//!
//! A client speaks over TCP lines or, as the browser does, over WebSocket at `/ws`
//! (one protocol message a text message); [`Wire`] hides which.

use std::collections::{HashMap, VecDeque};
use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures::{FutureExt as _, SinkExt as _, StreamExt as _};
use rand::Rng;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use arbiter_server::client::SeatPool;

/// What one light connection plays.
pub struct LightPlan {
    /// `host:port` of the TCP door, or `ws://host:port/ws`.
    pub server: String,
    pub session: String,
    pub ruleset: String,
    /// Where the connection's games come from.
    pub entry: Entry,
    /// Matches played at the same time on this connection.
    pub at_once: u32,
    /// The answer to every prompt, as JSON.
    pub answer: String,
    /// Wait about this long before answering (a player that thinks, or a person): each
    /// wait is drawn uniformly from half to one and a half times it, so that matches
    /// started together do not all answer in the same millisecond.
    pub think: Duration,
    /// Seeds the thinking times.
    pub seed: u64,
    /// Stop after this long even if games remain.
    pub stop_after: Option<Duration>,
    /// Held while connecting and logging in: thousands of clients connect in waves,
    /// not all in the same millisecond.
    pub connecting: Arc<Semaphore>,
}

/// How a light connection gets its games.
pub enum Entry {
    /// The matchmaking queue. The pool holds the seats of games not yet queued for,
    /// shared by every connection of the run: a connection takes one each time it
    /// queues, and leaves once the pool is empty and its own matches are over.
    Queue(SeatPool),
    /// A tournament, joined once: its director starts the games (`match_started`), and
    /// the connection leaves at `tournament_ended`.
    Tournament {
        id: i64,
        /// Stop watching the tournament's state once joined (its cost to the server
        /// is then left out), and, as `tournament_ended` then never comes, leave once
        /// without a match after this long (past the arena's end).
        unwatch: Option<Duration>,
    },
}

#[derive(Default)]
pub struct LightReport {
    pub decisions: u64,
    pub games: u64,
    pub rejected: u64,
    /// Microseconds from an answer's last byte written to the next line of that match.
    pub round_trips: Vec<u64>,
    /// Microseconds the connection had no match, from the `outcome` that left it
    /// without one to the next `match_started`: the lobby's or the tournament
    /// director's time to record, pair and start (the first match is not counted).
    pub waits: Vec<u64>,
    /// A tournament's state as its watchers receive it (on every change, at most every
    /// half second): messages, and their bytes.
    pub states: u64,
    pub state_bytes: u64,
}

/// The message's `type`: every server line starts with it.
fn kind(line: &str) -> &str {
    line.strip_prefix(r#"{"type":""#)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
}

/// The `"match":N` right after the type (where the server puts it), or anywhere.
fn match_id(line: &str) -> Option<i64> {
    let at = line.find(r#""match":"#)? + r#""match":"#.len();
    let digits: &str = &line[at..];
    let end = digits
        .find(|c: char| !c.is_ascii_digit() && c != '-')
        .unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// The match a line belongs to. A tournament's state lists its games' matches but is
/// no line of theirs (it would end a round trip early).
fn match_of(line: &str) -> Option<i64> {
    match kind(line) {
        "tournament" => None,
        _ => match_id(line),
    }
}

pub async fn play(plan: LightPlan) -> anyhow::Result<LightReport> {
    let permit = plan.connecting.acquire().await?;
    let started = Instant::now();
    let mut wire = Wire::connect(&plan.server).await?;
    let welcome = tokio::time::timeout(Duration::from_secs(30), wire.next())
        .await
        .context("no welcome within 30 s")??;
    if kind(&welcome) != "welcome" {
        bail!("not an Arbiter server: {welcome}");
    }
    let resume = format!("{{\"type\":\"resume\",\"session\":\"{}\"}}\n", plan.session);
    wire.send(resume.as_bytes()).await?;
    let reply = wire.next().await?;
    if kind(&reply) != "logged_in" {
        bail!("resume refused: {reply}");
    }
    drop(permit);
    if let Entry::Tournament { id, unwatch } = plan.entry {
        let mut join = format!("{{\"type\":\"join_tournament\",\"tournament\":{id}}}\n");
        if unwatch.is_some() {
            join += &format!("{{\"type\":\"unwatch_tournament\",\"tournament\":{id}}}\n");
        }
        wire.send(join.as_bytes()).await?;
    }
    let leave_at = match plan.entry {
        Entry::Tournament {
            unwatch: Some(after),
            ..
        } => Some(started + after),
        _ => None,
    };
    let queue = format!(
        "{{\"type\":\"queue\",\"ruleset\":\"{}\",\"seats\":2}}\n",
        plan.ruleset
    );
    let stop_at = plan.stop_after.map(|limit| started + limit);
    let mut report = LightReport::default();
    // Matches being played: when the last answer in each was sent, if one is pending.
    let mut playing: HashMap<i64, Option<Instant>> = HashMap::new();
    // Answers waiting for their thinking time, in the order they are due.
    let mut thinking: VecDeque<(Instant, i64)> = VecDeque::new();
    let mut queued = false;
    // The tournament is over (`tournament_ended`).
    let mut ended = false;
    // Since when the connection has had no match (after one ended).
    let mut idle_since: Option<Instant> = None;
    let mut rng = arbiter_engine::seeded_rng(plan.seed);
    let mut outgoing = Outgoing::default();
    loop {
        let out_of_time = stop_at.is_some_and(|at| Instant::now() >= at);
        if out_of_time {
            break;
        }
        match &plan.entry {
            Entry::Queue(seats) if !queued && (playing.len() as u32) < plan.at_once => {
                if seats.take() {
                    wire.send(queue.as_bytes()).await?;
                    queued = true;
                } else if playing.is_empty() {
                    break;
                }
            }
            Entry::Tournament { .. }
                if playing.is_empty()
                    && (ended || leave_at.is_some_and(|at| Instant::now() >= at)) =>
            {
                break
            }
            _ => {}
        }
        // No whole line left to read without waiting: send what was answered. (A
        // line cut off at the end of a read waits for the socket too, and the
        // server may be waiting for these answers before it sends the rest.)
        if !wire.line_waiting() {
            outgoing.send(&mut wire, &mut playing).await?;
        }
        let wake = thinking
            .front()
            .map(|&(due, _)| due)
            .into_iter()
            .chain(stop_at)
            // Only while ahead: once past, an outcome wakes the check.
            .chain(leave_at.filter(|&at| at > Instant::now()))
            .min();
        let line = match wake {
            Some(at) => {
                tokio::select! {
                    line = wire.next() => Some(line?),
                    () = tokio::time::sleep_until(at.into()) => None,
                }
            }
            None => Some(wire.next().await?),
        };
        while let Some(&(due, id)) = thinking.front() {
            if due > Instant::now() {
                break;
            }
            thinking.pop_front();
            outgoing.answer(&plan.answer, id, &playing, &mut report);
        }
        let Some(line) = line else { continue };
        let id = match_of(&line);
        if let Some(sent) = id
            .and_then(|id| playing.get_mut(&id))
            .and_then(Option::take)
        {
            report.round_trips.push(sent.elapsed().as_micros() as u64);
        }
        match (kind(&line), id) {
            ("match_started", Some(id)) => {
                queued = false;
                playing.insert(id, None);
                if let Some(since) = idle_since.take() {
                    report.waits.push(since.elapsed().as_micros() as u64);
                }
            }
            ("prompt", Some(id)) if playing.contains_key(&id) => {
                if plan.think.is_zero() {
                    outgoing.answer(&plan.answer, id, &playing, &mut report);
                } else {
                    let wait = plan.think.mul_f64(rng.random_range(0.5..1.5));
                    let due = Instant::now() + wait;
                    let at = thinking.partition_point(|&(other, _)| other <= due);
                    thinking.insert(at, (due, id));
                }
            }
            ("rejected", Some(_)) => report.rejected += 1,
            ("outcome", Some(id)) if playing.remove(&id).is_some() => {
                report.games += 1;
                if playing.is_empty() {
                    idle_since = Some(Instant::now());
                }
            }
            ("tournament", _) => {
                report.states += 1;
                report.state_bytes += line.len() as u64;
            }
            ("tournament_ended", _) => ended = true,
            ("aborted", Some(_)) => bail!("a match was aborted: {line}"),
            ("error", _) => bail!("the server refused: {line}"),
            _ => {}
        }
    }
    Ok(report)
}

type WsStream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One client connection, over TCP lines or WebSocket messages.
enum Wire {
    Tcp {
        lines: Lines<BufReader<OwnedReadHalf>>,
        write: OwnedWriteHalf,
    },
    Ws {
        socket: Box<WsStream>,
        /// A message [`Wire::line_waiting`] found already received, not yet read.
        early: Option<anyhow::Result<String>>,
    },
}

impl Wire {
    async fn connect(server: &str) -> anyhow::Result<Wire> {
        if server.starts_with("ws://") {
            // A small read buffer, as the server's: the default 128 KiB is zero-filled
            // before every read.
            let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
            let (socket, _) =
                tokio_tungstenite::connect_async_with_config(server, Some(config), true)
                    .await
                    .with_context(|| format!("cannot open a WebSocket to {server}"))?;
            return Ok(Wire::Ws {
                socket: Box::new(socket),
                early: None,
            });
        }
        let stream = TcpStream::connect(server)
            .await
            .with_context(|| format!("cannot connect to {server}"))?;
        stream.set_nodelay(true)?;
        let (read, write) = stream.into_split();
        Ok(Wire::Tcp {
            lines: BufReader::new(read).lines(),
            write,
        })
    }

    /// The next line (message) from the server. Cancel-safe, as `select!` needs: both
    /// `next_line` and a stream's `next` keep what they have read.
    async fn next(&mut self) -> anyhow::Result<String> {
        match self {
            Wire::Tcp { lines, .. } => match lines.next_line().await? {
                Some(line) => Ok(line),
                None => bail!("the server closed the connection"),
            },
            Wire::Ws { socket, early } => match early.take() {
                Some(message) => message,
                None => next_text(socket).await,
            },
        }
    }

    /// Whether a whole line (message) has arrived that [`Wire::next`] gives without
    /// waiting.
    fn line_waiting(&mut self) -> bool {
        match self {
            Wire::Tcp { lines, .. } => lines.get_ref().buffer().contains(&b'\n'),
            Wire::Ws { socket, early } => {
                if early.is_none() {
                    *early = next_text(socket).now_or_never();
                }
                early.is_some()
            }
        }
    }

    /// Send `lines` (each ending in a newline) in one write: over WebSocket, a text
    /// message each, flushed together.
    async fn send(&mut self, lines: &[u8]) -> anyhow::Result<()> {
        match self {
            Wire::Tcp { write, .. } => write.write_all(lines).await?,
            Wire::Ws { socket, .. } => {
                let text = std::str::from_utf8(lines)?;
                for line in text.lines() {
                    socket.feed(Message::Text(line.into())).await?;
                }
                socket.flush().await?;
            }
        }
        Ok(())
    }
}

/// The next text message (pings are answered by the codec as it reads).
async fn next_text(socket: &mut WsStream) -> anyhow::Result<String> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => return Ok(text.as_str().to_string()),
            Some(Ok(Message::Close(_))) | None => bail!("the server closed the connection"),
            Some(Ok(_)) => continue,
            Some(Err(error)) => return Err(error.into()),
        }
    }
}

/// Answers not yet written: the lines, and their matches, whose round trips start
/// when they are sent.
#[derive(Default)]
struct Outgoing {
    bytes: Vec<u8>,
    matches: Vec<i64>,
}

impl Outgoing {
    /// Answer a prompt of match `id` with `action` (nothing if the match is not played).
    fn answer(
        &mut self,
        action: &str,
        id: i64,
        playing: &HashMap<i64, Option<Instant>>,
        report: &mut LightReport,
    ) {
        if !playing.contains_key(&id) {
            return;
        }
        // Written into the pending bytes in place (a `Vec` takes writes infallibly).
        let _ = writeln!(
            self.bytes,
            "{{\"type\":\"act\",\"match\":{id},\"action\":{action}}}"
        );
        self.matches.push(id);
        report.decisions += 1;
    }

    /// Write every answer in one write, and start their round trips.
    async fn send(
        &mut self,
        wire: &mut Wire,
        playing: &mut HashMap<i64, Option<Instant>>,
    ) -> anyhow::Result<()> {
        if self.bytes.is_empty() {
            return Ok(());
        }
        wire.send(&self.bytes).await?;
        self.bytes.clear();
        let sent = Instant::now();
        for id in self.matches.drain(..) {
            if let Some(pending) = playing.get_mut(&id) {
                *pending = Some(sent);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tokio::net::TcpListener;

    use super::*;

    /// The client's next line that is not a request to queue.
    async fn next_answer(
        from_client: &mut Lines<BufReader<OwnedReadHalf>>,
    ) -> std::io::Result<String> {
        loop {
            let line = from_client.next_line().await?.unwrap_or_default();
            if !line.contains(r#""queue""#) {
                return Ok(line);
            }
        }
    }

    /// A plan for one connection to the pretend server at `listener`, drawing from a
    /// pool of `seats`.
    fn plan(listener: &TcpListener, at_once: u32, seats: &SeatPool) -> LightPlan {
        LightPlan {
            server: listener.local_addr().expect("an address").to_string(),
            session: "token".to_string(),
            ruleset: "spacegoo".to_string(),
            entry: Entry::Queue(seats.clone()),
            at_once,
            answer: r#""nop""#.to_string(),
            think: Duration::ZERO,
            seed: 1,
            stop_after: None,
            connecting: Arc::new(Semaphore::new(1)),
        }
    }

    type FromClient = Lines<BufReader<OwnedReadHalf>>;

    /// The pretend server's side of a connection up to the client's first request to
    /// queue.
    async fn queued(listener: &TcpListener) -> anyhow::Result<(FromClient, OwnedWriteHalf)> {
        let (stream, _) = listener.accept().await?;
        let (read, mut write) = stream.into_split();
        let mut from_client = BufReader::new(read).lines();
        write.write_all(b"{\"type\":\"welcome\"}\n").await?;
        let resume = from_client.next_line().await?.unwrap_or_default();
        assert!(resume.contains(r#""resume""#), "{resume}");
        write.write_all(b"{\"type\":\"logged_in\"}\n").await?;
        let queue = from_client.next_line().await?.unwrap_or_default();
        assert!(queue.contains(r#""queue""#), "{queue}");
        Ok((from_client, write))
    }

    /// Run the pretend server's side to its end, then take the client's report. The
    /// bounds only turn a hang into a failure.
    async fn both_done(
        server: impl std::future::Future<Output = anyhow::Result<()>>,
        client: tokio::task::JoinHandle<anyhow::Result<LightReport>>,
    ) -> LightReport {
        tokio::time::timeout(Duration::from_secs(60), server)
            .await
            .expect("the pretend server's side ended")
            .expect("the pretend server ran");
        tokio::time::timeout(Duration::from_secs(60), client)
            .await
            .expect("the client finished")
            .expect("the client task")
            .expect("the client played")
    }

    /// A pretend server over loopback: the light client's answer to one match must
    /// leave while the next line (another match's prompt) is still arriving, since the
    /// server may send the rest only after that answer.
    #[tokio::test]
    async fn answers_leave_while_a_line_is_cut_off_at_the_end_of_a_read() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let seats = SeatPool::new(2);
        let client = tokio::spawn(play(plan(&listener, 2, &seats)));
        let server = async {
            let (mut from_client, mut write) = queued(&listener).await?;
            // Two matches start and the first is prompted; the second prompt is cut off.
            write
                .write_all(
                    b"{\"type\":\"match_started\",\"match\":1}\n\
                      {\"type\":\"match_started\",\"match\":2}\n\
                      {\"type\":\"prompt\",\"match\":1}\n\
                      {\"type\":\"prompt\",\"ma",
                )
                .await?;
            let answer = next_answer(&mut from_client).await?;
            assert!(answer.contains(r#""act","match":1"#), "{answer}");
            write.write_all(b"tch\":2}\n").await?;
            let answer = next_answer(&mut from_client).await?;
            assert!(answer.contains(r#""act","match":2"#), "{answer}");
            write
                .write_all(
                    b"{\"type\":\"outcome\",\"match\":1}\n\
                      {\"type\":\"outcome\",\"match\":2}\n",
                )
                .await?;
            anyhow::Ok(())
        };
        let report = both_done(server, client).await;
        assert_eq!((report.decisions, report.games), (2, 2));
        assert_eq!(seats.left(), 0);
    }

    /// Games come from the run's shared pool: a connection that finds it empty, with
    /// no match of its own left, leaves without queueing (with a share of its own it
    /// would wait for a partner who may never come).
    #[tokio::test]
    async fn a_connection_leaves_once_the_shared_pool_is_empty() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let seats = SeatPool::new(1);
        let client = tokio::spawn(play(plan(&listener, 4, &seats)));
        let server = async {
            let (mut from_client, mut write) = queued(&listener).await?;
            write
                .write_all(
                    b"{\"type\":\"match_started\",\"match\":7}\n\
                      {\"type\":\"outcome\",\"match\":7}\n",
                )
                .await?;
            // The pool held one seat, so the client has nothing more to ask for.
            let after = from_client.next_line().await?;
            assert_eq!(after, None, "the client closes instead of queueing again");
            anyhow::Ok(())
        };
        let report = both_done(server, client).await;
        assert_eq!(report.games, 1);
    }

    /// Over WebSocket (`ws://…`) every line is a text message each way: the client's
    /// answers to two matches are two messages, each one action without a newline.
    #[tokio::test]
    async fn over_websocket_each_answer_is_its_own_text_message() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let seats = SeatPool::new(2);
        let mut plan = plan(&listener, 2, &seats);
        plan.server = format!("ws://{}/ws", plan.server);
        let client = tokio::spawn(play(plan));
        let server = async {
            let (stream, _) = listener.accept().await?;
            let mut socket = tokio_tungstenite::accept_async(stream).await?;
            let text = async |socket: &mut WebSocketStream<TcpStream>| -> anyhow::Result<String> {
                match socket.next().await {
                    Some(Ok(Message::Text(text))) => Ok(text.as_str().to_string()),
                    other => bail!("expected a text message, got {other:?}"),
                }
            };
            socket.send(Message::text(r#"{"type":"welcome"}"#)).await?;
            assert!(text(&mut socket).await?.contains(r#""resume""#));
            socket
                .send(Message::text(r#"{"type":"logged_in"}"#))
                .await?;
            assert!(text(&mut socket).await?.contains(r#""queue""#));
            for line in [
                r#"{"type":"match_started","match":1}"#,
                r#"{"type":"match_started","match":2}"#,
                r#"{"type":"prompt","match":1}"#,
                r#"{"type":"prompt","match":2}"#,
            ] {
                socket.send(Message::text(line)).await?;
            }
            let mut answers = Vec::new();
            while answers.len() < 2 {
                let message = text(&mut socket).await?;
                if !message.contains(r#""queue""#) {
                    answers.push(message);
                }
            }
            assert_eq!(
                answers,
                [
                    r#"{"type":"act","match":1,"action":"nop"}"#,
                    r#"{"type":"act","match":2,"action":"nop"}"#
                ]
            );
            for line in [
                r#"{"type":"outcome","match":1}"#,
                r#"{"type":"outcome","match":2}"#,
            ] {
                socket.send(Message::text(line)).await?;
            }
            anyhow::Ok(())
        };
        let report = both_done(server, client).await;
        assert_eq!((report.decisions, report.games), (2, 2));
    }

    /// An arena's client joins once instead of queueing, plays the games the director
    /// starts one after the other, and leaves at `tournament_ended`.
    #[tokio::test]
    async fn an_arena_client_joins_plays_each_game_and_leaves_at_the_end() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let mut plan = plan(&listener, 1, &SeatPool::new(0));
        plan.entry = Entry::Tournament {
            id: 9,
            unwatch: None,
        };
        let client = tokio::spawn(play(plan));
        let server = async {
            let (stream, _) = listener.accept().await?;
            let (read, mut write) = stream.into_split();
            let mut from_client = BufReader::new(read).lines();
            write.write_all(b"{\"type\":\"welcome\"}\n").await?;
            from_client.next_line().await?;
            write.write_all(b"{\"type\":\"logged_in\"}\n").await?;
            let join = from_client.next_line().await?.unwrap_or_default();
            assert_eq!(join, r#"{"type":"join_tournament","tournament":9}"#);
            for id in [1, 2] {
                write
                    .write_all(
                        format!(
                            "{{\"type\":\"match_started\",\"match\":{id},\"tournament\":9}}\n\
                             {{\"type\":\"prompt\",\"match\":{id}}}\n"
                        )
                        .as_bytes(),
                    )
                    .await?;
                let answer = from_client.next_line().await?.unwrap_or_default();
                assert!(answer.contains(&format!(r#""match":{id}"#)), "{answer}");
                write
                    .write_all(
                        format!(
                            "{{\"type\":\"tournament\",\"tournament\":9,\"games\":[{{\"match\":{id}}}]}}\n\
                             {{\"type\":\"outcome\",\"match\":{id}}}\n"
                        )
                        .as_bytes(),
                    )
                    .await?;
            }
            write
                .write_all(b"{\"type\":\"tournament_ended\",\"tournament\":9}\n")
                .await?;
            let after = from_client.next_line().await?;
            assert_eq!(after, None, "the client closes at the tournament's end");
            anyhow::Ok(())
        };
        let report = both_done(server, client).await;
        assert_eq!((report.decisions, report.games), (2, 2));
        // The wait between the two games is counted, not the one before the first.
        assert_eq!((report.round_trips.len(), report.waits.len()), (2, 1));
    }

    #[test]
    fn reads_the_type_and_the_match_from_the_line() {
        let line = r#"{"type":"prompt","match":42,"step":3,"turn":{"seats":[0]}}"#;
        assert_eq!(kind(line), "prompt");
        assert_eq!(match_id(line), Some(42));
        assert_eq!(kind("not json"), "");
        assert_eq!(match_id(r#"{"type":"welcome"}"#), None);
        assert_eq!(match_of(line), Some(42));
        let state = r#"{"type":"tournament","tournament":9,"games":[{"game":1,"match":42}]}"#;
        assert_eq!(match_of(state), None);
    }
}

//! A bot playing as an ordinary network client: log in, queue, answer every prompt
//! from the seat's view alone, repeat for a number of games. `arbiter bot` and the load
//! benchmark both run this loop.
//!
//! A bot outlives its server's restarts: when the connection is lost (or the server
//! says `server_restarting`) it connects again with capped, jittered backoff, logs in,
//! and its seats resume where the server's matches are, each answer naming the step of
//! the prompt it answers so that nothing late lands on a later decision.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use serde_json::{json, Value};

use crate::client::backoff::Backoff;
use crate::client::{Connection, Games};

/// How long `arbiter bot` keeps trying to reach its server again after losing it.
pub const DEFAULT_RECONNECT_FOR: Duration = Duration::from_secs(120);

/// Refusals of a queue request (or of queueing again after the matchmaker went away)
/// that a moment may mend: the bot queues again, after a pause that grows.
const QUEUE_AGAIN_AFTER: [&str; 4] = [
    "node_unreachable",
    "not_matchmaker",
    "server_restarting",
    "internal",
];

/// Chooses an action from what a seat sees.
pub trait Decider: Send {
    fn decide(&mut self, view: &Value, seat: usize) -> Result<Value, String>;

    /// Whether deciding takes long enough to belong on the blocking pool (a search, a
    /// state rebuilt from the view). One that answers in microseconds decides in place:
    /// a thread hand-off would cost more than the decision.
    fn thinks(&self) -> bool {
        true
    }

    /// How long to take over the next decision before answering, on Tokio's clock: a
    /// pace like a person's, or for players on paused time (tests), where a bot that
    /// answers at once plays game after game without its clock ever moving. Nothing by
    /// default: a bot answers as soon as it has decided.
    fn pause(&mut self) -> Duration {
        Duration::ZERO
    }
}

/// Builds a decider for a match from its full configuration and a seed.
pub type DeciderFactory = Box<dyn FnMut(&Value, u64) -> Result<Box<dyn Decider>, String> + Send>;

/// What to play.
#[derive(Debug, Clone)]
pub struct BotPlan {
    /// A session token to resume instead of logging in with the password (no password
    /// hash to check, as a page reload does).
    pub session: Option<String>,
    pub server: String,
    pub ruleset: String,
    pub name: String,
    pub password: String,
    pub games: Games,
    /// Sent with `queue` (null: the ruleset's defaults).
    pub config: Value,
    pub seats: Option<usize>,
    /// How long to keep trying to reach the server again after losing it (a restart, a
    /// dropped connection), with capped exponential backoff and jitter. Zero: a lost
    /// connection ends the run with an error.
    pub reconnect_for: Duration,
    /// How long to wait in the queue for each match before giving up with an error
    /// (`None`: as long as it takes). Not for a tournament, whose director pairs.
    pub queue_wait: Option<Duration>,
}

/// One finished game as the bot saw it.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub match_id: i64,
    pub seat: usize,
    pub rank: u32,
    pub winners: usize,
    pub ejected: Option<String>,
    pub decisions: u64,
}

#[derive(Debug, Default)]
pub struct BotReport {
    pub games: Vec<GameResult>,
    /// For every action sent: the time until the next message of that match arrived.
    pub round_trips: Vec<Duration>,
    /// Actions refused by the referee.
    pub rejected: u64,
    /// Matches the server stopped without an outcome, with its reason.
    pub aborted: Vec<(i64, String)>,
    /// Matches that ended while the bot was away (it came back and they were over).
    pub missed: Vec<i64>,
    /// How many times the bot connected again after losing its server.
    pub reconnections: u32,
}

struct Seat {
    seat: usize,
    decider: Option<Box<dyn Decider>>,
    view: Option<(u64, Value)>,
    /// The step of the latest prompt not yet answered.
    prompt: Option<u64>,
    /// When the last action was sent, until the next message of the match.
    sent: Option<Instant>,
    decisions: u64,
    retries: u32,
}

/// Play the games of `plan.games` and report.
pub async fn play(plan: &BotPlan, mut make: DeciderFactory) -> anyhow::Result<BotReport> {
    // A bot started while its server is down or restarting waits for it, as it would
    // after losing it.
    let (connection, resumed) = match sign_in(plan).await {
        Ok(signed_in) => signed_in,
        Err(error) if !plan.reconnect_for.is_zero() && !is_permanent(&error) => {
            come_back(plan, error, Duration::ZERO).await?
        }
        Err(error) => return Err(error),
    };
    let mut run = Run::new(connection, resumed.len());
    while !run.done(plan) {
        let request = run.next_request(plan).await;
        let (lost, wait) = match run.exchange(plan, request).await? {
            Ok(message) if message["type"] == "server_restarting" => {
                let wait = Duration::from_millis(message["retry_after_ms"].as_u64().unwrap_or(0));
                (anyhow!("the server is restarting"), wait)
            }
            Ok(message) => {
                let handled = handle(
                    plan,
                    &mut make,
                    &mut run.connection,
                    &mut run.report,
                    &mut run.seats,
                    message,
                )
                .await?;
                match handled {
                    Handled::Go(went) => {
                        run.went(went);
                        continue;
                    }
                    Handled::Lost(lost) => (lost, Duration::ZERO),
                }
            }
            Err(lost) => (lost, Duration::ZERO),
        };
        // The server went away: come back, and play on where its matches are.
        let (again, resumed) = come_back(plan, lost, wait).await?;
        run.came_back(again, &resumed);
    }
    Ok(run.report)
}

/// Where a bot's run stands between two messages.
struct Run {
    connection: Connection,
    report: BotReport,
    /// The matches it plays, by id.
    seats: HashMap<i64, Seat>,
    /// Seats held from before (a reconnect), played before queueing again.
    resumed_to_come: usize,
    queued: bool,
    /// When the bot last asked to queue, and how many queue requests in a row failed.
    queued_at: tokio::time::Instant,
    queue_failures: u32,
    /// A tournament's bot: whether it has asked to join, and whether the tournament is
    /// over.
    entered: bool,
    tournament_over: bool,
}

impl Run {
    fn new(connection: Connection, resumed: usize) -> Run {
        Run {
            connection,
            report: BotReport::default(),
            seats: HashMap::new(),
            resumed_to_come: resumed,
            queued: false,
            queued_at: tokio::time::Instant::now(),
            queue_failures: 0,
            entered: false,
            tournament_over: false,
        }
    }

    /// Neither queued nor playing nor owed a resumed seat.
    fn idle(&self) -> bool {
        !self.queued && self.seats.is_empty() && self.resumed_to_come == 0
    }

    /// Whether the plan's games are all played.
    fn done(&self, plan: &BotPlan) -> bool {
        let report = &self.report;
        let finished = (report.games.len() + report.aborted.len() + report.missed.len()) as u32;
        match &plan.games {
            Games::Exactly(games) => finished >= *games,
            Games::FromPool(pool) => self.idle() && !pool.take(),
            Games::Tournament(_) => self.tournament_over && self.seats.is_empty(),
        }
    }

    /// What to ask the server now, if anything: to join the tournament (once a
    /// connection), or, idle, to queue (after a growing pause if the queue refused).
    async fn next_request(&mut self, plan: &BotPlan) -> Option<Value> {
        if let Games::Tournament(id) = plan.games {
            // No queue: the tournament pairs the bot, and its games come as
            // `match_started`. Joining again (after a reconnect) is answered
            // `already_entered`, and makes this connection watch the tournament.
            if self.entered {
                return None;
            }
            self.entered = true;
            return Some(json!({"type": "join_tournament", "tournament": id}));
        }
        if !self.idle() {
            return None;
        }
        if self.queue_failures > 0 {
            // 0.5 s doubling to 8 s: the matchmaker is changing hands, or away.
            let pause = Duration::from_millis(250 << self.queue_failures.min(5));
            tokio::time::sleep(pause).await;
        }
        self.queued_at = tokio::time::Instant::now();
        self.queued = true;
        let mut queue = json!({"type": "queue", "ruleset": plan.ruleset, "config": plan.config});
        if let Some(n) = plan.seats {
            queue["seats"] = json!(n);
        }
        Some(queue)
    }

    /// Send `request` (if any) and take the next message. The outer error ends the run
    /// (a queue wait past `plan.queue_wait`); the inner one is a lost connection.
    async fn exchange(
        &mut self,
        plan: &BotPlan,
        request: Option<Value>,
    ) -> anyhow::Result<anyhow::Result<Value>> {
        if let Some(request) = request {
            if let Err(lost) = self.connection.send(&request).await {
                return Ok(Err(lost));
            }
        }
        match plan.queue_wait {
            Some(limit) if self.queued => {
                let left = limit.saturating_sub(self.queued_at.elapsed());
                match tokio::time::timeout(left, self.connection.recv()).await {
                    Ok(received) => Ok(received),
                    Err(_) => bail!(
                        "no {} match began within {limit:?} in the queue (nobody \
                         else waiting?); try again later, or wait longer (--wait)",
                        plan.ruleset,
                    ),
                }
            }
            _ => Ok(self.connection.recv().await),
        }
    }

    /// What a handled message changed: a match started, seats taken up, the
    /// tournament over, the queue refused.
    fn went(&mut self, went: Went) {
        if went.started {
            self.queue_failures = 0;
        }
        if self.queued && went.queue_refused {
            self.queue_failures += 1;
            self.queued = false;
        }
        self.queued &= !went.started;
        self.resumed_to_come = self.resumed_to_come.saturating_sub(went.resumed);
        self.tournament_over |= went.tournament_ended;
    }

    /// Back on a new connection, which resumed the seats of `resumed`: a match not among
    /// them ended while the bot was away (`missed`).
    fn came_back(&mut self, connection: Connection, resumed: &[i64]) {
        self.connection = connection;
        self.report.reconnections += 1;
        self.queued = false;
        self.entered = false;
        for (id, seat) in self.seats.iter_mut() {
            seat.prompt = None;
            seat.sent = None;
            if !resumed.contains(id) {
                self.report.missed.push(*id);
            }
        }
        self.seats.retain(|id, _| resumed.contains(id));
        self.resumed_to_come = resumed
            .iter()
            .filter(|id| !self.seats.contains_key(id))
            .count();
    }
}

/// What one message from the server came to.
enum Handled {
    Go(Went),
    /// Writing to the server failed: it is gone.
    Lost(anyhow::Error),
}

/// What a message changed for the run.
struct Went {
    /// A match started for the bot (it is no longer queued).
    started: bool,
    /// Seats resumed from before that this run took up.
    resumed: usize,
    tournament_ended: bool,
    /// The server could not queue the bot just now (see [`QUEUE_AGAIN_AFTER`]).
    queue_refused: bool,
}

/// Take one message from the server: start, follow and answer the bot's matches.
async fn handle(
    plan: &BotPlan,
    make: &mut DeciderFactory,
    connection: &mut Connection,
    report: &mut BotReport,
    seats: &mut HashMap<i64, Seat>,
    message: Value,
) -> anyhow::Result<Handled> {
    let mut went = Went {
        started: false,
        resumed: 0,
        tournament_ended: false,
        queue_refused: false,
    };
    let kind = message["type"].as_str().unwrap_or("");
    let match_id = message["match"].as_i64();
    if let Some(seat) = match_id.and_then(|id| seats.get_mut(&id)) {
        if let Some(sent) = seat.sent.take() {
            report.round_trips.push(sent.elapsed());
        }
    }
    let mut act = None;
    match (kind, match_id) {
        ("match_started", Some(id)) => {
            went.started = true;
            let seat = message["seat"].as_u64().unwrap_or(0) as usize;
            let decider = make(&message["config"], id as u64 ^ (seat as u64) << 32)
                .map_err(|e| anyhow!("no {} player for this match: {e}", plan.ruleset))?;
            seats.insert(id, new_seat(seat, Some(decider)));
        }
        ("joined", Some(id)) => {
            // A resumed seat (after a reconnect) that this run did not start.
            if let (false, Some(seat)) = (seats.contains_key(&id), message["seat"].as_u64()) {
                let decider = make(&message["config"], id as u64).ok();
                seats.insert(id, new_seat(seat as usize, decider));
                went.resumed += 1;
            }
        }
        ("view", Some(id)) => {
            if let Some(seat) = seats.get_mut(&id) {
                seat.view = Some((
                    message["step"].as_u64().unwrap_or(0),
                    message["view"].clone(),
                ));
                act = answer(id, seat).await?;
            }
        }
        ("prompt", Some(id)) => {
            if let Some(seat) = seats.get_mut(&id) {
                seat.prompt = message["step"].as_u64();
                seat.retries = 0;
                act = answer(id, seat).await?;
            }
        }
        ("rejected", Some(id)) => {
            report.rejected += 1;
            tracing::warn!(match_id = id, %message, "action refused");
            let code = message["code"].as_str().unwrap_or("");
            if let Some(seat) = seats.get_mut(&id) {
                // Try again (a random player may well choose differently), unless the
                // answer was for a decision that is over: the next prompt says what
                // is owed now.
                let over = matches!(code, "not_your_turn" | "stale_answer" | "bad_step");
                if !over && seat.retries < 3 {
                    seat.retries += 1;
                    seat.prompt = seat.view.as_ref().map(|(step, _)| *step);
                    act = answer(id, seat).await?;
                }
            }
        }
        ("outcome", Some(id)) => {
            if let Some(seat) = seats.remove(&id) {
                let outcome = &message["outcome"];
                let ranks: Vec<u64> = outcome["ranks"]
                    .as_array()
                    .map(|r| r.iter().filter_map(Value::as_u64).collect())
                    .unwrap_or_default();
                report.games.push(GameResult {
                    match_id: id,
                    seat: seat.seat,
                    rank: ranks.get(seat.seat).copied().unwrap_or(0) as u32,
                    winners: ranks.iter().filter(|&&r| r == 1).count(),
                    ejected: outcome["ejected"][seat.seat].as_str().map(str::to_string),
                    decisions: seat.decisions,
                });
            }
        }
        ("aborted", Some(id)) if seats.remove(&id).is_some() => {
            let reason = message["reason"].as_str().unwrap_or("no reason given");
            tracing::warn!(match_id = id, reason, "match aborted");
            report.aborted.push((id, reason.to_string()));
        }
        // Entered before (a restarted bot): it goes on playing the tournament.
        ("error", _) if message["code"] == "already_entered" => {}
        ("tournament_ended", _) if message["tournament"].as_i64() == tournament_of(&plan.games) => {
            went.tournament_ended = true;
        }
        ("error", _) => {
            let code = message["code"].as_str().unwrap_or("");
            match code {
                // The tournament would not take the bot: nothing to play.
                "no_such_tournament" | "tournament_full" | "tournament_started"
                | "tournament_over"
                    if matches!(plan.games, Games::Tournament(_)) =>
                {
                    bail!("the tournament refused the bot: {message}")
                }
                // The server has given up on this client.
                "too_many_errors" | "line_too_long" => {
                    bail!("the server closed the session: {message}")
                }
                _ if QUEUE_AGAIN_AFTER.contains(&code) => {
                    tracing::warn!(%message, "server error; queueing again if it was the queue");
                    went.queue_refused = true;
                }
                _ => tracing::warn!(%message, "server error"),
            }
        }
        _ => {}
    }
    if let Some(act) = act {
        if let Err(lost) = connection.send(&act).await {
            return Ok(Handled::Lost(lost));
        }
    }
    Ok(Handled::Go(went))
}

/// Connect and log in (with the session, if the plan has one); the matches whose seats
/// resume.
async fn sign_in(plan: &BotPlan) -> anyhow::Result<(Connection, Vec<i64>)> {
    let mut connection = Connection::connect(&plan.server).await?;
    let resumed = match &plan.session {
        Some(session) => connection.resume(session).await,
        None => {
            connection
                .login_or_register(&plan.name, &plan.password)
                .await
        }
    }
    .with_context(|| format!("cannot log in as {}", plan.name))?;
    Ok((connection, resumed))
}

/// Reach the server again after losing it (`lost` says how), first waiting `wait` (the
/// server's hint), then with capped exponential backoff and jitter, for at most
/// `plan.reconnect_for`. The error says why it gave up.
async fn come_back(
    plan: &BotPlan,
    lost: anyhow::Error,
    wait: Duration,
) -> anyhow::Result<(Connection, Vec<i64>)> {
    if plan.reconnect_for.is_zero() {
        return Err(lost.context("lost the server"));
    }
    tracing::warn!(reason = %lost, "lost the server; connecting again");
    let give_up = tokio::time::Instant::now() + plan.reconnect_for;
    tokio::time::sleep(wait.min(plan.reconnect_for)).await;
    let mut backoff = Backoff::default();
    loop {
        match sign_in(plan).await {
            Ok(signed_in) => {
                tracing::info!(resumed = ?signed_in.1, "reconnected");
                return Ok(signed_in);
            }
            Err(error) if is_permanent(&error) => return Err(error),
            Err(error) if tokio::time::Instant::now() >= give_up => {
                bail!(
                    "lost the server ({lost}) and could not reach {} again within {} s: {error:#}",
                    plan.server,
                    plan.reconnect_for.as_secs()
                )
            }
            Err(error) => {
                tracing::debug!(%error, "not back yet");
                let next = backoff.next_wait();
                let left = give_up.saturating_duration_since(tokio::time::Instant::now());
                tokio::time::sleep(next.min(left)).await;
            }
        }
    }
}

/// A sign-in refused for what the bot asked (a wrong password, a name taken or not
/// allowed): trying again cannot help. Anything else (no server, a server stopping,
/// its database or another node away for a moment) may mend.
fn is_permanent(error: &anyhow::Error) -> bool {
    const PERMANENT: [&str; 4] = ["bad_credentials", "name_taken", "bad_name", "bad_password"];
    let said = format!("{error:#}");
    // The refusal's code is in the message, as `"code":"…"` or as `code: message`.
    PERMANENT.iter().any(|code| said.contains(code))
}

fn tournament_of(games: &Games) -> Option<i64> {
    match games {
        Games::Tournament(id) => Some(*id),
        _ => None,
    }
}

fn new_seat(seat: usize, decider: Option<Box<dyn Decider>>) -> Seat {
    Seat {
        seat,
        decider,
        view: None,
        prompt: None,
        sent: None,
        decisions: 0,
        retries: 0,
    }
}

/// The answer to send if a prompt is open and the view it is about has arrived, after
/// the decider's pause (if any); it names the prompt's step. Search bots think on the
/// blocking pool so the connection's runtime stays free.
async fn answer(match_id: i64, seat: &mut Seat) -> anyhow::Result<Option<Value>> {
    let (Some(prompt), Some((step, view))) = (seat.prompt, seat.view.as_ref()) else {
        return Ok(None);
    };
    if prompt != *step {
        return Ok(None);
    }
    let Some(mut decider) = seat.decider.take() else {
        return Ok(None);
    };
    let pause = decider.pause();
    if !pause.is_zero() {
        tokio::time::sleep(pause).await;
    }
    let index = seat.seat;
    let (decider, action) = if decider.thinks() {
        let view = view.clone();
        tokio::task::spawn_blocking(move || {
            let action = decider.decide(&view, index);
            (decider, action)
        })
        .await
        .context("the bot crashed")?
    } else {
        let action = decider.decide(view, index);
        (decider, action)
    };
    seat.decider = Some(decider);
    seat.prompt = None;
    match action {
        Ok(action) => {
            seat.decisions += 1;
            seat.sent = Some(Instant::now());
            Ok(Some(
                json!({"type": "act", "match": match_id, "step": prompt, "action": action}),
            ))
        }
        Err(reason) => {
            tracing::warn!(match_id, %reason, "the bot found no action; the deadline will decide");
            Ok(None)
        }
    }
}

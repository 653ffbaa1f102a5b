//! The benchmark's light client: a native-protocol player that costs next to nothing,
//! so the benchmark measures the server. It reads lines as text and looks only at what
//! it needs: a `prompt` is answered with one fixed action, written once; `match_started`
//! and `outcome` are counted. One connection may play several matches at once (as a
//! bot author's client may), which keeps 10,000 matches within the machine's limit on
//! open files.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use rand::Rng;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

/// What one light connection plays.
pub struct LightPlan {
    pub server: String,
    pub session: String,
    pub ruleset: String,
    /// Games to finish before stopping.
    pub games: u32,
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

#[derive(Default)]
pub struct LightReport {
    pub decisions: u64,
    pub games: u64,
    pub rejected: u64,
    /// Microseconds from an answer's last byte written to the next line of that match.
    pub round_trips: Vec<u64>,
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

pub async fn play(plan: LightPlan) -> anyhow::Result<LightReport> {
    let permit = plan.connecting.acquire().await?;
    let started = Instant::now();
    let stream = TcpStream::connect(&plan.server)
        .await
        .with_context(|| format!("cannot connect to {}", plan.server))?;
    stream.set_nodelay(true)?;
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let welcome = tokio::time::timeout(Duration::from_secs(30), next(&mut lines))
        .await
        .context("no welcome within 30 s")??;
    if kind(&welcome) != "welcome" {
        bail!("not an Arbiter server: {welcome}");
    }
    let resume = format!("{{\"type\":\"resume\",\"session\":\"{}\"}}\n", plan.session);
    write.write_all(resume.as_bytes()).await?;
    let reply = next(&mut lines).await?;
    if kind(&reply) != "logged_in" {
        bail!("resume refused: {reply}");
    }
    drop(permit);
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
    let (mut queued, mut started_games) = (false, 0u32);
    let mut rng = arbiter_engine::seeded_rng(plan.seed);
    loop {
        let out_of_time = stop_at.is_some_and(|at| Instant::now() >= at);
        if report.games >= plan.games as u64 || out_of_time {
            break;
        }
        if !queued && (playing.len() as u32) < plan.at_once && started_games < plan.games {
            write.write_all(queue.as_bytes()).await?;
            queued = true;
        }
        let wake = thinking
            .front()
            .map(|&(due, _)| due)
            .into_iter()
            .chain(stop_at)
            .min();
        let line = match wake {
            Some(at) => {
                tokio::select! {
                    line = next(&mut lines) => Some(line?),
                    () = tokio::time::sleep_until(at.into()) => None,
                }
            }
            None => Some(next(&mut lines).await?),
        };
        while let Some(&(due, id)) = thinking.front() {
            if due > Instant::now() {
                break;
            }
            thinking.pop_front();
            answer(&mut write, &plan.answer, id, &mut playing, &mut report).await?;
        }
        let Some(line) = line else { continue };
        let id = match_id(&line);
        if let Some(sent) = id
            .and_then(|id| playing.get_mut(&id))
            .and_then(Option::take)
        {
            report.round_trips.push(sent.elapsed().as_micros() as u64);
        }
        match (kind(&line), id) {
            ("match_started", Some(id)) => {
                queued = false;
                started_games += 1;
                playing.insert(id, None);
            }
            ("prompt", Some(id)) if playing.contains_key(&id) => {
                if plan.think.is_zero() {
                    answer(&mut write, &plan.answer, id, &mut playing, &mut report).await?;
                } else {
                    let wait = plan.think.mul_f64(rng.random_range(0.5..1.5));
                    let due = Instant::now() + wait;
                    let at = thinking.partition_point(|&(other, _)| other <= due);
                    thinking.insert(at, (due, id));
                }
            }
            ("rejected", Some(_)) => report.rejected += 1,
            ("outcome", Some(id)) if playing.remove(&id).is_some() => report.games += 1,
            ("aborted", Some(_)) => bail!("a match was aborted: {line}"),
            ("error", _) => bail!("the server refused: {line}"),
            _ => {}
        }
    }
    Ok(report)
}

async fn next(lines: &mut Lines<BufReader<OwnedReadHalf>>) -> anyhow::Result<String> {
    match lines.next_line().await? {
        Some(line) => Ok(line),
        None => bail!("the server closed the connection"),
    }
}

async fn answer(
    write: &mut OwnedWriteHalf,
    action: &str,
    id: i64,
    playing: &mut HashMap<i64, Option<Instant>>,
    report: &mut LightReport,
) -> anyhow::Result<()> {
    if !playing.contains_key(&id) {
        return Ok(());
    }
    let act = format!("{{\"type\":\"act\",\"match\":{id},\"action\":{action}}}\n");
    write.write_all(act.as_bytes()).await?;
    report.decisions += 1;
    playing.insert(id, Some(Instant::now()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_type_and_the_match_from_the_line() {
        let line = r#"{"type":"prompt","match":42,"step":3,"turn":{"seats":[0]}}"#;
        assert_eq!(kind(line), "prompt");
        assert_eq!(match_id(line), Some(42));
        assert_eq!(kind("not json"), "");
        assert_eq!(match_id(r#"{"type":"welcome"}"#), None);
    }
}

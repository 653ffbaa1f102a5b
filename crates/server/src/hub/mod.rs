//! The server's shared state and the lobby's operations on it: queues, tables, and
//! turning a group of players into a running match.

pub mod play;
pub mod resume;
pub mod start;
pub mod tournaments;

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::Registry;
use arbiter_rulesets::Ruleset;
use arbiter_store::{AccountId, Store};
use serde_json::Value;
use tokio::time::Instant;

use crate::config::Config;
use crate::connection::addresses::AddressCounts;
use crate::connection::{ConnId, Outbox};
use crate::hub::tournaments::Tournaments;
use crate::lobby::matchmaking::{Matchmaking, QueueKey, Waiting};
use crate::lobby::online::Online;
use crate::lobby::tables::{Left, Occupant, Table, Tables};
use crate::matches::{MatchClock, Matches, Player};
use crate::mesh::asks::{Ask, QueuedSeat, RemoteConn};
use crate::mesh::link::Mesh;
use crate::metrics::Metrics;
use crate::protocol::messages::RulesetInfo;
use crate::protocol::ClientMessage;
use crate::protocol::Refusal;
use crate::protocol::ServerMessage;

pub struct Hub {
    pub config: Config,
    pub store: Store,
    pub rulesets: Vec<Ruleset>,
    /// The same rulesets for replays.
    pub registry: Registry,
    pub metrics: Arc<Metrics>,
    pub matches: Matches,
    pub matchmaking: Matchmaking,
    pub tables: Tables,
    /// Logged-in connections by account (how a tournament's pairing reaches a player).
    pub online: Online,
    /// Tournaments' directors and watchers on this node.
    pub tournaments: Tournaments,
    /// Connections per client address (TCP and WebSocket together).
    pub addresses: Arc<AddressCounts>,
    /// The other nodes of the deployment, when this node is joined to them (`--nats`).
    pub mesh: Option<Arc<Mesh>>,
    /// When this process started (Unix milliseconds): with the node's name, this
    /// incarnation of the node (the oldest live one holds a deployment's lobby).
    pub started_at: i64,
    /// Wakes the heartbeat task to look for silent nodes' matches now (a node of the
    /// deployment said it stopped), rather than at its next beat.
    pub sweep_now: tokio::sync::Notify,
}

/// A seat of a match about to start: who plays it and, for a person, where to tell it.
pub struct SeatPlan {
    pub player: Player,
    pub outbox: Option<Outbox>,
}

impl Hub {
    pub fn new(config: Config, store: Store) -> Hub {
        Hub {
            config,
            rulesets: arbiter_rulesets::all(),
            registry: arbiter_rulesets::registry(),
            metrics: Arc::new(Metrics::new(store.log_commits())),
            store,
            matches: Matches::default(),
            matchmaking: Matchmaking::default(),
            tables: Tables::default(),
            online: Online::default(),
            tournaments: Tournaments::default(),
            addresses: Arc::default(),
            mesh: None,
            started_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| since.as_millis() as i64),
            sweep_now: tokio::sync::Notify::new(),
        }
    }

    /// This node, joined to the others of its deployment through `mesh`.
    pub fn with_mesh(mut self, mesh: Arc<Mesh>) -> Hub {
        self.mesh = Some(mesh);
        self
    }

    pub fn ruleset(&self, id: &str) -> Result<&Ruleset, Refusal> {
        self.rulesets.iter().find(|r| r.id() == id).ok_or_else(|| {
            let known: Vec<&str> = self.rulesets.iter().map(|r| r.id()).collect();
            Refusal::new(
                "unknown_ruleset",
                format!(
                    "unknown ruleset {id:?}; this server has {}",
                    known.join(", ")
                ),
            )
        })
    }

    pub fn ruleset_infos(&self) -> Vec<RulesetInfo> {
        self.rulesets
            .iter()
            .map(|r| {
                let seats = r
                    .game
                    .seat_counts(&Value::Null)
                    .map(|s| [*s.start(), *s.end()])
                    .unwrap_or([0, 0]);
                RulesetInfo {
                    id: r.id().to_string(),
                    name: r.game.name().to_string(),
                    seats,
                    bots: r.bots.iter().map(|b| b.to_string()).collect(),
                    default_config: r.game.default_config(),
                    deadline_ms: self.config.deadline(r.game.as_ref()).as_millis() as u64,
                }
            })
            .collect()
    }

    /// Check a configuration and seat count for a ruleset; the configuration comes back
    /// with its defaults filled in.
    pub(crate) fn check_game(
        &self,
        ruleset: &Ruleset,
        config: &Value,
        seats: Option<usize>,
        at_least: usize,
    ) -> Result<(Value, usize), Refusal> {
        let config = ruleset
            .game
            .normalize_config(config)
            .map_err(|e| Refusal::new("bad_config", e.to_string()))?;
        let range = ruleset
            .game
            .seat_counts(&config)
            .map_err(|e| Refusal::new("bad_config", e.to_string()))?;
        let seats = seats.unwrap_or_else(|| (*range.start()).max(at_least).min(*range.end()));
        if !range.contains(&seats) || seats < at_least {
            return Err(Refusal::new(
                "bad_seats",
                format!(
                    "{} is played by {} to {} seats{}; {seats} asked",
                    ruleset.id(),
                    range.start(),
                    range.end(),
                    if at_least > 1 {
                        " (matchmaking needs at least two)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Ok((config, seats))
    }

    /// Wait in this node's queue (the deployment's, when this node is its matchmaker);
    /// `home` is the connection on its own node of a player from another node.
    #[allow(clippy::too_many_arguments)]
    pub async fn join_queue(
        &self,
        account: AccountId,
        name: &str,
        outbox: &Outbox,
        home: Option<RemoteConn>,
        ruleset: &str,
        config: &Value,
        seats: Option<usize>,
    ) -> Result<ServerMessage, Refusal> {
        let ruleset = self.ruleset(ruleset)?.clone();
        let (config, seats) = self.check_game(&ruleset, config, seats, 2)?;
        let rating = self.rating_of(account, ruleset.id()).await?;
        let key = QueueKey {
            ruleset: ruleset.id().to_string(),
            config: config.to_string(),
            seats,
        };
        let waiting = self
            .matchmaking
            .join(
                key,
                Waiting {
                    account,
                    name: name.to_string(),
                    rating,
                    outbox: outbox.clone(),
                    home,
                    since: Instant::now().into_std(),
                },
            )
            .map_err(|m| Refusal::new("already_queued", m))?;
        let missing = seats.saturating_sub(waiting);
        let note = match (waiting, missing) {
            (_, 0) => "a match starts at the next pairing".to_string(),
            (1, _) => format!(
                "you are the only one waiting; the match starts when {missing} more \
                 player(s) queue for {} with {seats} seats (or open a table and add bots)",
                ruleset.id()
            ),
            _ => format!("{waiting} waiting; {missing} more player(s) needed"),
        };
        Ok(ServerMessage::Queued {
            ruleset: ruleset.id().to_string(),
            seats,
            config,
            waiting,
            note,
        })
    }

    /// The clock of a queue's matches: the server's deadline for the ruleset and its
    /// time bank.
    pub fn queue_clock(&self, ruleset: &Ruleset) -> MatchClock {
        MatchClock {
            deadline: self.config.deadline(ruleset.game.as_ref()),
            time_bank: self.config.time_bank,
            abandon_after: Some(MatchClock::ABANDON_AFTER),
            stand_in_grace: self.config.stand_in_grace,
        }
    }

    /// A new table's clock: what its creator asked for, within bounds, or the table
    /// defaults (minutes, for people). `abandon_after` 0 means never.
    pub fn table_clock(
        &self,
        ruleset: &str,
        deadline_ms: Option<u64>,
        time_bank_ms: Option<u64>,
        abandon_after: Option<u32>,
        stand_in_grace_ms: Option<u64>,
    ) -> Result<MatchClock, Refusal> {
        let deadline = match deadline_ms.map(Duration::from_millis) {
            Some(asked)
                if (MatchClock::MIN_DEADLINE..=MatchClock::MAX_DEADLINE).contains(&asked) =>
            {
                asked
            }
            Some(_) => {
                return Err(Refusal::new(
                    "bad_clock",
                    format!(
                        "deadline_ms must be from {} to {}",
                        MatchClock::MIN_DEADLINE.as_millis(),
                        MatchClock::MAX_DEADLINE.as_millis()
                    ),
                ))
            }
            None => self
                .config
                .deadline(self.ruleset(ruleset)?.game.as_ref())
                .max(MatchClock::TABLE_DEADLINE),
        };
        let time_bank = match time_bank_ms.map(Duration::from_millis) {
            Some(asked) if asked <= MatchClock::MAX_TIME_BANK => asked,
            Some(_) => {
                return Err(Refusal::new(
                    "bad_clock",
                    format!(
                        "time_bank_ms must be at most {}",
                        MatchClock::MAX_TIME_BANK.as_millis()
                    ),
                ))
            }
            None => MatchClock::TABLE_TIME_BANK,
        };
        let stand_in_grace = match stand_in_grace_ms.map(Duration::from_millis) {
            Some(Duration::ZERO) => None,
            Some(asked) if asked <= MatchClock::MAX_STAND_IN_GRACE => Some(asked),
            Some(_) => {
                return Err(Refusal::new(
                    "bad_clock",
                    format!(
                        "stand_in_grace_ms must be at most {} (0: no stand-in)",
                        MatchClock::MAX_STAND_IN_GRACE.as_millis()
                    ),
                ))
            }
            None => self.config.stand_in_grace,
        };
        Ok(MatchClock {
            stand_in_grace,
            deadline,
            time_bank,
            abandon_after: match abandon_after {
                Some(0) => None,
                Some(n) => Some(n),
                None => Some(MatchClock::ABANDON_AFTER),
            },
        })
    }

    pub fn create_table(
        &self,
        creator: Occupant,
        ruleset: &str,
        config: &Value,
        seats: usize,
        clock: MatchClock,
    ) -> Result<(), Refusal> {
        let ruleset = self.ruleset(ruleset)?.clone();
        let (config, seats) = self.check_game(&ruleset, config, Some(seats), 1)?;
        let table = self.tables.create(ruleset, config, seats, creator, clock)?;
        notify_table(&table);
        Ok(())
    }

    pub fn join_table(
        &self,
        account: AccountId,
        name: &str,
        outbox: &Outbox,
        table: u64,
        seat: Option<usize>,
    ) -> Result<(), Refusal> {
        let table = self
            .tables
            .join(table, occupant(account, name, outbox), seat)?;
        notify_table(&table);
        Ok(())
    }

    pub fn add_bot(
        &self,
        account: AccountId,
        table: u64,
        bot: &str,
        seat: Option<usize>,
    ) -> Result<(), Refusal> {
        let table = self.tables.add_bot(table, account, bot, seat)?;
        notify_table(&table);
        Ok(())
    }

    pub fn leave_table(&self, account: AccountId, table: u64) -> Result<(), Refusal> {
        let left = self.tables.leave(table, account)?;
        notify_left(left, "the owner left");
        Ok(())
    }

    /// A connection went away: leave the tables it sat at.
    pub fn leave_tables(&self, _account: i64, conn: ConnId) {
        for left in self.tables.leave_connection(conn) {
            notify_left(left, "the owner disconnected");
        }
    }

    pub async fn start_table(
        self: &Arc<Self>,
        account: AccountId,
        table: u64,
        fill: Option<&str>,
    ) -> Result<(), Refusal> {
        let table: Table = self.tables.take_for_start(table, account, fill)?;
        let mut plan = Vec::with_capacity(table.seats.len());
        for (seat, occupant) in table.seats.iter().enumerate() {
            plan.push(match occupant {
                Some(Occupant::Player {
                    account,
                    name,
                    outbox,
                }) => SeatPlan {
                    player: Player::Account {
                        id: *account,
                        name: name.clone(),
                    },
                    outbox: Some(outbox.clone()),
                },
                Some(Occupant::Bot { .. }) | None => {
                    let bot = match occupant {
                        Some(Occupant::Bot { bot }) => bot.clone(),
                        _ => fill.unwrap_or("random").to_string(),
                    };
                    SeatPlan {
                        player: Player::Bot {
                            name: format!("{bot}#{}", seat + 1),
                            bot,
                        },
                        outbox: None,
                    }
                }
            });
        }
        let outboxes = table.outboxes();
        match self
            .start_match(
                &table.ruleset,
                table.config.clone(),
                plan,
                false,
                table.clock,
            )
            .await
        {
            Ok(match_id) => {
                // Every member learns the table became this match (after the
                // `match_started` each seated player got).
                for outbox in outboxes {
                    outbox.send(&ServerMessage::TableStarted {
                        table: table.id,
                        match_id,
                    });
                }
                Ok(())
            }
            Err(refusal) => {
                for outbox in outboxes {
                    outbox.send(&ServerMessage::TableClosed {
                        table: table.id,
                        reason: format!("the match could not start: {}", refusal.message),
                    });
                }
                Err(refusal)
            }
        }
    }

    /// A lobby request about tables, from `account` (called `name`) on `outbox`: a
    /// local connection's, or a stand-in for another node's when this node holds the
    /// deployment's lobby. Replies go to `outbox`.
    pub async fn table_request(
        self: &Arc<Self>,
        account: AccountId,
        name: &str,
        outbox: &Outbox,
        request: ClientMessage,
    ) -> Result<(), Refusal> {
        match request {
            ClientMessage::Tables => {
                outbox.send(&ServerMessage::Tables {
                    tables: self.tables.list(),
                });
                Ok(())
            }
            ClientMessage::CreateTable {
                ruleset,
                config,
                seats,
                deadline_ms,
                time_bank_ms,
                abandon_after,
                stand_in_grace_ms,
            } => {
                let clock = self.table_clock(
                    &ruleset,
                    deadline_ms,
                    time_bank_ms,
                    abandon_after,
                    stand_in_grace_ms,
                )?;
                let creator = occupant(account, name, outbox);
                self.create_table(creator, &ruleset, &config, seats, clock)
            }
            ClientMessage::JoinTable { table, seat } => {
                self.join_table(account, name, outbox, table, seat)
            }
            ClientMessage::AddBot { table, bot, seat } => self.add_bot(account, table, &bot, seat),
            ClientMessage::LeaveTable { table } => {
                self.leave_table(account, table)?;
                outbox.send(&ServerMessage::LeftTable { table });
                Ok(())
            }
            ClientMessage::StartTable { table, fill } => {
                self.start_table(account, table, fill.as_deref()).await
            }
            // Never printed: other requests may hold a password.
            _ => Err(Refusal::new("bad_message", "not a request about tables")),
        }
    }

    /// Form matches from the queues (called every pairing interval). A group whose
    /// first player came from another node of the deployment plays there, so that the
    /// deployment's matches spread over its nodes with their players.
    pub async fn pair_waiting_players(self: &Arc<Self>) {
        for (key, group) in self.matchmaking.pair() {
            let Ok(ruleset) = self.ruleset(&key.ruleset).cloned() else {
                continue;
            };
            let names: Vec<&str> = group.iter().map(|w| w.name.as_str()).collect();
            tracing::info!(ruleset = %key.ruleset, players = ?names, "matched");
            let started = match (&self.mesh, group.first().and_then(|w| w.home.as_ref())) {
                (Some(mesh), Some(home)) => {
                    let ask = Ask::Start {
                        ruleset: key.ruleset.clone(),
                        config: key.config_value(),
                        seats: group
                            .iter()
                            .map(|w| QueuedSeat {
                                account: w.account,
                                name: w.name.clone(),
                                conn: w
                                    .home
                                    .clone()
                                    .unwrap_or_else(|| mesh.remote(w.outbox.conn())),
                            })
                            .collect(),
                    };
                    mesh.ask(&home.node, &ask).await
                }
                _ => {
                    let plan = group
                        .iter()
                        .map(|w| SeatPlan {
                            player: Player::Account {
                                id: w.account,
                                name: w.name.clone(),
                            },
                            outbox: Some(w.outbox.clone()),
                        })
                        .collect();
                    self.start_queued_match(&ruleset, key.config_value(), plan)
                        .await
                        .map(|_| ())
                }
            };
            if let Err(refusal) = started {
                for waiting in &group {
                    waiting.outbox.send(&ServerMessage::error(
                        refusal.code,
                        format!("the match could not start: {}", refusal.message),
                    ));
                }
            }
        }
    }

    /// Start a match of the queue (rated, on the queue's clock).
    pub async fn start_queued_match(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        plan: Vec<SeatPlan>,
    ) -> Result<i64, Refusal> {
        let clock = self.queue_clock(ruleset);
        self.start_match(ruleset, config, plan, true, clock).await
    }
}

fn occupant(account: AccountId, name: &str, outbox: &Outbox) -> Occupant {
    Occupant::Player {
        account,
        name: name.to_string(),
        outbox: outbox.clone(),
    }
}

fn notify_table(table: &Table) {
    let message = ServerMessage::Table {
        table: table.info(),
    };
    for outbox in table.outboxes() {
        outbox.send(&message);
    }
}

fn notify_left(left: Left, reason: &str) {
    match left {
        Left::Updated(table) => notify_table(&table),
        Left::Closed(table) => {
            let message = ServerMessage::TableClosed {
                table: table.id,
                reason: reason.to_string(),
            };
            for outbox in table.outboxes() {
                outbox.send(&message);
            }
        }
    }
}

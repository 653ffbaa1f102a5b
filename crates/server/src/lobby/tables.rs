//! Tables: a player opens one for a ruleset and a seat count, others sit down, the owner
//! may put house bots in seats, and starts the match when every seat is taken (or has
//! the empty ones filled with a bot). Tables live in memory until they start or close.

use parking_lot::Mutex;
use std::collections::BTreeMap;

use arbiter_rulesets::Ruleset;
use arbiter_store::AccountId;
use serde_json::Value;

use crate::connection::{ConnId, Outbox};
use crate::matches::MatchClock;
use crate::protocol::messages::{TableInfo, TableSeat};
use crate::protocol::Refusal;

/// Who sits in a seat.
#[derive(Debug, Clone)]
pub enum Occupant {
    Player {
        account: AccountId,
        name: String,
        outbox: Outbox,
    },
    Bot {
        bot: String,
    },
}

impl Occupant {
    fn label(&self) -> String {
        match self {
            Occupant::Player { name, .. } => name.clone(),
            Occupant::Bot { bot } => format!("bot:{bot}"),
        }
    }
}

#[derive(Clone)]
pub struct Table {
    pub id: u64,
    pub ruleset: Ruleset,
    /// Normalized (defaults filled in).
    pub config: Value,
    pub owner: AccountId,
    pub owner_name: String,
    pub seats: Vec<Option<Occupant>>,
    pub clock: MatchClock,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("id", &self.id)
            .field("ruleset", &self.ruleset.id())
            .field("seats", &self.seats)
            .finish()
    }
}

impl Table {
    pub fn info(&self) -> TableInfo {
        TableInfo {
            table: self.id,
            ruleset: self.ruleset.id().to_string(),
            config: self.config.clone(),
            owner: self.owner_name.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(seat, occupant)| TableSeat {
                    seat,
                    player: occupant.as_ref().map(Occupant::label),
                })
                .collect(),
            deadline_ms: self.clock.deadline.as_millis() as u64,
            time_bank_ms: self.clock.time_bank.as_millis() as u64,
        }
    }

    /// The connections of the players seated here.
    pub fn outboxes(&self) -> Vec<Outbox> {
        self.seats
            .iter()
            .flatten()
            .filter_map(|o| match o {
                Occupant::Player { outbox, .. } => Some(outbox.clone()),
                Occupant::Bot { .. } => None,
            })
            .collect()
    }

    fn seat_of(&self, account: AccountId) -> Option<usize> {
        self.seats
            .iter()
            .position(|o| matches!(o, Some(Occupant::Player { account: a, .. }) if *a == account))
    }

    /// The requested seat if free, or the first free one.
    fn free_seat(&self, wanted: Option<usize>) -> Result<usize, Refusal> {
        match wanted {
            Some(seat) if seat >= self.seats.len() => Err(Refusal::new(
                "no_such_seat",
                format!("table {} has seats 0 to {}", self.id, self.seats.len() - 1),
            )),
            Some(seat) if self.seats[seat].is_some() => Err(Refusal::new(
                "seat_taken",
                format!("seat {seat} at table {} is taken", self.id),
            )),
            Some(seat) => Ok(seat),
            None => self
                .seats
                .iter()
                .position(Option::is_none)
                .ok_or_else(|| Refusal::new("table_full", format!("table {} is full", self.id))),
        }
    }
}

/// What changed when someone left.
pub enum Left {
    /// The table is still open; tell these players.
    Updated(Table),
    /// The owner left: the table is gone; tell these players.
    Closed(Table),
}

#[derive(Default)]
pub struct Tables {
    next_id: Mutex<u64>,
    tables: Mutex<BTreeMap<u64, Table>>,
}

impl Tables {
    pub fn list(&self) -> Vec<TableInfo> {
        self.tables.lock().values().map(Table::info).collect()
    }

    pub fn create(
        &self,
        ruleset: Ruleset,
        config: Value,
        seats: usize,
        owner: Occupant,
        clock: MatchClock,
    ) -> Result<Table, Refusal> {
        let Occupant::Player { account, name, .. } = &owner else {
            return Err(Refusal::new("refused", "a bot cannot open a table"));
        };
        let mut next = self.next_id.lock();
        *next += 1;
        let mut table = Table {
            id: *next,
            ruleset,
            config,
            owner: *account,
            owner_name: name.clone(),
            seats: vec![None; seats],
            clock,
        };
        table.seats[0] = Some(owner);
        self.tables.lock().insert(table.id, table.clone());
        Ok(table)
    }

    pub fn join(&self, id: u64, player: Occupant, seat: Option<usize>) -> Result<Table, Refusal> {
        let mut tables = self.tables.lock();
        let table = get_mut(&mut tables, id)?;
        if let Occupant::Player { account, .. } = &player {
            if let Some(seat) = table.seat_of(*account) {
                return Err(Refusal::new(
                    "already_seated",
                    format!("you already sit in seat {seat} at table {id}"),
                ));
            }
        }
        let seat = table.free_seat(seat)?;
        table.seats[seat] = Some(player);
        Ok(table.clone())
    }

    /// The owner puts a house bot in a seat.
    pub fn add_bot(
        &self,
        id: u64,
        by: AccountId,
        bot: &str,
        seat: Option<usize>,
    ) -> Result<Table, Refusal> {
        let mut tables = self.tables.lock();
        let table = get_mut(&mut tables, id)?;
        if table.owner != by {
            return Err(Refusal::new(
                "not_table_owner",
                format!("only {} may seat bots at table {id}", table.owner_name),
            ));
        }
        check_bot(&table.ruleset, bot)?;
        let seat = table.free_seat(seat)?;
        table.seats[seat] = Some(Occupant::Bot {
            bot: bot.to_string(),
        });
        Ok(table.clone())
    }

    /// A player leaves a table (the owner leaving closes it).
    pub fn leave(&self, id: u64, account: AccountId) -> Result<Left, Refusal> {
        let mut tables = self.tables.lock();
        let table = get_mut(&mut tables, id)?;
        let seat = table
            .seat_of(account)
            .ok_or_else(|| Refusal::new("not_seated", format!("you do not sit at table {id}")))?;
        if table.owner == account {
            let table = tables.remove(&id).ok_or_else(|| no_table(id))?;
            return Ok(Left::Closed(table));
        }
        table.seats[seat] = None;
        Ok(Left::Updated(table.clone()))
    }

    /// Every table a connection sits at, left (on disconnect).
    pub fn leave_connection(&self, conn: ConnId) -> Vec<Left> {
        let ids: Vec<(u64, AccountId)> = self
            .tables
            .lock()
            .values()
            .flat_map(|t| {
                t.seats.iter().flatten().filter_map(move |o| match o {
                    Occupant::Player {
                        account, outbox, ..
                    } if outbox.conn() == conn => Some((t.id, *account)),
                    _ => None,
                })
            })
            .collect();
        ids.into_iter()
            .filter_map(|(id, account)| self.leave(id, account).ok())
            .collect()
    }

    /// The owner starts the table: fill empty seats with `fill`, then take the table
    /// out of the lobby. Every seat must be taken.
    pub fn take_for_start(
        &self,
        id: u64,
        by: AccountId,
        fill: Option<&str>,
    ) -> Result<Table, Refusal> {
        let mut tables = self.tables.lock();
        let table = get_mut(&mut tables, id)?;
        if table.owner != by {
            return Err(Refusal::new(
                "not_table_owner",
                format!("only {} may start table {id}", table.owner_name),
            ));
        }
        if let Some(bot) = fill {
            check_bot(&table.ruleset, bot)?;
        }
        let empty = table.seats.iter().filter(|s| s.is_none()).count();
        match fill {
            Some(bot) => {
                for seat in table.seats.iter_mut().filter(|s| s.is_none()) {
                    *seat = Some(Occupant::Bot {
                        bot: bot.to_string(),
                    });
                }
            }
            None if empty > 0 => {
                return Err(Refusal::new(
                    "table_not_full",
                    format!("{empty} seat(s) are empty; add bots or start with \"fill\""),
                ))
            }
            None => {}
        }
        tables.remove(&id).ok_or_else(|| no_table(id))
    }
}

fn check_bot(ruleset: &Ruleset, bot: &str) -> Result<(), Refusal> {
    if ruleset.bots.contains(&bot) {
        Ok(())
    } else {
        Err(Refusal::new(
            "unknown_bot",
            format!(
                "{} has no bot {bot:?}; it has {}",
                ruleset.id(),
                ruleset.bots.join(", ")
            ),
        ))
    }
}

fn no_table(id: u64) -> Refusal {
    Refusal::new("no_such_table", format!("no open table {id}"))
}

fn get_mut(tables: &mut BTreeMap<u64, Table>, id: u64) -> Result<&mut Table, Refusal> {
    tables.get_mut(&id).ok_or_else(|| no_table(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(account: AccountId, name: &str) -> Occupant {
        Occupant::Player {
            account,
            name: name.to_string(),
            outbox: Outbox::new(4096).0,
        }
    }

    fn clock() -> MatchClock {
        MatchClock {
            deadline: MatchClock::TABLE_DEADLINE,
            time_bank: MatchClock::TABLE_TIME_BANK,
            abandon_after: Some(MatchClock::ABANDON_AFTER),
            stand_in_grace: None,
        }
    }

    fn tae() -> Ruleset {
        arbiter_rulesets::find("tae").expect("tae ships")
    }

    #[test]
    fn create_join_bots_and_start() {
        let tables = Tables::default();
        let table = tables
            .create(tae(), Value::Null, 3, player(1, "ann"), clock())
            .unwrap();
        let id = table.id;
        assert_eq!(tables.list().len(), 1);
        let table = tables.join(id, player(2, "bob"), None).unwrap();
        assert_eq!(table.info().seats[1].player.as_deref(), Some("bob"));
        assert_eq!(
            tables.join(id, player(2, "bob"), None).unwrap_err().code,
            "already_seated"
        );
        assert_eq!(
            tables.join(id, player(3, "cy"), Some(0)).unwrap_err().code,
            "seat_taken"
        );
        assert_eq!(
            tables.join(id, player(3, "cy"), Some(9)).unwrap_err().code,
            "no_such_seat"
        );
        assert_eq!(
            tables.add_bot(id, 2, "random", None).unwrap_err().code,
            "not_table_owner"
        );
        assert_eq!(
            tables.add_bot(id, 1, "deep-blue", None).unwrap_err().code,
            "unknown_bot"
        );
        assert_eq!(
            tables.take_for_start(id, 1, None).unwrap_err().code,
            "table_not_full"
        );
        let table = tables.take_for_start(id, 1, Some("greedy")).unwrap();
        assert_eq!(table.info().seats[2].player.as_deref(), Some("bot:greedy"));
        assert!(tables.list().is_empty());
        assert_eq!(
            tables.join(id, player(3, "cy"), None).unwrap_err().code,
            "no_such_table"
        );
    }

    #[test]
    fn the_owner_leaving_closes_the_table() {
        let tables = Tables::default();
        let id = tables
            .create(tae(), Value::Null, 2, player(1, "ann"), clock())
            .unwrap()
            .id;
        let bob = player(2, "bob");
        let Occupant::Player { outbox, .. } = &bob else {
            unreachable!()
        };
        let bob_conn = outbox.conn();
        tables.join(id, bob.clone(), None).unwrap();
        assert!(matches!(tables.leave(id, 2), Ok(Left::Updated(_))));
        assert_eq!(
            tables.leave(id, 2).err().map(|e| e.code),
            Some("not_seated")
        );
        tables.join(id, bob, None).unwrap();
        let left = tables.leave_connection(bob_conn);
        assert_eq!(left.len(), 1);
        assert!(matches!(tables.leave(id, 1), Ok(Left::Closed(_))));
        assert!(tables.list().is_empty());
    }
}

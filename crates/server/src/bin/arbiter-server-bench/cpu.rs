//! CPU time and context switches of the server's process and of the clients' process,
//! and the whole machine's CPU time by kind, read from /proc (Linux). They tell whether
//! a run was bound by the cores (both processes together near the machine's core count)
//! or by a stage that works one thing at a time (cores to spare while moves wait), and
//! what a move costs the server.

use std::time::Duration;

use anyhow::Context;

/// Linux reports a process's CPU times in clock ticks of `USER_HZ`, which is 100 on
/// x86 and ARM (the kernel's ABI fixes it, whatever the kernel's own tick rate).
const TICKS_PER_SECOND: f64 = 100.0;

/// What a process had used when it was read.
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuReading {
    user_ticks: u64,
    system_ticks: u64,
    /// Voluntary and involuntary switches of the threads alive when read.
    switches: u64,
}

impl CpuReading {
    /// The process `pid` (`"self"` for this one); `None` once it has exited.
    pub fn of(pid: &str) -> Option<CpuReading> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (user_ticks, system_ticks) = times(&stat).ok()?;
        Some(CpuReading {
            user_ticks,
            system_ticks,
            switches: switches(pid),
        })
    }

    /// The use between `earlier` and this reading.
    pub fn since(self, earlier: CpuReading) -> CpuUse {
        let seconds = |ticks: u64| ticks as f64 / TICKS_PER_SECOND;
        CpuUse {
            user: seconds(self.user_ticks.saturating_sub(earlier.user_ticks)),
            system: seconds(self.system_ticks.saturating_sub(earlier.system_ticks)),
            switches: self.switches.saturating_sub(earlier.switches),
        }
    }
}

/// CPU used over a stretch of the run, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct CpuUse {
    pub user: f64,
    pub system: f64,
    pub switches: u64,
}

impl CpuUse {
    /// One line of the report: cores in use over `over`, and the cost of each of `moves`.
    pub fn describe(&self, over: Duration, moves: u64) -> String {
        let per_move_us = |seconds: f64| seconds * 1e6 / moves.max(1) as f64;
        format!(
            "{:.2} cores: {:.0} µs a move (user {:.0}, system {:.0}), {:.1} context switches a move",
            (self.user + self.system) / over.as_secs_f64().max(f64::EPSILON),
            per_move_us(self.user + self.system),
            per_move_us(self.user),
            per_move_us(self.system),
            self.switches as f64 / moves.max(1) as f64
        )
    }
}

/// The whole machine's CPU time by kind, from the first line of /proc/stat, in ticks.
/// The two processes' own times leave out what the kernel does for no process: on
/// loopback, most of delivering a packet is a softirq, a tenth of a busy run.
#[derive(Debug, Clone, Copy, Default)]
pub struct MachineReading {
    user: u64,
    system: u64,
    softirq: u64,
    /// `irq` and `steal` (time the hypervisor gave to others).
    other: u64,
    /// `idle` and `iowait` (idle with a disk read or write pending).
    idle: u64,
}

impl MachineReading {
    pub fn now() -> Option<MachineReading> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        machine_times(stat.lines().next()?).ok()
    }

    /// Shares of the machine's time between `earlier` and this reading, in one line.
    pub fn describe_since(self, earlier: MachineReading) -> String {
        let delta = |now: u64, then: u64| now.saturating_sub(then) as f64;
        let user = delta(self.user, earlier.user);
        let system = delta(self.system, earlier.system);
        let softirq = delta(self.softirq, earlier.softirq);
        let other = delta(self.other, earlier.other);
        let idle = delta(self.idle, earlier.idle);
        let all = (user + system + softirq + other + idle).max(1.0);
        let share = |ticks: f64| 100.0 * ticks / all;
        format!(
            "{:.0}% busy: user {:.0}%, system {:.0}%, softirq {:.0}%, irq and steal {:.0}%; idle {:.0}% (iowait included)",
            share(all - idle),
            share(user),
            share(system),
            share(softirq),
            share(other),
            share(idle)
        )
    }
}

/// The `cpu` line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal
/// (guest time is already counted in user).
fn machine_times(line: &str) -> anyhow::Result<MachineReading> {
    let mut fields = line.split_whitespace();
    anyhow::ensure!(fields.next() == Some("cpu"), "not the machine's cpu line");
    let ticks: Vec<u64> = fields
        .take(8)
        .map(|field| field.parse().context("a number"))
        .collect::<anyhow::Result<_>>()?;
    let [user, nice, system, idle, iowait, irq, softirq, steal] = ticks[..] else {
        anyhow::bail!("a short cpu line");
    };
    Ok(MachineReading {
        user: user + nice,
        system,
        softirq,
        other: irq + steal,
        idle: idle + iowait,
    })
}

/// `utime` and `stime` (fields 14 and 15) of a /proc/PID/stat line. The command name
/// (field 2) is in parentheses and may hold spaces or parentheses itself, so the fields
/// are counted from the last `)`.
fn times(stat: &str) -> anyhow::Result<(u64, u64)> {
    let after_name = stat.rsplit_once(')').context("no command name")?.1;
    // After the name: field 3 (the state) is the first.
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |n: usize| -> anyhow::Result<u64> {
        fields
            .get(n - 3)
            .context("a short stat line")?
            .parse()
            .context("a number")
    };
    Ok((field(14)?, field(15)?))
}

/// Context switches summed over the process's threads alive now.
fn switches(pid: &str) -> u64 {
    let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    threads
        .flatten()
        .filter_map(|thread| std::fs::read_to_string(thread.path().join("status")).ok())
        .map(|status| {
            status
                .lines()
                .filter(|line| line.contains("ctxt_switches:"))
                .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machines_shares_come_from_the_first_line_of_proc_stat() {
        let before = machine_times("cpu  100 0 50 800 10 0 20 0 0 0").expect("parsed");
        let after = machine_times("cpu  590 10 310 940 20 0 120 0 0 0").expect("parsed");
        // 500 user (nice included), 260 system, 100 softirq, 150 idle (10 of it iowait).
        assert_eq!(
            after.describe_since(before),
            "85% busy: user 50%, system 26%, softirq 10%, irq and steal 0%; idle 15% (iowait included)"
        );
        assert!(machine_times("cpu0 1 2 3 4 5 6 7 8").is_err());
        assert!(machine_times("cpu  1 2 3").is_err());
    }

    #[test]
    fn this_machine_is_read() {
        assert!(MachineReading::now().is_some(), "/proc/stat");
    }

    #[test]
    fn times_are_counted_from_the_last_parenthesis() {
        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 731 215 0 0 20 0 9";
        assert_eq!(times(stat).expect("parsed"), (731, 215));
        assert!(times("4242 (short) S 1").is_err());
    }

    #[test]
    fn this_process_is_read_and_its_cpu_time_advances_as_it_works() {
        let before = CpuReading::of("self").expect("/proc/self");
        let mut spin = 0u64;
        for rounds in 0.. {
            for i in 0..1_000_000u64 {
                spin = std::hint::black_box(spin.wrapping_mul(31).wrapping_add(i));
            }
            let used = CpuReading::of("self").expect("/proc/self").since(before);
            if used.user + used.system > 0.0 {
                break;
            }
            assert!(rounds < 100_000, "no CPU time after 10^11 operations");
        }
        assert!(CpuReading::of("no-such-process").is_none());
    }
}

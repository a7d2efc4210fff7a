//! The processor time a process has used, for runs that say what they cost.

/// The CPU seconds this process has used so far (user and system, all threads), from
/// `/proc/self/stat`; `None` where there is no such file. The kernel counts them in clock
/// ticks of 1/100 s (`USER_HZ`, fixed at 100 on the machines the lab runs on).
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (in parentheses, which may hold spaces): state is
    // field 3, utime field 14 and stime field 15.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i - 3)?.parse::<f64>().ok();
    Some((ticks(14)? + ticks(15)?) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_seconds_rise_with_work() {
        let Some(before) = cpu_seconds() else {
            return;
        };
        // Busy until the reading moves (however loaded the machine), within a generous bound.
        let mut x = 0u64;
        let start = std::time::Instant::now();
        let mut after = before;
        while after < before + 0.05 && start.elapsed().as_secs() < 60 {
            for _ in 0..1_000_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            after = cpu_seconds().unwrap();
        }
        std::hint::black_box(x);
        assert!(after >= before + 0.05, "{before} -> {after}");
        // Never more CPU than wall time on the busy thread plus the rest of the process: at
        // most the machine's threads times the wall time.
        let threads = std::thread::available_parallelism().map_or(64, |n| n.get()) as f64;
        assert!(after - before <= threads * start.elapsed().as_secs_f64() + 0.05);
    }
}

//! The `go` command: its parameters, and the search limits they give the side to move.

use std::time::Duration;

use pjlab_agents::SearchLimits;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoCommand {
    pub(crate) depth: Option<u32>,
    pub(crate) movetime: Option<u64>,
    pub(crate) nodes: Option<u64>,
    pub(crate) clocks: [Option<u64>; 4],
    pub(crate) infinite: bool,
    pub(crate) perft: Option<u32>,
    /// `go manual <move>` (Natural Selection's): play the move, search nothing.
    pub(crate) manual: Option<String>,
}

/// A time in milliseconds: a whole number, or a decimal one (pijersi-certu sends
/// `go movetime 5000.0`), rounded down.
fn parse_ms(text: &str) -> Option<u64> {
    if let Ok(ms) = text.parse::<u64>() {
        return Some(ms);
    }
    let ms: f64 = text.parse().ok()?;
    (ms.is_finite() && ms >= 0.0).then(|| ms.min(1e15) as u64)
}

pub(crate) fn parse_go(words: &[&str]) -> Result<GoCommand, String> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            go.infinite = true;
            i += 1;
            continue;
        }
        if key == "manual" {
            if words.len() != 2 || i != 0 {
                return Err("go manual <move> takes one move and nothing else".into());
            }
            go.manual = Some(words[1].to_string());
            return Ok(go);
        }
        let text = words.get(i + 1).copied().unwrap_or("");
        let time = matches!(key, "movetime" | "p1time" | "p2time" | "p1inc" | "p2inc");
        let value: u64 = if time {
            parse_ms(text)
        } else {
            text.parse().ok()
        }
        .ok_or_else(|| format!("go {key} needs a whole number"))?;
        match key {
            "depth" if value >= 1 => go.depth = Some(value.min(100) as u32),
            "movetime" => go.movetime = Some(value),
            "nodes" if value >= 1 => go.nodes = Some(value),
            "p1time" => go.clocks[0] = Some(value),
            "p2time" => go.clocks[1] = Some(value),
            "p1inc" => go.clocks[2] = Some(value),
            "p2inc" => go.clocks[3] = Some(value),
            "perft" => go.perft = Some(value.min(20) as u32),
            "depth" | "nodes" => return Err(format!("go {key} must be at least 1")),
            _ => return Err(format!("unknown go parameter {key}")),
        }
        i += 2;
    }
    Ok(go)
}

impl GoCommand {
    /// The limits for the side to move (`white`): a clock gives a thirtieth of the time left
    /// plus three quarters of the increment, never more than half the time left.
    pub(crate) fn limits(&self, white: bool) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: self.depth,
            time: self.movetime.map(Duration::from_millis),
            nodes: self.nodes,
        };
        let (time, inc) = if white {
            (self.clocks[0], self.clocks[2])
        } else {
            (self.clocks[1], self.clocks[3])
        };
        if let Some(left) = time {
            let inc = inc.unwrap_or(0);
            let share = (left / 30 + inc * 3 / 4).min(left / 2).max(1);
            limits.time = Some(Duration::from_millis(
                limits
                    .time
                    .map_or(share, |t| t.as_millis() as u64)
                    .min(share),
            ));
        }
        if self.infinite {
            limits = SearchLimits::default();
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parameters_and_clocks() {
        let go = parse_go(&["p1time", "60000", "p2time", "30000", "p1inc", "1000"]).unwrap();
        // White: 60000 / 30 + 750 = 2750 ms; Black: 1000 ms.
        assert_eq!(go.limits(true).time, Some(Duration::from_millis(2750)));
        assert_eq!(go.limits(false).time, Some(Duration::from_millis(1000)));
        let go = parse_go(&["depth", "3", "movetime", "50"]).unwrap();
        assert_eq!(go.limits(true).depth, Some(3));
        assert_eq!(go.limits(true).time, Some(Duration::from_millis(50)));
        assert_eq!(
            parse_go(&["infinite"]).unwrap().limits(true),
            SearchLimits::default()
        );
        // Decimal times round down; depths stay whole.
        let go = parse_go(&["movetime", "5000.7"]).unwrap();
        assert_eq!(go.limits(true).time, Some(Duration::from_millis(5000)));
        assert_eq!(
            parse_go(&["manual", "a4b5c4"]).unwrap().manual.as_deref(),
            Some("a4b5c4")
        );
        for bad in [
            &["depth"][..],
            &["depth", "x"],
            &["depth", "0"],
            &["depth", "2.5"],
            &["movetime", "-5"],
            &["movetime", "NaN"],
            &["speed", "3"],
            &["manual"],
            &["manual", "a4b5c4", "depth", "3"],
            &["depth", "3", "manual", "a4b5c4"],
        ] {
            assert!(parse_go(bad).is_err(), "{bad:?}");
        }
    }
}

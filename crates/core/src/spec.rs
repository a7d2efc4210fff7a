//! Specs of players and agents: `name` or `name:key=value,key=value`, read by one parser.
//!
//! [`Spec::parse`] splits the name from the options; the typed getters (`take_u32`,
//! `take_duration`, `take_path`...) take each option the spec may hold, returning `None` when
//! it is absent and an error naming the option when its value does not parse; then
//! [`Spec::finish`] refuses any option left untaken, naming the spec and the options taken. A
//! single-valued option given twice is refused when it is taken (which of two values was meant
//! cannot be told); a list option (an external engine's `arg=`) is read whole by
//! [`Spec::take_all`]. Unknown names, options and values are errors, never defaults in disguise.
//!
//! Players written `name:argument` with an argument that is not `key=value` (Chifoumi's
//! `focused:F`) split with [`split`] instead.
//!
//! # Example
//! ```
//! use pjlab_core::spec::Spec;
//! let mut spec = Spec::parse("mcts:sims=200,time=1s")?;
//! assert_eq!(spec.name(), "mcts");
//! assert_eq!(spec.take_u32("sims")?, Some(200));
//! assert_eq!(spec.take_duration("time")?, Some(std::time::Duration::from_secs(1)));
//! assert_eq!(spec.take_f64("cpuct")?, None);
//! spec.finish()?;
//!
//! let mut spec = Spec::parse("mcts:speed=3")?;
//! spec.take_u32("sims")?;
//! assert_eq!(
//!     spec.finish().unwrap_err().to_string(),
//!     "`mcts` has no option `speed` (options: sims)"
//! );
//! # Ok::<(), pjlab_core::spec::SpecError>(())
//! ```

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// A spec that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// An option that is not `key=value`.
    #[error("option `{0}` is not key=value")]
    Malformed(String),
    /// An option the spec's player does not have.
    #[error("`{name}` has no option `{key}` (options: {allowed})")]
    UnknownOption {
        /// The spec's name.
        name: String,
        /// The option given.
        key: String,
        /// The options it has, comma-separated (`none` when it has none).
        allowed: String,
    },
    /// A value that does not parse or is out of range.
    #[error("bad value `{value}` for `{key}`: {expected}")]
    BadValue {
        /// The option.
        key: String,
        /// Its value.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// An option given more than once.
    #[error("`{name}` gives option `{key}` more than once")]
    Repeated {
        /// The spec's name.
        name: String,
        /// The option repeated.
        key: String,
    },
    /// A spec without a name (empty, or starting with `:`).
    #[error("a spec starts with a name: `name` or `name:key=value,...`")]
    NoName,
    /// A required option that is absent.
    #[error("`{name}` needs `{key}`")]
    Missing {
        /// The spec's name.
        name: String,
        /// The option it needs.
        key: String,
    },
}

/// What a duration option takes.
pub const DURATION: &str = "a duration such as 250ms, 1s, 1.5s or 2m";

/// Splits `text` (trimmed) into its name and what follows its first `:`, if anything does.
pub fn split(text: &str) -> (&str, Option<&str>) {
    match text.trim().split_once(':') {
        Some((name, rest)) => (name, Some(rest)),
        None => (text.trim(), None),
    }
}

/// Parses a duration such as `250ms`, `1s`, `1.5s` or `2m` (positive, under a million
/// seconds).
pub fn duration(text: &str) -> Option<Duration> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        return None;
    };
    let value: f64 = number.parse().ok()?;
    (value.is_finite() && value > 0.0 && value * scale < 1e6)
        .then(|| Duration::from_secs_f64(value * scale))
}

/// A parsed spec: its name and options, each to be taken once by a typed getter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    text: String,
    name: String,
    options: Vec<(String, String)>,
    taken: Vec<bool>,
    asked: Vec<String>,
}

impl Spec {
    /// Reads `name` or `name:key=value,...` (surrounding spaces trimmed, empty options
    /// skipped).
    ///
    /// # Errors
    /// [`SpecError::NoName`] when nothing comes before the `:`; [`SpecError::Malformed`] for an
    /// option that is not `key=value`.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let (name, rest) = split(text);
        if name.trim().is_empty() {
            return Err(SpecError::NoName);
        }
        let mut options = Vec::new();
        for option in rest.unwrap_or("").split(',') {
            if option.trim().is_empty() {
                continue;
            }
            let (k, v) = option
                .split_once('=')
                .ok_or_else(|| SpecError::Malformed(option.to_string()))?;
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(Spec {
            text: text.trim().to_string(),
            name: name.to_string(),
            taken: vec![false; options.len()],
            options,
            asked: Vec::new(),
        })
    }

    /// The name before the `:`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole spec, trimmed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Every option as given, in order (for players whose options are open-ended, such as an
    /// external engine's `option.<Name>=...`).
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// The value of single-valued option `key`, marked taken, through `read`.
    ///
    /// # Errors
    /// [`SpecError::Repeated`] when `key` is given more than once, whatever the values;
    /// [`SpecError::BadValue`] with `expected` when `read` refuses the value.
    pub fn take_with<T>(
        &mut self,
        key: &str,
        expected: &str,
        mut read: impl FnMut(&str) -> Option<T>,
    ) -> Result<Option<T>, SpecError> {
        let values = self.take_all(key);
        if values.len() > 1 {
            return Err(SpecError::Repeated {
                name: self.name.clone(),
                key: key.to_string(),
            });
        }
        values
            .into_iter()
            .next()
            .map(|v| {
                read(&v).ok_or_else(|| SpecError::BadValue {
                    key: key.to_string(),
                    value: v,
                    expected: expected.to_string(),
                })
            })
            .transpose()
    }

    /// Every value of list option `key`, in the order given (empty when absent), marked taken:
    /// the one kind of option that may be given more than once, as an external engine's
    /// `arg=`.
    pub fn take_all(&mut self, key: &str) -> Vec<String> {
        if !self.asked.iter().any(|k| k == key) {
            self.asked.push(key.to_string());
        }
        let mut values = Vec::new();
        for (i, (k, v)) in self.options.iter().enumerate() {
            if k == key {
                self.taken[i] = true;
                values.push(v.clone());
            }
        }
        values
    }

    /// Option `key` parsed as a `T`.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] with `expected` when it does not parse.
    pub fn take_parsed<T: FromStr>(
        &mut self,
        key: &str,
        expected: &str,
    ) -> Result<Option<T>, SpecError> {
        self.take_with(key, expected, |v| v.parse().ok())
    }

    /// Option `key` as a whole number.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when it is not one.
    pub fn take_u32(&mut self, key: &str) -> Result<Option<u32>, SpecError> {
        self.take_parsed(key, "a whole number")
    }

    /// Option `key` as a whole number.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when it is not one.
    pub fn take_u64(&mut self, key: &str) -> Result<Option<u64>, SpecError> {
        self.take_parsed(key, "a whole number")
    }

    /// Option `key` as a number.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when it is not one.
    pub fn take_f64(&mut self, key: &str) -> Result<Option<f64>, SpecError> {
        self.take_parsed(key, "a number")
    }

    /// Option `key` as a number from `low` to `high`, both included.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when it is not one.
    pub fn take_f64_in(
        &mut self,
        key: &str,
        low: f64,
        high: f64,
    ) -> Result<Option<f64>, SpecError> {
        let expected = format!("a number from {low} to {high}");
        self.take_with(key, &expected, |v| {
            v.parse::<f64>().ok().filter(|x| (low..=high).contains(x))
        })
    }

    /// Option `key` as `true` or `false`.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when it is neither.
    pub fn take_bool(&mut self, key: &str) -> Result<Option<bool>, SpecError> {
        self.take_parsed(key, "true or false")
    }

    /// Option `key` as a duration (see [`duration`]).
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when it is not one.
    pub fn take_duration(&mut self, key: &str) -> Result<Option<Duration>, SpecError> {
        self.take_with(key, DURATION, duration)
    }

    /// Option `key` as text.
    ///
    /// # Errors
    /// [`SpecError::Repeated`] when it is given more than once.
    pub fn take_str(&mut self, key: &str) -> Result<Option<String>, SpecError> {
        self.take_with(key, "", |v| Some(v.to_string()))
    }

    /// Option `key` as a path.
    ///
    /// # Errors
    /// [`SpecError::Repeated`] when it is given more than once.
    pub fn take_path(&mut self, key: &str) -> Result<Option<PathBuf>, SpecError> {
        Ok(self.take_str(key)?.map(PathBuf::from))
    }

    /// The error for a required option `key` that is absent.
    pub fn missing(&self, key: &str) -> SpecError {
        SpecError::Missing {
            name: self.name.clone(),
            key: key.to_string(),
        }
    }

    /// Checks that every option was taken: call it once every option the spec may hold has
    /// been asked for, before acting on their values.
    ///
    /// # Errors
    /// [`SpecError::UnknownOption`] for the first option left, naming the options asked for.
    pub fn finish(&self) -> Result<(), SpecError> {
        match self.taken.iter().position(|t| !t) {
            None => Ok(()),
            Some(i) => Err(SpecError::UnknownOption {
                name: self.name.clone(),
                key: self.options[i].0.clone(),
                allowed: if self.asked.is_empty() {
                    "none".to_string()
                } else {
                    self.asked.join(", ")
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_taken_typed_and_the_rest_refused() {
        let mut spec = Spec::parse(" alphabeta:depth=6, tt = 64 ,,eval=w.toml ").unwrap();
        assert_eq!(spec.name(), "alphabeta");
        assert_eq!(spec.text(), "alphabeta:depth=6, tt = 64 ,,eval=w.toml");
        assert_eq!(spec.take_u32("depth"), Ok(Some(6)));
        assert_eq!(spec.take_u64("nodes"), Ok(None));
        assert_eq!(spec.take_u32("tt"), Ok(Some(64)));
        assert_eq!(spec.take_path("eval"), Ok(Some(PathBuf::from("w.toml"))));
        assert_eq!(spec.finish(), Ok(()));

        let mut spec = Spec::parse("mcts:sims=ten").unwrap();
        assert_eq!(
            spec.take_u32("sims").unwrap_err().to_string(),
            "bad value `ten` for `sims`: a whole number"
        );
        let mut spec = Spec::parse("x:c=20").unwrap();
        assert!(spec.take_f64_in("c", 0.0, 10.0).is_err());
        // A single-valued option given twice is refused when taken, whatever the values,
        // spaces around the key aside; a list option keeps every value in order.
        for text in ["x:c=2,c=3", "x:c=2, c =2", "alphabeta:depth=3,tt=8,depth=4"] {
            let key = if text.contains("depth") { "depth" } else { "c" };
            assert_eq!(
                Spec::parse(text).unwrap().take_u32(key),
                Err(SpecError::Repeated {
                    name: text.split(':').next().unwrap().into(),
                    key: key.into()
                }),
                "{text}"
            );
        }
        let mut spec = Spec::parse("ugi:cmd=e,arg=hang, arg = 3,movetime=1s").unwrap();
        assert_eq!(spec.take_all("arg"), ["hang", "3"]);
        assert_eq!(spec.take_all("depth"), Vec::<String>::new());
        assert_eq!(spec.take_str("cmd"), Ok(Some("e".into())));
        assert!(spec.finish().is_err(), "movetime was not taken");

        let mut spec = Spec::parse("random:depth=3").unwrap();
        spec.take_u64("seed").unwrap();
        assert_eq!(
            spec.finish().unwrap_err().to_string(),
            "`random` has no option `depth` (options: seed)"
        );
        assert_eq!(
            Spec::parse("greedy:x=1").unwrap().finish(),
            Err(SpecError::UnknownOption {
                name: "greedy".into(),
                key: "x".into(),
                allowed: "none".into()
            })
        );
        assert_eq!(
            Spec::parse(" : depth=3").unwrap_err().to_string(),
            "a spec starts with a name: `name` or `name:key=value,...`"
        );
        assert_eq!(Spec::parse("").unwrap_err(), SpecError::NoName);
        assert_eq!(
            Spec::parse("alphabeta:depth").unwrap_err().to_string(),
            "option `depth` is not key=value"
        );
        assert_eq!(
            Spec::parse("net:temp=1")
                .unwrap()
                .missing("checkpoint")
                .to_string(),
            "`net` needs `checkpoint`"
        );
    }

    #[test]
    fn durations_and_names() {
        assert_eq!(duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(duration("2m"), Some(Duration::from_secs(120)));
        for bad in ["", "s", "-1s", "1h", "nan s", "1e9m"] {
            assert_eq!(duration(bad), None, "{bad}");
        }
        assert_eq!(split(" focused:F "), ("focused", Some("F")));
        assert_eq!(split("random"), ("random", None));
    }
}

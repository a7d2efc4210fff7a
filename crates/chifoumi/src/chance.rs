//! [`Chanced`]: a lone game whose chance events are explicit nodes (OpenSpiel's chance nodes),
//! each with its outcomes and their probabilities, instead of draws from a generator passed in.
//!
//! The events come in the order [`Game::with_start`] and [`Game::play`] draw them: each type's
//! zone objects (one node per object, Floyd's sampling step), each type's random objects, the
//! two players' cells, and after `DUEL` the trigger's draw then the target's. Every node's
//! [`Chanced::sample`] makes exactly the generator calls the generator-driven code makes, so
//! sampling every node from one `ChaCha8Rng` replays the game `Game::with_start` and `Game::play`
//! make from a generator of the same seed, move for move.
//!
//! Outcomes are indices: a cell's index in the grid (`row * width + col`) for the deal and the
//! players' cells, [`Object::index`] for a draw.

use std::fmt;

use rand::{Rng, RngExt};

use crate::board::Board;
use crate::map::Cell;
use crate::{Action, Bag, Error, Game, Object, Rules, Start};

/// What the next chance node decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChanceEvent {
    /// One of `object`'s zone objects: Floyd's step `step` over the zone's cells (from
    /// `zone_len - zone_objects` to `zone_len - 1`).
    ZoneObject {
        /// The type placed.
        object: Object,
        /// Floyd's step: the outcome is one of the zone's first `step + 1` cells.
        step: u32,
    },
    /// One of `object`'s objects placed on a uniformly random free cell.
    RandomObject {
        /// The type placed.
        object: Object,
    },
    /// `player`'s starting cell, uniformly among the free cells without an object (and, for
    /// player 1, not player 0's).
    Player(u8),
    /// The duel's draw from `player`'s bag (the trigger draws first, then the target).
    Draw {
        /// The player drawing.
        player: u8,
    },
}

/// Where the game is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// The deal: the next event is number `next` of [`Chanced::deal_events`].
    Deal { next: u32 },
    /// A player is to act, or the game is over.
    Play,
    /// `DUEL` was chosen; the trigger's draw is `first` once made.
    Duel { first: Option<Object> },
}

/// A lone game with its chance events as explicit nodes. See the module's documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chanced {
    /// The game; during the deal its board is partly dealt and its players' cells are not set.
    game: Game,
    phase: Phase,
}

impl Chanced {
    /// A game under `rules` from `start`, at its first chance node (the first object of the deal).
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check.
    pub fn new(rules: &Rules, start: Start) -> Result<Chanced, Error> {
        let layout = rules.layout(2)?;
        let game = Game::at_start(Board::new(layout), [Cell::default(); 2], start);
        Ok(Chanced {
            game,
            phase: Phase::Deal { next: 0 },
        })
    }

    /// `game` as it stands, dealt: the next chance event is its duel's draws if `DUEL` is
    /// played.
    pub fn from_game(game: Game) -> Chanced {
        Chanced {
            game,
            phase: Phase::Play,
        }
    }

    /// The game. During the deal (while [`Chanced::is_dealing`]) its board holds only the
    /// objects dealt so far and its players' cells are not yet drawn.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether the deal is still under way.
    pub fn is_dealing(&self) -> bool {
        matches!(self.phase, Phase::Deal { .. })
    }

    /// Whether the next step is a chance event.
    pub fn is_chance(&self) -> bool {
        self.event().is_some()
    }

    /// The number of distinct chance outcomes: the grid's cells (at least the 3 types).
    pub fn max_outcomes(&self) -> usize {
        self.game.board.layout.cells().max(Object::ALL.len())
    }

    /// The number of chance events of a deal: every object, then the two players.
    fn deal_events(&self) -> u32 {
        let layout = &self.game.board.layout;
        3 * (u32::from(layout.zone_objects) + u32::from(layout.random_objects)) + 2
    }

    /// The chance event due now, `None` at a player's turn or once the game is over.
    pub fn event(&self) -> Option<ChanceEvent> {
        match self.phase {
            Phase::Play => None,
            Phase::Duel { first } => Some(ChanceEvent::Draw {
                player: if first.is_none() {
                    self.game.to_move
                } else {
                    1 - self.game.to_move
                },
            }),
            Phase::Deal { next } => {
                let layout = &self.game.board.layout;
                let (zone, random) = (
                    u32::from(layout.zone_objects),
                    u32::from(layout.random_objects),
                );
                let type_of = |k: u32, per: u32| Object::ALL[(k / per) as usize];
                Some(if next < 3 * zone {
                    let object = type_of(next, zone);
                    let n = layout.zone_cells[object.index()].len() as u32;
                    ChanceEvent::ZoneObject {
                        object,
                        step: n - zone + next % zone,
                    }
                } else if next < 3 * (zone + random) {
                    ChanceEvent::RandomObject {
                        object: type_of(next - 3 * zone, random),
                    }
                } else {
                    ChanceEvent::Player((next - 3 * (zone + random)) as u8)
                })
            }
        }
    }

    /// The outcomes of the chance node due now with their probabilities, by increasing outcome
    /// (empty at a player's turn). Every probability is positive and they sum to 1.
    pub fn outcomes(&self) -> Vec<(usize, f64)> {
        let Some(event) = self.event() else {
            return Vec::new();
        };
        let board = &self.game.board;
        let layout = &board.layout;
        match event {
            ChanceEvent::ZoneObject { object, step } => {
                // Floyd's step: t uniform in 0..=step; a taken cell t gives cell `step` instead.
                let zone = &layout.zone_cells[object.index()];
                let mut weights: Vec<(usize, u32)> = Vec::new();
                for t in 0..=step as usize {
                    let pick = if board.cells[zone[t] as usize] != 0 {
                        step as usize
                    } else {
                        t
                    };
                    let cell = usize::from(zone[pick]);
                    match weights.iter_mut().find(|(c, _)| *c == cell) {
                        Some((_, w)) => *w += 1,
                        None => weights.push((cell, 1)),
                    }
                }
                weights.sort_unstable();
                let total = f64::from(step + 1);
                weights
                    .into_iter()
                    .map(|(cell, w)| (cell, f64::from(w) / total))
                    .collect()
            }
            ChanceEvent::RandomObject { .. } | ChanceEvent::Player(_) => {
                let mut cells = self.free_cells();
                cells.sort_unstable();
                let p = 1.0 / cells.len() as f64;
                cells.into_iter().map(|c| (c, p)).collect()
            }
            ChanceEvent::Draw { player } => {
                let bag = self.game.bags[usize::from(player)];
                let weights = bag_weights(bag);
                let total: u64 = weights.iter().sum();
                Object::ALL
                    .iter()
                    .filter(|o| weights[o.index()] > 0)
                    .map(|o| (o.index(), weights[o.index()] as f64 / total as f64))
                    .collect()
            }
        }
    }

    /// The cells (indices) a random object or a player may land on now.
    fn free_cells(&self) -> Vec<usize> {
        let board = &self.game.board;
        let taken = self.taken();
        board
            .layout
            .free_cells
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| board.cells[i] == 0 && !taken.contains(&board.layout.cell(i)))
            .collect()
    }

    /// The cells already taken by a player during the deal.
    fn taken(&self) -> &[Cell] {
        match self.event() {
            Some(ChanceEvent::Player(1)) => &self.game.pos[..1],
            _ => &[],
        }
    }

    /// The text of `outcome` at the chance node due now (`F on 4,7`, `player 1 on 0,3`,
    /// `player 0 draws P`), `None` when it is not possible here.
    pub fn outcome_text(&self, outcome: usize) -> Option<String> {
        let event = self.event()?;
        if !self.outcomes().iter().any(|&(o, _)| o == outcome) {
            return None;
        }
        let cell = || self.game.board.layout.cell(outcome);
        Some(match event {
            ChanceEvent::ZoneObject { object, .. } | ChanceEvent::RandomObject { object } => {
                format!("{} on {}", object.letter(), cell())
            }
            ChanceEvent::Player(p) => format!("player {p} on {}", cell()),
            ChanceEvent::Draw { player } => {
                format!("player {player} draws {}", Object::ALL[outcome].letter())
            }
        })
    }

    /// Draws the outcome of the chance node due now from `rng`, with exactly the generator calls
    /// [`Game::with_start`] or [`Game::play`] make for the same event. `None` at a player's turn.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        Some(self.draw(self.event()?, rng))
    }

    /// The outcome of `event`, due now, drawn from `rng` as [`Chanced::sample`] says.
    fn draw<R: Rng + ?Sized>(&self, event: ChanceEvent, rng: &mut R) -> usize {
        let board = &self.game.board;
        let layout = &board.layout;
        match event {
            ChanceEvent::ZoneObject { object, step } => {
                let zone = &layout.zone_cells[object.index()];
                let t = rng.random_range(0..=step);
                let pick = if board.cells[zone[t as usize] as usize] != 0 {
                    step
                } else {
                    t
                };
                usize::from(zone[pick as usize])
            }
            ChanceEvent::RandomObject { .. } | ChanceEvent::Player(_) => {
                layout.index(board.random_empty(rng, self.taken()))
            }
            ChanceEvent::Draw { player } => self.game.bags[usize::from(player)].draw(rng).index(),
        }
    }

    /// Applies `outcome` at the chance node due now.
    ///
    /// # Errors
    /// [`Error::Chance`] at a player's turn or for an outcome of probability 0 here; the game is
    /// then unchanged.
    pub fn apply_outcome(&mut self, outcome: usize) -> Result<(), Error> {
        let Some(event) = self.event() else {
            return Err(Error::Chance(format!(
                "outcome {outcome}: no chance event is due (a player is to act or the game is over)"
            )));
        };
        if !self.outcomes().iter().any(|&(o, _)| o == outcome) {
            return Err(Error::Chance(format!(
                "outcome {outcome} is not possible at {event}"
            )));
        }
        self.apply_unchecked(event, outcome);
        Ok(())
    }

    /// Draws the chance node due now from `rng` and applies it; returns the outcome, `None` at a
    /// player's turn.
    pub fn sample_and_apply<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<usize> {
        let event = self.event()?;
        let outcome = self.draw(event, rng);
        self.apply_unchecked(event, outcome);
        Some(outcome)
    }

    fn apply_unchecked(&mut self, event: ChanceEvent, outcome: usize) {
        let layout = std::sync::Arc::clone(&self.game.board.layout);
        match event {
            ChanceEvent::ZoneObject { object, .. } | ChanceEvent::RandomObject { object } => {
                self.game
                    .board
                    .set_object(layout.cell(outcome), Some(object));
            }
            ChanceEvent::Player(p) => self.game.pos[usize::from(p)] = layout.cell(outcome),
            ChanceEvent::Draw { .. } => {
                let draw = Object::ALL[outcome];
                match self.phase {
                    Phase::Duel { first: None } => {
                        self.phase = Phase::Duel { first: Some(draw) };
                    }
                    Phase::Duel { first: Some(first) } => {
                        self.game.fight([first, draw]);
                        self.phase = Phase::Play;
                    }
                    _ => unreachable!("a draw is due only in a duel"),
                }
                return;
            }
        }
        if let Phase::Deal { next } = self.phase {
            self.phase = if next + 1 == self.deal_events() {
                Phase::Play
            } else {
                Phase::Deal { next: next + 1 }
            };
        }
    }

    /// Plays `action` for the player to act. `DUEL` does not end the game yet: the two draws
    /// follow as chance nodes.
    ///
    /// # Errors
    /// [`Error::IllegalAction`] as [`Game::play`], and when a chance event is due; the game is
    /// then unchanged.
    pub fn play(&mut self, action: Action) -> Result<(), Error> {
        if self.is_chance() {
            return Err(Error::IllegalAction {
                action,
                player: self.game.to_move(),
                reason: "a chance event is due",
            });
        }
        self.game.check(action)?;
        self.play_unchecked(action);
        Ok(())
    }

    /// Plays `action`, which the caller has checked is legal at a player's turn (the batches'
    /// fast path): `DUEL` leaves the two draws due.
    #[inline]
    pub fn play_unchecked(&mut self, action: Action) {
        if action == Action::Duel {
            self.phase = Phase::Duel { first: None };
        } else {
            self.game.walk(action);
        }
    }
}

/// The weights a bag draws with: its counts, or 1 each when empty.
fn bag_weights(bag: Bag) -> [u64; 3] {
    if bag.is_empty() {
        [1; 3]
    } else {
        Object::ALL.map(|o| u64::from(bag.count(o)))
    }
}

impl fmt::Display for ChanceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ChanceEvent::ZoneObject { object, .. } => {
                write!(f, "the deal of a zone object ({object})")
            }
            ChanceEvent::RandomObject { object } => {
                write!(f, "the deal of a random object ({object})")
            }
            ChanceEvent::Player(p) => write!(f, "player {p}'s starting cell"),
            ChanceEvent::Draw { player } => write!(f, "player {player}'s duel draw"),
        }
    }
}

impl fmt::Display for Chanced {
    /// The game's drawing once dealt; during the deal, how far it has got.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.phase {
            Phase::Deal { next } => write!(
                f,
                "dealing: {next} of {} chance events done, next {}",
                self.deal_events(),
                self.event().map(|e| e.to_string()).unwrap_or_default()
            ),
            _ => write!(f, "{}", self.game),
        }
    }
}

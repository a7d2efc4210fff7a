//! [`Match`]: N games between the same two players, bags carried over.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, GameEnd, MatchInfo, Start};
use crate::rules::Layout;
use crate::{Action, Bag, Error, Observation, Rules};

/// One finished game of a match, as the match's records and statistics need it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSummary {
    /// How it ended.
    pub end: GameEnd,
    /// The player who moved first (0 or 1).
    pub first: u8,
    /// Turns played (one player's action each).
    pub turns: u16,
    /// Both bags when it ended (before the loser's is emptied): the bags a duel drew from.
    pub bags: [Bag; 2],
}

impl GameSummary {
    /// The summary of a finished `game`.
    ///
    /// # Panics
    /// When the game is not over.
    pub fn of(game: &Game) -> GameSummary {
        GameSummary {
            end: game.end().expect("a finished game"),
            first: game.first() as u8,
            turns: game.turn(),
            bags: game.bags(),
        }
    }
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Points of each player (sum of its games' values).
    pub score: [i32; 2],
    /// Duels each player triggered.
    pub duels: [u32; 2],
    /// Each game, in order.
    pub games: Vec<GameSummary>,
    /// The winner: more points; on equal points, more duels triggered; `None` if still tied.
    pub winner: Option<usize>,
}

impl MatchResult {
    /// The match from `player`'s side: +1 won, 0 drawn, -1 lost (the tie-break included).
    pub fn result_for(&self, player: usize) -> i8 {
        match self.winner {
            Some(w) if w == player => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    /// The match winner from the points and the duels triggered (the tie-break).
    pub fn decide(score: [i32; 2], duels: [u32; 2]) -> Option<usize> {
        use std::cmp::Ordering::*;
        match score[0].cmp(&score[1]).then(duels[0].cmp(&duels[1])) {
            Greater => Some(0),
            Less => Some(1),
            Equal => None,
        }
    }
}

/// A match of `rules.games` games, reproducible from its seed: one `ChaCha8Rng` deals every
/// game and draws every duel.
///
/// Between games: the loser of a duel has its bag emptied and the winner keeps its bag; a
/// drawn duel or a timed-out game keeps both bags; the first mover alternates (unless
/// `alternate_first` is off); the objects are dealt anew (or kept with `keep_objects`) and the
/// players placed anew.
#[derive(Clone, Debug)]
pub struct Match {
    layout: Arc<Layout>,
    games: u16,
    alternate_first: bool,
    keep_objects: bool,
    rng: ChaCha8Rng,
    game: Game,
    finished: Vec<GameSummary>,
    actions: Vec<Vec<Action>>,
}

impl Match {
    /// The first game of a match.
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check.
    pub fn new(rules: &Rules, seed: u64) -> Result<Match, Error> {
        let layout = rules.layout(2)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = Game::deal(layout.clone(), Start::default(), &mut rng);
        Ok(Match {
            layout,
            games: rules.games,
            alternate_first: rules.alternate_first,
            keep_objects: rules.keep_objects,
            rng,
            game,
            finished: Vec::new(),
            actions: vec![Vec::new()],
        })
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// 0-based index of the current game.
    pub fn game_index(&self) -> usize {
        self.finished.len()
    }

    /// The actions played in each game so far.
    pub fn actions(&self) -> &[Vec<Action>] {
        &self.actions
    }

    /// `player`'s observation of the current game.
    pub fn observation(&self, player: usize) -> Observation {
        self.game.observation(player)
    }

    /// Plays `action` in the current game.
    ///
    /// # Errors
    /// [`Error::IllegalAction`] as [`Game::play`].
    pub fn play(&mut self, action: Action) -> Result<(), Error> {
        self.game.play(action, &mut self.rng)?;
        self.actions
            .last_mut()
            .expect("one list a game")
            .push(action);
        Ok(())
    }

    /// Whether every game has been played.
    pub fn is_over(&self) -> bool {
        self.game.is_over() && self.finished.len() + 1 >= self.games as usize
    }

    /// Once the current game is over and games remain, settles it and starts the next one;
    /// returns whether a new game started.
    pub fn next_game(&mut self) -> bool {
        if !self.game.is_over() || self.is_over() {
            return false;
        }
        let summary = GameSummary::of(&self.game);
        let end = summary.end;
        let start = Start {
            bags: Match::bags_after(self.game.bags(), end),
            first: if self.alternate_first {
                1 - self.game.first() as u8
            } else {
                0
            },
            info: Match::info_after(self.game.info(), end),
        };
        self.finished.push(summary);
        self.game = if self.keep_objects {
            self.game.redeal_players(start, &mut self.rng)
        } else {
            Game::deal(self.layout.clone(), start, &mut self.rng)
        };
        self.game.info.game = self.finished.len() as u16;
        self.actions.push(Vec::new());
        true
    }

    /// The bags the next game starts with: the loser's emptied, the winner's kept; both kept
    /// on a drawn duel or a time-out.
    pub fn bags_after(bags: [Bag; 2], end: GameEnd) -> [Bag; 2] {
        let mut bags = bags;
        if let GameEnd::Duel(duel) = end
            && let Some(loser) = duel.loser()
        {
            bags[loser as usize] = Bag::EMPTY;
        }
        bags
    }

    fn info_after(info: MatchInfo, end: GameEnd) -> MatchInfo {
        let mut info = info;
        if let GameEnd::Duel(duel) = end {
            for p in 0..2 {
                info.score[p] += duel.value_for(p as u8) as i16;
                if let Some(o) = duel.draw_of(p as u8) {
                    info.revealed[p].add(o);
                }
            }
            info.duels[duel.trigger as usize] += 1;
        }
        info
    }

    /// The result, once every game has been played.
    pub fn result(&self) -> Option<MatchResult> {
        if !self.is_over() {
            return None;
        }
        let mut games = self.finished.clone();
        games.push(GameSummary::of(&self.game));
        let info = games
            .iter()
            .fold(MatchInfo::default(), |i, g| Match::info_after(i, g.end));
        let score = info.score.map(i32::from);
        let duels = info.duels.map(u32::from);
        Some(MatchResult {
            score,
            duels,
            games,
            winner: MatchResult::decide(score, duels),
        })
    }
}

//! [`GameType`]: a game's static facts in OpenSpiel's terms (its `GameType`), for every game of
//! the lab, kits and Chifoumi alike: what generic code and foreign frameworks may rely on.

/// How chance enters a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChanceMode {
    /// No chance once the game has started (a random setup is drawn whole from the seed, before
    /// the first state).
    Deterministic,
    /// Chance nodes in the game, with their outcomes and probabilities.
    ExplicitStochastic,
}

/// What the players see.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Information {
    /// Every player sees the whole state.
    Perfect,
    /// Some of the state is hidden from some player.
    Imperfect,
}

/// How the players' returns relate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Utility {
    /// The returns sum to zero in every terminal state.
    ZeroSum,
    /// The returns sum to the same constant in every terminal state.
    ConstantSum,
    /// No relation.
    GeneralSum,
}

/// A game's static facts (OpenSpiel's `GameType`): the same for all its variants.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameType {
    /// The game's full name (`Pijersi`, `Chifoumi on a grid`).
    pub long_name: &'static str,
    /// How chance enters it.
    pub chance: ChanceMode,
    /// What the players see.
    pub information: Information,
    /// How the returns relate.
    pub utility: Utility,
    /// The fewest players of any variant.
    pub min_players: usize,
    /// The most players of any variant.
    pub max_players: usize,
    /// The lowest return a player can get.
    pub min_utility: f64,
    /// The highest return a player can get.
    pub max_utility: f64,
    /// The sum of the returns in a terminal state, when it is fixed (zero- and constant-sum
    /// games).
    pub utility_sum: Option<f64>,
    /// Whether rewards come only at the end (OpenSpiel's `kTerminal`); otherwise after every
    /// action (`kRewards`).
    pub terminal_rewards: bool,
}

impl GameType {
    /// A two-sided, deterministic, perfect-information, zero-sum game with returns -1, 0 or
    /// +1 (a draw 0), rewarded at its end, for `min_players..=max_players` seats: the lab's
    /// board games (Abalone doubles seats four players in two teams, each seat its side's
    /// return).
    pub const fn board_game(
        long_name: &'static str,
        min_players: usize,
        max_players: usize,
    ) -> GameType {
        GameType {
            long_name,
            chance: ChanceMode::Deterministic,
            information: Information::Perfect,
            utility: Utility::ZeroSum,
            min_players,
            max_players,
            min_utility: -1.0,
            max_utility: 1.0,
            utility_sum: Some(0.0),
            terminal_rewards: true,
        }
    }

    /// OpenSpiel's names of the enums, as its Python `GameType` prints them
    /// (`DETERMINISTIC`, `PERFECT_INFORMATION`, `ZERO_SUM`, `TERMINAL`).
    pub fn open_spiel_names(&self) -> [&'static str; 4] {
        [
            match self.chance {
                ChanceMode::Deterministic => "DETERMINISTIC",
                ChanceMode::ExplicitStochastic => "EXPLICIT_STOCHASTIC",
            },
            match self.information {
                Information::Perfect => "PERFECT_INFORMATION",
                Information::Imperfect => "IMPERFECT_INFORMATION",
            },
            match self.utility {
                Utility::ZeroSum => "ZERO_SUM",
                Utility::ConstantSum => "CONSTANT_SUM",
                Utility::GeneralSum => "GENERAL_SUM",
            },
            if self.terminal_rewards {
                "TERMINAL"
            } else {
                "REWARDS"
            },
        ]
    }
}

//! [`ArenaSeat`]: a two-player [`Player`] seated in the 5-player [`crate::Arena`].

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Player;
use crate::game::MatchInfo;
use crate::{
    Action, ActionSet, Arena, ArenaObservation, ArenaRules, Bag, Cell, Duel, Error, Observation,
};

/// Seats a two-player [`Player`] in an arena: at every turn it sees the arena as a game against
/// one opponent, the nearest player in view (Chebyshev distance, then Manhattan, then seat), and
/// its `DUEL` targets that player.
///
/// The view it gets is its own position, bag and window, that opponent (others in view appear
/// only as empty cells), the turn counted in rounds of the arena's players, and its own score.
/// It observes nothing while it sits out. Its memory of the "match" spans the whole arena.
pub struct ArenaSeat {
    player: Box<dyn Player + Send>,
}

impl ArenaSeat {
    /// Seats `player`; tells it that a new match starts.
    pub fn new(mut player: Box<dyn Player + Send>) -> ArenaSeat {
        player.new_match();
        ArenaSeat { player }
    }

    /// The seated player's spec.
    pub fn name(&self) -> String {
        self.player.name()
    }

    /// Passes an observation on (nothing while the player sits out).
    pub fn observe(&mut self, obs: &ArenaObservation) {
        if obs.sitting_out & (1 << obs.player) == 0 {
            self.player.observe(&two_player_view(obs).0);
        }
    }

    /// The player's action index among `legal` (the arena's indices).
    ///
    /// An answer that is not legal is replaced by the first legal action, so a seat never
    /// stalls the arena.
    pub fn act(&mut self, obs: &ArenaObservation, legal: &[usize], rng: &mut ChaCha8Rng) -> usize {
        let (view, target) = two_player_view(obs);
        let mut set = ActionSet::EMPTY;
        for &a in legal {
            match a {
                0..=3 => set.insert(Action::MOVES[a]),
                4 => set.insert(Action::Stay),
                _ if Some(a - 5) == target => set.insert(Action::Duel),
                _ => {}
            }
        }
        let chosen = self.player.act(&view, set, rng);
        let index = Arena::action_index(chosen, target.unwrap_or(usize::MAX - 5));
        if legal.contains(&index) {
            index
        } else {
            legal[0]
        }
    }
}

/// The nearest player in view of `obs`'s observer, if any.
pub fn nearest_in_view(obs: &ArenaObservation) -> Option<(usize, Cell)> {
    let me = obs.position;
    obs.visible
        .iter()
        .enumerate()
        .filter_map(|(p, c)| c.map(|c| (p, c)))
        .filter(|&(p, _)| p != obs.player as usize)
        .min_by_key(|&(p, c)| (me.chebyshev(c), me.manhattan(c), p))
}

/// The two-player observation an [`ArenaSeat`] shows its player, and the opponent's seat.
fn two_player_view(obs: &ArenaObservation) -> (Observation, Option<usize>) {
    let nearest = nearest_in_view(obs);
    let players = u32::from(obs.players.max(1));
    let rounds = |turns: u32| (turns / players).min(u16::MAX as u32 / 2) as u16;
    let mut info = MatchInfo::default();
    info.score[0] = obs.scores[obs.player as usize];
    info.score[1] = -info.score[0];
    let view = Observation {
        player: 0,
        width: obs.size.0,
        height: obs.size.1,
        radius: obs.radius,
        max_rounds: rounds(obs.turn.1).max(1),
        turn: 2 * rounds(obs.turn.0),
        to_move: (obs.to_move != obs.player) as u8,
        position: obs.position,
        bag: obs.bag,
        opponent: nearest.map(|(_, c)| c),
        window: obs.window,
        info,
        duel: None,
        over: obs.turn.0 >= obs.turn.1,
    };
    (view, nearest.map(|(p, _)| p))
}

/// One duel of an arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArenaDuel {
    /// The arena's turn count when it was fought.
    pub turn: u32,
    /// Trigger, target and draws.
    pub duel: Duel,
    /// The trigger's and the target's bags it drew from.
    pub bags: [Bag; 2],
}

/// The result of one arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaResult {
    /// Each seat's score (duels won minus duels lost).
    pub scores: Vec<i32>,
    /// Every duel, in order.
    pub duels: Vec<ArenaDuel>,
    /// Turns played.
    pub turns: u32,
}

/// Plays a whole arena of `rules` from `seed`, `seats[p]` as player `p` (the arena's generator
/// deals and draws duels; the players' choices come from a second generator seeded from it).
///
/// # Errors
/// [`Error::Rules`] when the rules do not check or the number of seats is not `rules.players`.
pub fn play_arena(
    rules: &ArenaRules,
    seats: &mut [ArenaSeat],
    seed: u64,
) -> Result<ArenaResult, Error> {
    if seats.len() != rules.players as usize {
        return Err(Error::Rules(format!(
            "{} players seated in an arena of {}",
            seats.len(),
            rules.players
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut choices = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut arena = Arena::new(rules, &mut rng)?;
    let mut legal = Vec::new();
    let mut duels = Vec::new();
    let observe_all = |arena: &Arena, seats: &mut [ArenaSeat]| {
        for (p, seat) in seats.iter_mut().enumerate() {
            seat.observe(&arena.observation(p));
        }
    };
    observe_all(&arena, seats);
    while !arena.is_over() {
        let me = arena.to_move();
        arena.legal_actions(&mut legal);
        let action = seats[me].act(&arena.observation(me), &legal, &mut choices);
        let turn = arena.turn();
        let bags = (action >= 5).then(|| [arena.bag(me), arena.bag(action - 5)]);
        arena.play(action, &mut rng)?;
        if let (Some(bags), Some(duel)) = (bags, arena.last_duel()) {
            duels.push(ArenaDuel { turn, duel, bags });
        }
        observe_all(&arena, seats);
    }
    Ok(ArenaResult {
        scores: (0..arena.players()).map(|p| arena.score(p)).collect(),
        duels,
        turns: arena.turn(),
    })
}

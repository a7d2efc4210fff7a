//! Abalone as the network sees it: [`AbaloneEncoder`].

use pjlab_core::{Encoder, EncoderCard, EncoderId};

use crate::action::{NUM_ACTIONS, action_move};
use crate::geometry::{Bitboard, Cell, cells};
use crate::position::{Color, Mode, Position};
use crate::symmetry::{Symmetry, action_from_mover};

/// Abalone from the side to move's point of view (`abalone-planes`, version 1).
///
/// When White is to move the colours are swapped and the board turned half a turn
/// ([`Position::from_mover`]), so the mover always plays Black, from row A up. Layout, cell-major
/// within each plane (cell index = dense rank in the mover's view, `a1` = 0 ... `i9` = 60):
///
/// | plane | content |
/// |---|---|
/// | 0 | the mover's marbles (its colour's, both labels in doubles) |
/// | 1 | the opponent's marbles |
/// | 2 | the marbles the seat to move may move now (before its colour's junction in doubles, only its own label's; otherwise plane 0) |
/// | 3 | doubles: marbles labelled with the seat to move |
/// | 4 | doubles: labelled with its partner's seat |
/// | 5 | doubles: labelled with the opponent seat that moves next |
/// | 6 | doubles: labelled with the other opponent seat (the one that moves after the partner) |
///
/// then six scalars: the mover's ejections / 6, the opponent's / 6, plies since the last
/// ejection / the draw limit (0 without a draw counter), 1 in doubles, and the mover's and the
/// opponent's junction flags (doubles). Input length 433. Planes 3-6 and the last three scalars
/// are 0 in the two-player game.
///
/// Seats are named by their place in the turn order, relative to the seat to move, not by
/// number: that is all the rules read of them (the partner swap `s -> s ^ 2` is a symmetry of
/// the rules), so one network serves every seat and both seat orders. The ply cap of a run is
/// not shown (the colour swap moves the ply count by one, see [`crate::symmetry`]).
///
/// Policy: the dense action index of the move in the mover's view (the half turn of
/// [`Symmetry::HALF_TURN`] when White is to move). Augmentation: the 12 board symmetries
/// ([`Symmetry`]), proven symmetries of the rules (`crates/abalone/tests/symmetry.rs`); they
/// keep the side to move.
#[derive(Copy, Clone, Debug, Default)]
pub struct AbaloneEncoder;

impl AbaloneEncoder {
    /// Planes of 61 cells.
    pub const PLANES: usize = 7;
    /// Scalars after the planes.
    pub const SCALARS: usize = 6;
    /// Input length: the planes and the scalars.
    pub const INPUT_LEN: usize = Self::PLANES * Cell::COUNT + Self::SCALARS;
}

impl Encoder<Position> for AbaloneEncoder {
    fn id(&self) -> EncoderId {
        EncoderId {
            name: "abalone-planes".into(),
            version: 1,
        }
    }

    fn input_len(&self) -> usize {
        Self::INPUT_LEN
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn encode(&self, position: &Position, out: &mut [f32]) {
        debug_assert_eq!(out.len(), Self::INPUT_LEN);
        out.fill(0.0);
        let view = position.from_mover();
        let (me, them) = (Color::Black, Color::White);
        let mut set = |plane: usize, bits: Bitboard| {
            for cell in cells(bits) {
                out[plane * Cell::COUNT + cell.dense()] = 1.0;
            }
        };
        set(0, view.marbles(me));
        set(1, view.marbles(them));
        set(2, view.movable());
        let rules = view.rules();
        if let Mode::Doubles(order) = rules.mode {
            let seat = view.seat();
            let next = order.next(seat);
            set(3, view.seat_marbles(seat));
            set(4, view.seat_marbles(seat.partner()));
            set(5, view.seat_marbles(next));
            set(6, view.seat_marbles(next.partner()));
        }
        let scalars = &mut out[Self::PLANES * Cell::COUNT..];
        let win = f32::from(crate::EJECTIONS_TO_WIN);
        scalars[0] = f32::from(view.ejected(me)) / win;
        scalars[1] = f32::from(view.ejected(them)) / win;
        if let Some(limit) = rules.no_ejection_plies.filter(|&n| n > 0) {
            scalars[2] = f32::from(view.quiet_plies().min(limit)) / f32::from(limit);
        }
        if rules.is_doubles() {
            scalars[3] = 1.0;
            scalars[4] = f32::from(u8::from(view.junction(me)));
            scalars[5] = f32::from(u8::from(view.junction(them)));
        }
    }

    fn policy_index(&self, position: &Position, action: usize) -> usize {
        action_from_mover(position.color_to_move(), action)
    }

    fn symmetries(&self) -> usize {
        Symmetry::COUNT
    }

    fn transform(&self, position: &Position, k: usize) -> Position {
        Symmetry::new(k)
            .expect("symmetry index below 12")
            .map_position(position)
    }

    fn transform_action(&self, action: usize, k: usize) -> usize {
        Symmetry::new(k)
            .expect("symmetry index below 12")
            .map_action(action)
    }

    fn card(&self) -> EncoderCard {
        let cells = || (0..Cell::COUNT).filter_map(Cell::from_dense);
        EncoderCard {
            layout: "7 planes of 61 cells (plane * 61 + cell), then 6 scalars".into(),
            perspective: "the side to move plays Black, from row a up: when White is to move \
                          the board is turned half a turn (each cell to its rotation, see \
                          `rotated_cells`) and the colours swapped; in doubles, seats are \
                          named by their place in the turn order from the seat to move"
                .into(),
            planes: [
                "the mover's marbles",
                "the opponent's marbles",
                "the marbles the seat to move may move now",
                "doubles: marbles of the seat to move",
                "doubles: marbles of its partner",
                "doubles: marbles of the opponent seat that moves next",
                "doubles: marbles of the other opponent seat",
            ]
            .map(String::from)
            .to_vec(),
            scalar: "the mover's ejections / 6, the opponent's ejections / 6, plies since the \
                     last ejection / the draw limit (0 without one), 1 in doubles, the mover's \
                     and the opponent's junction flags (doubles)"
                .into(),
            cells: cells().map(|c| c.to_string()).collect(),
            rotated_cells: cells()
                .map(|c| Symmetry::HALF_TURN.map_cell(c).dense())
                .collect(),
            values: "1.0 where the plane's condition holds, 0.0 elsewhere".into(),
            actions: (0..NUM_ACTIONS)
                .map(|i| action_move(i).map_or_else(String::new, |mv| mv.to_string()))
                .collect(),
            actions_meaning: "`actions[i]` is the Aba-Pro move of action i with Black to move; \
                              with White to move, action i is the move that text names once \
                              each of its cells is rotated (`rotated_cells`); the pass stays"
                .into(),
        }
    }
}

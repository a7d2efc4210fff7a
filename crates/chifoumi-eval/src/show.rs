//! One game drawn as a self-contained HTML page (inline SVG and a few lines of script, no
//! network): a slider, buttons and the arrow keys step through the turns; each player's
//! visibility region is shaded in its colour, its bag and the last action are shown beside the
//! grid, and the duel's draws at the end.

use std::fmt::Write as _;

use pjlab_chifoumi::{Action, Cell, Game, GameEnd, Match, Rules};
use serde::Serialize;

use crate::Error;

/// One moment of a game: the state after `turn` turns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// Turns played.
    pub turn: u16,
    /// The player to move (meaningless once the game is over).
    pub to_move: u8,
    /// Each player's (row, column).
    pub positions: [(u8, u8); 2],
    /// Each player's bag, `[F, P, C]`.
    pub bags: [[u16; 3]; 2],
    /// The objects on the grid: (row, column, letter).
    pub objects: Vec<(u8, u8, char)>,
    /// Whether the players see each other.
    pub in_view: bool,
    /// The action that led here (`None` at the start).
    pub action: Option<String>,
    /// How the game ended, once it has.
    pub end: Option<String>,
}

fn frame(game: &Game, action: Option<Action>) -> Frame {
    let mut objects = Vec::new();
    for row in 0..game.height() {
        for col in 0..game.width() {
            let cell = Cell::new(row as u8, col as u8);
            if let Some(o) = game.object_at(cell) {
                objects.push((row as u8, col as u8, o.letter()));
            }
        }
    }
    let pos = |p: usize| (game.position(p).row, game.position(p).col);
    let end = game.end().map(|e| match e {
        GameEnd::TimeOut => "time-out: a draw".to_string(),
        GameEnd::Duel(d) => {
            let who = |p: u8| format!("player {}", p + 1);
            let result = match d.winner() {
                Some(w) => format!("{} wins", who(w)),
                None => "a draw".into(),
            };
            format!(
                "{} called a duel: {} drew {}, {} drew {}: {result}",
                who(d.trigger),
                who(d.trigger),
                d.draws[0].letter(),
                who(d.target),
                d.draws[1].letter()
            )
        }
    });
    Frame {
        turn: game.turn(),
        to_move: game.to_move() as u8,
        positions: [pos(0), pos(1)],
        bags: [game.bag(0).counts(), game.bag(1).counts()],
        objects,
        in_view: game.in_view(),
        action: action.map(|a| a.to_string()),
        end,
    }
}

/// The page of game `game` (0-based) of the match of `rules` from `seed` whose games' actions
/// are `actions`, between `players` (seat 0 first).
///
/// # Errors
/// [`Error::Game`] when the rules do not check or an action is illegal; [`Error::NoGame`] when
/// the match has no such game.
pub fn match_game_page(
    rules: &Rules,
    seed: u64,
    actions: &[Vec<Action>],
    game: usize,
    players: [String; 2],
) -> Result<Page, Error> {
    if game >= actions.len() {
        return Err(Error::NoGame {
            asked: game,
            games: actions.len(),
        });
    }
    let mut m = Match::new(rules, seed)?;
    for played in &actions[..game] {
        for &a in played {
            m.play(a)?;
        }
        m.next_game();
    }
    let mut frames = vec![frame(m.game(), None)];
    for &a in &actions[game] {
        m.play(a)?;
        frames.push(frame(m.game(), Some(a)));
    }
    let g = m.game();
    let walls = (0..g.height())
        .flat_map(|r| (0..g.width()).map(move |c| Cell::new(r as u8, c as u8)))
        .filter(|&c| g.is_wall(c))
        .map(|c| (c.row, c.col))
        .collect();
    Ok(Page {
        title: format!(
            "Chifoumi: {} against {}, game {game} of the match with seed {seed}",
            players[0], players[1]
        ),
        players,
        size: (g.width(), g.height()),
        radius: g.radius(),
        walls,
        frames,
        player_colours: pjlab_chifoumi::svg::PLAYER_COLOURS,
        object_colours: pjlab_chifoumi::svg::OBJECT_COLOURS,
    })
}

/// What the page shows besides the frames.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The page's title.
    pub title: String,
    /// Each player's label.
    pub players: [String; 2],
    /// Columns and rows.
    pub size: (usize, usize),
    /// Visibility radius.
    pub radius: u8,
    /// Wall cells (row, column).
    pub walls: Vec<(u8, u8)>,
    /// The game, turn by turn.
    pub frames: Vec<Frame>,
    /// The players' colours, as the game's own pictures draw them
    /// ([`pjlab_chifoumi::svg::PLAYER_COLOURS`]).
    pub player_colours: [&'static str; 2],
    /// The objects' colours, F, P and C ([`pjlab_chifoumi::svg::OBJECT_COLOURS`]).
    pub object_colours: [&'static str; 3],
}

const SCRIPT: &str = r##"
const D = JSON.parse(document.getElementById('data').textContent);
const S = 26, [W, H] = D.size, R = D.radius, COL = D.player_colours;
const OBJ = {F: [D.object_colours[0], 'F'], P: [D.object_colours[1], 'P'], C: [D.object_colours[2], 'C']};
const svg = document.getElementById('grid'), slider = document.getElementById('turn');
svg.setAttribute('viewBox', `0 0 ${W * S} ${H * S}`);
svg.setAttribute('width', W * S); svg.setAttribute('height', H * S);
slider.max = D.frames.length - 1;
function rect(x, y, w, h, fill, extra = '') { return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" ${extra}/>`; }
function draw(k) {
  const f = D.frames[k]; let s = '';
  for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) s += rect(c * S, r * S, S, S, '#fff', 'stroke="#ddd"');
  for (const [r, c] of D.walls) s += rect(c * S, r * S, S, S, '#444');
  f.positions.forEach(([r, c], p) => {
    const x0 = Math.max(0, c - R), y0 = Math.max(0, r - R), x1 = Math.min(W - 1, c + R), y1 = Math.min(H - 1, r + R);
    s += rect(x0 * S, y0 * S, (x1 - x0 + 1) * S, (y1 - y0 + 1) * S, COL[p], 'fill-opacity="0.10" stroke="' + COL[p] + '" stroke-dasharray="4 3"');
  });
  for (const [r, c, o] of f.objects) s += `<text x="${c * S + S / 2}" y="${r * S + S * 0.7}" text-anchor="middle" font-weight="bold" font-size="${S * 0.6}" fill="${OBJ[o][0]}">${o}</text>`;
  f.positions.forEach(([r, c], p) => { s += `<circle cx="${c * S + S / 2 + (p ? 4 : -4)}" cy="${r * S + S / 2}" r="${S * 0.33}" fill="${COL[p]}" fill-opacity="0.85"/><text x="${c * S + S / 2 + (p ? 4 : -4)}" y="${r * S + S * 0.62}" text-anchor="middle" font-size="${S * 0.4}" fill="#fff">${p + 1}</text>`; });
  svg.innerHTML = s;
  const bag = b => `F ${b[0]} · P ${b[1]} · C ${b[2]}`;
  let info = `<b>turn ${f.turn}</b> of ${D.frames.length - 1}` + (f.action ? `, last action ${f.action}` : ', the deal') + (f.in_view ? ', <b>in view</b>' : '') + '<br>';
  D.players.forEach((name, p) => { info += `<span style="color:${COL[p]}">■</span> player ${p + 1} (${name}): bag ${bag(f.bags[p])}` + (!f.end && f.to_move === p ? ' — to move' : '') + '<br>'; });
  if (f.end) info += `<b>${f.end}</b>`;
  document.getElementById('info').innerHTML = info; slider.value = k;
}
let k = 0, timer = null;
function go(j) { k = Math.max(0, Math.min(D.frames.length - 1, j)); draw(k); }
slider.oninput = () => go(+slider.value);
document.getElementById('prev').onclick = () => go(k - 1);
document.getElementById('next').onclick = () => go(k + 1);
document.getElementById('play').onclick = () => { if (timer) { clearInterval(timer); timer = null; } else timer = setInterval(() => { if (k + 1 >= D.frames.length) { clearInterval(timer); timer = null; } else go(k + 1); }, 250); };
document.onkeydown = e => { if (e.key === 'ArrowRight') go(k + 1); if (e.key === 'ArrowLeft') go(k - 1); };
go(0);
"##;

/// The page as one HTML document.
pub fn html(page: &Page) -> String {
    let data = serde_json::to_string(page)
        .expect("a page is JSON")
        .replace("</", "<\\/");
    let title = page
        .title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:1em}} #info{{margin:.6em 0;line-height:1.5}} button{{margin-right:.3em}}</style>
</head><body>
<h2>{title}</h2>
<div><button id="prev">◀</button><button id="play">play / pause</button><button id="next">▶</button>
<input id="turn" type="range" min="0" value="0" style="width:20em"></div>
<div id="info"></div>
<svg id="grid" xmlns="http://www.w3.org/2000/svg"></svg>
<p style="color:#666">Dashed squares: each player's visibility region. Arrow keys step through the turns.</p>
<script type="application/json" id="data">{data}</script>
<script>{SCRIPT}</script>
</body></html>
"##
    );
    out
}

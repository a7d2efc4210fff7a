//! The page `pjlab show` writes: one self-contained HTML document (inline SVG boards, a little
//! script, no network), in the style of Chifoumi's game page.
//!
//! Every position is one `<div class="board" data-ply="K">` holding its picture (only the current
//! one shown); every move one `<span class="mv" data-ply="K">` in the move list, K being the ply
//! that the move leads to.

use std::fmt::Write as _;

use pjlab_core::svg::escape;
use pjlab_core::{Game, GameKit, Side};

use crate::cmd::game::result_name;

/// What the page says about the game besides its moves.
pub struct About {
    /// The page's title.
    pub title: String,
    /// Who played (`a vs b`), or empty.
    pub players: String,
    /// The result the record gives (it may differ from the board's: a forfeit, a ply cap).
    pub recorded: Option<String>,
}

const STYLE: &str = r#"
body{font-family:sans-serif;margin:1em;color:#222}
#main{display:flex;gap:1.5em;align-items:flex-start}
#view{flex:0 1 520px;min-width:280px}
.board svg{width:100%;height:auto;display:block}
#info{margin:.5em 0;min-height:3em;line-height:1.5}
#controls button{margin-right:.3em;min-width:2.6em}
#moves{flex:0 1 22em;max-height:85vh;overflow-y:auto;border:1px solid #ddd;padding:.3em .6em}
#moves table{border-collapse:collapse}
#moves td{padding:.1em .5em}
#moves td.num{color:#888;text-align:right}
.mv{cursor:pointer;font-family:monospace;font-size:1.05em;padding:0 .2em;border-radius:3px}
.mv:hover{background:#eee}
.mv.current{background:#ffd43b}
#result{margin-top:.6em;font-weight:bold}
"#;

const SCRIPT: &str = r#"
const boards = Array.from(document.querySelectorAll('.board'));
const moves = Array.from(document.querySelectorAll('.mv'));
const slider = document.getElementById('ply'), info = document.getElementById('info');
const N = boards.length - 1;
slider.max = N;
let k = 0;
function go(j) {
  k = Math.max(0, Math.min(N, j));
  boards.forEach((b, i) => { b.hidden = i !== k; });
  moves.forEach(m => m.classList.toggle('current', +m.dataset.ply === k));
  slider.value = k;
  info.innerHTML = boards[k].dataset.info;
  const cur = moves.find(m => +m.dataset.ply === k);
  if (cur) cur.scrollIntoView({block: 'nearest'});
}
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(k - 1);
document.getElementById('next').onclick = () => go(k + 1);
document.getElementById('last').onclick = () => go(N);
slider.oninput = () => go(+slider.value);
moves.forEach(m => { m.onclick = () => go(+m.dataset.ply); });
document.onkeydown = e => {
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { go(k + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { go(k - 1); e.preventDefault(); }
  if (e.key === 'Home') go(0);
  if (e.key === 'End') go(N);
};
// `page.html#ply=12` opens on ply 12.
go(+((location.hash.match(/ply=(\d+)/) || [0, 0])[1]));
"#;

/// The page of the game played from `start` by `moves` (each legal where it is played).
pub fn html<K: GameKit>(
    start: &K::Game,
    moves: &[<K::Game as Game>::Move],
    about: &About,
) -> String {
    let n = moves.len();
    let mut position = start.clone();
    let end = {
        let mut p = start.clone();
        for &mv in moves {
            p.play_unchecked(mv);
        }
        p
    };
    let mut result = format!("Result on the board: {}", result_name::<K>(end.outcome()));
    if let Some(recorded) = &about.recorded {
        let _ = write!(result, " · recorded: {recorded}");
    }
    let result = escape(&result);
    let info = |k: usize, said: &str| {
        let mut s = format!("<b>ply {k}</b> of {n}{said}");
        if k == n {
            let _ = write!(s, "<br>{result}");
        }
        escape(&s)
    };
    let mut boards = String::new();
    let _ = write!(
        boards,
        r#"<div class="board" data-ply="0" data-info="{}">{}</div>"#,
        info(0, ", the start"),
        K::board_svg(start, None).unwrap_or_default()
    );
    let mut list = String::from("<table>");
    let mut row = 0;
    for (k, &mv) in moves.iter().enumerate() {
        let before = position.clone();
        let side = before.side_to_move();
        let text = escape(&K::move_record(&before, mv));
        position.play_unchecked(mv);
        let said = format!(", {} played <b>{text}</b>", K::INFO.side_name(side));
        let _ = write!(
            boards,
            r#"<div class="board" data-ply="{}" data-info="{}" hidden>{}</div>"#,
            k + 1,
            info(k + 1, &said),
            K::board_svg(&position, Some((&before, mv))).unwrap_or_default()
        );
        if k == 0 || side == Side::First {
            row += 1;
            if k > 0 {
                list.push_str("</tr>");
            }
            let _ = write!(list, r#"<tr><td class="num">{row}.</td>"#);
            if side == Side::Second {
                list.push_str("<td>…</td>");
            }
        }
        let _ = write!(
            list,
            r#"<td><span class="mv" data-ply="{}">{text}</span></td>"#,
            k + 1
        );
    }
    if n > 0 {
        list.push_str("</tr>");
    }
    list.push_str("</table>");
    let [first, second] = K::INFO.sides;
    let title = escape(&about.title);
    let players = if about.players.is_empty() {
        String::new()
    } else {
        format!("<p>{} ({first} / {second})</p>", escape(&about.players))
    };
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{STYLE}</style>
</head><body>
<h2>{title}</h2>
{players}<div id="main"><div id="view">
<div id="controls"><button id="first" title="the start (Home)">« first</button><button id="prev" title="back (←)">‹ prev</button><button id="next" title="forward (→)">next ›</button><button id="last" title="the end (End)">last »</button>
<input id="ply" type="range" min="0" value="0" style="width:14em;vertical-align:middle"></div>
<div id="info"></div>
{boards}
</div>
<div id="moves"><b>Moves</b> ({n} plies)
{list}
<div id="result">{result}</div></div>
</div>
<p style="color:#666">The arrow keys step through the game; click a move to go to it; <code>#ply=N</code> after the page's address opens it on ply N.</p>
<script>{SCRIPT}</script>
</body></html>
"#
    )
}

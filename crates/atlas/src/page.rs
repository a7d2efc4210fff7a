//! The atlas's page: its report as HTML (the same text, tables and charts), example games of the
//! strongest level finished as boards, and a form that writes the `pjlab show` command for any
//! game of any cell.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pulldown_cmark::{Options, Parser, html::push_html};

use crate::Atlas;

/// One game drawn as a board beside the page.
pub struct Example {
    /// Its variant.
    pub variant: String,
    /// Its cell, relative to the atlas's directory.
    pub cell: PathBuf,
    /// Its index in the cell's games file.
    pub index: usize,
    /// Its page, relative to the atlas's directory.
    pub page: String,
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;\
padding:0 1em;color:#222;line-height:1.45}table{border-collapse:collapse;margin:1em 0;\
font-size:0.9em}th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:left}\
th{background:#f2f2f2}img{max-width:100%;border:1px solid #eee}code{background:#f6f6f6;\
padding:0 0.2em}h2{border-bottom:1px solid #ddd;padding-bottom:0.2em;margin-top:2em}\
#command{display:block;margin-top:0.5em;padding:0.5em;background:#f6f6f6}";

/// The page for the atlas in `dir`, from its report's Markdown.
pub fn html(atlas: &Atlas, markdown: &str, examples: &[Example], dir: &Path) -> String {
    let mut body = String::new();
    push_html(&mut body, Parser::new_ext(markdown, Options::ENABLE_TABLES));
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Balance atlas: {}</title><style>{STYLE}</style></head><body>\n{body}",
        escape(&atlas.game)
    );
    let _ = writeln!(page, "<h2>Games as boards</h2>");
    if examples.is_empty() {
        let _ = writeln!(
            page,
            "<p>No level has finished its main protocol's cells yet: no example game.</p>"
        );
    } else {
        let _ = writeln!(
            page,
            "<p>Example games of the strongest level finished (each opens as a board that steps \
             through the game):</p><ul>"
        );
        for e in examples {
            let _ = writeln!(
                page,
                "<li><a href=\"{}\">{} — game {} of <code>{}</code></a></li>",
                escape(&e.page),
                escape(&e.variant),
                e.index,
                escape(&e.cell.display().to_string())
            );
        }
        let _ = writeln!(page, "</ul>");
    }
    let cells: Vec<String> = atlas
        .cells()
        .iter()
        .map(|c| c.dir.display().to_string())
        .collect();
    let _ = writeln!(
        page,
        "<p>Any other game: pick its cell and its index (0-based, in the order of the cell's \
         <code>games.csv</code>), and run the command in the lab's directory.</p>\
         <form onsubmit=\"return false\"><label>cell <select id=\"cell\">"
    );
    for c in &cells {
        let _ = write!(page, "<option>{}</option>", escape(c));
    }
    let _ = writeln!(
        page,
        "</select></label> <label>game <input id=\"index\" type=\"number\" min=\"0\" value=\"0\">\
         </label></form><code id=\"command\"></code>\n<script>\
         const dir={:?};\
         function update(){{const c=document.getElementById('cell').value;\
         const i=Math.max(0,parseInt(document.getElementById('index').value)||0);\
         document.getElementById('command').textContent=\
         'pjlab show '+dir+'/'+c+' --index '+i+' --out game.html';}}\
         document.getElementById('cell').onchange=update;\
         document.getElementById('index').oninput=update;update();</script>",
        dir.display().to_string()
    );
    let _ = writeln!(page, "</body></html>");
    page
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

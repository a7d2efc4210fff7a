//! Small pieces the games' board pictures share: writing a self-contained SVG (the opening tag
//! with its `viewBox`, escaped text, hexagons) and reading one back (its elements and their
//! attributes, and whether its tags balance), which is how the games' tests check that a picture
//! shows its position.
//!
//! A game draws its positions in its own crate (`pjlab_pijersi::svg`, ...) and offers them to
//! generic code through [`crate::GameKit::board_svg`].
//!
//! ```
//! use pjlab_core::svg;
//! let mut out = svg::open(100.0, 50.0, "a <test>");
//! out.push_str(r#"<g class="piece white rock" data-cell="c3"></g></svg>"#);
//! let pieces: Vec<_> = svg::elements(&out).into_iter().filter(|e| e.has_class("piece")).collect();
//! assert_eq!(pieces[0].attr("data-cell"), Some("c3"));
//! assert!(pieces[0].has_class("rock"));
//! assert!(svg::balanced(&out).is_ok());
//! ```

use std::fmt::Write as _;

/// Text with `&`, `<`, `>` and `"` escaped, for SVG text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The opening of a picture `width` x `height` user units wide, scaling with its `viewBox`, in
/// the generic sans-serif family (no font file), with its `title` and a white background. The
/// caller closes it with `</svg>`.
pub fn open(width: f64, height: f64, title: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" role="img"><title>{}</title><rect width="100%" height="100%" fill="#fff"/>"##,
        escape(title)
    );
    out
}

/// The `points` of a hexagon with a vertex at the top (pointy-top) centred on `(cx, cy)`, with
/// circumradius `r`.
pub fn hexagon(cx: f64, cy: f64, r: f64) -> String {
    let mut out = String::new();
    for k in 0..6 {
        let angle = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 90.0);
        let _ = write!(
            out,
            "{}{:.1},{:.1}",
            if k == 0 { "" } else { " " },
            cx + r * angle.cos(),
            cy + r * angle.sin()
        );
    }
    out
}

/// One opening (or self-closing) tag of a picture, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// The tag's name (`g`, `circle`, `text`, ...).
    pub name: String,
    /// Its attributes in order, values unescaped of nothing (as written).
    pub attrs: Vec<(String, String)>,
    /// The text right after the tag, up to the next tag (a `<text>`'s words), trimmed.
    pub text: String,
}

impl Element {
    /// The value of attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the `class` attribute lists `class`.
    pub fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_whitespace().any(|w| w == class))
    }
}

/// Every opening or self-closing tag of `svg` in document order, with its attributes (comments,
/// closing tags and `<?...?>` skipped). A reader for tests and tools, not a general XML parser:
/// attribute values must be quoted with `"`.
pub fn elements(svg: &str) -> Vec<Element> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('/') || tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        let tag = tag.trim_end_matches('/');
        let (name, mut attrs_text) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        let mut attrs = Vec::new();
        while let Some(eq) = attrs_text.find("=\"") {
            let key = attrs_text[..eq].trim().to_string();
            let after = &attrs_text[eq + 2..];
            let Some(close) = after.find('"') else { break };
            attrs.push((key, after[..close].to_string()));
            attrs_text = &after[close + 1..];
        }
        let text = rest[..rest.find('<').unwrap_or(rest.len())]
            .trim()
            .to_string();
        out.push(Element {
            name: name.to_string(),
            attrs,
            text,
        });
    }
    out
}

/// Checks that every opening tag of `svg` is closed in order and that it is one `<svg>` element.
///
/// # Errors
/// The first tag out of place, in words.
pub fn balanced(svg: &str) -> Result<(), crate::Error> {
    balanced_text(svg).map_err(crate::Error::Picture)
}

fn balanced_text(svg: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = svg.trim();
    if !rest.starts_with("<svg") {
        return Err("the picture does not start with <svg".into());
    }
    let mut roots = 0;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').ok_or("a tag is not closed by >")?;
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.starts_with('?') || tag.ends_with('/') {
            continue;
        }
        let name = tag.split_whitespace().next().unwrap_or("");
        if let Some(closing) = name.strip_prefix('/') {
            match open.pop() {
                Some(top) if top == closing => {}
                top => return Err(format!("</{closing}> closes <{}>", top.unwrap_or(""))),
            }
        } else {
            if open.is_empty() {
                roots += 1;
            }
            open.push(name);
        }
    }
    match (open.last(), roots) {
        (Some(name), _) => Err(format!("<{name}> is never closed")),
        (None, 1) => Ok(()),
        (None, n) => Err(format!("{n} root elements")),
    }
}

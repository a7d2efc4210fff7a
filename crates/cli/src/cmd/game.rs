//! `--game`: which game's rules a command uses.

/// A game whose rules the rules-level commands (`perft`, `setup`, `replay`) know.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum GameName {
    /// Pijersi (PSN positions, UGI moves, the rulebook notation).
    #[default]
    Pijersi,
    /// Abalone, two players or doubles (position text of the spec, Aba-Pro notation).
    Abalone,
}

/// Reads a file, or standard input for `-`.
pub fn read_input(file: &str) -> anyhow::Result<String> {
    use anyhow::Context;
    use std::io::Read;
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))
    }
}

/// The Abalone position a command starts from: `--position` under `--variant`'s rules (the
/// text's own when no variant is named), or the variant's start (standard by default).
pub fn abalone_start(
    variant: Option<&str>,
    position: Option<&str>,
) -> anyhow::Result<pjlab_abalone::Position> {
    use pjlab_abalone::{Position, Variant};
    let variant = variant.map(str::parse::<Variant>).transpose()?;
    Ok(match (variant, position) {
        (None, None) => Variant::Standard.start(),
        (Some(variant), None) => variant.start(),
        (None, Some(text)) => Position::from_text(text)?,
        (Some(variant), Some(text)) => variant.adopt(Position::from_text(text)?)?,
    })
}

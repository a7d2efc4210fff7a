//! `pjlab show`: one recorded game of any registry game as a self-contained HTML page.
//!
//! The inputs are read here (a run's Parquet games, the arena's `games.txt`, a record in the
//! game's notation through [`crate::cmd::replay::read_record`]); the page is drawn by
//! [`page`] from the kit's board pictures ([`pjlab_core::GameKit::board_svg`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pjlab_core::{Game, GameKit, SetupVariant};
use pjlab_selfplay::{GameRow, read_games};

use crate::cmd::game::{GameName, read_input};
use crate::cmd::replay::Line;

mod page;

/// Write one recorded game as a self-contained HTML page that steps through it.
///
/// The page shows the board of every position (an SVG picture: pieces, the side to move, the
/// last move marked, coordinates), the move that led to it in the game's notation, a move list
/// to click, and the result at the end; buttons, a slider and the arrow keys (Home / End for the
/// ends) step through the game. It needs no network: open it in any browser.
///
/// INPUT is any of:
///
/// - a run directory of `pjlab match`, `tournament` or `balance` (its `games.parquet`), or of
///   `pjlab train` (its `games/*.parquet`, in file order), or such a Parquet file; `--index`
///   picks the game (0-based, in the file's order), and the game is the record's own;
///
/// - a `games.txt` that a run's report writes (a `[game ...]` header line, then the game in the
///   game's notation), whole or one game copied from it; `--index` picks the game;
///
/// - a file in the game's notation, as `pjlab replay` reads it (Pijersi: the rulebook notation;
///   Abalone: Aba-Pro from `--variant`'s start or `--position`; Chomp: moves `row,col`), or `-`
///   for standard input.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// A run directory, a games.parquet, a games.txt or a record in the game's notation (`-`:
    /// standard input).
    input: String,
    /// The game (a Parquet record names its own; pijersi by default for text).
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Which game of a games.parquet or games.txt, 0-based, in the file's order.
    #[arg(long, default_value_t = 0)]
    index: usize,
    /// Variant (Abalone, Chomp) of a record in the game's notation: its start, or its rules for
    /// `--position`; a games.txt names its own.
    #[arg(long)]
    variant: Option<String>,
    /// Position text a record in the game's notation starts from (Abalone, Chomp).
    #[arg(long)]
    position: Option<String>,
    /// The page to write (default: `<input's name>-<index>.html` in the current directory, or
    /// `<record's name>.html` for a record in the game's notation).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// One recorded game, before its game is known: where it came from and its text.
enum Record {
    /// A row of a games table.
    Row(Box<GameRow>),
    /// A `games.txt` entry: its header's fields and the game in the game's notation.
    Entry { header: Header, body: String },
    /// A record in the game's notation.
    Notation(String),
}

/// A `games.txt` header: `[game ID | VARIANT | setup SEED | A vs B | RESULT | ENDING]`.
#[derive(Debug)]
struct Header {
    id: String,
    variant: String,
    setup: u64,
    players: String,
    result: String,
    ending: String,
}

/// Writes the page of game `index` (in file order) of the run in `dir` to `out`.
///
/// # Errors
/// As `pjlab show`: an unreadable run, an index past its games, a file that cannot be written.
pub fn write_run_game(dir: &Path, index: usize, out: &Path) -> Result<()> {
    let args = Args {
        input: dir.display().to_string(),
        game: None,
        index,
        variant: None,
        position: None,
        out: Some(out.to_path_buf()),
    };
    page_file(&args).map(|_| ())
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let out = page_file(&args)?;
    println!("{}", out.display());
    Ok(())
}

/// Writes the page `args` asks for and returns its path.
fn page_file(args: &Args) -> Result<PathBuf> {
    let (record, stem) = load(args)?;
    let game = match (&record, args.game) {
        (Record::Row(row), given) => {
            let own =
                GameName::parse(&row.game).map_err(|e| anyhow::anyhow!("{}: {e}", args.input))?;
            if let Some(given) = given.filter(|&g| g != own) {
                bail!(
                    "--game {} given, but {} holds a {} game",
                    given.name(),
                    args.input,
                    own.name()
                );
            }
            own
        }
        (_, given) => given.unwrap_or_default(),
    };
    if !matches!(record, Record::Notation(_)) && (args.variant.is_some() || args.position.is_some())
    {
        bail!(
            "--variant and --position are for a record in the game's notation; a run's records name their start"
        );
    }
    let html = crate::with_game!(game, |K| page_of::<K>(args, &record))?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from(stem));
    std::fs::write(&out, html).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(out)
}

/// Reads the input, picks the game `--index` names, and proposes the page's file name.
fn load(args: &Args) -> Result<(Record, String)> {
    let path = Path::new(&args.input);
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .or_else(|| {
            let whole = path.canonicalize().ok()?;
            Some(whole.file_name()?.to_string_lossy().into_owned())
        })
        .filter(|name| name != "-")
        .unwrap_or_else(|| "game".to_string());
    let indexed = |what: &str| format!("{name}-{what}{}.html", args.index);
    if args.input != "-" && path.is_dir() {
        let rows = run_rows(path)?;
        let row = pick(rows, args.index, &args.input)?;
        return Ok((Record::Row(Box::new(row)), indexed("game")));
    }
    if args.input.ends_with(".parquet") {
        let rows = read_games(path).with_context(|| format!("cannot read {}", args.input))?;
        let row = pick(rows, args.index, &args.input)?;
        return Ok((Record::Row(Box::new(row)), indexed("game")));
    }
    let text = read_input(&args.input)?;
    if text.trim_start().starts_with("[game ") {
        let entries = entries(&text, &args.input)?;
        let (header, body) = pick(entries, args.index, &args.input)?;
        return Ok((Record::Entry { header, body }, indexed("game")));
    }
    if args.index != 0 {
        bail!(
            "--index is for a run's games; {} is one game in its notation",
            args.input
        );
    }
    Ok((Record::Notation(text), format!("{name}.html")))
}

/// A run directory's games: its `games.parquet`, or a training run's `games/*.parquet` in name
/// order.
fn run_rows(dir: &Path) -> Result<Vec<GameRow>> {
    let file = dir.join("games.parquet");
    if file.is_file() {
        return read_games(&file).with_context(|| format!("cannot read {}", file.display()));
    }
    let chunks = dir.join("games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&chunks)
        .map(|entries| {
            entries
                .filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
                .collect()
        })
        .unwrap_or_default();
    if files.is_empty() {
        bail!(
            "{} holds no games.parquet and no games/*.parquet: not a run directory with games",
            dir.display()
        );
    }
    files.sort();
    let mut rows = Vec::new();
    for f in files {
        rows.extend(read_games(&f).with_context(|| format!("cannot read {}", f.display()))?);
    }
    Ok(rows)
}

/// Item `index` of `items`, or an error naming how many there are.
fn pick<T>(items: Vec<T>, index: usize, input: &str) -> Result<T> {
    let n = items.len();
    items.into_iter().nth(index).ok_or_else(|| match n {
        0 => anyhow::anyhow!("{input} holds no game"),
        _ => anyhow::anyhow!(
            "--index {index}: {input} holds {n} game{} (indices 0 to {})",
            if n == 1 { "" } else { "s" },
            n - 1
        ),
    })
}

/// The entries of a `games.txt`: each header line and the record under it.
fn entries(text: &str, input: &str) -> Result<Vec<(Header, String)>> {
    let mut out: Vec<(Header, String)> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("[game ") {
            let header = header(line.trim())
                .with_context(|| format!("{input}, line {}: bad header {line:?}", k + 1))?;
            out.push((header, String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    Ok(out)
}

/// Reads `[game ID | VARIANT | setup SEED | A vs B | RESULT | ENDING]` (the players' labels may
/// hold `|`: they are what the other fields leave).
fn header(line: &str) -> Result<Header> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .context("a header is [game ... ]")?;
    let fields: Vec<&str> = inner.split(" | ").collect();
    if fields.len() < 6 {
        bail!("a header has 6 fields separated by ` | `");
    }
    let n = fields.len();
    let setup = fields[2]
        .strip_prefix("setup ")
        .and_then(|s| s.parse().ok())
        .context("the third field is `setup N`")?;
    Ok(Header {
        id: fields[0].trim_start_matches("game ").to_string(),
        variant: fields[1].to_string(),
        setup,
        players: fields[3..n - 2].join(" | "),
        result: fields[n - 2].to_string(),
        ending: fields[n - 1].to_string(),
    })
}

/// The page of `record` under kit `K`: its start, its moves checked one by one, its labels.
fn page_of<K: GameKit>(args: &Args, record: &Record) -> Result<String> {
    let input = &args.input;
    let (start, moves, mut about) = match record {
        Record::Row(row) => {
            let (start, moves) = replay_row::<K>(row)
                .with_context(|| format!("{input}, game {} (index {})", row.game_id, args.index))?;
            let about = page::About {
                title: format!("{} game {} of {input}", K::INFO.name, row.game_id),
                players: row.network.clone(),
                recorded: Some(format!(
                    "{} ({})",
                    recorded_result::<K>(row.result),
                    row.termination
                )),
            };
            (start, moves, about)
        }
        Record::Entry { header, body } => {
            let start = entry_start::<K>(header, body)
                .with_context(|| format!("{input}, game {}", header.id))?;
            let moves = K::parse_record(body, &start)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("{input}, game {}", header.id))?;
            let about = page::About {
                title: format!("{} game {} of {input}", K::INFO.name, header.id),
                players: header.players.clone(),
                recorded: Some(format!("{} ({})", header.result, header.ending)),
            };
            (start, moves, about)
        }
        Record::Notation(text) => {
            let (start, moves) = crate::cmd::replay::read_record::<K>(
                text,
                input,
                args.position.as_deref(),
                args.variant.as_deref(),
            )?;
            let about = page::About {
                title: format!("{} game from {input}", K::INFO.name),
                players: String::new(),
                recorded: None,
            };
            (start, moves, about)
        }
    };
    if K::board_svg(&start, None).is_none() {
        bail!("{} has no board picture", K::INFO.name);
    }
    about.title = capitalised(&about.title);
    Ok(page::html::<K>(&start, &moves, &about))
}

/// A games-table row replayed: its start (under its variant's rules where the variant names
/// some) and its moves, each checked where it is played.
fn replay_row<K: GameKit>(row: &GameRow) -> Result<Line<K>> {
    let mut start = K::Game::from_text(&row.start)
        .map_err(|e| anyhow::anyhow!("bad start {:?}: {e}", row.start))?;
    if let Ok(variant) = K::variant(&row.variant) {
        start = variant.adopt(start).map_err(anyhow::Error::msg)?;
    }
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(row.moves.len());
    for (k, text) in row.moves.iter().enumerate() {
        let mv = position
            .parse_move(text)
            .and_then(|mv| position.play(mv).map(|()| mv))
            .map_err(|e| anyhow::anyhow!("move {} ({text:?}): {e}", k + 1))?;
        moves.push(mv);
    }
    Ok((start, moves))
}

/// The start of a `games.txt` entry: the one its record holds, or its variant's setup.
fn entry_start<K: GameKit>(header: &Header, body: &str) -> Result<K::Game> {
    if K::RECORD_HOLDS_START {
        return K::record_start(body).map_err(anyhow::Error::msg);
    }
    let variant = K::variant(&header.variant).map_err(anyhow::Error::msg)?;
    Ok(match variant.count() {
        Some(n) => variant.nth(header.setup % n),
        None => variant.start(header.setup),
    })
}

/// A table's result (1, 0, -1 from the first side's view) in words.
fn recorded_result<K: GameKit>(result: i8) -> String {
    let [first, second] = K::INFO.sides;
    match result {
        1 => format!("{first} won"),
        -1 => format!("{second} won"),
        _ => "draw".into(),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_read_back() {
        let h = header("[game 3 | belgian-daisy | setup 7 | a | b vs c | 0-1 | forfeit]")
            .expect("a header");
        assert_eq!(
            (
                h.id.as_str(),
                h.variant.as_str(),
                h.setup,
                h.players.as_str()
            ),
            ("3", "belgian-daisy", 7, "a | b vs c")
        );
        assert_eq!((h.result.as_str(), h.ending.as_str()), ("0-1", "forfeit"));
        assert!(header("[game 3 | classic]").is_err());
        assert!(header("[game 3 | classic | seed 1 | a vs b | 1-0 | rules]").is_err());
    }

    #[test]
    fn picking_names_the_range() {
        let err = pick(vec![1, 2], 5, "x").expect_err("out of range");
        assert_eq!(
            err.to_string(),
            "--index 5: x holds 2 games (indices 0 to 1)"
        );
        assert_eq!(
            pick(Vec::<u8>::new(), 0, "x")
                .expect_err("empty")
                .to_string(),
            "x holds no game"
        );
    }
}

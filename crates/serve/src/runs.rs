//! Recorded games under `--runs DIR`: the files that hold them, and one game read back. Paths
//! come from requests, so every one is checked: relative, no `..`, no component that is a
//! symbolic link, and inside the directory once resolved.

use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

use crate::ApiError;

/// The most files a listing names.
pub const MAX_FILES: usize = 5_000;
/// How deep a listing looks under the directory.
pub const MAX_DEPTH: usize = 8;
/// The largest record file read, in bytes.
pub const MAX_FILE: u64 = 64 * 1024 * 1024;

/// Whether `name` is a file that holds recorded games: a run's Parquet games or a games text.
fn holds_games(name: &str) -> bool {
    name.ends_with(".parquet") && !name.starts_with("positions") || name.ends_with(".txt")
}

/// The record files under `root`, relative, sorted; symbolic links are skipped.
pub fn list(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
                continue;
            };
            let path = entry.path();
            if meta.file_type().is_symlink() {
                continue;
            }
            if meta.is_dir() && depth + 1 < MAX_DEPTH {
                stack.push((path, depth + 1));
            } else if meta.is_file()
                && let Some(name) = path.file_name().and_then(|n| n.to_str())
                && holds_games(name)
                && let Ok(rel) = path.strip_prefix(root)
                && let Some(rel) = rel.to_str()
            {
                found.push(rel.replace('\\', "/"));
                if found.len() >= MAX_FILES {
                    found.sort();
                    return found;
                }
            }
        }
    }
    found.sort();
    found
}

/// `rel` under `root`, checked.
///
/// # Errors
/// [`ApiError::Bad`] for an absolute path, a `..` or a symbolic link on the way, or a path
/// that resolves outside `root`; [`ApiError::NotFound`] for a file that is not there.
pub fn resolve(root: &Path, rel: &str) -> Result<PathBuf, ApiError> {
    if rel.is_empty() || rel.len() > 1024 || rel.contains('\0') {
        return Err(ApiError::Bad("path: a relative path under --runs".into()));
    }
    let relative = Path::new(rel);
    let mut path = root.to_path_buf();
    for component in relative.components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            Component::ParentDir => return Err(ApiError::Bad("path: `..` is refused".into())),
            Component::RootDir | Component::Prefix(_) => {
                return Err(ApiError::Bad("path: absolute paths are refused".into()));
            }
        }
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(ApiError::Bad("path: symbolic links are refused".into()));
            }
            Ok(_) => {}
            Err(_) => return Err(ApiError::NotFound(format!("{rel}: no such file"))),
        }
    }
    let (Ok(real), Ok(real_root)) = (path.canonicalize(), root.canonicalize()) else {
        return Err(ApiError::NotFound(format!("{rel}: no such file")));
    };
    if !real.starts_with(&real_root) {
        return Err(ApiError::Bad("path: outside --runs".into()));
    }
    if !real.is_file() {
        return Err(ApiError::Bad(format!("{rel}: not a file")));
    }
    Ok(real)
}

/// A recorded game: its game's name (`None` for a text record, which does not say), and the
/// fields that place it: a start text, or a variant and seed, and moves or a record text.
#[derive(Debug)]
pub struct Recorded {
    /// The game, where the file names it.
    pub game: Option<String>,
    /// The start's position text.
    pub start: Option<String>,
    /// The variant.
    pub variant: Option<String>,
    /// The setup seed.
    pub seed: Option<u64>,
    /// The moves in the game's notation (Parquet records).
    pub moves: Vec<String>,
    /// The record in the game's notation (text records).
    pub record: Option<String>,
    /// The header or other words that describe it.
    pub title: String,
    /// How many games the file holds.
    pub count: usize,
}

/// Game `index` of the file at `path`.
///
/// # Errors
/// [`ApiError::Bad`] when the file cannot be read; [`ApiError::NotFound`] for an index past
/// its games.
pub fn read(path: &Path, index: usize) -> Result<Recorded, ApiError> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if size > MAX_FILE {
        return Err(ApiError::Bad(format!("record file over {MAX_FILE} bytes")));
    }
    let name = path.to_string_lossy();
    if name.ends_with(".parquet") {
        let rows = pjlab_selfplay::read_games(path)
            .map_err(|e| ApiError::Bad(format!("cannot read the games: {e}")))?;
        let count = rows.len();
        let row = rows.into_iter().nth(index).ok_or_else(|| {
            ApiError::NotFound(format!("index {index}: the file holds {count} games"))
        })?;
        return Ok(Recorded {
            title: format!(
                "game {} | {} | setup {} | {} | {}",
                row.game_id, row.variant, row.setup_seed, row.result, row.termination
            ),
            game: Some(row.game),
            start: Some(row.start),
            variant: Some(row.variant),
            seed: Some(row.setup_seed),
            moves: row.moves,
            record: None,
            count,
        });
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| ApiError::Bad(format!("cannot read the file: {e}")))?;
    if !text.trim_start().starts_with("[game ") {
        if index != 0 {
            return Err(ApiError::NotFound("the file holds one game".into()));
        }
        return Ok(Recorded {
            game: None,
            start: None,
            variant: None,
            seed: None,
            moves: Vec::new(),
            record: Some(text),
            title: String::new(),
            count: 1,
        });
    }
    // A games.txt: `[game ID | VARIANT | setup SEED | A vs B | RESULT | ENDING]`, the game under it.
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("[game ") {
            entries.push((line.trim().to_string(), String::new()));
        } else if let Some((_, body)) = entries.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    let count = entries.len();
    let (header, body) = entries.into_iter().nth(index).ok_or_else(|| {
        ApiError::NotFound(format!("index {index}: the file holds {count} games"))
    })?;
    let fields: Vec<&str> = header
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(" | ")
        .collect();
    Ok(Recorded {
        game: None,
        start: None,
        variant: fields.get(1).map(|v| v.to_string()),
        seed: fields
            .get(2)
            .and_then(|s| s.strip_prefix("setup "))
            .and_then(|s| s.parse().ok()),
        moves: Vec::new(),
        record: Some(body),
        title: header,
        count,
    })
}

/// The listing's answer.
pub fn list_json(root: &Path) -> Value {
    json!({ "files": list(root) })
}

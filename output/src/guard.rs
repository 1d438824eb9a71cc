//! What may be written: the inputs a command reads, `force`, and what kind of file a path is.

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::{Dataset, Error, Output};

/// An input as the guard knows it.
#[derive(Clone, Debug)]
struct Known {
    /// Made absolute, links resolved (as named when it does not exist).
    real: PathBuf,
    is_dir: bool,
    /// Device and inode, where the platform has them.
    id: Option<(u64, u64)>,
}

/// Where a path sends the bytes, as [`Guard::check`] decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// `-`: standard output.
    Stdout,
    /// A character device or FIFO, opened and written through (never replaced).
    Through(PathBuf),
    /// A regular file, written under a temporary name and renamed into place; `replaces` when
    /// one is there already (`force` was given).
    File {
        /// The path.
        path: PathBuf,
        /// A file is there and will be replaced.
        replaces: bool,
    },
}

/// What protects the files a command writes: the inputs it reads, and `force`.
#[derive(Clone, Debug)]
pub struct Guard {
    inputs: Vec<Known>,
    force: bool,
}

impl Guard {
    /// A guard for a command reading `inputs` (files and directories as named; `-` is stdin and
    /// protects nothing), replacing existing outputs only with `force`.
    pub fn new(inputs: &[PathBuf], force: bool) -> Guard {
        let inputs = inputs
            .iter()
            .filter(|p| p.as_os_str() != "-")
            .map(|p| {
                let meta = fs::metadata(p).ok();
                Known {
                    real: resolve(p),
                    is_dir: meta.as_ref().is_some_and(fs::Metadata::is_dir),
                    id: meta.as_ref().and_then(file_id),
                }
            })
            .collect();
        Guard { inputs, force }
    }

    /// Whether existing outputs are replaced.
    pub fn force(&self) -> bool {
        self.force
    }

    /// Whether `path` is one of the inputs or lies inside an input directory (whether or not
    /// it exists).
    pub fn is_input(&self, path: &Path) -> bool {
        let id = fs::metadata(path).ok().as_ref().and_then(file_id);
        let real = resolve(path);
        self.inputs.iter().any(|i| {
            (id.is_some() && id == i.id)
                || real == i.real
                || (i.is_dir && real.starts_with(&i.real))
        })
    }

    /// Whether an input lies inside the directory `dir` (so that replacing `dir` would remove
    /// it).
    fn holds_input(&self, dir: &Path) -> bool {
        let real = resolve(dir);
        self.inputs.iter().any(|i| i.real.starts_with(&real))
    }

    /// Where writing `path` goes, or why it may not be written.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], [`Error::Exists`] (without `force`), [`Error::IsDirectory`],
    /// [`Error::Special`] (a block device, a socket).
    pub fn check(&self, path: &Path) -> Result<Destination, Error> {
        if path.as_os_str() == "-" {
            return Ok(Destination::Stdout);
        }
        if self.is_input(path) {
            return Err(Error::Input(path.to_path_buf()));
        }
        let Ok(link) = fs::symlink_metadata(path) else {
            return Ok(Destination::File {
                path: path.to_path_buf(),
                replaces: false,
            });
        };
        // what a link points at decides whether it is a device; a link to a regular file is
        // replaced (with force) as a file, never written through
        let target = fs::metadata(path).unwrap_or(link);
        if let Some(kind) = special(&target) {
            return match kind {
                Special::Through => Ok(Destination::Through(path.to_path_buf())),
                Special::Refused(what) => Err(Error::Special(path.to_path_buf(), what)),
            };
        }
        if target.is_dir() {
            return Err(Error::IsDirectory(path.to_path_buf()));
        }
        if !self.force {
            return Err(Error::Exists(path.to_path_buf()));
        }
        Ok(Destination::File {
            path: path.to_path_buf(),
            replaces: true,
        })
    }

    /// Opens `path` for writing, as [`check`](Self::check) decides: standard output, a device
    /// written through, or a file under a temporary name until [`Output::commit`].
    ///
    /// # Errors
    ///
    /// Those of [`check`](Self::check), and the I/O error of creating the file (naming it).
    pub fn create(&self, path: &Path) -> Result<Output, Error> {
        let dest = self.check(path)?;
        Output::open(dest, self.clone())
    }

    /// Starts a dataset directory at `dir`: built beside it under a temporary name and swapped
    /// in by [`Dataset::commit`].
    ///
    /// # Errors
    ///
    /// [`Error::Input`] (`dir` is or lies inside an input, or an input lies inside it),
    /// [`Error::Exists`] (without `force`), [`Error::Foreign`] (the directory to replace holds
    /// files kifu did not write), [`Error::Special`], and I/O errors naming the path.
    pub fn dataset(&self, dir: &Path, extension: &str) -> Result<Dataset, Error> {
        let replaces = self.check_dataset(dir, extension)?;
        Dataset::start(dir, replaces, self.clone())
    }

    /// Whether a dataset directory may be written at `dir` (as [`dataset`](Self::dataset)
    /// checks it, creating nothing); whether it replaces one.
    ///
    /// # Errors
    ///
    /// Those of [`dataset`](Self::dataset) but I/O errors of creating.
    pub fn check_dataset(&self, dir: &Path, extension: &str) -> Result<bool, Error> {
        if dir.as_os_str() == "-" {
            return Err(Error::Special(
                dir.to_path_buf(),
                "stdout (a dataset is a directory)",
            ));
        }
        if self.is_input(dir) || self.holds_input(dir) {
            return Err(Error::Input(dir.to_path_buf()));
        }
        let replaces = match fs::symlink_metadata(dir) {
            Err(_) => false,
            Ok(_) if !self.force => return Err(Error::Exists(dir.to_path_buf())),
            Ok(m) => {
                let target = fs::metadata(dir).unwrap_or(m);
                if let Some(kind) = special(&target) {
                    let what = match kind {
                        Special::Through => "device or FIFO",
                        Special::Refused(what) => what,
                    };
                    return Err(Error::Special(dir.to_path_buf(), what));
                }
                if target.is_dir()
                    && let Some(foreign) = foreign_entry(dir, extension)?
                {
                    return Err(Error::Foreign(dir.to_path_buf(), foreign));
                }
                true
            }
        };
        Ok(replaces)
    }
}

/// What kind of special file a path is.
enum Special {
    /// Written through.
    Through,
    /// Refused, with its kind in words.
    Refused(&'static str),
}

#[cfg(unix)]
fn special(m: &fs::Metadata) -> Option<Special> {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_char_device() || t.is_fifo() {
        Some(Special::Through)
    } else if t.is_block_device() {
        Some(Special::Refused("block device"))
    } else if t.is_socket() {
        Some(Special::Refused("socket"))
    } else {
        None
    }
}

#[cfg(not(unix))]
fn special(m: &fs::Metadata) -> Option<Special> {
    (!m.is_file() && !m.is_dir()).then_some(Special::Through)
}

#[cfg(unix)]
fn file_id(m: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// `path` made absolute with its links resolved; where it does not exist, its nearest
/// existing ancestor resolved and the rest joined as named (`..` and `.` taken lexically).
pub(crate) fn resolve(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path))
    };
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = fs::canonicalize(at) {
            let mut out = real;
            for c in rest.iter().rev() {
                match c {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::CurDir => {}
                    c => out.push(c),
                }
            }
            return out;
        }
        match (at.parent(), at.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                at = parent;
            }
            _ => return absolute,
        }
    }
}

/// Whether a name is one kifu writes in a dataset directory of files ending in `.extension`:
/// `part-NNNNN.EXT` (five digits or more) and `_SUCCESS`.
pub(crate) fn is_ours(name: &str, extension: &str) -> bool {
    if name == "_SUCCESS" {
        return true;
    }
    name.strip_prefix("part-")
        .and_then(|r| r.strip_suffix(extension))
        .and_then(|r| r.strip_suffix('.'))
        .is_some_and(|d| d.len() >= 5 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The first entry of `dir` kifu did not write, if any: part files and `_SUCCESS`, and Hive
/// partition folders (`year=2024`, not a link) holding only part files and partition folders,
/// at most 16 levels deep.
fn foreign_entry(dir: &Path, extension: &str) -> Result<Option<String>, Error> {
    foreign_below(dir, extension, 0)
}

fn foreign_below(dir: &Path, extension: &str, depth: usize) -> Result<Option<String>, Error> {
    for entry in fs::read_dir(dir).map_err(Error::io(dir))? {
        let entry = entry.map_err(Error::io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().ok();
        if kind.is_some_and(|t| t.is_dir()) && name.contains('=') && depth < 16 {
            let below = entry.path();
            if let Some(f) = foreign_below(&below, extension, depth + 1)? {
                return Ok(Some(format!("{name}/{f}")));
            }
            continue;
        }
        let ours = kind.is_some_and(|t| t.is_file())
            && is_ours(&name, extension)
            && (depth == 0 || name != "_SUCCESS");
        if !ours {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_do_not_exist_resolve_through_their_parents() {
        let dir = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(dir.path()).unwrap();
        assert_eq!(resolve(&dir.path().join("a/../b.pgn")), real.join("b.pgn"));
        assert_eq!(
            resolve(&dir.path().join("new/x.pgn")),
            real.join("new/x.pgn")
        );
    }

    #[test]
    fn dataset_names() {
        assert!(is_ours("part-00003.parquet", "parquet"));
        assert!(is_ours("part-123456.csv", "csv"));
        assert!(is_ours("_SUCCESS", "jsonl"));
        assert!(!is_ours("part-00003.csv", "parquet"));
        assert!(!is_ours("part-3.parquet", "parquet"));
        assert!(!is_ours("notes.txt", "parquet"));
    }

    #[test]
    fn an_output_inside_an_input_directory_is_refused_before_it_exists() {
        let dir = tempfile::tempdir().unwrap();
        let guard = Guard::new(&[dir.path().to_path_buf()], true);
        let new = dir.path().join("sub/new.pgn");
        assert!(matches!(guard.check(&new), Err(Error::Input(_))));
        let outside = tempfile::tempdir().unwrap();
        assert!(guard.check(&outside.path().join("new.pgn")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_an_input_is_the_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pgn");
        fs::write(&input, "1. e4 *").unwrap();
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let guard = Guard::new(std::slice::from_ref(&input), true);
        assert!(matches!(guard.check(&link), Err(Error::Input(_))));
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_stdout() {
        let guard = Guard::new(&[], false);
        assert_eq!(guard.check(Path::new("-")).unwrap(), Destination::Stdout);
        assert_eq!(
            guard.check(Path::new("/dev/null")).unwrap(),
            Destination::Through("/dev/null".into()),
            "a character device is written through, without force"
        );
    }
}

//! What may be written: the inputs a command reads, `force`, and what kind of file a path is.
//!
//! An output is compared with the inputs twice over: by path (the input itself, or a path
//! inside an input directory, also one that does not exist yet), and by identity (device and
//! inode), so that no other path reaches an input either: a link, a bind mount, stdin
//! redirected from the file, a file object ([`Reading`](crate::Reading)). The identities of
//! every file the input directories reach (walked as the scan walks them) are gathered only
//! when an existing file or dataset would be replaced, once per guard.

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::{Dataset, Error, Output, reading};

/// A file's identity: device and inode.
pub(crate) type Id = (u64, u64);

/// An input as the guard knows it.
#[derive(Clone, Debug)]
struct Known {
    /// Made absolute, links resolved (as named when it does not exist).
    real: PathBuf,
    is_dir: bool,
    /// Device and inode, where the platform has them.
    id: Option<Id>,
}

/// Every file and directory the inputs reach, by identity.
#[derive(Debug, Default)]
struct Reached {
    files: HashSet<Id>,
    dirs: HashSet<Id>,
}

impl Reached {
    /// Adds `top` and, for a directory, what the scan reads below it: directories walked (a link
    /// to a directory not followed; each directory once, so that a bind mount makes no loop),
    /// links to files followed. Every file counts, whatever its name.
    fn add(&mut self, top: &Path) {
        let Ok(meta) = fs::metadata(top) else { return };
        let Some(id) = file_id(&meta) else { return };
        if !meta.is_dir() {
            self.files.insert(id);
            return;
        }
        if !self.dirs.insert(id) {
            return;
        }
        let mut stack = vec![top.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                if kind.is_symlink() {
                    if let Ok(m) = fs::metadata(&path)
                        && !m.is_dir()
                        && let Some(id) = file_id(&m)
                    {
                        self.files.insert(id);
                    }
                } else if let Ok(m) = entry.metadata()
                    && let Some(id) = file_id(&m)
                {
                    if !kind.is_dir() {
                        self.files.insert(id);
                    } else if self.dirs.insert(id) {
                        stack.push(path);
                    }
                }
            }
        }
    }
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
    /// Inputs read through a descriptor: `-`, stdin redirected from a file.
    opened: Vec<Id>,
    force: bool,
    /// What the inputs reach, gathered when first needed (shared by the clones).
    reached: Arc<OnceLock<Reached>>,
}

impl Guard {
    /// A guard for a command reading `inputs` (files and directories as named; `-` is stdin,
    /// which protects the file it is redirected from), replacing existing outputs only with
    /// `force`. Files the process reads through a descriptor are protected by a
    /// [`Reading`](crate::Reading).
    pub fn new(inputs: &[PathBuf], force: bool) -> Guard {
        let opened = inputs
            .iter()
            .filter(|p| p.as_os_str() == "-")
            .take(1)
            .filter_map(|_| reading::stdin_id())
            .collect();
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
        Guard {
            inputs,
            opened,
            force,
            reached: Arc::default(),
        }
    }

    /// Whether existing outputs are replaced.
    pub fn force(&self) -> bool {
        self.force
    }

    /// Whether `path` is one of the inputs or lies inside an input directory (whether or not
    /// it exists): by path, or by identity (the same file or directory as an input named, or
    /// one read through a descriptor; inside a directory that is an input directory reached by
    /// another path, such as a bind mount).
    ///
    /// It does not look for files that the input directories reach through links: replacing
    /// one is refused by [`check`](Self::check) and [`dataset`](Self::dataset).
    pub fn is_input(&self, path: &Path) -> bool {
        let id = fs::metadata(path).ok().as_ref().and_then(file_id);
        if id.is_some_and(|id| self.opened.contains(&id) || reading::is_read(id)) {
            return true;
        }
        let real = resolve(path);
        if self.inputs.iter().any(|i| {
            (id.is_some() && id == i.id)
                || real == i.real
                || (i.is_dir && real.starts_with(&i.real))
        }) {
            return true;
        }
        let dir_ids: Vec<Id> = self
            .inputs
            .iter()
            .filter(|i| i.is_dir)
            .filter_map(|i| i.id)
            .collect();
        !dir_ids.is_empty()
            && real
                .ancestors()
                .skip(1)
                .filter_map(|a| fs::metadata(a).ok().as_ref().and_then(file_id))
                .any(|a| dir_ids.contains(&a))
    }

    /// Whether an input lies inside the directory `dir` (so that replacing `dir` would remove
    /// it), by path.
    fn holds_input(&self, dir: &Path) -> bool {
        let real = resolve(dir);
        self.inputs.iter().any(|i| i.real.starts_with(&real))
    }

    /// What the inputs reach, gathered on the first call.
    fn reached(&self) -> &Reached {
        self.reached.get_or_init(|| {
            let mut reached = Reached::default();
            for i in &self.inputs {
                reached.add(&i.real);
            }
            reached
        })
    }

    /// Whether replacing the existing file at `path` would replace an input: `path` (followed
    /// if a link) is a file an input directory reaches, by a link say, or one read through a
    /// descriptor.
    pub(crate) fn replaces_input(&self, path: &Path) -> bool {
        let Some(id) = fs::metadata(path).ok().as_ref().and_then(file_id) else {
            return false;
        };
        self.is_read(id) || self.reached().files.contains(&id)
    }

    /// Whether `id` is a file read through a descriptor.
    fn is_read(&self, id: Id) -> bool {
        self.opened.contains(&id) || reading::is_read(id)
    }

    /// Whether removing the dataset directory `dir` (what it holds, walked as a removal walks
    /// it: links not followed) would remove an input or a directory an input directory reaches.
    pub(crate) fn dataset_holds_input(&self, dir: &Path) -> bool {
        let Some(id) = fs::metadata(dir).ok().as_ref().and_then(file_id) else {
            return false;
        };
        let reached = self.reached();
        if reached.dirs.contains(&id) {
            return true;
        }
        let mut seen = HashSet::from([id]);
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            let Ok(entries) = fs::read_dir(&d) else {
                continue;
            };
            for entry in entries.flatten() {
                let (Ok(kind), Ok(meta)) = (entry.file_type(), entry.metadata()) else {
                    continue;
                };
                let Some(id) = file_id(&meta) else { continue };
                if kind.is_dir() {
                    if reached.dirs.contains(&id) {
                        return true;
                    }
                    if seen.insert(id) {
                        stack.push(entry.path());
                    }
                } else if !kind.is_symlink() && (self.is_read(id) || reached.files.contains(&id)) {
                    return true;
                }
            }
        }
        false
    }

    /// Where writing `path` goes, or why it may not be written.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] (an input, a path inside an input directory, or, to be replaced with
    /// `force`, a file an input directory reaches by a link or a bind mount), [`Error::Exists`]
    /// (without `force`), [`Error::IsDirectory`], [`Error::Special`] (a block device, a
    /// socket).
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
        if self.replaces_input(path) {
            return Err(Error::Input(path.to_path_buf()));
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
    /// [`Error::Input`] (`dir` is or lies inside an input, or an input lies inside it, by
    /// path or, to be replaced with `force`, by identity: a file the inputs reach by a link or
    /// a bind mount, or read through a descriptor),
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
                if self.replaces_input(dir) || self.dataset_holds_input(dir) {
                    return Err(Error::Input(dir.to_path_buf()));
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
fn file_id(m: &fs::Metadata) -> Option<Id> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &fs::Metadata) -> Option<Id> {
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
/// `part-NNNNN.EXT` (five digits or more) and `_SUCCESS`. NumPy's `npy` (a file per column):
/// any `NAME.npy`.
pub(crate) fn is_ours(name: &str, extension: &str) -> bool {
    if name == "_SUCCESS" {
        return true;
    }
    if extension == "npy" {
        return name.len() > 4 && name.ends_with(".npy");
    }
    name.strip_prefix("part-")
        .and_then(|r| r.strip_suffix(extension))
        .and_then(|r| r.strip_suffix('.'))
        .is_some_and(|d| d.len() >= 5 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a folder's name is one kifu writes in a dataset directory of `extension`: a Hive
/// partition (`year=2024`), and for `npy`, whose parts are folders of a file per column, a
/// part (`part-NNNNN`, five digits or more).
fn is_our_folder(name: &str, extension: &str) -> bool {
    name.contains('=')
        || (extension == "npy"
            && name
                .strip_prefix("part-")
                .is_some_and(|d| d.len() >= 5 && d.bytes().all(|b| b.is_ascii_digit())))
}

/// The first entry of `dir` kifu did not write, if any: part files and `_SUCCESS`, and Hive
/// partition folders (`year=2024`, not a link; for `npy`, part folders `part-00000` too)
/// holding only part files and such folders, at most 16 levels deep.
fn foreign_entry(dir: &Path, extension: &str) -> Result<Option<String>, Error> {
    foreign_below(dir, extension, 0)
}

fn foreign_below(dir: &Path, extension: &str, depth: usize) -> Result<Option<String>, Error> {
    for entry in fs::read_dir(dir).map_err(Error::io(dir))? {
        let entry = entry.map_err(Error::io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().ok();
        if kind.is_some_and(|t| t.is_dir()) && is_our_folder(&name, extension) && depth < 16 {
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
        // npy: a file per column, in the dataset or in part folders
        assert!(is_ours("bitboards.npy", "npy"));
        assert!(!is_ours("notes.txt", "npy") && !is_ours(".npy", "npy"));
        assert!(is_our_folder("part-00000", "npy") && is_our_folder("board=19x19", "npy"));
        assert!(!is_our_folder("part-00000", "npz") && !is_our_folder("notes", "npy"));
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

    /// `dir` with `in/` holding a link to `other/real.pgn`: the guard of a command reading
    /// `in/`, and the file.
    #[cfg(unix)]
    fn linked_from_an_input_directory(dir: &Path) -> (Guard, PathBuf) {
        fs::create_dir_all(dir.join("in")).unwrap();
        fs::create_dir_all(dir.join("other")).unwrap();
        let real = dir.join("other/real.pgn");
        fs::write(&real, "1. e4 *\n").unwrap();
        std::os::unix::fs::symlink("../other/real.pgn", dir.join("in/link.pgn")).unwrap();
        (Guard::new(&[dir.join("in")], true), real)
    }

    #[cfg(unix)]
    #[test]
    fn a_file_an_input_directory_links_to_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (guard, real) = linked_from_an_input_directory(dir.path());
        assert!(!guard.is_input(&real), "not an input by path");
        assert!(matches!(guard.check(&real), Err(Error::Input(_))));
        assert!(matches!(guard.create(&real), Err(Error::Input(_))));
        // without force it is refused as it exists
        let without = Guard::new(&[dir.path().join("in")], false);
        assert!(matches!(without.check(&real), Err(Error::Exists(_))));
        // a file beside it is replaced
        let beside = dir.path().join("other/beside.pgn");
        fs::write(&beside, "old").unwrap();
        assert!(guard.check(&beside).is_ok());
        assert_eq!(fs::read(&real).unwrap(), b"1. e4 *\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_directory_inside_an_input_directory_is_not_followed_as_the_scan_does_not() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("in")).unwrap();
        fs::create_dir_all(dir.path().join("other")).unwrap();
        fs::write(dir.path().join("other/x.pgn"), "1. e4 *").unwrap();
        std::os::unix::fs::symlink("../other", dir.path().join("in/other")).unwrap();
        // and a loop, which must not hang the walk
        std::os::unix::fs::symlink("..", dir.path().join("in/up")).unwrap();
        let guard = Guard::new(&[dir.path().join("in")], true);
        assert!(guard.check(&dir.path().join("other/x.pgn")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_read_through_a_descriptor_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.pgn");
        fs::write(&path, "1. e4 *").unwrap();
        let guard = Guard::new(&[], true);
        let file = fs::File::open(&path).unwrap();
        let reading = crate::Reading::of(&file).unwrap();
        assert!(guard.is_input(&path));
        assert!(matches!(guard.check(&path), Err(Error::Input(_))));
        // refused at the commit too, when it began to be read after the check
        drop(reading);
        let out = guard.create(&path).unwrap();
        let reading = crate::Reading::of(&file).unwrap();
        assert!(matches!(out.commit(), Err(Error::Input(_))));
        assert_eq!(fs::read(&path).unwrap(), b"1. e4 *");
        drop(reading);
        assert!(guard.check(&path).is_ok(), "protected while read only");
        // a device is no file to protect
        let null = fs::File::open("/dev/null").unwrap();
        assert!(crate::Reading::of(&null).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_dataset_holding_a_file_an_input_directory_links_to_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let ds = dir.path().join("ds");
        fs::create_dir_all(ds.join("year=2024")).unwrap();
        fs::write(ds.join("_SUCCESS"), "").unwrap();
        let part = ds.join("year=2024/part-00000.csv");
        fs::write(&part, "1. e4 *\n").unwrap();
        fs::create_dir(dir.path().join("in")).unwrap();
        std::os::unix::fs::symlink(&part, dir.path().join("in/link.pgn")).unwrap();
        let guard = Guard::new(&[dir.path().join("in")], true);
        assert!(matches!(
            guard.check_dataset(&ds, "csv"),
            Err(Error::Input(_))
        ));
        assert!(matches!(guard.dataset(&ds, "csv"), Err(Error::Input(_))));
        assert!(part.exists());
        // read through a descriptor
        fs::remove_file(dir.path().join("in/link.pgn")).unwrap();
        let guard = Guard::new(&[dir.path().join("in")], true);
        assert!(guard.check_dataset(&ds, "csv").is_ok());
        let file = fs::File::open(&part).unwrap();
        let _reading = crate::Reading::of(&file).unwrap();
        assert!(matches!(
            guard.check_dataset(&ds, "csv"),
            Err(Error::Input(_))
        ));
    }

    /// A bind mount, unmounted when dropped.
    #[cfg(target_os = "linux")]
    struct Bound(PathBuf);

    #[cfg(target_os = "linux")]
    impl Bound {
        /// `from` mounted at `at`, if this process may (root, in a namespace that allows it).
        fn mount(from: &Path, at: &Path) -> Option<Bound> {
            let ok = std::process::Command::new("mount")
                .arg("--bind")
                .args([from, at])
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            ok.then(|| Bound(at.to_path_buf()))
        }
    }

    #[cfg(target_os = "linux")]
    impl Drop for Bound {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_input_directory_reached_through_a_bind_mount_is_the_input_directory() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        let mnt = dir.path().join("mnt");
        fs::create_dir_all(input.join("sub")).unwrap();
        fs::create_dir(&mnt).unwrap();
        fs::write(input.join("sub/g.pgn"), "1. e4 *").unwrap();
        let Some(_bound) = Bound::mount(&input, &mnt) else {
            eprintln!("no bind mount here (not root?): the test proves nothing");
            return;
        };
        let guard = Guard::new(std::slice::from_ref(&input), true);
        assert!(guard.is_input(&mnt.join("sub/g.pgn")));
        assert!(
            guard.is_input(&mnt.join("sub/new.pgn")),
            "a new file inside"
        );
        assert!(matches!(
            guard.check(&mnt.join("sub/g.pgn")),
            Err(Error::Input(_))
        ));
        // and a bind mount of a file inside an input directory, replaced
        let other = dir.path().join("other.pgn");
        fs::write(&other, "x").unwrap();
        let guard = Guard::new(&[dir.path().join("in")], true);
        let Some(_file) = Bound::mount(&input.join("sub/g.pgn"), &other) else {
            return;
        };
        assert!(matches!(guard.check(&other), Err(Error::Input(_))));
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

//! A dataset directory, built beside its place and swapped in whole.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use crate::live::{self, Temporary};
use crate::{Error, Guard};

/// A dataset directory being written: its parts go into a hidden temporary directory beside
/// its place ([`dir`](Self::dir)); [`commit`](Self::commit) writes the `_SUCCESS` mark (Spark's
/// convention: the dataset is whole) and swaps the directory in. An old dataset at the place
/// (replaced with `force`) stays whole until the new one is; dropped without `commit`, the
/// temporary directory is removed and the old dataset is left as it was.
///
/// ```
/// let base = tempfile::tempdir().unwrap();
/// let out = base.path().join("games");
/// let guard = kifu_output::Guard::new(&[], true);
/// let ds = guard.dataset(&out, "csv").unwrap();
/// std::fs::write(ds.dir().join("part-00000.csv"), "a\n1\n").unwrap();
/// ds.commit().unwrap();
/// assert!(out.join("_SUCCESS").exists());
/// assert_eq!(std::fs::read_dir(base.path()).unwrap().count(), 1, "nothing else left");
/// ```
#[derive(Debug)]
pub struct Dataset {
    path: PathBuf,
    temp: PathBuf,
    id: u64,
    replaces: bool,
    guard: Guard,
    done: bool,
}

/// `name` cut to at most `max` bytes, at a character boundary.
pub(crate) fn shorten(name: &str, max: usize) -> &str {
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Where a temporary for `path` goes and how its name starts: `path`'s directory (`.` for a
/// bare name), and `.NAME.` with NAME cut to 120 bytes (the random part and the suffix follow).
pub(crate) fn beside(path: &Path) -> (PathBuf, String) {
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    (parent, format!(".{}.", shorten(&name, 120)))
}

/// A hidden, unpredictable name beside `path`, created exclusively as a directory and entered
/// in the registry.
fn temp_dir_beside(path: &Path, tag: &str) -> Result<(PathBuf, u64), Error> {
    let (parent, prefix) = beside(path);
    let mut live = live::lock();
    let made = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(tag)
        .tempdir_in(&parent)
        .map_err(Error::io(path))?;
    let temp = made.keep();
    let id = live.enter(Temporary {
        path: temp.clone(),
        dir: true,
    });
    Ok((temp, id))
}

impl Dataset {
    pub(crate) fn start(path: &Path, replaces: bool, guard: Guard) -> Result<Dataset, Error> {
        let (temp, id) = temp_dir_beside(path, ".kifu-tmp")?;
        Ok(Dataset {
            path: path.to_path_buf(),
            temp,
            id,
            replaces,
            guard,
            done: false,
        })
    }

    /// The directory the parts go into until [`commit`](Self::commit) (a hidden temporary
    /// directory beside the dataset's place).
    pub fn dir(&self) -> &Path {
        &self.temp
    }

    /// The dataset's place.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The place a part written as `dir().join(name)` has once the dataset is committed.
    pub fn final_path(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Writes `_SUCCESS` and swaps the dataset into place, then removes the old one (if any,
    /// and `force` was given). On Linux the swap is one step (`renameat2` with
    /// `RENAME_EXCHANGE`): whenever the process stops, the path holds the old dataset or the new
    /// one, whole. Elsewhere (or on a file system without the exchange) the old dataset is
    /// renamed aside and the new one in: a crash between the two renames leaves nothing at the
    /// path, both datasets hidden beside it (`.NAME.XXXXXX.kifu-old` and `.kifu-tmp`). An
    /// interrupt during the swap waits for it to end.
    ///
    /// # Errors
    ///
    /// I/O errors naming the path; [`Error::Exists`] when a dataset appeared meanwhile
    /// without `force`; [`Error::Input`] when the place became an input, or holds one.
    pub fn commit(mut self) -> Result<(), Error> {
        let mark = self.temp.join("_SUCCESS");
        File::create(&mark).map_err(Error::io(&mark))?;
        if let Ok(d) = File::open(&self.temp) {
            let _ = d.sync_all();
        }
        if self.guard.is_input(&self.path) {
            return Err(Error::Input(self.path.clone()));
        }
        let exists = fs::symlink_metadata(&self.path).is_ok();
        if exists && !(self.replaces && self.guard.force()) {
            return Err(Error::Exists(self.path.clone()));
        }
        // checked again: the old dataset may have changed since (what the inputs reach is
        // known)
        if exists
            && (self.guard.replaces_input(&self.path) || self.guard.dataset_holds_input(&self.path))
        {
            return Err(Error::Input(self.path.clone()));
        }
        if !exists {
            let mut live = live::lock();
            let put = put(&self.temp, &self.path);
            if put.is_ok() {
                self.done = true;
                live.forget(self.id);
            }
            return put;
        }
        let live = live::lock();
        let exchanged = exchange(&self.temp, &self.path);
        drop(live);
        let old = match exchanged {
            Ok(true) => {
                // the old dataset is at the temporary name, still entered in the registry (an
                // interrupt removes it)
                fault::between_steps(&self.path);
                (self.temp.clone(), self.id)
            }
            Ok(false) => {
                let aside = self.two_renames()?;
                live::lock().forget(self.id);
                aside
            }
            Err(e) => return Err(Error::io(&self.path)(e)),
        };
        self.done = true;
        let removed = if fs::symlink_metadata(&old.0).is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(&old.0)
        } else {
            fs::remove_file(&old.0)
        };
        live::lock().forget(old.1);
        removed.map_err(Error::io(&old.0))
    }

    /// The swap where it cannot be one step: the old dataset renamed aside (a temporary name
    /// beside it), the new one in. Where the second rename fails, the old one is put back. The
    /// old one's name and registry id.
    fn two_renames(&mut self) -> Result<(PathBuf, u64), Error> {
        let (aside, aside_id) = temp_dir_beside(&self.path, ".kifu-old")?;
        let live = live::lock();
        let swapped = (|| {
            // the empty directory made for the name is replaced by the old dataset
            fs::remove_dir(&aside).map_err(Error::io(&aside))?;
            fs::rename(&self.path, &aside).map_err(Error::io(&self.path))?;
            fault::between_steps(&self.path);
            fs::rename(&self.temp, &self.path).map_err(Error::io(&self.path))
        })();
        drop(live);
        if let Err(e) = swapped {
            if !self.path.exists() && aside.exists() {
                // put the old dataset back
                let _ = fs::rename(&aside, &self.path);
            }
            let _ = fs::remove_dir(&aside);
            live::lock().forget(aside_id);
            return Err(e);
        }
        Ok((aside, aside_id))
    }
}

/// Renames the directory `from` to `to`, where nothing is: on Linux never over a directory that
/// appeared meanwhile (`RENAME_NOREPLACE`: [`Error::Exists`]).
fn put(from: &Path, to: &Path) -> Result<(), Error> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if !fault::no_renameat2() {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        use rustix::io::Errno;
        match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            Err(Errno::EXIST) => return Err(Error::Exists(to.to_path_buf())),
            Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
            Err(e) => return Err(Error::io(to)(e.into())),
        }
    }
    fs::rename(from, to).map_err(Error::io(to))
}

/// Exchanges `a` and `b` in one step where the system can (Linux: `renameat2` with
/// `RENAME_EXCHANGE`): `Ok(false)` where it cannot (another system, a file system without the
/// exchange, a kernel before 3.15).
fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if !fault::no_renameat2() {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        use rustix::io::Errno;
        return match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
            Ok(()) => Ok(true),
            Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => Ok(false),
            Err(e) => Err(e.into()),
        };
    }
    let _ = (a, b);
    Ok(false)
}

/// Where a test of the crate stops a commit (to see what a crash there leaves) or does without
/// `renameat2` (to see what other systems do); nothing outside the crate's tests.
mod fault {
    use std::path::Path;

    /// A test's hook.
    #[cfg(test)]
    pub(super) type Hook = Box<dyn FnMut(&Path)>;

    #[cfg(test)]
    thread_local! {
        /// Called between the steps of a swap, with the dataset's place.
        pub(super) static BETWEEN: std::cell::RefCell<Option<Hook>> =
            std::cell::RefCell::new(None);
        /// The swap done as where `renameat2` is missing.
        pub(super) static NO_RENAMEAT2: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Between the steps of a swap: the hook of a test, if any.
    pub(super) fn between_steps(path: &Path) {
        #[cfg(test)]
        BETWEEN.with(|h| {
            if let Some(f) = h.borrow_mut().as_mut() {
                f(path);
            }
        });
        let _ = path;
    }

    /// Whether a test asks for the swap without `renameat2`.
    #[allow(dead_code)]
    pub(super) fn no_renameat2() -> bool {
        #[cfg(test)]
        return NO_RENAMEAT2.with(std::cell::Cell::get);
        #[cfg(not(test))]
        false
    }
}

impl Drop for Dataset {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_dir_all(&self.temp);
            live::lock().forget(self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::entries as names;

    #[test]
    fn the_old_dataset_stays_whole_until_the_new_one_is() {
        let base = tempfile::tempdir().unwrap();
        let out = base.path().join("ds");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("part-00000.csv"), "old").unwrap();
        fs::write(out.join("_SUCCESS"), "").unwrap();
        let guard = Guard::new(&[], true);
        let ds = guard.dataset(&out, "csv").unwrap();
        fs::write(ds.dir().join("part-00000.csv"), "new").unwrap();
        // before the commit, the old one is all there is at the place
        assert_eq!(fs::read(out.join("part-00000.csv")).unwrap(), b"old");
        drop(ds);
        assert_eq!(fs::read(out.join("part-00000.csv")).unwrap(), b"old");
        assert_eq!(
            names(base.path()),
            ["ds"],
            "the temporary directory is gone"
        );

        let ds = guard.dataset(&out, "csv").unwrap();
        fs::write(ds.dir().join("part-00000.csv"), "new").unwrap();
        ds.commit().unwrap();
        assert_eq!(fs::read(out.join("part-00000.csv")).unwrap(), b"new");
        assert_eq!(names(&out), ["_SUCCESS", "part-00000.csv"]);
        assert_eq!(names(base.path()), ["ds"], "the old dataset is gone");
    }

    #[test]
    fn a_directory_with_other_files_is_not_replaced() {
        let base = tempfile::tempdir().unwrap();
        let out = base.path().join("ds");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let e = Guard::new(&[], true).dataset(&out, "csv").unwrap_err();
        assert!(
            matches!(e, Error::Foreign(_, ref n) if n == "notes.txt"),
            "{e}"
        );
        assert!(matches!(
            Guard::new(&[], false).dataset(&out, "csv"),
            Err(Error::Exists(_))
        ));
    }

    /// A dataset `ds` in a new directory, holding `old`.
    fn old_dataset() -> tempfile::TempDir {
        let base = tempfile::tempdir().unwrap();
        let out = base.path().join("ds");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("part-00000.csv"), "old").unwrap();
        fs::write(out.join("_SUCCESS"), "").unwrap();
        base
    }

    /// The hidden entries of `base` that name `ds` and end with `suffix`.
    fn hidden(base: &Path, suffix: &str) -> Vec<PathBuf> {
        names(base)
            .into_iter()
            .filter(|n| n.starts_with(".ds.") && n.ends_with(suffix))
            .map(|n| base.join(n))
            .collect()
    }

    /// Replaces the dataset `ds` of `base` (holding `old`) with one holding `new`, and is
    /// killed (SIGKILL: no destructor, no handler runs) between the steps of the swap; as
    /// `renameat2` is missing with `no_renameat2`. Done in a child process: this test binary run
    /// again for the test `test` alone, told by `KIFU_OUTPUT_CRASH_IN` where to work.
    #[cfg(unix)]
    fn killed_between_the_steps(test: &str, no_renameat2: bool) -> tempfile::TempDir {
        if let Some(base) = std::env::var_os("KIFU_OUTPUT_CRASH_IN") {
            let out = Path::new(&base).join("ds");
            let ds = Guard::new(&[], true).dataset(&out, "csv").unwrap();
            fs::write(ds.dir().join("part-00000.csv"), "new").unwrap();
            fault::NO_RENAMEAT2.with(|c| c.set(no_renameat2));
            fault::BETWEEN.with(|h| {
                *h.borrow_mut() = Some(Box::new(|_| {
                    let me = std::process::id().to_string();
                    let _ = std::process::Command::new("kill")
                        .args(["-KILL", &me])
                        .status();
                    std::thread::sleep(std::time::Duration::from_secs(5));
                    std::process::abort();
                }))
            });
            let _ = ds.commit();
            unreachable!("killed between the steps");
        }
        let base = old_dataset();
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([test, "--exact", "--test-threads=1", "--nocapture"])
            .env("KIFU_OUTPUT_CRASH_IN", base.path())
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success(), "the child was killed: {status}");
        base
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_crash_during_the_swap_leaves_one_whole_dataset_at_the_path() {
        let test = "dataset::tests::a_crash_during_the_swap_leaves_one_whole_dataset_at_the_path";
        let base = killed_between_the_steps(test, false);
        let out = base.path().join("ds");
        assert_eq!(fs::read(out.join("part-00000.csv")).unwrap(), b"new");
        assert!(out.join("_SUCCESS").exists());
        // the old one, not yet removed, is hidden beside it
        let old = hidden(base.path(), ".kifu-tmp");
        assert_eq!(old.len(), 1, "{:?}", names(base.path()));
        assert_eq!(fs::read(old[0].join("part-00000.csv")).unwrap(), b"old");
    }

    /// What a crash leaves where `renameat2` is missing (docs/export.md says it): nothing at the
    /// path, both datasets whole beside it.
    #[cfg(unix)]
    #[test]
    fn without_renameat2_a_crash_during_the_swap_leaves_both_datasets_hidden() {
        let test =
            "dataset::tests::without_renameat2_a_crash_during_the_swap_leaves_both_datasets_hidden";
        let base = killed_between_the_steps(test, true);
        assert!(!base.path().join("ds").exists());
        let old = hidden(base.path(), ".kifu-old");
        let new = hidden(base.path(), ".kifu-tmp");
        assert_eq!((old.len(), new.len()), (1, 1), "{:?}", names(base.path()));
        assert_eq!(fs::read(old[0].join("part-00000.csv")).unwrap(), b"old");
        assert_eq!(fs::read(new[0].join("part-00000.csv")).unwrap(), b"new");
        assert!(new[0].join("_SUCCESS").exists());
    }

    #[test]
    fn the_swap_without_renameat2_and_the_path_held_at_every_step() {
        for no_renameat2 in [false, true] {
            fault::NO_RENAMEAT2.with(|c| c.set(no_renameat2));
            let base = old_dataset();
            let out = base.path().join("ds");
            let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
            let saw = std::rc::Rc::clone(&seen);
            fault::BETWEEN.with(|h| {
                *h.borrow_mut() = Some(Box::new(move |p: &Path| {
                    saw.borrow_mut()
                        .push(fs::read(p.join("part-00000.csv")).ok());
                }))
            });
            let guard = Guard::new(&[], true);
            let ds = guard.dataset(&out, "csv").unwrap();
            fs::write(ds.dir().join("part-00000.csv"), "new").unwrap();
            ds.commit().unwrap();
            fault::BETWEEN.with(|h| h.borrow_mut().take());
            let expected: Option<Vec<u8>> =
                if no_renameat2 || !cfg!(any(target_os = "linux", target_os = "android")) {
                    None
                } else {
                    Some(b"new".to_vec())
                };
            assert_eq!(*seen.borrow(), [expected], "no_renameat2: {no_renameat2}");
            assert_eq!(fs::read(out.join("part-00000.csv")).unwrap(), b"new");
            assert_eq!(names(base.path()), ["ds"], "the old dataset is gone");
            // a new dataset where there was none
            let fresh = base.path().join("fresh");
            let ds = guard.dataset(&fresh, "csv").unwrap();
            ds.commit().unwrap();
            assert_eq!(names(&fresh), ["_SUCCESS"]);
            assert_eq!(names(base.path()), ["ds", "fresh"]);
        }
        fault::NO_RENAMEAT2.with(|c| c.set(false));
    }

    #[test]
    fn names_are_cut_at_a_character_boundary() {
        assert_eq!(shorten("棋譜棋譜", 7), "棋譜");
        assert_eq!(shorten("abc", 10), "abc");
    }
}

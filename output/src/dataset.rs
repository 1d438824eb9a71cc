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

    /// Writes `_SUCCESS` and swaps the dataset into place: the old one (if any, and `force`
    /// was given) moves aside, the new one in, then the old one is removed. An interrupt
    /// during the swap waits for it to end.
    ///
    /// # Errors
    ///
    /// I/O errors naming the path; [`Error::Exists`] when a dataset appeared meanwhile
    /// without `force`; [`Error::Input`] when the place became an input.
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
        let old = if exists {
            let (aside, aside_id) = temp_dir_beside(&self.path, ".kifu-old")?;
            Some((aside, aside_id))
        } else {
            None
        };
        let live = live::lock();
        let swapped = (|| {
            if let Some((aside, _)) = &old {
                // the empty directory made for the name is replaced by the old dataset
                fs::remove_dir(aside).map_err(Error::io(aside))?;
                fs::rename(&self.path, aside).map_err(Error::io(&self.path))?;
            }
            fs::rename(&self.temp, &self.path).map_err(Error::io(&self.path))
        })();
        drop(live);
        if swapped.is_err()
            && let Some((aside, _)) = &old
            && !self.path.exists()
            && aside.exists()
        {
            // put the old dataset back
            let _ = fs::rename(aside, &self.path);
        }
        swapped?;
        self.done = true;
        live::lock().forget(self.id);
        if let Some((aside, aside_id)) = old {
            let removed = if aside.is_dir() {
                fs::remove_dir_all(&aside)
            } else {
                fs::remove_file(&aside)
            };
            live::lock().forget(aside_id);
            removed.map_err(Error::io(&aside))?;
        }
        Ok(())
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

    #[test]
    fn names_are_cut_at_a_character_boundary() {
        assert_eq!(shorten("棋譜棋譜", 7), "棋譜");
        assert_eq!(shorten("abc", 10), "abc");
    }
}

//! One output: standard output, a device written through, or a file under a temporary name.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::guard::Destination;
use crate::live::{self, Temporary};
use crate::{Error, Guard};

const BUFFER: usize = 1 << 16;

/// An output being written: standard output, a device written through, or a file under a
/// hidden temporary name beside its place until [`commit`](Self::commit) renames it there.
/// Dropped without `commit`, a temporary file is removed.
///
/// Write errors name the path (a full disk: `out.pgn: No space left on device`).
#[derive(Debug)]
pub struct Output {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Stdout(BufWriter<io::Stdout>),
    Through {
        path: PathBuf,
        file: BufWriter<File>,
    },
    Temp(Temp),
}

/// A file under its temporary name.
#[derive(Debug)]
struct Temp {
    path: PathBuf,
    temp: PathBuf,
    /// The registry's id of the temporary.
    id: u64,
    /// Open, or parked (closed, opened again at the next write).
    file: Option<BufWriter<File>>,
    /// The temporary's device and inode: a file opened again must be the same one.
    ino: Option<(u64, u64)>,
    replaces: bool,
    /// The mode of a file replaced that its owner may not write: the temporary is writable
    /// until the commit (a parked file is opened again), then given it.
    #[cfg_attr(not(unix), allow(dead_code))]
    mode: Option<u32>,
    guard: Guard,
    sync: bool,
    done: bool,
}

impl Output {
    pub(crate) fn open(dest: Destination, guard: Guard) -> Result<Output, Error> {
        let kind = match dest {
            Destination::Stdout => Kind::Stdout(BufWriter::with_capacity(BUFFER, io::stdout())),
            Destination::Through(path) => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(Error::io(&path))?;
                Kind::Through {
                    path,
                    file: BufWriter::with_capacity(BUFFER, file),
                }
            }
            Destination::File { path, replaces } => {
                Kind::Temp(Temp::create(path, replaces, guard)?)
            }
        };
        Ok(Output { kind })
    }

    /// Whether this is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.kind, Kind::Stdout(_))
    }

    /// The path written (`-` for standard output).
    pub fn path(&self) -> &Path {
        match &self.kind {
            Kind::Stdout(_) => Path::new("-"),
            Kind::Through { path, .. } => path,
            Kind::Temp(t) => &t.path,
        }
    }

    /// Whether a file is synced to disk before it is renamed into place (default: yes), so
    /// that a complete-looking file is complete after a power loss too.
    pub fn set_sync(&mut self, sync: bool) {
        if let Kind::Temp(t) = &mut self.kind {
            t.sync = sync;
        }
    }

    /// Closes a file for now (a command writing many files at once keeps few open); the next
    /// write opens it again, at its end, after checking that it is still the same file.
    ///
    /// # Errors
    ///
    /// The flush failed.
    pub fn park(&mut self) -> io::Result<()> {
        if let Kind::Temp(t) = &mut self.kind
            && let Some(mut f) = t.file.take()
        {
            f.flush().map_err(named(&t.path))?;
        }
        Ok(())
    }

    /// Writes out what is buffered and puts a file in its place (renamed over the old one
    /// where `force` allowed it; refused if one appeared meanwhile without it).
    ///
    /// # Errors
    ///
    /// I/O errors naming the path; [`Error::Exists`] for a file that appeared meanwhile;
    /// [`Error::Input`] if the path became an input meanwhile.
    pub fn commit(self) -> Result<(), Error> {
        match self.kind {
            Kind::Stdout(mut w) => w.flush().map_err(Error::io("-")),
            Kind::Through { path, mut file } => file.flush().map_err(Error::io(path)),
            Kind::Temp(t) => t.commit(),
        }
    }
}

impl Temp {
    fn create(path: PathBuf, replaces: bool, guard: Guard) -> Result<Temp, Error> {
        if path.file_name().is_none() {
            return Err(Error::Io {
                path,
                source: io::Error::new(io::ErrorKind::InvalidInput, "no file name"),
            });
        }
        let (dir, prefix) = crate::dataset::beside(&path);
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".kifu-tmp");
        #[cfg(not(unix))]
        let read_only = None;
        #[cfg(unix)]
        let read_only = {
            use std::os::unix::fs::PermissionsExt;
            // the mode a new file gets (the umask applies), or the one of the file replaced
            let mode = fs::metadata(&path)
                .ok()
                .filter(|m| replaces && m.is_file())
                .map_or(0o666, |m| m.permissions().mode() & 0o7777);
            builder.permissions(fs::Permissions::from_mode(mode | 0o200));
            (mode & 0o200 == 0).then_some(mode)
        };
        let mut live = live::lock();
        let made = builder.tempfile_in(&dir).map_err(Error::io(&path))?;
        let (file, temp) = made.into_parts();
        let temp = temp.keep().map_err(|e| Error::Io {
            path: path.clone(),
            source: e.error,
        })?;
        let id = live.enter(Temporary {
            path: temp.clone(),
            dir: false,
        });
        drop(live);
        let ino = file.metadata().ok().as_ref().and_then(id_of);
        Ok(Temp {
            path,
            temp,
            id,
            file: Some(BufWriter::with_capacity(BUFFER, file)),
            ino,
            replaces,
            mode: read_only,
            guard,
            sync: true,
            done: false,
        })
    }

    /// The open file, opened again if parked (never through a link, and only if it is still
    /// the file created).
    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        if self.file.is_none() {
            let mut o = OpenOptions::new();
            o.append(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                o.custom_flags(libc::O_NOFOLLOW);
            }
            let f = o.open(&self.temp).map_err(named(&self.path))?;
            if f.metadata().ok().as_ref().and_then(id_of) != self.ino {
                return Err(io::Error::other(format!(
                    "{}: its temporary file {} was replaced by another",
                    self.path.display(),
                    self.temp.display()
                )));
            }
            self.file = Some(BufWriter::with_capacity(BUFFER, f));
        }
        Ok(self.file.as_mut().expect("just opened"))
    }

    fn commit(mut self) -> Result<(), Error> {
        let path = self.path.clone();
        self.file().map_err(Error::io(path))?;
        let file = self.file.take().expect("open");
        let file = file
            .into_inner()
            .map_err(|e| Error::io(&self.path)(e.into_error()))?;
        #[cfg(unix)]
        if let Some(mode) = self.mode {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(fs::Permissions::from_mode(mode))
                .map_err(Error::io(&self.path))?;
        }
        if self.sync {
            file.sync_all().map_err(Error::io(&self.path))?;
        }
        drop(file);
        // checked again: the path may have changed since (what the inputs reach is known)
        if self.guard.is_input(&self.path) || self.guard.replaces_input(&self.path) {
            return Err(Error::Input(self.path.clone()));
        }
        let live = live::lock();
        let renamed = if self.replaces {
            fs::rename(&self.temp, &self.path).map_err(Error::io(&self.path))
        } else {
            no_clobber_rename(&self.temp, &self.path)
        };
        drop(live);
        renamed?;
        self.done = true;
        live::lock().forget(self.id);
        Ok(())
    }
}

/// Renames `from` to `to` unless `to` exists.
fn no_clobber_rename(from: &Path, to: &Path) -> Result<(), Error> {
    let temp = tempfile::TempPath::try_from_path(from).map_err(Error::io(from))?;
    match temp.persist_noclobber(to) {
        Ok(()) => Ok(()),
        Err(e) => {
            // the TempPath must not remove the file: the caller's drop does
            let kept = e.path.keep();
            debug_assert!(kept.is_ok());
            if e.error.kind() == io::ErrorKind::AlreadyExists {
                Err(Error::Exists(to.to_path_buf()))
            } else {
                Err(Error::Io {
                    path: to.to_path_buf(),
                    source: e.error,
                })
            }
        }
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.done {
            self.file = None;
            let _ = fs::remove_file(&self.temp);
            live::lock().forget(self.id);
        }
    }
}

fn named(path: &Path) -> impl Fn(io::Error) -> io::Error + '_ {
    move |e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

#[cfg(unix)]
fn id_of(m: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn id_of(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.kind {
            Kind::Stdout(w) => w.write(buf),
            Kind::Through { path, file } => file.write(buf).map_err(named(path)),
            Kind::Temp(t) => {
                let path = t.path.clone();
                t.file()?.write(buf).map_err(named(&path))
            }
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.kind {
            Kind::Stdout(w) => w.write_all(buf),
            Kind::Through { path, file } => file.write_all(buf).map_err(named(path)),
            Kind::Temp(t) => match t.file()?.write_all(buf) {
                Ok(()) => Ok(()),
                Err(e) => Err(named(&t.path)(e)),
            },
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.kind {
            Kind::Stdout(w) => w.flush(),
            Kind::Through { path, file } => file.flush().map_err(named(path)),
            Kind::Temp(t) => match &mut t.file {
                Some(f) => f.flush().map_err(named(&t.path)),
                None => Ok(()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::entries;

    #[test]
    fn a_file_appears_only_when_complete_and_a_dropped_one_leaves_nothing() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("out.pgn");
        let guard = Guard::new(&[], false);
        let mut f = guard.create(&path).unwrap();
        f.write_all(b"1. e4 *\n").unwrap();
        assert!(!path.exists());
        let temp = entries(d.path());
        assert_eq!(temp.len(), 1);
        assert!(temp[0].starts_with(".out.pgn.") && temp[0].ends_with(".kifu-tmp"));
        f.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"1. e4 *\n");
        assert_eq!(entries(d.path()), ["out.pgn"]);

        let other = d.path().join("other.pgn");
        let mut f = guard.create(&other).unwrap();
        f.write_all(b"half").unwrap();
        f.park().unwrap();
        f.write_all(b" and more").unwrap();
        drop(f);
        assert_eq!(entries(d.path()), ["out.pgn"], "no temporary file left");
    }

    #[test]
    fn temporary_names_are_unpredictable() {
        let d = tempfile::tempdir().unwrap();
        let guard = Guard::new(&[], false);
        let a = guard.create(&d.path().join("a.pgn")).unwrap();
        let b = guard.create(&d.path().join("a.pgn")).unwrap();
        let names = entries(d.path());
        assert_eq!(names.len(), 2, "two temporaries for one name: {names:?}");
        drop((a, b));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_at_a_temporary_name_is_never_followed() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim.pgn");
        fs::write(&victim, "precious").unwrap();
        // plant links at every name the old scheme would have used, and a few more
        for name in [
            format!(".out.pgn.kifu-{}.tmp", std::process::id()),
            ".out.pgn.kifu-tmp".into(),
        ] {
            std::os::unix::fs::symlink(&victim, d.path().join(name)).unwrap();
        }
        let mut f = Guard::new(&[], false)
            .create(&d.path().join("out.pgn"))
            .unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert_eq!(fs::read(d.path().join("out.pgn")).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn a_parked_temporary_swapped_for_a_link_is_not_reopened() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim.pgn");
        fs::write(&victim, "precious").unwrap();
        let mut f = Guard::new(&[], false)
            .create(&d.path().join("out.pgn"))
            .unwrap();
        f.write_all(b"a").unwrap();
        f.park().unwrap();
        let Kind::Temp(t) = &f.kind else {
            unreachable!()
        };
        let temp = t.temp.clone();
        fs::remove_file(&temp).unwrap();
        std::os::unix::fs::symlink(&victim, &temp).unwrap();
        assert!(f.write_all(b"b").is_err());
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
    }

    #[test]
    fn a_file_that_appeared_meanwhile_is_not_replaced_without_force() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("out.pgn");
        let f = Guard::new(&[], false).create(&path).unwrap();
        fs::write(&path, "theirs").unwrap();
        assert!(matches!(f.commit(), Err(Error::Exists(_))));
        assert_eq!(fs::read(&path).unwrap(), b"theirs");
        assert_eq!(entries(d.path()), ["out.pgn"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("out.pgn");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let mut f = Guard::new(&[], true).create(&path).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_character_device_is_written_through() {
        let mut f = Guard::new(&[], false)
            .create(Path::new("/dev/null"))
            .unwrap();
        f.write_all(b"gone").unwrap();
        f.commit().unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().file_type().is_file());
    }
}

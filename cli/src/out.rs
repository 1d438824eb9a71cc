//! Files a command writes (`fmt -o`, `filter -o`, `dedup -o`, `split`): never an input, never
//! an existing file unless `--force`, and each written under a temporary name beside its place
//! and renamed into place only when complete, so that an interrupted run never leaves a
//! truncated file that looks whole.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What protects the files a command writes: the inputs it reads, and `--force`.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The inputs as named (files and directories), made absolute where they exist.
    inputs: Vec<PathBuf>,
    force: bool,
}

impl Guard {
    /// A guard for a command reading `inputs`.
    pub fn new(inputs: &[PathBuf], force: bool) -> Guard {
        let inputs = inputs
            .iter()
            .filter(|p| p.as_os_str() != "-")
            .map(|p| fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
            .collect();
        Guard { inputs, force }
    }

    /// Whether `path` may be written: it is no input (nor inside an input directory, where the
    /// walk would read it), and it does not exist unless `--force`.
    pub fn check(&self, path: &Path) -> io::Result<()> {
        let Ok(real) = fs::canonicalize(path) else {
            // not there yet: it is no input
            return Ok(());
        };
        if self
            .inputs
            .iter()
            .any(|i| real == *i || (i.is_dir() && real.starts_with(i)))
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: is one of the inputs; write elsewhere", path.display()),
            ));
        }
        if !self.force {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: exists (--force to replace it)", path.display()),
            ));
        }
        Ok(())
    }

    /// Creates `path` for writing, under a temporary name until [`SafeFile::commit`].
    pub fn create(&self, path: &Path) -> io::Result<SafeFile> {
        self.check(path)?;
        SafeFile::create(path)
    }
}

/// A file written under a temporary name (hidden, in the same directory) and renamed into
/// place by [`commit`](Self::commit); dropped without it, the temporary file is removed.
#[derive(Debug)]
pub struct SafeFile {
    path: PathBuf,
    temp: PathBuf,
    /// Open, or parked (closed, reopened on the next write).
    file: Option<BufWriter<File>>,
    /// Renamed into place.
    done: bool,
}

impl SafeFile {
    fn create(path: &Path) -> io::Result<SafeFile> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".kifu-{}.tmp", std::process::id()));
        let temp = dir.map_or_else(|| PathBuf::from(&temp_name), |d| d.join(&temp_name));
        let file = File::create(&temp).map_err(|e| named(&temp, e))?;
        Ok(SafeFile {
            path: path.to_path_buf(),
            temp,
            file: Some(BufWriter::with_capacity(1 << 16, file)),
            done: false,
        })
    }

    /// Closes the file for now (a command writing many files at once keeps few open); the
    /// next write opens it again, at its end.
    pub fn park(&mut self) -> io::Result<()> {
        if let Some(mut f) = self.file.take() {
            f.flush()?;
        }
        Ok(())
    }

    /// The open file, opened again if parked.
    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        if self.file.is_none() {
            let f = fs::OpenOptions::new()
                .append(true)
                .open(&self.temp)
                .map_err(|e| named(&self.temp, e))?;
            self.file = Some(BufWriter::with_capacity(1 << 16, f));
        }
        Ok(self.file.as_mut().expect("just opened"))
    }

    /// Writes it out and renames it into place.
    pub fn commit(mut self) -> io::Result<()> {
        self.file()?;
        let file = self.file.take().expect("open");
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&self.temp, &self.path).map_err(|e| named(&self.path, e))?;
        self.done = true;
        Ok(())
    }
}

impl Write for SafeFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file()?.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for SafeFile {
    fn drop(&mut self) {
        if !self.done {
            self.file = None;
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Stdout, or a safe file (`-o`).
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A file.
    File(SafeFile),
}

impl Output {
    /// `-o FILE`, or stdout.
    pub fn open(path: Option<&Path>, guard: &Guard) -> io::Result<Output> {
        Ok(match path {
            Some(p) if p.as_os_str() != "-" => Output::File(guard.create(p)?),
            _ => Output::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
        })
    }

    /// Flushes, and puts a file in its place.
    pub fn finish(self) -> io::Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush(),
            Output::File(f) => f.commit(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        }
    }
}

fn named(p: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", p.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kifu-out-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_file_appears_only_when_complete() {
        let d = temp_dir("complete");
        let path = d.join("out.pgn");
        let mut f = Guard::new(&[], false).create(&path).unwrap();
        f.write_all(b"1. e4 *\n").unwrap();
        assert!(!path.exists(), "not in place before commit");
        f.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"1. e4 *\n");
        // an interrupted one leaves nothing
        let other = d.join("other.pgn");
        let mut f = Guard::new(&[], false).create(&other).unwrap();
        f.write_all(b"half").unwrap();
        f.park().unwrap();
        f.write_all(b" and more").unwrap();
        drop(f);
        assert!(!other.exists());
        assert_eq!(
            fs::read_dir(&d).unwrap().count(),
            1,
            "no temporary file left"
        );
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn inputs_and_existing_files_are_refused() {
        let d = temp_dir("refuse");
        let input = d.join("in.pgn");
        fs::write(&input, "1. e4 *\n").unwrap();
        let guard = Guard::new(std::slice::from_ref(&input), true);
        assert!(guard.check(&input).is_err(), "an input, even with --force");
        let dir_guard = Guard::new(std::slice::from_ref(&d), true);
        assert!(
            dir_guard.check(&input).is_err(),
            "inside an input directory"
        );
        let existing = std::env::temp_dir().join(format!("kifu-out-exists-{}", std::process::id()));
        fs::write(&existing, "x").unwrap();
        assert!(Guard::new(&[], false).check(&existing).is_err());
        assert!(Guard::new(&[], true).check(&existing).is_ok());
        fs::remove_file(&existing).unwrap();
        fs::remove_dir_all(&d).unwrap();
    }
}

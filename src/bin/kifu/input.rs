//! Where the bytes come from: files, directories, stdin, or the embedded sample.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

use kifu::pgn::{Config, Reader, Visitor};

/// The sample read when no input is given: three games, one of them sloppy on purpose.
pub const SAMPLE: &[u8] = include_bytes!("sample.pgn");

/// One input stream.
#[derive(Debug)]
pub enum Source {
    File(PathBuf),
    /// Stdin, with the bytes already read to see whether anything comes.
    Stdin(Vec<u8>),
    Sample,
}

/// An input and how to read it.
#[derive(Debug)]
pub struct Input {
    pub source: Source,
    buffer_size: usize,
    bytes: Cell<u64>,
}

impl Input {
    fn new(source: Source, buffer_size: usize) -> Input {
        Input {
            source,
            buffer_size,
            bytes: Cell::new(0),
        }
    }

    /// The name used in reports.
    pub fn name(&self) -> String {
        match &self.source {
            Source::File(p) => p.display().to_string(),
            Source::Stdin(_) => "-".to_string(),
            Source::Sample => "<sample>".to_string(),
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes.get()
    }

    /// Reads the whole input as PGN into `v`.
    pub fn read_pgn<V: Visitor>(&self, v: &mut V) -> io::Result<()> {
        match &self.source {
            Source::File(p) => {
                let f = File::open(p)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
                self.drive(f, v)
            }
            Source::Stdin(head) => self.drive(
                io::Cursor::new(head.as_slice()).chain(io::stdin().lock()),
                v,
            ),
            Source::Sample => self.drive(SAMPLE, v),
        }
    }

    fn drive<R: Read, V: Visitor>(&self, r: R, v: &mut V) -> io::Result<()> {
        let counter = Counting {
            inner: r,
            n: &self.bytes,
        };
        let mut reader = Reader::with_config(counter, self.buffer_size, Config::default());
        // the command's visitors stop only when their output failed; they report that themselves
        reader.read_all(v)?;
        Ok(())
    }
}

struct Counting<'a, R> {
    inner: R,
    n: &'a Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n.set(self.n.get() + k as u64);
        Ok(k)
    }
}

/// The inputs named on the command line, directories expanded (every `.pgn` below, sorted).
pub fn collect(args: &[PathBuf], buffer_size: usize) -> io::Result<Vec<Input>> {
    let mut out = Vec::new();
    if args.is_empty() {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            out.push(Input::new(Source::Sample, buffer_size));
        } else {
            let mut head = vec![0u8; buffer_size.clamp(1, 1 << 16)];
            let n = loop {
                match stdin.lock().read(&mut head) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            head.truncate(n);
            let source = if n == 0 {
                Source::Sample
            } else {
                Source::Stdin(head)
            };
            out.push(Input::new(source, buffer_size));
        }
        return Ok(out);
    }
    for a in args {
        if a.as_os_str() == "-" {
            out.push(Input::new(Source::Stdin(Vec::new()), buffer_size));
        } else if a.is_dir() {
            for p in walk(a)? {
                out.push(Input::new(Source::File(p), buffer_size));
            }
        } else {
            out.push(Input::new(Source::File(a.clone()), buffer_size));
        }
    }
    Ok(out)
}

fn walk(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) {
                found.push(p);
            }
        }
    }
    found.sort();
    Ok(found)
}

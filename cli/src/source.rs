//! Where the bytes come from: the command line's files, directories, archives and stdin (through
//! kifu-input: decompressed, members named `ARCHIVE:MEMBER`), or the embedded sample; and how
//! each input goes into a scan.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::sync::Arc;

use kifu::par::{Feeder, Work};
use kifu::{pgn, sgf};
use kifu_input::{Entry, Options, Progress, Report};

use crate::Format;

/// The sample read when no input is given: three games, one of them sloppy on purpose.
pub const SAMPLE: &[u8] = include_bytes!("sample.pgn");

/// One input of a scan, as the commands know it.
#[derive(Debug)]
pub struct Input {
    /// `path`, `-` (stdin), `ARCHIVE:MEMBER` or `<sample>`.
    pub name: String,
    /// What it holds.
    pub format: Format,
}

/// Where a command reads from.
pub struct Sources {
    args: Vec<PathBuf>,
    /// No argument: stdin, with its first bytes already read (`None`: the sample).
    stdin: Option<Vec<u8>>,
    forced: Option<Format>,
    options: Options,
    /// Raw bytes read so far (compressed size for compressed input), for the progress bar.
    pub progress: Arc<Progress>,
}

impl Sources {
    /// The sources the command line names: files, directories and `-`; with none, stdin (empty
    /// or not), or the embedded sample when stdin is a terminal (a person trying the tool) or
    /// `sample` asks for it.
    pub fn new(
        args: &[PathBuf],
        forced: Option<Format>,
        threads: usize,
        frame_buffer: usize,
        sample: bool,
    ) -> io::Result<Sources> {
        if sample && !args.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--sample reads the embedded sample: name no input with it",
            ));
        }
        if args.iter().filter(|a| a.as_os_str() == "-").count() > 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "`-` (stdin) may be named only once",
            ));
        }
        let stdin = if args.is_empty() && !sample && !io::stdin().is_terminal() {
            Some(read_head()?)
        } else {
            None
        };
        Ok(Sources {
            args: args.to_vec(),
            stdin,
            forced,
            options: Options {
                threads,
                frame_buffer,
                ..Options::default()
            },
            progress: Arc::new(Progress::new()),
        })
    }

    /// The most memory one decoder may take for what an input asks (`--decoder-memory`).
    pub fn with_decoder_memory(mut self, limit: usize) -> Sources {
        self.options.decoder_memory_limit = limit;
        self
    }

    /// Whether the embedded sample is read (no input given).
    pub fn is_sample(&self) -> bool {
        self.args.is_empty() && self.stdin.is_none()
    }

    /// Feeds every input into `feeder`, in order; the walk's report (inputs that could not be
    /// read, or were cut short) comes back.
    pub fn feed<W: Work<Input = Input>, E>(self, feeder: &mut Feeder<'_, W, E>) -> Report {
        let forced = self.forced;
        let mut go_on = true;
        let mut each = |entry: Entry<'_>| -> io::Result<()> {
            let format = match entry.format_hint {
                Some(f) => f,
                None => forced.unwrap_or(entry.sniffed),
            };
            let input = Input {
                name: entry.name.to_string(),
                format,
            };
            go_on = feed_one(feeder, input, entry.reader);
            if go_on {
                Ok(())
            } else {
                Err(io::Error::other("the scan stopped"))
            }
        };
        if self.args.is_empty() {
            return match self.stdin {
                Some(head) => {
                    let stdin = io::Cursor::new(head).chain(io::stdin());
                    kifu_input::for_each_in_reader("-", stdin, &self.options, &self.progress, each)
                }
                None => {
                    let input = Input {
                        name: "<sample>".into(),
                        format: Format::Pgn,
                    };
                    self.progress.add_bytes(SAMPLE.len() as u64);
                    feed_one(feeder, input, SAMPLE);
                    Report::default()
                }
            };
        }
        kifu_input::for_each_input(&self.args, &self.options, &self.progress, &mut each)
    }
}

/// Feeds one input (its UTF-16 turned into UTF-8 first); whether the scan goes on.
fn feed_one<W: Work<Input = Input>, E>(
    feeder: &mut Feeder<'_, W, E>,
    input: Input,
    reader: impl Read,
) -> bool {
    let reader = kifu::encoding::Utf16Reader::new(reader);
    match input.format {
        Format::Pgn => feeder.pgn(input, pgn::Config::default(), reader),
        Format::Sgf => feeder.sgf(input, sgf::Config::default(), reader),
    }
}

/// The first bytes of stdin (up to 64 KiB; at least 256 unless it ends first).
fn read_head() -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; 1 << 16];
    let mut n = 0;
    let mut stdin = io::stdin().lock();
    while n < head.len() {
        match stdin.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        if n >= 256 {
            break;
        }
    }
    head.truncate(n);
    Ok(head)
}

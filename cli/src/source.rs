//! Where a command reads from: the command line's files, directories, archives and `-`; stdin
//! when none is named (empty or not); or the embedded sample when stdin is a terminal (a person
//! trying the tool) or `--sample` asks for it. The reading itself is kifu-pipeline's.

use std::io::{self, IsTerminal, Read};

use kifu_pipeline::Source;

use crate::Common;

/// The sample read when no input is given: three games, one of them sloppy on purpose.
pub const SAMPLE: &[u8] = include_bytes!("sample.pgn");

/// The source the command line names, and whether it is the embedded sample.
pub fn of(common: &Common) -> io::Result<(Source, bool)> {
    let args = &common.files;
    if common.sample && !args.is_empty() {
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
    if !args.is_empty() {
        return Ok((Source::Paths(args.clone()), false));
    }
    if !common.sample && !io::stdin().is_terminal() {
        let head = read_head()?;
        let reader = Box::new(io::Cursor::new(head).chain(io::stdin()));
        return Ok((
            Source::Reader {
                name: "-".into(),
                reader,
            },
            false,
        ));
    }
    let sample = Source::Bytes {
        name: "<sample>".into(),
        data: SAMPLE.to_vec(),
    };
    Ok((sample, true))
}

/// The first bytes of stdin (up to 64 KiB; at least 256 unless it ends first): read before the
/// scan starts, so that a terminal is told from a pipe and an empty pipe from a slow one.
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

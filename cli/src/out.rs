//! Files a command writes (`fmt -o`, `filter -o`, `dedup -o`, `split`, `export`): through
//! [`kifu_output`], the one safe-output helper of kifu (never an input, never an existing file
//! unless `--force`, devices and `-` written through, a hidden temporary renamed into place when
//! complete and removed on an interrupt).

use std::io;
use std::path::Path;

pub use kifu_output::{Guard, Output};

/// `-o FILE` (`-` or none: stdout), checked against the inputs and `--force`.
pub fn open(path: Option<&Path>, guard: &Guard) -> io::Result<Output> {
    Ok(guard.create(path.unwrap_or(Path::new("-")))?)
}

/// Flushes, and puts a file in its place.
pub fn finish(out: Output) -> io::Result<()> {
    Ok(out.commit()?)
}

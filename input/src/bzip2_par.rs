//! bzip2 streams (pbzip2) decoded in parallel.

use std::io::{self, Read};
use std::sync::Arc;

use crate::compression::{Checked, Compression};
use crate::progress::RawState;
use crate::{Options, pipe};

/// Decodes a bzip2 file (`raw`, from its first byte).
pub(crate) fn spawn(
    raw: Box<dyn Read + Send>,
    state: Arc<RawState>,
    opts: &Options,
) -> io::Result<Box<dyn Read + Send>> {
    let checked = Checked::new(Compression::Bzip2, raw, state, opts)?;
    Ok(Box::new(pipe::spawn(Box::new(checked), opts.chunk(), 4)?))
}

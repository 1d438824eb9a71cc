//! Writes stdin to stdout in pzstd's format (each zstd frame after a 12-byte skippable frame
//! holding its compressed size), with a chosen level and frame size, fast: the measuring
//! scripts use it to make large pzstd files with the 32 MiB frames of `pzstd -19` without
//! waiting for level 19.
//!
//! `pzstd_write [LEVEL [FRAME_MIB]] < IN > OUT` (defaults: 3, 32).

use std::io::{Read, Write};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let level: i32 = args.next().map_or(3, |a| a.parse().expect("LEVEL"));
    let frame: usize = args.next().map_or(32, |a| a.parse().expect("FRAME_MIB")) << 20;
    let mut input = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut buf = Vec::with_capacity(frame);
    loop {
        buf.clear();
        (&mut input).take(frame as u64).read_to_end(&mut buf)?;
        if buf.is_empty() {
            break;
        }
        let z = zstd::bulk::compress(&buf, level)?;
        out.write_all(&[0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0])?;
        out.write_all(&(z.len() as u32).to_le_bytes())?;
        out.write_all(&z)?;
    }
    out.flush()
}

//! What sharing the input buffer (`bytes::Bytes`) saves when an archive is cut into games to
//! hand to other threads: `pgn::split_games` / `sgf::split_trees` (each game a slice of the
//! buffer) against the same split with each game copied into its own `Vec<u8>`, the way a
//! splitter over `&[u8]` has to hand games over. Best of N passes each, interleaved.
//!
//! `cargo run --release --example split_bytes -- FILE [N]` (`.sgf` files split as SGF)

use std::time::Instant;

use bytes::Bytes;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let data = Bytes::from(std::fs::read(path).unwrap());
    let sgf = path.to_ascii_lowercase().ends_with(".sgf");
    let split = |data: Bytes| -> Box<dyn Iterator<Item = kifu::split::RawGame>> {
        if sgf {
            Box::new(kifu::sgf::split_trees(data))
        } else {
            Box::new(kifu::pgn::split_games(data))
        }
    };
    let (mut shared, mut copied) = (f64::MAX, f64::MAX);
    let mut games = 0;
    for _ in 0..n {
        let t = Instant::now();
        let pieces: Vec<Bytes> = split(data.clone()).map(|g| g.bytes).collect();
        shared = shared.min(t.elapsed().as_secs_f64());
        games = pieces.len();
        drop(std::hint::black_box(pieces));
        let t = Instant::now();
        let pieces: Vec<Vec<u8>> = split(data.clone()).map(|g| g.bytes.to_vec()).collect();
        copied = copied.min(t.elapsed().as_secs_f64());
        drop(std::hint::black_box(pieces));
    }
    let mb = data.len() as f64 / 1e6;
    println!(
        "{games} games, {mb:.1} MB: shared slices {:.0} MB/s, copied {:.0} MB/s ({:.2}x); \
         extra memory when copied: {mb:.1} MB",
        mb / shared,
        mb / copied,
        copied / shared
    );
}

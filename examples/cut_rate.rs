//! The parallel scan's cutter alone, beside one parser: how many parsers one cutter can feed.
//!
//! A scan cuts its input into pieces on one thread (`kifu::par`) and reads the pieces on the
//! others, so the cutter's rate bounds the scan's: `-jN` can reach `N×` only while the cutter
//! runs at least `N` times as fast as one parser. This measures, on the same file, best of
//! `ROUNDS` passes each, interleaved:
//!
//! - `cut, read`: the cutter over the file through `std::fs::File` (what `kifu` does with a
//!   plain file at `-j3` and more), the time spent on the cutter's thread only (another thread
//!   takes the pieces and does a worker's first step with them: it counts their lines);
//! - `cut and count, read`: the same with the cutter counting the lines itself, as it does for
//!   a scan on two threads (`-j2`);
//! - `cut, held`: the same over the file held in memory (pieces are slices, no copy);
//! - `parse`: one parser over the file with a visitor counting games (`kifu stats -j1`'s work).
//!
//! `cargo run --release --example cut_rate -- FILE [ROUNDS] [PIECE_SIZE]` (`.sgf` files as SGF)

use std::time::Instant;

use bytes::Bytes;
use kifu::{Control, Format, pgn, sgf};

#[derive(Default)]
struct Count(u64);

impl pgn::Visitor for Count {
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.0 += u64::from(ctx.is_main_line());
        Control::Continue
    }
}

impl sgf::Visitor for Count {
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        self.0 += u64::from(ctx.depth == 0);
        Control::Continue
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let format = if path.to_ascii_lowercase().ends_with(".sgf") {
        Format::Sgf
    } else {
        Format::Pgn
    };
    let mut options = kifu::par::Options::default();
    if let Some(size) = args.get(3).and_then(|s| s.parse().ok()) {
        options.piece_size = size;
    }
    let data = Bytes::from(std::fs::read(path).expect("read the file"));
    let (mut read, mut counted, mut held, mut parse) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    let (mut pieces, mut games) = (0, 0);
    for _ in 0..rounds {
        let file = std::fs::File::open(path).expect("open the file");
        let (n, bytes, seconds) = kifu::par::cut_only(&options, format, file, false).expect("cut");
        read = read.min(seconds);
        assert_eq!(bytes, data.len() as u64);
        pieces = n;

        let file = std::fs::File::open(path).expect("open the file");
        let (_, _, seconds) = kifu::par::cut_only(&options, format, file, true).expect("cut");
        counted = counted.min(seconds);

        let (n, _, seconds) = kifu::par::cut_only_bytes(&options, format, data.clone());
        held = held.min(seconds);
        assert_eq!(n, pieces);

        let t = Instant::now();
        let file = std::fs::File::open(path).expect("open the file");
        let mut count = Count::default();
        match format {
            Format::Pgn => pgn::Reader::new(file)
                .read_all(&mut count)
                .map(drop)
                .expect("parse"),
            Format::Sgf => sgf::Reader::new(file)
                .read_all(&mut count)
                .map(drop)
                .expect("parse"),
        }
        parse = parse.min(t.elapsed().as_secs_f64());
        games = count.0;
    }
    let mb = data.len() as f64 / 1e6;
    println!(
        "{mb:.1} MB, {games} games, {pieces} pieces of {} KiB: cut, read {:.0} MB/s; \
         cut and count, read {:.0} MB/s; cut, held {:.0} MB/s; parse {:.0} MB/s; one cutter \
         feeds {:.1} parsers (read), {:.1} (cut and count, read), {:.1} (held)",
        options.piece_size >> 10,
        mb / read,
        mb / counted,
        mb / held,
        mb / parse,
        parse / read,
        parse / counted,
        parse / held,
    );
}

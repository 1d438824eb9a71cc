//! The single-thread building block of `kifu export`, measured: PGN games read into DOMs
//! (`pgn::Games`), pushed into a table builder, finished into batches, written by a sink; and,
//! beside it, a plain streaming parse of the same bytes (what `kifu stats` does).
//!
//! ```text
//! cargo run --release -p kifu-export --example export_bench -- MODE [--table T] [--out PATH] FILE...
//!   MODE  parse    the event parser alone, counting games and moves (kifu stats' work)
//!         dom      + the DOM of each game (pgn::Games, each game handed back once used)
//!         build    + the table's batches (Builder), not written
//!         parquet  + written to Parquet (zstd) at --out (default: a temporary file)
//!         csv      + written to CSV
//!   --table games|moves (default games)  --batch N games per batch (default 8192), and a
//!   batch ends sooner at --batch-bytes B of built rows (default 16 MiB), as the pipeline's
//!   pieces bound theirs
//!   --no-sync  no fsync of the output before its rename
//!   --stream  read the files through `pgn::ReadGames` / `pgn::Reader` (constant memory)
//!             instead of whole into memory (for the peak-memory measurement)
//! ```
//!
//! Prints one JSON object: bytes, games, rows, seconds, MB/s, and where the time went.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kifu::Control;
use kifu::pgn::{self, Context, Move, Visitor};
use kifu_export::{Builder, OutFormat, SinkOptions, Table, TableOptions, create};

#[derive(Default)]
struct Count {
    games: u64,
    moves: u64,
}

impl Visitor for Count {
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_move(&mut self, _: &Context, _: &Move<'_>) -> Control {
        self.moves += 1;
        Control::Continue
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args
        .next()
        .expect("a mode: parse, dom, build, parquet, csv");
    let (mut table, mut out, mut batch_games, mut files) =
        (Table::PgnGames, None::<PathBuf>, 8192usize, Vec::new());
    let mut stream = false;
    let mut sync = true;
    let mut batch_bytes = 16usize << 20;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--table" => {
                let t = args.next().expect("a table");
                table = Table::by_name(&t, false).expect("games or moves");
            }
            "--out" => out = Some(PathBuf::from(args.next().expect("a path"))),
            "--batch" => batch_games = args.next().expect("N").parse().expect("a number"),
            "--stream" => stream = true,
            "--no-sync" => sync = false,
            "--batch-bytes" => batch_bytes = args.next().expect("B").parse().expect("a number"),
            _ => files.push(PathBuf::from(a)),
        }
    }
    let inputs: Vec<(String, Vec<u8>)> = if stream {
        Vec::new()
    } else {
        files
            .iter()
            .map(|f| {
                (
                    f.display().to_string(),
                    std::fs::read(f).expect("a readable file"),
                )
            })
            .collect()
    };
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).expect("a file").len())
        .sum();
    let open = |f: &PathBuf| std::fs::File::open(f).expect("a readable file");

    let (mut t_dom, mut t_push, mut t_finish, mut t_write) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let (mut games, mut rows) = (0u64, 0u64);
    let start = Instant::now();
    match mode.as_str() {
        "parse" if stream => {
            for f in &files {
                let mut c = Count::default();
                pgn::Reader::new(open(f)).read_all(&mut c).expect("read");
                games += c.games;
                rows += c.moves;
            }
        }
        "parse" => {
            for (_, data) in &inputs {
                let mut c = Count::default();
                pgn::parse(data, &mut c);
                games += c.games;
                rows += c.moves;
            }
        }
        "dom" => {
            for (_, data) in &inputs {
                let mut it = pgn::Games::new(data);
                while let Some(g) = it.next() {
                    games += 1;
                    rows += g.moves.len() as u64;
                    it.recycle(g);
                }
            }
        }
        "build" | "parquet" | "csv" => {
            let write = mode != "build";
            let format = if mode == "csv" {
                OutFormat::Csv
            } else {
                OutFormat::Parquet
            };
            let path = out.unwrap_or_else(|| {
                std::env::temp_dir().join(format!(
                    "kifu-export-bench-{}.{}",
                    std::process::id(),
                    format.extension()
                ))
            });
            let opts = TableOptions::default();
            let mut builder = Builder::new(table, &opts);
            let sink_opts = SinkOptions {
                force: true,
                inputs: files.clone(),
                sync,
                ..SinkOptions::default()
            };
            let mut sink = write.then(|| {
                create(&path, format, builder.schema(), &sink_opts).expect("an output file")
            });
            // one source open at a time (a reader holds its buffer and parser)
            let count = if stream { files.len() } else { inputs.len() };
            for k in 0..count {
                let (name, mut it) = if stream {
                    let it = pgn::ReadGames::new(open(&files[k]));
                    (files[k].display().to_string(), Source::Read(Box::new(it)))
                } else {
                    let it = pgn::Games::new(&inputs[k].1);
                    (inputs[k].0.clone(), Source::Slice(Box::new(it)))
                };
                let name = &name;
                loop {
                    let t0 = Instant::now();
                    let Some(g) = it.next() else { break };
                    let t1 = Instant::now();
                    builder.push_pgn(name, &g).expect("a PGN table");
                    let t2 = Instant::now();
                    it.recycle(g); // its room serves the next game, as in `kifu export`
                    t_dom += t1 - t0;
                    t_push += t2 - t1;
                    games += 1;
                    if builder.games() >= batch_games || builder.estimated_bytes() >= batch_bytes {
                        flush(
                            &mut builder,
                            &mut sink,
                            &mut t_finish,
                            &mut t_write,
                            &mut rows,
                        );
                    }
                }
            }
            flush(
                &mut builder,
                &mut sink,
                &mut t_finish,
                &mut t_write,
                &mut rows,
            );
            if let Some(sink) = sink {
                let t0 = Instant::now();
                let summary = sink.finish().expect("the output written");
                t_write += t0.elapsed();
                eprintln!("wrote {} ({} bytes)", path.display(), summary.bytes);
                if std::env::var_os("KIFU_BENCH_KEEP").is_none() {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
        m => panic!("unknown mode {m}"),
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{{\"mode\":\"{mode}\",\"bytes\":{bytes},\"games\":{games},\"rows\":{rows},\
         \"seconds\":{secs:.4},\"mb_per_s\":{:.2},\"dom_s\":{:.4},\"push_s\":{:.4},\
         \"finish_s\":{:.4},\"write_s\":{:.4}}}",
        bytes as f64 / 1e6 / secs,
        t_dom.as_secs_f64(),
        t_push.as_secs_f64(),
        t_finish.as_secs_f64(),
        t_write.as_secs_f64()
    );
}

/// The games of a file read whole or streamed.
enum Source<'a> {
    Slice(Box<pgn::Games<'a>>),
    Read(Box<pgn::ReadGames<std::fs::File>>),
}

impl Source<'_> {
    fn next(&mut self) -> Option<pgn::Game> {
        match self {
            Source::Slice(it) => it.next(),
            Source::Read(it) => it.next().map(|g| g.expect("read")),
        }
    }

    fn recycle(&mut self, game: pgn::Game) {
        match self {
            Source::Slice(it) => it.recycle(game),
            Source::Read(it) => it.recycle(game),
        }
    }
}

fn flush(
    builder: &mut Builder,
    sink: &mut Option<Box<dyn kifu_export::Sink>>,
    t_finish: &mut Duration,
    t_write: &mut Duration,
    rows: &mut u64,
) {
    let t0 = Instant::now();
    let batch = builder.finish();
    let t1 = Instant::now();
    *rows += batch.num_rows() as u64;
    if let Some(s) = sink {
        s.write(&batch).expect("a batch written");
    }
    *t_finish += t1 - t0;
    *t_write += t1.elapsed();
}

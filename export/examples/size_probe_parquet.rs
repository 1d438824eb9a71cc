//! Binary-size probe: PGN games from stdin to the `games` table in Parquet at the path given
//! (the library, Arrow and the Parquet writer with zstd). Compare with `size_probe_json`.

use std::io::Read;

use kifu_export::{Builder, OutFormat, SinkOptions, Table, TableOptions, create};

fn main() {
    let out = std::env::args().nth(1).expect("an output path");
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let mut b = Builder::new(Table::PgnGames, &TableOptions::default());
    for game in kifu::pgn::Games::new(&input) {
        b.push_pgn("stdin", &game).expect("a PGN table");
    }
    let opts = SinkOptions {
        force: true,
        ..SinkOptions::default()
    };
    let mut sink = create(out.as_ref(), OutFormat::Parquet, b.schema(), &opts).expect("output");
    sink.write(&b.finish()).expect("written");
    sink.finish().expect("finished");
}

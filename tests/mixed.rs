//! What reads PGN and SGF in one run (each format's own tests are in `tests/pgn/` and
//! `tests/sgf/`): `kifu::par::scan` over many inputs of both formats.

use kifu::par::Options;
use kifu::{pgn, sgf};

/// Many inputs, small and large, PGN and SGF, and some that could not be opened: on several
/// threads (where the small ones travel in batches) the sink sees what one thread gives, input
/// by input, in order.
#[test]
fn many_inputs_small_and_large_read_in_order() {
    use kifu::par::{Event, Visited, Work};
    struct Logs;
    impl Work for Logs {
        type Input = usize;
        type Pgn = pgn::EventLog;
        type Sgf = sgf::EventLog;
        fn pgn(&self, _: &usize) -> pgn::EventLog {
            pgn::EventLog::default()
        }
        fn sgf(&self, _: &usize) -> sgf::EventLog {
            sgf::EventLog::default()
        }
    }
    let pgn_game = b"[Event \"e\"]\n1. e4 {c} e5 (1... c5) 2. Nf3 *\n\n".as_slice();
    let sgf_game = b"(;GM[1]SZ[9];B[aa];W[bb](;B[cc])(;B[dd]))\n".as_slice();
    // input i: PGN, SGF or a failure, of 0 to a few hundred games
    let inputs: Vec<(u8, Vec<u8>)> = (0..700usize)
        .map(|i| match i % 7 {
            0 => (b'x', Vec::new()),
            1 | 2 | 4 => (b'p', pgn_game.repeat(i % 5 + (i % 97 == 1) as usize * 300)),
            _ => (b's', sgf_game.repeat(i % 4 + (i % 89 == 3) as usize * 200)),
        })
        .collect();
    let run = |threads: usize, piece_size: usize| {
        let options = Options {
            threads,
            piece_size,
            read_size: 333,
        };
        let mut seen: Vec<String> = Vec::new();
        kifu::par::scan::<_, (), _, _>(
            &options,
            &Logs,
            |f| {
                for (i, (kind, data)) in inputs.iter().enumerate() {
                    let going = match kind {
                        b'p' => f.pgn(i, pgn::Config::default(), &data[..]),
                        b's' => f.sgf(i, sgf::Config::default(), &data[..]),
                        _ => f.failed(i, std::io::Error::other("no such file")),
                    };
                    assert!(going);
                }
            },
            |e| {
                match e {
                    Event::Piece { input, visited, .. } => match visited {
                        Visited::Pgn(log) => seen.push(format!("{input} pgn {}", log.games())),
                        Visited::Sgf(log) => seen.push(format!("{input} sgf {}", log.games())),
                    },
                    Event::End {
                        input,
                        bytes,
                        error,
                    } => seen.push(format!("{input} end {bytes} {error:?}")),
                }
                Ok(())
            },
        )
        .unwrap();
        // games per input, whatever the pieces
        let mut merged: Vec<String> = Vec::new();
        let mut games = 0usize;
        for s in seen {
            let parts: Vec<&str> = s.splitn(3, ' ').collect();
            if parts[1] == "end" {
                merged.push(format!("{} {games} games, end {}", parts[0], parts[2]));
                games = 0;
            } else {
                games += parts[2].parse::<usize>().unwrap();
            }
        }
        merged
    };
    let alone = run(1, 1 << 20);
    assert_eq!(alone.len(), inputs.len());
    for (threads, piece_size) in [(2, 1 << 20), (3, 4096), (2, 100)] {
        assert_eq!(
            run(threads, piece_size),
            alone,
            "{threads} threads, pieces of {piece_size}"
        );
    }
}

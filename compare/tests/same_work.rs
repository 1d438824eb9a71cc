//! What belongs here: tests that kifu and the crates the benches time it against do the same
//! work on the same bytes, so that the benches compare like with like (kifu's own tests are in
//! the root `tests/`). The corpus tests are ignored, saying "needs ../shared (the corpus)",
//! without it.

use kifu::pgn;
use kifu_compare::pgn_visitors::{Counts, KifuAll, KifuHeaders, ReaderAll, ReaderHeaders};

fn kifu_counts<V: pgn::Visitor + Default + Into<Counts>>(data: &[u8]) -> Counts {
    let mut v = V::default();
    let _ = pgn::parse(data, &mut v);
    v.into()
}

fn reader_counts<R: pgn_reader::Visitor<Output = ()> + Default + Into<Counts>>(
    data: &[u8],
) -> Counts {
    let mut v = R::default();
    pgn_reader::Reader::new(data)
        .visit_all_games(&mut v)
        .unwrap();
    v.into()
}

fn same_work(name: &str, data: &[u8]) {
    let all = kifu_counts::<KifuAll>(data);
    assert_eq!(all, reader_counts::<ReaderAll>(data), "{name}: visit_all");
    assert!(all.games > 0 && all.moves > 0, "{name}: {all:?}");
    let headers = kifu_counts::<KifuHeaders>(data);
    assert_eq!(
        headers,
        reader_counts::<ReaderHeaders>(data),
        "{name}: headers"
    );
    assert_eq!(headers.games, all.games, "{name}: games");
}

/// The seed is odd on purpose (`oh?`, a `;` comment, a stray `}`, an escape line): the two
/// agree on its structure, not on every NAG and byte of what they make of the odd parts.
#[test]
fn the_pgn_visitors_see_the_same_structure_in_the_seed() {
    let data = kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn");
    let (k, r) = (
        kifu_counts::<KifuAll>(&data),
        reader_counts::<ReaderAll>(&data),
    );
    let structure = |c: &Counts| {
        (
            c.games,
            c.tags,
            c.moves,
            c.comments,
            c.variations,
            c.outcomes,
        )
    };
    assert_eq!(structure(&k), structure(&r), "{k:?}\n{r:?}");
    assert_eq!((k.games, k.moves), (1, 59));
}

/// The collections the benches read, except `small` (it gathers the damaged and odd files, where
/// the two read differently on purpose): every count the same, so the timings compare like with
/// like.
#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn the_pgn_visitors_count_the_same_on_the_bench_collections() {
    let root = kifu_testkit::shared().join("corpus/pgn/large");
    for name in ["stockfish-books", "notnil-chess-history", "tcec"] {
        let mut data = Vec::new();
        for f in kifu_testkit::files_with_ext(&root.join(name), "pgn") {
            data.extend(std::fs::read(f).unwrap());
            data.push(b'\n');
        }
        same_work(name, &data);
    }
}

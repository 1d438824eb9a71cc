//! The Go training rows' ko point, key and symmetries, checked against the replay itself:
//!
//! - the key ([`Board::key`], kept as the stones change) equals [`zobrist`] of the row's board;
//! - the ko point is where a move of the side to move is the replay's `ko_violation`, and a
//!   `ko_violation` is a move at the ko point;
//! - a game turned by each symmetry ([`Symmetry`]: its setup and moves rewritten) and replayed
//!   gives the rows of the game, each board, move and ko point turned the same way.
//!
//! On small games always, on the shared corpus's small SGF collection when `../shared` is there.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use kifu::sgf::{self, BoardSize, Color, GameTree, Point};
use kifu_replay::go::{
    Board, ErrorKind, PlayOutcome, Symmetry, TrainingRow, TrainingRows, zobrist,
};

/// An SGF point's letters (`a`-`z` then `A`-`Z`).
fn letter(n: u8) -> char {
    char::from(if n < 26 { b'a' + n } else { b'A' + n - 26 })
}

fn point_text(p: Point) -> String {
    format!("{}{}", letter(p.x), letter(p.y))
}

/// The main line of `tree` under `sym` as an SGF game of its own: the root's size and rules, then
/// each node's setup (points listed one by one) and move, turned. `None` for a transposing
/// symmetry of a board that is not square.
fn turned(tree: &GameTree, sym: Symmetry) -> Option<String> {
    let size = tree.board_size();
    if sym.transposes() && size.cols != size.rows {
        return None;
    }
    let (tw, th) = sym.dims(size.cols, size.rows);
    let mut out = format!("(;SZ[{tw}:{th}]");
    if let Some(ru) = tree.root().value(b"RU") {
        let _ = write!(out, "RU[{}]", String::from_utf8_lossy(ru.0));
    }
    for (k, node) in tree.main_line().enumerate() {
        if k > 0 {
            out.push(';');
        }
        for p in node.properties() {
            let name = p.name();
            match name {
                b"AB" | b"AW" | b"AE" => {
                    out.push_str(std::str::from_utf8(name).unwrap());
                    for v in p.values() {
                        match v.points(size) {
                            Some(points) => {
                                for q in points {
                                    let _ = write!(out, "[{}]", point_text(sym.point(q, size)));
                                }
                            }
                            // off the board: kept off the board
                            None => out.push_str("[ZZ]"),
                        }
                    }
                }
                b"B" | b"W" => {
                    let v = p.values().next()?;
                    out.push_str(std::str::from_utf8(name).unwrap());
                    match v.go_move(size) {
                        Some(Some(q)) => {
                            let _ = write!(out, "[{}]", point_text(sym.point(q, size)));
                        }
                        Some(None) => out.push_str("[]"),
                        None => out.push_str("[ZZ]"),
                    }
                }
                b"KO" => out.push_str("KO[]"),
                _ => {}
            }
        }
    }
    out.push(')');
    Some(out)
}

/// Checks one tree's rows; returns how many rows and how many had a ko point.
fn check(tree: &GameTree, what: &str) -> (usize, usize) {
    let rows: Vec<TrainingRow<'_>> = TrainingRows::new(tree).collect();
    let mut kos = 0;
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            r.key,
            zobrist(r.size, &r.board, r.to_play),
            "{what}: row {i}: the kept key"
        );
        if let Some(ko) = r.ko {
            kos += 1;
            // the side to move may not play there: the replay says `ko_violation`
            let mut b = Board::new(r.size);
            for (k, &c) in r.board.iter().enumerate() {
                let cols = usize::from(r.size.cols);
                let p = Point {
                    x: (k % cols) as u8,
                    y: (k / cols) as u8,
                };
                b.set(p, c);
            }
            assert_eq!(b.get(ko), 0, "{what}: row {i}: the ko point is empty");
            // rebuilt from bytes the board has no ko: play the retake and look at what it took
            match b.play(r.to_play, ko) {
                PlayOutcome::Played { captured: 1 } => {}
                o => panic!("{what}: row {i}: a retake at the ko point gave {o:?}"),
            }
        }
        if r.error == Some(ErrorKind::KoViolation) {
            assert!(
                r.ko.is_some() && r.ko == r.point,
                "{what}: row {i}: a ko violation away from the ko point {:?}",
                r.ko
            );
        }
    }
    if rows.is_empty() {
        return (0, 0);
    }
    let size = tree.board_size();
    let mut board = Vec::new();
    for sym in Symmetry::ALL {
        let Some(text) = turned(tree, sym) else {
            continue;
        };
        let t = sgf::game_trees(text.as_bytes()).next().unwrap();
        let other: Vec<_> = TrainingRows::new(&t).collect();
        assert_eq!(other.len(), rows.len(), "{what} {sym:?}: {text}");
        let (tw, th) = sym.dims(size.cols, size.rows);
        for (i, (a, b)) in rows.iter().zip(&other).enumerate() {
            sym.board(size, &a.board, &mut board);
            assert_eq!(board, b.board, "{what} {sym:?}: row {i}: the board");
            assert_eq!(b.size, BoardSize { cols: tw, rows: th });
            let turn = |p: Option<Point>| p.map(|p| sym.point(p, size));
            assert_eq!(turn(a.point), b.point, "{what} {sym:?}: row {i}: the move");
            assert_eq!(turn(a.ko), b.ko, "{what} {sym:?}: row {i}: the ko point");
            assert_eq!(
                (a.to_play, a.captures, a.error),
                (b.to_play, b.captures, b.error),
                "{what} {sym:?}: row {i}"
            );
            assert_eq!(b.key, zobrist(b.size, &board, b.to_play));
            if sym == Symmetry::IDENTITY {
                assert_eq!(a.key, b.key);
            }
        }
    }
    (rows.len(), kos)
}

#[test]
fn ko_point_key_and_symmetries_on_small_games() {
    // the ko on the left edge of a 4x4 board: B[cb] takes bb, then the ko point is bb for White
    let ko = "(;SZ[4]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb];B[dd])";
    let tree = sgf::game_trees(ko.as_bytes()).next().unwrap();
    let rows: Vec<_> = TrainingRows::new(&tree).collect();
    assert_eq!(rows[0].ko, None);
    assert_eq!(rows[1].ko, Some(Point { x: 1, y: 1 }));
    assert_eq!(rows[1].error, Some(ErrorKind::KoViolation));
    // after the retake (played all the same), Black may not retake at cb at once
    assert_eq!(rows[2].ko, Some(Point { x: 2, y: 1 }));
    assert_eq!(check(&tree, "ko"), (3, 2));
    // a pass clears it; two moves of one colour in a row: the ko is not the mover's
    for (t, row) in [
        (
            "(;SZ[4]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[];B[aa])",
            2,
        ),
        ("(;SZ[4]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];B[dd])", 1),
    ] {
        let tree = sgf::game_trees(t.as_bytes()).next().unwrap();
        let rows: Vec<_> = TrainingRows::new(&tree).collect();
        assert_eq!(rows[row].ko, None, "{t}");
        check(&tree, t);
    }
    // equal positions, equal keys: the same stones reached in another order
    let a = sgf::game_trees(b"(;SZ[9];B[cc];W[gg];B[cg];W[gc];B[ee])")
        .next()
        .unwrap();
    let b = sgf::game_trees(b"(;SZ[9];B[cg];W[gc];B[cc];W[gg];B[ee])")
        .next()
        .unwrap();
    let (ra, rb): (Vec<_>, Vec<_>) = (
        TrainingRows::new(&a).collect(),
        TrainingRows::new(&b).collect(),
    );
    assert_eq!(ra[4].key, rb[4].key);
    assert_ne!(ra[3].key, rb[3].key);
    assert_ne!(ra[4].key, ra[3].key);
    // captures, suicide, setup between moves, a rectangular board, a pass, a move off the board
    for t in [
        "(;SZ[5];W[aa];B[ba];W[ee];B[ab])",
        "(;SZ[5];W[aa];B[ca];W[ba];B[ab];W[ee];B[bb])",
        "(;SZ[3]AW[ba][ab];B[aa];W[cc])",
        "(;SZ[3]RU[NZ]AW[ba][ab];B[aa];W[cc])",
        "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[];W[ce]AE[cc];B[cc]AB[aa:bb])",
        "(;SZ[7:4];B[aa];W[ba];B[gd];W[fd];B[ab];W[ca])",
        "(;SZ[19:13]HA[2]AB[dd][pj];W[qd];B[zz];W[];B[dj])",
    ] {
        let tree = sgf::game_trees(t.as_bytes()).next().unwrap();
        let (n, _) = check(&tree, t);
        assert!(n > 0, "{t}");
    }
}

/// The shared folder, as the build script found it (see `tests/corpus.rs`).
fn shared() -> PathBuf {
    match option_env!("KIFU_SHARED_DIR") {
        Some(dir) if cfg!(kifu_shared) => PathBuf::from(dir),
        _ => panic!(
            "this test needs the shared corpus: ../shared beside the project root (or \
             KIFU_SHARED naming it), present when the tests were built (touch build.rs after \
             adding it)"
        ),
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn ko_point_key_and_symmetries_on_the_small_corpus() {
    let (mut trees, mut rows, mut kos) = (0, 0, 0);
    for f in files(&shared().join("corpus/sgf/small")) {
        let data = std::fs::read(&f).unwrap();
        for (i, tree) in sgf::game_trees(&data).enumerate() {
            if tree.is_empty() {
                continue;
            }
            let (n, k) = check(&tree, &format!("{} tree {i}", f.display()));
            trees += 1;
            rows += n;
            kos += k;
        }
    }
    eprintln!("{trees} trees, {rows} rows, {kos} with a ko point: all 8 symmetries agree");
    assert!(
        trees > 2_000 && rows > 100_000 && kos > 100,
        "{trees} {rows} {kos}"
    );
}

#[test]
fn the_colour_of_a_key() {
    let size = BoardSize { cols: 19, rows: 19 };
    let empty = vec![0u8; 361];
    assert_ne!(
        zobrist(size, &empty, Color::Black),
        zobrist(size, &empty, Color::White)
    );
    assert_eq!(
        Board::new(size).key(Color::Black),
        zobrist(size, &empty, Color::Black)
    );
}

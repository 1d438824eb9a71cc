//! The Go replay: captures, suicide under both rule sets, ko, rectangular boards, setup,
//! passes, points off the board, variations, DOM = adapter, training rows.

use kifu::Control;
use kifu::sgf::{self, BoardSize, Color, Context, Point};

use super::*;

#[derive(Default)]
struct Log {
    /// (main line, color, point, captured) per applied move
    moves: Vec<(bool, Color, Option<Point>, u32)>,
    errors: Vec<String>,
    ends: Vec<Option<(String, [u32; 2], u32)>>,
}

impl sgf::Visitor for Log {}

impl GoReplayVisitor for Log {
    fn on_go_move(&mut self, ctx: &Context, p: &Played<'_>) -> Control {
        self.moves
            .push((ctx.main_line, p.color, p.point, p.captured));
        Control::Continue
    }
    fn on_go_error(&mut self, e: &Error<'_>) -> Control {
        self.errors.push(line(e).to_string());
        Control::Continue
    }
    fn on_go_game(&mut self, _: &Context, g: &GoGame<'_>) -> Control {
        self.ends.push(g.end.map(|b| {
            (
                b.to_string(),
                [b.captures(Color::Black), b.captures(Color::White)],
                g.main_line_moves,
            )
        }));
        Control::Continue
    }
}

fn run(text: &str) -> Log {
    let mut v = GoReplayer::new(Log::default());
    sgf::parse(text.as_bytes(), &mut v);
    v.into_inner()
}

fn end(text: &str) -> (String, [u32; 2], u32) {
    run(text).ends[0].clone().expect("a Go game")
}

fn codes(log: &Log) -> Vec<&str> {
    log.errors
        .iter()
        .map(|e| e.split(' ').nth(2).unwrap().trim_end_matches(':'))
        .collect()
}

#[test]
fn single_and_multi_stone_captures() {
    // a corner stone, then a two-stone group on the edge
    let (b, caps, n) = end("(;SZ[5];W[aa];B[ba];W[dd];B[ab])");
    assert_eq!(b, ".X...\nX....\n.....\n...O.\n.....\n");
    assert_eq!((caps, n), ([1, 0], 4));
    let (b, caps, _) = end("(;SZ[5];W[aa];B[ca];W[ba];B[ab];W[ee];B[bb])");
    assert_eq!(b, "..X..\nXX...\n.....\n.....\n....O\n");
    assert_eq!(caps, [2, 0]);
}

#[test]
fn two_groups_captured_by_one_move() {
    // white a2 and b1 are single stones; black a1 takes both (each has only a1 left)
    let (b, caps, _) = end("(;SZ[4]AW[ab][ba]AB[ac][bb][ca];B[aa])");
    assert_eq!(b, "X.X.\n.X..\nX...\n....\n");
    assert_eq!(caps, [2, 0]);
}

#[test]
fn suicide_by_the_rules() {
    // black plays into a point surrounded by white: suicide
    let text = |ru: &str| format!("(;SZ[3]RU[{ru}]AW[ba][ab];B[aa])");
    let log = run(&text("Japanese"));
    assert_eq!(codes(&log), ["suicide"]);
    assert_eq!(log.ends[0].as_ref().unwrap().0, ".O.\nO..\n...\n");
    assert_eq!(log.ends[0].as_ref().unwrap().1, [0, 1]); // the stone goes to White
    for ru in ["NZ", "New Zealand", "Ing", "GOE", "Tromp-Taylor"] {
        let log = run(&text(ru));
        assert!(log.errors.is_empty(), "{ru}: {:?}", log.errors);
        assert_eq!(log.ends[0].as_ref().unwrap().1, [0, 1], "{ru}");
    }
    // no RU: suicide is an error; a multi-stone suicide removes the whole group
    let log = run("(;SZ[4]AW[ca][cb][ac][bc][cc];B[aa];W[ee];B[ab];W[];B[ba];W[];B[bb])");
    assert_eq!(codes(&log), ["out_of_board", "suicide"]);
    let (b, caps, _) = log.ends[0].clone().unwrap();
    assert_eq!(b, "..O.\n..O.\nOOO.\n....\n");
    assert_eq!(caps, [0, 4]);
    // KO[] in the node: executed without a report
    let log = run("(;SZ[3]AW[ba][ab];B[aa]KO[])");
    assert!(log.errors.is_empty());
}

#[test]
fn simple_ko() {
    // the classic shape on the left edge of a 4x4 board:
    //  . X O .      Black takes at b2 (after W fills), White retakes at once: ko
    let setup = "(;SZ[4]AB[ba][ab][bc]AW[ca][bb][db][cc]";
    let log = run(&format!("{setup};B[cb];W[bb])"));
    // B[cb] takes the white stone at bb; W[bb] retakes at once
    assert_eq!(log.moves[0].3, 1);
    assert_eq!(codes(&log), ["ko_violation"]);
    assert_eq!(log.moves[1].3, 1); // played all the same, as `FF[4]` asks
    // after a move elsewhere (a ko threat) the retake is legal
    let log = run(&format!("{setup};B[cb];W[dd];B[aa];W[bb])"));
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    // a pass clears the ko too
    let log = run(&format!("{setup};B[cb];W[];B[];W[bb])"));
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    // taking two stones is no ko
    let log = run("(;SZ[5]AB[ba][ab][bc][ca]AW[da][cb][db][dc]AW[cc];B[ac])");
    assert!(log.errors.is_empty(), "{:?}", log.errors);
}

#[test]
fn rectangular_boards_and_big_ones() {
    let (b, _, _) = end("(;SZ[5:3];B[ea];W[ac];B[dc])");
    assert_eq!(b, "....X\n.....\nO..X.\n");
    let log = run("(;SZ[5:3];B[ad])"); // row d is off a 3-row board
    assert_eq!(codes(&log), ["out_of_board"]);
    let (b, _, n) = end("(;SZ[52];B[ZZ];W[tt])");
    assert_eq!(n, 2);
    let rows: Vec<&str> = b.lines().collect();
    assert_eq!(rows.len(), 52);
    assert_eq!(&rows[51][51..], "X");
    assert_eq!(&rows[19][19..20], "O"); // tt is a point on boards above 19x19
}

#[test]
fn passes() {
    let log = run("(;`FF[4]`SZ[19];B[];W[tt];B[aa])");
    assert!(log.errors.is_empty());
    assert_eq!(
        log.moves.iter().map(|m| m.2).collect::<Vec<_>>(),
        [None, None, Some(Point { x: 0, y: 0 })]
    );
    assert_eq!(log.ends[0].as_ref().unwrap().2, 3);
}

#[test]
fn setup_with_compressed_point_lists_and_ae() {
    let (b, _, _) = end("(;SZ[4]AB[aa:bb]AW[dd];AE[ab]AW[cc])");
    assert_eq!(b, "XX..\n.X..\n..O.\n...O\n");
    // setup makes no captures, even of a stone without liberties (`FF[4]`)
    let (b, caps, _) = end("(;SZ[3]AB[ba][ab]AW[aa])");
    assert_eq!(b, "OX.\nX..\n...\n");
    assert_eq!(caps, [0, 0]);
    let log = run("(;SZ[3]AB[aa:dd])");
    assert_eq!(codes(&log), ["out_of_board"]);
}

#[test]
fn occupied_points_are_not_played_and_are_located() {
    let log = run("(;SZ[9]\n;B[ee]\n;W[ee]\n;W[ff])");
    assert_eq!(
        log.errors,
        [
            "3:3: error occupied_point: move on an occupied point: not played: `ee` (game 1, node 2 (depth 0))"
        ]
    );
    assert_eq!(log.ends[0].as_ref().unwrap().0.matches('O').count(), 1);
    let log = run("(;SZ[9];B[jj])");
    assert_eq!(
        log.errors,
        [
            "1:10: error out_of_board: point not on the board: not played: `jj` (game 1, node 1 (depth 0))"
        ]
    );
}

#[test]
fn variations_start_from_their_branch_point() {
    let log = run("(;SZ[3];B[ba];W[aa](;B[ab];W[cc])(;B[bb](;W[ab])(;W[ca])))");
    // main line: b a1-capture
    let main: Vec<_> = log
        .moves
        .iter()
        .filter(|m| m.0)
        .map(|m| (m.2, m.3))
        .collect();
    assert_eq!(main.len(), 4);
    assert_eq!(main[2].1, 1); // B[ab] captures W[aa]
    // the second variation starts again from the position after W[aa]: W[ab] there captures
    // nothing, and W[aa] is still on the board
    let var: Vec<_> = log.moves.iter().filter(|m| !m.0).collect();
    assert_eq!(var.len(), 3);
    assert!(var.iter().all(|m| m.3 == 0));
    assert_eq!(log.ends[0].as_ref().unwrap().0, ".X.\nX..\n..O\n");
    // main line only
    let mut v = GoReplayer::with_options(Log::default(), GoOptions::main_line());
    sgf::parse(
        b"(;SZ[3];B[ba];W[aa](;B[ab];W[cc])(;B[bb](;W[ab])(;W[ca])))",
        &mut v,
    );
    let log = v.into_inner();
    assert!(log.moves.iter().all(|m| m.0));
    assert_eq!(log.ends[0].as_ref().unwrap().0, ".X.\nX..\n..O\n");
}

#[test]
fn not_go_is_not_replayed() {
    let log = run("(;GM[2];B[aa])");
    assert!(log.moves.is_empty());
    assert_eq!(log.ends, [None]);
}

#[test]
fn the_dom_helper_agrees_with_the_adapter() {
    let texts = [
        "(;SZ[5];W[aa];B[ba];W[dd];B[ab];W[ab];B[zz];W[])",
        "(;SZ[4]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb];B[aa]AB[dd];W[])",
        "(;SZ[3]RU[Japanese]AW[ba][ab];B[aa](;W[cc])(;W[bb]))",
    ];
    for t in texts {
        let log = run(t);
        let tree = sgf::game_trees(t.as_bytes()).next().unwrap();
        let r = replay_tree(&tree);
        let (board, caps, n) = log.ends[0].clone().unwrap();
        assert_eq!(r.end.to_string(), board, "{t}");
        assert_eq!(
            [r.end.captures(Color::Black), r.end.captures(Color::White)],
            caps
        );
        assert_eq!(r.moves.len() as u32, n);
        let main: Vec<_> = log
            .moves
            .iter()
            .filter(|m| m.0)
            .map(|m| (m.1, m.2, m.3))
            .collect();
        let dom: Vec<_> = r
            .moves
            .iter()
            .map(|m| (m.color, m.point, m.captured))
            .collect();
        assert_eq!(main, dom, "{t}");
        let kinds: Vec<_> = r.errors.iter().map(|e| e.kind.code()).collect();
        let logged: Vec<_> = codes(&log).into_iter().take(kinds.len()).collect();
        assert_eq!(kinds, logged, "{t}");
    }
}

#[test]
fn training_rows() {
    let t = "(;SZ[3]KM[6.5]HA[0]BR[3d]WR[2k]RE[W+R];B[bb];W[ba];B[];W[ab]AB[cc];B[aa])";
    let tree = sgf::game_trees(t.as_bytes()).next().unwrap();
    let rows: Vec<_> = TrainingRows::new(&tree).collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0].board, [0; 9]);
    assert_eq!(rows[1].board, [0, 0, 0, 0, 1, 0, 0, 0, 0]);
    assert_eq!(rows[1].to_play, Color::White);
    // the node's setup comes before its move: the row's board has it
    assert_eq!(rows[3].board, [0, 2, 0, 0, 1, 0, 0, 0, 1]);
    assert_eq!(rows[2].point, None);
    // B[aa] is a suicide under the default rules; the row says so
    assert_eq!(rows[4].error, Some(ErrorKind::Suicide));
    assert_eq!(rows[4].captures, [0, 0]);
    let g = rows[0].game;
    assert_eq!((g.komi, g.handicap), (Some(6.5), Some(0)));
    assert_eq!(g.white_rank.unwrap().0, b"2k");
    assert_eq!(g.result.unwrap().0, b"W+R");
    assert!(
        rows.iter()
            .all(|r| r.game == g && r.size == BoardSize { cols: 3, rows: 3 })
    );
    let again =
        sgf::game_trees(b"(;SZ[3]C[another record of it];B[bb];W[ba];B[];W[ab]AB[cc];B[aa])")
            .next()
            .unwrap();
    assert_eq!(GameInfo::of(&again).key, g.key);
}

/// Every board size a `BoardSize` can hold: past 52 (SGF's largest) a size is read as 52, and
/// the neighbour tables (one per size, shared) give each board its own geometry: a corner stone
/// captured with two stones, an edge stone with three, on boards of every shape.
#[test]
fn boards_of_every_size_share_their_tables() {
    let big = Board::new(BoardSize {
        cols: 200,
        rows: 60,
    });
    assert_eq!(big.size(), BoardSize { cols: 52, rows: 52 });
    for (cols, rows) in [
        (1, 1),
        (2, 1),
        (1, 5),
        (3, 2),
        (9, 9),
        (19, 13),
        (19, 19),
        (52, 52),
    ] {
        let size = BoardSize { cols, rows };
        let mut b = Board::new(size);
        let mut again = Board::new(BoardSize { cols: 7, rows: 7 });
        again.reset(size);
        for board in [&mut b, &mut again] {
            if cols >= 2 && rows >= 2 {
                board.play(Color::White, Point { x: 0, y: 0 });
                board.play(Color::Black, Point { x: 1, y: 0 });
                let p = board.play(Color::Black, Point { x: 0, y: 1 });
                assert_eq!(p, PlayOutcome::Played { captured: 1 }, "{cols}x{rows}");
                assert_eq!(board.get(Point { x: 0, y: 0 }), EMPTY);
            } else {
                let p = board.play(Color::Black, Point { x: 0, y: 0 });
                let lone = usize::from(cols) * usize::from(rows) == 1;
                assert_eq!(
                    matches!(p, PlayOutcome::Suicide { .. }),
                    lone,
                    "{cols}x{rows}"
                );
            }
        }
        assert_eq!(b.points(), again.points());
        assert_eq!(b.key(Color::Black), again.key(Color::Black));
    }
}

/// `Board::removed`: every stone the last move took off, of each group it captured, or its
/// own group for a suicide; none after a move that captured nothing, a pass or a setup.
#[test]
fn the_points_a_move_emptied() {
    let at = |x, y| Point { x, y };
    let mut b = Board::new(BoardSize { cols: 5, rows: 5 });
    // two white groups in atari on either side of (1, 0): one move takes both
    for (c, p) in [
        (Color::White, at(0, 0)),
        (Color::Black, at(0, 1)),
        (Color::White, at(2, 0)),
        (Color::White, at(3, 0)),
        (Color::Black, at(2, 1)),
        (Color::Black, at(3, 1)),
        (Color::Black, at(4, 0)),
    ] {
        b.play(c, p);
        assert_eq!(b.removed().count(), 0);
    }
    assert_eq!(
        b.play(Color::Black, at(1, 0)),
        PlayOutcome::Played { captured: 3 }
    );
    let mut gone: Vec<_> = b.removed().map(|p| (p.x, p.y)).collect();
    gone.sort();
    assert_eq!(gone, [(0, 0), (2, 0), (3, 0)]);
    // occupied: nothing happens, nothing is said removed
    assert_eq!(b.play(Color::White, at(1, 0)), PlayOutcome::Occupied);
    assert_eq!(b.removed().count(), 0);
    // a suicide (the default rules): its own stone is taken off
    let mut s = Board::new(BoardSize { cols: 3, rows: 3 });
    s.play(Color::Black, at(1, 0));
    s.play(Color::Black, at(0, 1));
    assert!(matches!(
        s.play(Color::White, at(0, 0)),
        PlayOutcome::Suicide { lost: 1 }
    ));
    assert_eq!(s.removed().collect::<Vec<_>>(), [at(0, 0)]);
    s.pass();
    assert_eq!(s.removed().count(), 0);
}

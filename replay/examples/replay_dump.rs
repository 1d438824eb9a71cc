//! Prints what the replay layer makes of each game, one JSON line per game, for the reference
//! comparisons (`scripts/conformance/replay_compare_chess.py`, `scripts/conformance/replay_compare_go.py`).
//!
//! ```text
//! cargo run --release -p kifu-replay --example replay_dump -- chess FILE...
//! cargo run --release -p kifu-replay --example replay_dump -- go FILE...
//! ```
//!
//! Chess: `{"file", "game", "fens": [FEN after each replayed main-line move], "error": null |
//! [code, main-line moves replayed before it, text], "not_replayed": N}`.
//! Go: `{"file", "game", "size": [cols, rows], "board": [rows as strings of `.XO`], "captures":
//! [by black, by white], "moves": N, "errors": [[code, move index, text], ...], "kos": [[move
//! index, x, y], ...]}` (`kos`: after each main-line move that left a ko, the point simple ko
//! forbids to the opponent, 0-based from the upper left).

use std::fmt::Write as _;

use kifu::Control;
use kifu::pgn::{self, Context, Move, Visitor};
use kifu::sgf;
use kifu_replay::chess::{self, GameReplayed, ReplayVisitor, Replayed};
use kifu_replay::go::{self, GoReplayVisitor};

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

struct ChessDump {
    file: String,
    fens: Vec<String>,
    error: Option<(String, usize, String)>,
    offset: u64,
    out: String,
}

impl Visitor for ChessDump {}

impl ReplayVisitor for ChessDump {
    fn on_replayed(&mut self, ctx: &Context, _: &Move<'_>, r: &Replayed<'_>) -> Control {
        if ctx.is_main_line() {
            self.fens.push(r.after.fen().to_string());
        }
        Control::Continue
    }
    fn on_replay_error(&mut self, e: &chess::Error<'_>) -> Control {
        // the first problem of the main line (or of the game's tags)
        if self.error.is_none() {
            self.error = Some((
                e.kind.code().to_string(),
                self.fens.len(),
                String::from_utf8_lossy(e.text).into_owned(),
            ));
        }
        Control::Continue
    }
    fn on_game_replayed(&mut self, ctx: &Context, g: &GameReplayed<'_>) -> Control {
        let fens: Vec<String> = self.fens.iter().map(|f| esc(f)).collect();
        let error = match &self.error {
            None => "null".to_string(),
            Some((k, n, t)) => format!("[{},{},{}]", esc(k), n, esc(t)),
        };
        let _ = writeln!(
            self.out,
            "{{\"file\":{},\"game\":{},\"offset\":{},\"fens\":[{}],\"error\":{},\"not_replayed\":{}}}",
            esc(&self.file),
            ctx.game,
            self.offset,
            fens.join(","),
            error,
            g.not_replayed
        );
        self.fens.clear();
        self.error = None;
        Control::Continue
    }
}

/// Tracks the depth of the events, so that only main-line errors are kept.
struct MainDepth {
    depth: u32,
    inner: ChessDump,
}

impl Visitor for MainDepth {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.depth = ctx.depth;
        if ctx.depth == 0 {
            self.inner.offset = ctx.pos.offset;
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        self.depth = ctx.depth.saturating_sub(1);
        Control::Continue
    }
}

impl ReplayVisitor for MainDepth {
    fn on_replayed(&mut self, ctx: &Context, mv: &Move<'_>, r: &Replayed<'_>) -> Control {
        self.inner.on_replayed(ctx, mv, r)
    }
    fn on_replay_error(&mut self, e: &chess::Error<'_>) -> Control {
        if e.at.is_none() || self.depth == 0 {
            self.inner.on_replay_error(e)
        } else {
            Control::Continue
        }
    }
    fn on_game_replayed(&mut self, ctx: &Context, g: &GameReplayed<'_>) -> Control {
        self.inner.on_game_replayed(ctx, g)
    }
}

fn chess_file(path: &str) -> String {
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => {
            return format!(
                "{{\"file\":{},\"io_error\":{}}}\n",
                esc(path),
                esc(&e.to_string())
            );
        }
    };
    let mut v = chess::Replayer::new(MainDepth {
        depth: 0,
        inner: ChessDump {
            file: path.to_string(),
            fens: Vec::new(),
            error: None,
            offset: 0,
            out: String::new(),
        },
    });
    pgn::parse(&data, &mut v);
    v.into_inner().inner.out
}

#[derive(Default)]
struct GoDump {
    file: String,
    offset: u64,
    moves: u32,
    errors: Vec<String>,
    kos: Vec<String>,
    trace: bool,
    out: String,
}

impl sgf::Visitor for GoDump {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.depth == 0 {
            self.offset = ctx.pos.offset;
            self.moves = 0;
            self.errors.clear();
            self.kos.clear();
        }
        Control::Continue
    }
}

impl GoReplayVisitor for GoDump {
    fn on_go_move(&mut self, ctx: &sgf::Context, p: &go::Played<'_>) -> Control {
        if ctx.main_line {
            self.moves += 1;
            let opponent = match p.color {
                sgf::Color::Black => sgf::Color::White,
                sgf::Color::White => sgf::Color::Black,
            };
            if p.executed
                && let Some(k) = p.board.ko_point(opponent)
            {
                self.kos
                    .push(format!("[{},{},{}]", self.moves - 1, k.x, k.y));
            }
            if self.trace {
                let _ = writeln!(
                    self.out,
                    "{} {}",
                    self.moves,
                    p.board.to_string().replace('\n', "/")
                );
            }
        }
        Control::Continue
    }
    fn on_go_error(&mut self, e: &go::Error<'_>) -> Control {
        self.errors.push(format!(
            "[{},{},{}]",
            esc(e.kind.code()),
            self.moves,
            esc(&String::from_utf8_lossy(e.text))
        ));
        Control::Continue
    }
    fn on_go_game(&mut self, ctx: &sgf::Context, g: &go::GoGame<'_>) -> Control {
        let (size, board, caps) = match g.end {
            Some(b) => (
                format!("[{},{}]", b.size().cols, b.size().rows),
                b.to_string().lines().map(esc).collect::<Vec<_>>().join(","),
                format!(
                    "[{},{}]",
                    b.captures(sgf::Color::Black),
                    b.captures(sgf::Color::White)
                ),
            ),
            None => ("null".into(), String::new(), "null".into()),
        };
        let _ = writeln!(
            self.out,
            "{{\"file\":{},\"game\":{},\"offset\":{},\"go\":{},\"size\":{},\"board\":[{}],\"captures\":{},\"moves\":{},\"errors\":[{}],\"kos\":[{}]}}",
            esc(&self.file),
            ctx.game,
            self.offset,
            g.end.is_some(),
            size,
            board,
            caps,
            g.main_line_moves,
            self.errors.join(","),
            self.kos.join(",")
        );
        Control::Continue
    }
}

fn go_file(path: &str, trace: bool) -> String {
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => {
            return format!(
                "{{\"file\":{},\"io_error\":{}}}\n",
                esc(path),
                esc(&e.to_string())
            );
        }
    };
    let mut v = go::GoReplayer::with_options(
        GoDump {
            file: path.to_string(),
            trace,
            ..GoDump::default()
        },
        go::GoOptions::main_line(),
    );
    sgf::parse(&data, &mut v);
    v.into_inner().out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((mode, files)) = args.split_first() else {
        eprintln!("usage: replay_dump chess|go FILE...");
        std::process::exit(2);
    };
    let mut stdout = std::io::stdout().lock();
    for f in files {
        let out = match mode.as_str() {
            "chess" => chess_file(f),
            "go" => go_file(f, false),
            "go-trace" => go_file(f, true),
            _ => {
                eprintln!("unknown mode {mode}");
                std::process::exit(2);
            }
        };
        use std::io::Write;
        stdout.write_all(out.as_bytes()).unwrap();
    }
}

//! `kifu json`: one JSON object per game, the library's serialization of the DOM (the one
//! schema, feature `serde`) with the input's name as `"file"`. Each piece's games are written
//! on the worker that read them; the sink puts each object's `"index"` (known only once the
//! pieces before are counted) in front.

use std::io::{self, Write};
use std::process::ExitCode;

use kifu::par::{Event, Visited, Work};
use kifu::{pgn, sgf};

use crate::args::{Common, GameLimit};
use crate::run::{self, Outcome};
use kifu_pipeline::Input;
use kifu_pipeline::{Dom, PerGame};

/// Print one JSON object per game (its schema: docs/json.md). An input holding no game,
/// only problems, is named on stderr, and the exit status is then 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// SGF text encoding: `auto` (per game tree: the charset CA names, else UTF-8, else
    /// ISO-8859-1 unless the text shows another) or a charset name (`utf-8`, `gbk`,
    /// `shift_jis`, …) for every game tree.
    #[arg(long, default_value = "auto")]
    pub charset: String,
    /// PGN: replay the moves and give each its move in UCI (`"uci"`).
    #[arg(long)]
    pub uci: bool,
    /// PGN: replay the moves and give each the FEN after it (`"fen"`).
    #[arg(long)]
    pub fen: bool,
    /// PGN: name each game's opening from its moves (`"opening": {"eco", "name", "ply"}`, null
    /// when no position of the main line has a name), as lichess names it.
    #[arg(long)]
    pub openings: bool,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// `kifu json`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let replay = Replay {
        uci: args.uci,
        fen: args.fen,
        openings: args.openings,
    };
    command(
        &args.common,
        &args.charset,
        replay,
        args.limit.max_game_bytes,
    )
}

/// The charset of SGF text: `kifu-export`'s one choice (`auto`, or a name), shared with
/// `kifu export` and the Python package.
pub use kifu_export::Charset as CharsetChoice;

/// `--charset NAME`: `auto` or a charset name.
fn charset_by_name(name: &str) -> io::Result<CharsetChoice> {
    CharsetChoice::by_name(name).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("unknown charset `{name}`"),
        )
    })
}

/// A piece's games as JSON lines, each without its leading `{"index":N,` (the sink writes it).
pub struct Lines {
    /// The lines.
    pub out: Vec<u8>,
    /// Where each game's line starts in `out`, and its game's index in the piece: one entry
    /// per game pushed, a game that could not be written with an empty line (see
    /// [`Lines::why_unwritten`]).
    pub starts: Vec<(usize, u64)>,
    /// Games that could not be written (index in the piece, why), in order.
    pub unwritten: Vec<(u64, String)>,
    file: Vec<u8>,
    body: Vec<u8>,
    charset: CharsetChoice,
    /// `--uci`, `--fen`: each PGN move gets its replayed move and position.
    pub replay: Replay,
}

impl Drop for Lines {
    /// The buffer goes back for a later piece (`crate::bufs`).
    fn drop(&mut self) {
        crate::bufs::give(std::mem::take(&mut self.out));
    }
}

/// What `kifu json --uci --fen` adds to each move of a PGN game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Replay {
    /// The move in UCI (`"uci"`, null when it could not be replayed).
    pub uci: bool,
    /// The FEN after the move (`"fen"`, null when it could not be replayed).
    pub fen: bool,
    /// The game's opening (`"opening"`, kifu-replay's lichess names; null when not named).
    pub openings: bool,
}

impl Replay {
    fn any(self) -> bool {
        self.uci || self.fen
    }
}

impl Lines {
    /// Lines for the games of input `name`.
    pub fn new(name: &str, charset: CharsetChoice) -> Lines {
        Lines {
            out: crate::bufs::take(),
            starts: Vec::new(),
            unwritten: Vec::new(),
            file: file_entry(name),
            body: Vec::new(),
            charset,
            replay: Replay::default(),
        }
    }

    /// Adds one game's object: its serialization with `"file"` after `"index"` and `"offset"`
    /// (the schema's first two keys, both numbers), and `extra` (`,"key":value…`) last.
    fn push(&mut self, index: u64, value: &impl serde::Serialize, extra: &str) {
        self.body.clear();
        if let Err(e) = serde_json::to_writer(&mut self.body, value) {
            // a tree nesting deeper than the serialization goes: said, and the rest goes on
            return self.refuse(index, e.to_string());
        }
        // `{"index":N,"offset":M,` then the rest: the commas end the numbers
        let mut commas = self.body.iter().enumerate().filter(|&(_, &b)| b == b',');
        let (Some((first, _)), Some((second, _))) = (commas.next(), commas.next()) else {
            return self.refuse(index, "not an object with index and offset".into());
        };
        self.starts.push((self.out.len(), index));
        self.out
            .extend_from_slice(&self.body[first + 1..second + 1]);
        self.out.extend_from_slice(&self.file);
        let body = &self.body[second + 1..];
        // the object's closing brace last
        self.out.extend_from_slice(&body[..body.len() - 1]);
        self.out.extend_from_slice(extra.as_bytes());
        self.out.extend_from_slice(b"}\n");
    }

    /// A game that could not be written: an empty line in its place (nothing is written for
    /// it), and why in [`Lines::unwritten`].
    fn refuse(&mut self, index: u64, why: String) {
        self.starts.push((self.out.len(), index));
        self.unwritten.push((index, why));
    }

    /// Why game `k` of the piece could not be written, or `None` when it was.
    pub fn why_unwritten(&self, k: usize) -> Option<&str> {
        let (start, index) = self.starts[k];
        let end = self.starts.get(k + 1).map_or(self.out.len(), |s| s.0);
        if start < end {
            return None;
        }
        // a written line is never empty (it ends in `}\n`)
        self.unwritten
            .iter()
            .find(|u| u.0 == index)
            .map(|u| u.1.as_str())
    }

    /// Writes the lines, each game's index counted from `first_game`.
    pub fn write_to(&self, out: &mut impl Write, first_game: u64) -> io::Result<()> {
        (0..self.starts.len()).try_for_each(|k| self.write_game(k, out, first_game))
    }
}

impl Lines {
    /// Adds a PGN game's object (with `uci` / `fen` in each move when asked).
    pub fn push_pgn(&mut self, game: &pgn::Game) {
        let mut extra = String::new();
        if self.replay.openings {
            opening_entry(game, &mut extra);
        }
        if !self.replay.any() {
            return self.push(game.index, game, &extra);
        }
        match with_replay(game, self.replay) {
            Ok(value) => self.push(game.index, &value, &extra),
            Err(e) => self.refuse(game.index, e.to_string()),
        }
    }

    /// Adds an SGF game tree's object, its text decoded as the charset choice says.
    pub fn push_sgf(&mut self, tree: &sgf::GameTree) {
        let encoding = self.charset.encoding_of(tree);
        let decode = |b: &[u8]| kifu::encoding::decode(b, encoding).into_owned();
        self.push(tree.index(), &tree.with_decoder(&decode), "");
    }

    /// Writes game `k` of the piece (its index counted from `first_game`); nothing for a game
    /// that could not be written.
    pub fn write_game(&self, k: usize, out: &mut impl Write, first_game: u64) -> io::Result<()> {
        let (start, index) = self.starts[k];
        let end = self.starts.get(k + 1).map_or(self.out.len(), |s| s.0);
        if start == end {
            return Ok(());
        }
        write!(out, "{{\"index\":{},", first_game + index)?;
        out.write_all(&self.out[start..end])
    }
}

impl PerGame for Lines {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.push_pgn(&game);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.push_sgf(&tree);
    }
}

/// `,"opening":{"eco":…,"name":…,"ply":…}` (or `null`) for `game`, after `out`.
fn opening_entry(game: &pgn::Game, out: &mut String) {
    let opening = kifu_replay::chess::openings::classify(game)
        .map(|o| serde_json::json!({"eco": o.eco, "name": o.name, "ply": o.ply}));
    out.push_str(",\"opening\":");
    out.push_str(&serde_json::Value::from(opening).to_string());
}

/// A game's object with each move's `uci` and `fen` (kifu-replay's DOM helper; the moves in the
/// order the PGN text has them, which is the order of the object's nesting), and the replay's
/// problems as `replay_errors` when there are some.
fn with_replay(game: &pgn::Game, replay: Replay) -> serde_json::Result<serde_json::Value> {
    use kifu_replay::chess::{DomOptions, replay_game};
    use serde_json::Value;
    let options = DomOptions {
        fen: replay.fen,
        ..Default::default()
    };
    let r = replay_game(game, &options);
    let mut value = serde_json::to_value(game)?;
    // each move's path: its index in the main line, then (variation, index) pairs; in text order
    let mut paths = Vec::new();
    let mut stack: Vec<(Vec<usize>, &[pgn::Node], usize)> = vec![(Vec::new(), &game.moves, 0)];
    while let Some((prefix, moves, next)) = stack.pop() {
        let Some(node) = moves.get(next) else {
            continue;
        };
        let mut path = prefix.clone();
        path.push(next);
        paths.push(path.clone());
        stack.push((prefix, moves, next + 1));
        for (v, variation) in node.variations.iter().enumerate().rev() {
            let mut p = path.clone();
            p.push(v);
            stack.push((p, &variation.moves, 0));
        }
    }
    for (path, node) in paths.iter().zip(&r.nodes) {
        let mut at = &mut value["moves"][path[0]];
        for pair in path[1..].chunks(2) {
            at = &mut at["variations"][pair[0]][pair[1]];
        }
        if let Value::Object(m) = at {
            if replay.uci {
                m.insert("uci".into(), node.uci.map(|u| u.to_string()).into());
            }
            if replay.fen {
                m.insert("fen".into(), node.fen.clone().into());
            }
        }
    }
    if !r.errors.is_empty() {
        let errors: Vec<Value> = r
            .errors
            .iter()
            .map(|e| {
                serde_json::json!({
                    "kind": e.kind.code(),
                    "message": e.kind.to_string(),
                    "text": e.text,
                    "move": e.at.map(|m| m.to_string()),
                })
            })
            .collect();
        value["replay_errors"] = errors.into();
    }
    Ok(value)
}

/// `"file":NAME,`: what each object of input `name` holds after `"offset"`.
pub fn file_entry(name: &str) -> Vec<u8> {
    let mut entry = b"\"file\":".to_vec();
    serde_json::to_writer(&mut entry, name).expect("writing to a Vec cannot fail");
    entry.push(b',');
    entry
}

struct JsonWork {
    charset: CharsetChoice,
    replay: Replay,
    max_game_bytes: usize,
}

impl JsonWork {
    fn lines(&self, input: &Input) -> Lines {
        let mut lines = Lines::new(&input.name, self.charset);
        lines.replay = self.replay;
        lines
    }
}

impl Work for JsonWork {
    type Input = Input;
    type Pgn = Dom<pgn::GameBuilder, Lines>;
    type Sgf = Dom<sgf::TreeBuilder, Lines>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        let builder = pgn::GameBuilder::new().with_max_game_bytes(self.max_game_bytes);
        Dom::new(&input.name, builder, self.lines(input))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        let builder = sgf::TreeBuilder::new().with_max_game_bytes(self.max_game_bytes);
        Dom::new(&input.name, builder, Lines::new(&input.name, self.charset))
    }
}

/// Per input, what the sink saw: games, and problems no game carries.
#[derive(Default)]
pub struct InputTally {
    /// Games written or not.
    pub games: u64,
    /// Problems of an input without any game.
    pub unclaimed: u64,
}

impl InputTally {
    /// Adds a piece's visitor.
    pub fn add<B, T>(&mut self, dom: &Dom<B, T>) {
        self.games += kifu_pipeline::Games::games(dom);
        self.unclaimed += dom.unclaimed.len() as u64;
    }

    /// At the input's end: the count of its problems if it held no game but problems (no
    /// game carries them, the command names it); resets for the next input.
    pub fn end(&mut self) -> Option<u64> {
        let t = std::mem::take(self);
        (t.games == 0 && t.unclaimed > 0).then_some(t.unclaimed)
    }
}

/// `kifu json`. Exit status 1 when an input held no game but problems, or a game could not be
/// written; 2 when an input could not be read.
pub fn command(
    common: &Common,
    charset: &str,
    replay: Replay,
    max_game_bytes: usize,
) -> io::Result<ExitCode> {
    let work = JsonWork {
        charset: charset_by_name(charset)?,
        replay,
        max_game_bytes,
    };
    let out = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, out.lock());
    let mut tally = InputTally::default();
    let mut found = false;
    let scanned = run::scan(common, "reading", &work, |event| {
        match event {
            Event::Piece {
                input,
                visited,
                info,
            } => {
                let lines = match &visited {
                    Visited::Pgn(dom) => {
                        tally.add(dom);
                        &dom.each
                    }
                    Visited::Sgf(dom) => {
                        tally.add(dom);
                        &dom.each
                    }
                };
                lines.write_to(&mut out, info.first_game)?;
                for (index, why) in &lines.unwritten {
                    found = true;
                    let n = info.first_game + index + 1;
                    crate::render::name_unwritten("json", &input.name, n, why, &mut out)?;
                }
            }
            Event::End { .. } => {
                // an input without a game but with problems: no object carries them (the
                // scan names it on stderr)
                if tally.end().is_some() {
                    found = true;
                }
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(Outcome::of(&scanned, found).code())
}

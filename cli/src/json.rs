//! `kifu json` and `kifu check`: the games as the library serialises them (the one schema, the
//! DOM's `serde` feature), and the problems as the library displays them.

use std::io::{self, Write};

use kifu::encoding::{Charset, Encoding};
use kifu::pgn::{Error, Visitor};
use kifu::{Control, pgn, sgf};

/// The charset of SGF text in `kifu json`.
#[derive(Clone, Copy, Debug)]
pub enum CharsetChoice {
    /// Per game tree: the charset `CA` names, else UTF-8, else ISO-8859-1 unless the text shows
    /// another encoding (`kifu::encoding::Charset`).
    Auto,
    /// Always this one.
    Fixed(&'static Encoding),
}

/// What became of one game: written, or not serializable (the reason), as `kifu json` goes on.
pub type Written = Result<(), String>;

/// Writes one game (or game tree) as a line of JSON: its serialization with the input's name
/// as `"file"` after `"index"` and `"offset"` (the schema's first two keys, both numbers).
fn write_line<W: Write>(
    out: &mut W,
    body: &mut Vec<u8>,
    file: &[u8],
    value: &impl serde::Serialize,
) -> io::Result<Written> {
    body.clear();
    if let Err(e) = serde_json::to_writer(&mut *body, value) {
        // a tree nesting deeper than the serialization goes: said, and the rest goes on
        return Ok(Err(e.to_string()));
    }
    // `{"index":N,"offset":M,` then the rest: the second comma ends the numbers
    let cut = body
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b',')
        .nth(1)
        .map(|(i, _)| i + 1)
        .ok_or_else(|| io::Error::other("a game serialises as an object with index and offset"))?;
    out.write_all(&body[..cut])?;
    out.write_all(file)?;
    out.write_all(&body[cut..])?;
    out.write_all(b"\n")?;
    Ok(Ok(()))
}

/// The games `kifu json` could not write, each named on stderr.
#[derive(Debug, Default)]
pub struct Unwritten {
    /// How many.
    pub count: u64,
}

impl Unwritten {
    /// Names game `index` of `file` on stderr if it was not written.
    pub fn note(&mut self, file: &str, index: u64, written: Written) {
        if let Err(why) = written {
            self.count += 1;
            eprintln!("kifu json: {file}: game {}: not written: {why}", index + 1);
        }
    }
}

/// `"file":NAME,`: what [`write_pgn`] and [`write_sgf`] add to each object of input `name`.
pub fn file_entry(name: &str) -> Vec<u8> {
    let mut entry = b"\"file\":".to_vec();
    serde_json::to_writer(&mut entry, name).expect("writing to a Vec cannot fail");
    entry.push(b',');
    entry
}

/// Writes a PGN game as `kifu json` does.
pub fn write_pgn<W: Write>(
    out: &mut W,
    body: &mut Vec<u8>,
    file: &[u8],
    game: &pgn::Game,
) -> io::Result<Written> {
    write_line(out, body, file, game)
}

/// The encoding of an SGF game tree's text: what `CA` names when it decodes the text, else
/// UTF-8, else ISO-8859-1 unless the text shows another (`Charset`), or the one chosen.
fn tree_encoding(tree: &sgf::GameTree, choice: CharsetChoice) -> &'static Encoding {
    let CharsetChoice::Auto = choice else {
        let CharsetChoice::Fixed(e) = choice else {
            unreachable!()
        };
        return e;
    };
    let mut charset = Charset::default();
    for (i, node) in tree.nodes().enumerate() {
        for prop in node.properties() {
            for value in prop.values() {
                let text = value.decoded(prop.name());
                if i == 0 && prop.name() == b"CA" {
                    charset.declare(&text);
                }
                charset.sample(&text);
            }
        }
    }
    charset.encoding()
}

/// Writes an SGF game tree as `kifu json` does, its text decoded as `choice` says. A tree whose
/// variations nest deeper than the serialization goes (`sgf::SERDE_MAX_DEPTH` branch points on
/// one path) is an error of the output, named.
pub fn write_sgf<W: Write>(
    out: &mut W,
    body: &mut Vec<u8>,
    file: &[u8],
    tree: &sgf::GameTree,
    choice: CharsetChoice,
) -> io::Result<Written> {
    let encoding = tree_encoding(tree, choice);
    let decode = |b: &[u8]| kifu::encoding::decode(b, encoding).into_owned();
    write_line(out, body, file, &tree.with_decoder(&decode))
}

/// Writes every problem as `FILE:LINE:COLUMN: game N, move M: message`.
pub struct Check<'w, W: Write> {
    out: &'w mut W,
    file: String,
    found: u64,
    failed: Option<io::Error>,
}

impl<'w, W: Write> Check<'w, W> {
    pub fn new(out: &'w mut W, file: String) -> Self {
        Check {
            out,
            file,
            found: 0,
            failed: None,
        }
    }

    fn write_line(&mut self, line: &str) -> Control {
        self.found += 1;
        match writeln!(self.out, "{line}") {
            Ok(()) => Control::Continue,
            Err(err) => {
                self.failed = Some(err);
                Control::Stop
            }
        }
    }

    /// How many problems were found.
    pub fn into_result(self) -> io::Result<u64> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.found),
        }
    }
}

impl<W: Write> Visitor for Check<'_, W> {
    fn on_error(&mut self, e: &Error<'_>) -> Control {
        let line = format!("{}:{e}", self.file);
        self.write_line(&line)
    }
}

impl<W: Write> sgf::Visitor for Check<'_, W> {
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        let line = format!("{}:{e}", self.file);
        self.write_line(&line)
    }
}

//! An index of a PGN file: for each game its byte offset, players and result, read from the
//! tags only (the movetext is skipped, which is the cheap way to scan a large archive).
//!
//! `cargo run --release --example pgn_index -- games.pgn`
use std::io::Write;

use kifu::Control;
use kifu::pgn::{Context, Reader, Tag, Visitor};

#[derive(Default)]
struct Index {
    out_failed: bool,
    offset: u64,
    white: String,
    black: String,
    result: String,
}

impl Visitor for Index {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            *self = Index {
                offset: ctx.pos.offset,
                out_failed: self.out_failed,
                ..Index::default()
            };
        }
        Control::Continue
    }
    fn on_property(&mut self, _: &Context, tag: &Tag<'_>) -> Control {
        let value = tag.value.decode_utf8_lossy().into_owned();
        match tag.name {
            b"White" => self.white = value,
            b"Black" => self.black = value,
            b"Result" => self.result = value,
            _ => {}
        }
        Control::Continue
    }
    fn on_tags_end(&mut self, _: &Context) -> Control {
        Control::Skip // the movetext is not needed
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            let line = format!(
                "{:>12}  {} - {}  {}",
                self.offset, self.white, self.black, self.result
            );
            if writeln!(std::io::stdout(), "{line}").is_err() {
                self.out_failed = true; // a closed pipe: stop reading
                return Control::Stop;
            }
        }
        Control::Continue
    }
}

fn main() -> std::io::Result<()> {
    let path = std::env::args_os().nth(1).expect("usage: pgn_index FILE");
    let mut index = Index::default();
    Reader::new(std::fs::File::open(path)?).read_all(&mut index)?;
    Ok(())
}

//! Prints every Go replay problem of the files given, as `kifu check` would (a debugging aid).
//!
//! `cargo run --release -p kifu-replay --example go_errors -- FILE...`

use kifu::Control;
use kifu::sgf::{self, Visitor};
use kifu_replay::go::{self, GoReplayVisitor, GoReplayer};

struct Lines(String);
impl Visitor for Lines {}
impl GoReplayVisitor for Lines {
    fn on_go_error(&mut self, e: &go::Error<'_>) -> Control {
        println!("{}:{}", self.0, go::line(e));
        Control::Continue
    }
}

fn main() {
    for f in std::env::args().skip(1) {
        let data = std::fs::read(&f).expect("readable file");
        let main = std::env::var_os("MAIN_LINE").is_some();
        let opts = if main {
            go::GoOptions::main_line()
        } else {
            go::GoOptions::default()
        };
        let mut v = GoReplayer::with_options(Lines(f), opts);
        sgf::parse(&data, &mut v);
    }
}

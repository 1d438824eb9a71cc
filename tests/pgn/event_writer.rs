//! `pgn::EventWriter`: a game written from the parser's events is the text `pgn::Writer` writes
//! for the game the builder builds from the same events, byte for byte; a game with a variation
//! or a problem is left to the builder. Checked on generated games (any spacing, NAGs and
//! comments in any order, any chunks, small limits that cut comments into pieces), on cases
//! written by hand and over the whole corpus.

use kifu::Control;
use kifu::pgn::{
    self, Comment, Config, Context, Error, EventWriter, Game, GameBuilder, Move, Nag, NagForm,
    Outcome, Tag, Visitor, Writer,
};
use kifu_testkit::valid_gen::prop::{arb_bytes, arb_lens, cases, ok};
use kifu_testkit::valid_gen::{self, PgnLimits, Source};
use proptest::prelude::*;

/// Every event to the builder and to the event writer; at each game's end, the event writer's
/// text set beside the builder's game written.
struct Tee {
    builder: GameBuilder,
    events: EventWriter,
    w: Writer,
    games: usize,
    taken: usize,
    failures: Vec<String>,
}

impl Tee {
    fn new(w: Writer) -> Tee {
        Tee {
            builder: GameBuilder::new(),
            events: EventWriter::new(w),
            w,
            games: 0,
            taken: 0,
            failures: Vec::new(),
        }
    }

    fn check(&mut self, game: &Game) {
        self.games += 1;
        let simple = game.errors.is_empty() && game.moves.iter().all(|n| n.variations.is_empty());
        match self.events.finish() {
            Some(text) => {
                self.taken += 1;
                let want = self.w.to_string(game);
                if text != want {
                    self.failures.push(format!(
                        "game {}: from the events:\n{text}\n--- from the game:\n{want}",
                        game.index
                    ));
                }
            }
            None if simple => self.failures.push(format!(
                "game {} has no variation nor problem, and was not taken",
                game.index
            )),
            None => {}
        }
    }
}

impl Visitor for Tee {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        let _ = self.events.on_tree(ctx);
        self.builder.on_tree(ctx)
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        let _ = self.events.on_tree_end(ctx);
        let c = self.builder.on_tree_end(ctx);
        if ctx.is_main_line() {
            while let Some(game) = self.builder.pop() {
                self.check(&game);
            }
        }
        c
    }
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        let _ = self.events.on_property(ctx, tag);
        self.builder.on_property(ctx, tag)
    }
    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        let _ = self.events.on_tags_end(ctx);
        self.builder.on_tags_end(ctx)
    }
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        let _ = self.events.on_move(ctx, mv);
        self.builder.on_move(ctx, mv)
    }
    fn on_nag(&mut self, ctx: &Context, nag: Nag, form: NagForm) -> Control {
        let _ = self.events.on_nag(ctx, nag, form);
        self.builder.on_nag(ctx, nag, form)
    }
    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        let _ = self.events.on_comment(ctx, c);
        self.builder.on_comment(ctx, c)
    }
    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        let _ = self.events.on_result(ctx, outcome);
        self.builder.on_result(ctx, outcome)
    }
    fn on_error(&mut self, e: &Error<'_>) -> Control {
        let _ = self.events.on_error(e);
        self.builder.on_error(e)
    }
    fn on_end(&mut self) {
        self.builder.on_end();
        while let Some(game) = self.builder.pop() {
            self.check(&game);
        }
    }
}

/// Reads `input` in chunks of `lens` with `config`, both ways; (games, taken).
fn compare(
    input: &[u8],
    lens: &[usize],
    config: Config,
    w: Writer,
) -> Result<(usize, usize), String> {
    let mut tee = Tee::new(w);
    let mut p = pgn::Parser::with_config(config);
    for c in valid_gen::chunks(input, lens) {
        let _ = p.feed(c, &mut tee);
    }
    p.finish(&mut tee);
    if tee.failures.is_empty() {
        Ok((tee.games, tee.taken))
    } else {
        Err(format!(
            "{}\n--- the input:\n{}",
            tee.failures.join("\n"),
            String::from_utf8_lossy(input)
        ))
    }
}

/// 1 to 3 generated games without variations (or with, every other case), as text spaced in
/// any way the standard allows or as a writer writes it, read with default or small limits.
fn generated(bytes: &[u8], lens: &[usize]) -> Result<(), String> {
    let mut src = Source::new(bytes);
    let variations = src.more(50);
    let lim = PgnLimits {
        depth: if variations { 2 } else { 0 },
        ..PgnLimits::default()
    };
    let own = src.more(50);
    let exact = src.more(50);
    let written = valid_gen::pgn_writer(&mut src, exact);
    let w = valid_gen::pgn_writer(&mut src, false);
    let mut text = String::new();
    let mut games = Vec::new();
    for _ in 0..1 + src.below(3) {
        let g = valid_gen::pgn_game(&mut src, &lim);
        if own {
            valid_gen::pgn_text(&mut src, &g, &mut text);
        } else {
            written.write_to_string(&g, &mut text);
        }
        games.push(g);
    }
    let config = if src.more(50) {
        valid_gen::pgn_small_config(&mut src, &games, &text)
    } else {
        Config::default()
    };
    let (n, taken) = compare(text.as_bytes(), lens, config, w)?;
    if n != games.len() {
        return Err(format!("{} games written, {n} read", games.len()));
    }
    if !variations && taken != n {
        return Err(format!("{n} games without variations, {taken} taken"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Generated games, any spacing, any chunks, default or small limits, any writer's
    /// options: a game taken is written byte for byte as the writer writes it built; every
    /// game without a variation is taken.
    #[test]
    fn event_writer_writes_as_the_writer_writes_the_game(bytes in arb_bytes(), lens in arb_lens()) {
        ok(generated(&bytes, &lens))?;
    }
}

#[test]
fn cases_by_hand() {
    let cases: &[&str] = &[
        // a comment before the first move, NAGs after comments, a comment after the result
        "[White \"a\"]\n\n{start} 1. e4 {c} $1 !? e5 $2 {d} {e} 2. Nf3 1-0 {after}\n",
        // a NAG before any move (not kept), a game of comments alone, no tags
        "$3 {only} *\n\n1. d4 *\n",
        // Black to move from a FEN: `14...` first, and after a comment
        "[FEN \"8/8/8/8/8/8/4k3/4K3 b - - 0 14\"]\n\n14... Kd2 {x} 15. Kf2 Kd3 *\n",
        // the result from the tag when the movetext has none, escapes in tag values
        "[Result \"1-0\"]\n[Event \"a \\\"b\\\" \\\\ c\"]\n\n1. e4\n\n[Event \"next\"]\n\n1. c4 0-1\n",
        // long comments laid out, a `[%…]` command near the end of a line, a `}` in a `;` one
        "1. e4 {a long comment of many words that goes past the end of the line and on \
         [%clk 0:05:00] and past it again} e5 ; a } in here\n2. Nf3 {[%eval 0.17] [%clk 0:04:59]} *\n",
        // text that is not UTF-8, a move without SAN text kept as written
        "[Site \"\u{fffd}\"]\n\n1. e4 {caf\u{e9}} e5 *\n",
    ];
    for (i, &case) in cases.iter().enumerate() {
        for w in [
            Writer::new(),
            Writer::new().line_width(20),
            Writer::new().compact(true),
            Writer::new().comments(false).nags(false),
            Writer::new().wrap_comments(false),
        ] {
            let (n, taken) = compare(case.as_bytes(), &[usize::MAX], Config::default(), w)
                .unwrap_or_else(|e| panic!("case {i}: {e}"));
            assert_eq!(n, taken, "case {i}: every game taken");
        }
    }
    // pieces of comments (a small piece size) are joined as the builder joins them
    let config = Config {
        max_comment_piece: 8,
        ..Config::default()
    };
    let case = b"1. e4 {a comment much longer than one piece, caf\xc3\xa9} e5 *\n";
    for lens in [vec![usize::MAX], vec![1], vec![3, 7]] {
        assert_eq!(compare(case, &lens, config, Writer::new()), Ok((1, 1)));
    }
    // a variation, a problem: not taken
    for case in ["1. e4 (1. d4 {x}) {y} e5 *\n", "1. e4 e5 2. Zz9 *\n"] {
        assert_eq!(
            compare(
                case.as_bytes(),
                &[usize::MAX],
                Config::default(),
                Writer::new()
            ),
            Ok((1, 0)),
            "{case}"
        );
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_event_writer() {
    let root = kifu_testkit::shared().join("corpus").join("pgn");
    let files = kifu_testkit::files_with_ext(&root, "pgn");
    let (mut games, mut taken) = (0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        for w in [Writer::new(), Writer::new().compact(true)] {
            match compare(&data, &[1 << 16], Config::default(), w) {
                Ok((n, t)) => {
                    games += n;
                    taken += t;
                }
                Err(e) if failures.len() < 5 => failures.push(format!(
                    "{}: {}",
                    path.display(),
                    e.chars().take(3000).collect::<String>()
                )),
                Err(_) => {}
            }
        }
    }
    eprintln!(
        "event writer: {} files, {games} games, {taken} taken",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(taken > games / 2);
}

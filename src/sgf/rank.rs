//! Go ranks (`BR`, `WR`) read into a kind and a level, with a number that orders them.

use core::fmt;

/// The scale of a Go rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RankKind {
    /// Kyu (student) ranks: 30k (weakest) up to 1k.
    Kyu,
    /// Amateur dan ranks: 1d up to 9d.
    Dan,
    /// Professional dan ranks: 1p up to 9p.
    Pro,
}

/// The mark a Go server adds to a rank (`SGF FF[4]`: "`?` for an uncertain rating and `*`
/// for an established rating").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RankMark {
    /// `?` (`3k?`): the server is not sure of the rank yet.
    Uncertain,
    /// `*` (`3k*`): the rank is established.
    Established,
}

/// A Go rank: `30k` … `1k`, `1d` … `9d`, `1p` … `9p`, with the server's `?` or `*`.
///
/// [`value`](Rank::value) is a number that orders ranks from weakest to strongest:
///
/// | rank | written | value |
/// |---|---|---|
/// | kyu N (1–50) | `30k`, `3 kyu`, `3級`, `3级`, `3급` | −N: 30k is −30, 1k is −1 |
/// | amateur dan N (1–9) | `1d`, `7 dan`, `6D`, `9-dan`, `7段`, `初段`, `5단` | N: 1d is 1, 9d is 9 |
/// | professional dan N (1–9) | `9p`, `Pro 9 dan`, `P9段`, `P9`, `9 dan pro` | 9 + N: 1p is 10, 9p is 18 |
///
/// The values order and read at a glance (a negative value is a kyu rank), but they are not
/// a scale of strength: there is no 0 (1k → 1d is a step of 2), and a professional rank sits
/// above every amateur one, as the rank lists of the servers put them.
///
/// The text decides the kind: a professional's game record that writes `9d` or `9段` (as
/// many archives do) reads as amateur 9 dan. Ranks with no Go rank in them (`?`, `-`, `NR`,
/// an Elo-like `1500*`, `16.1k`) are `None`.
///
/// ```
/// use kifu::sgf::{Rank, RankKind};
/// let r = Rank::parse("7d".as_bytes()).unwrap();
/// assert_eq!((r.kind(), r.level(), r.value()), (RankKind::Dan, 7, 7));
/// assert_eq!(Rank::parse("3k*".as_bytes()).unwrap().value(), -3);
/// assert!(Rank::parse("3k*".as_bytes()).unwrap().is_established());
/// assert_eq!(Rank::parse("9p".as_bytes()).unwrap().value(), 18);
/// assert_eq!(Rank::parse("P9段".as_bytes()).unwrap().to_string(), "9p");
/// assert_eq!(Rank::parse("?".as_bytes()), None);
/// let v = |s: &str| Rank::parse(s.as_bytes()).unwrap().value();
/// assert!(v("30k") < v("1k") && v("1k") < v("1d") && v("9d") < v("1p"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rank {
    kind: RankKind,
    level: u8,
    mark: Option<RankMark>,
}

impl Rank {
    /// The lowest kyu rank read (`50k`).
    pub const MAX_KYU: u8 = 50;

    /// A rank of `kind` and `level` (kyu 1–50, dan and pro 1–9), without a mark; `None` for a
    /// level outside its scale.
    ///
    /// ```
    /// use kifu::sgf::{Rank, RankKind};
    /// assert_eq!(Rank::new(RankKind::Pro, 9).unwrap().to_string(), "9p");
    /// assert_eq!(Rank::new(RankKind::Dan, 10), None);
    /// assert_eq!(Rank::new(RankKind::Kyu, 0), None);
    /// ```
    pub fn new(kind: RankKind, level: u8) -> Option<Rank> {
        let top = match kind {
            RankKind::Kyu => Rank::MAX_KYU,
            RankKind::Dan | RankKind::Pro => 9,
        };
        (1..=top).contains(&level).then_some(Rank {
            kind,
            level,
            mark: None,
        })
    }

    /// The same rank with the mark `mark`.
    pub fn with_mark(self, mark: Option<RankMark>) -> Rank {
        Rank { mark, ..self }
    }

    /// The scale.
    pub fn kind(self) -> RankKind {
        self.kind
    }

    /// The number written: 3 for `3k`, 7 for `7d`, 9 for `9p`.
    pub fn level(self) -> u8 {
        self.level
    }

    /// The mark (`?` or `*`), if any.
    pub fn mark(self) -> Option<RankMark> {
        self.mark
    }

    /// Whether the rank is marked `?`.
    pub fn is_uncertain(self) -> bool {
        self.mark == Some(RankMark::Uncertain)
    }

    /// Whether the rank is marked `*`.
    pub fn is_established(self) -> bool {
        self.mark == Some(RankMark::Established)
    }

    /// A number that orders ranks, weakest first: kyu N is −N, amateur dan N is N,
    /// professional dan N is 9 + N (see the table of [`Rank`]). The mark does not count.
    pub fn value(self) -> i16 {
        let n = i16::from(self.level);
        match self.kind {
            RankKind::Kyu => -n,
            RankKind::Dan => n,
            RankKind::Pro => 9 + n,
        }
    }

    /// The rank of a value of [`value`](Self::value) (without a mark).
    ///
    /// ```
    /// use kifu::sgf::Rank;
    /// assert_eq!(Rank::from_value(-3).unwrap().to_string(), "3k");
    /// assert_eq!(Rank::from_value(10).unwrap().to_string(), "1p");
    /// assert_eq!(Rank::from_value(0), None);
    /// ```
    pub fn from_value(value: i16) -> Option<Rank> {
        let (kind, level) = match value {
            ..=-1 => (RankKind::Kyu, value.checked_neg()?),
            1..=9 => (RankKind::Dan, value),
            10..=18 => (RankKind::Pro, value - 9),
            _ => return None,
        };
        Rank::new(kind, u8::try_from(level).ok()?)
    }

    /// Reads a rank from its text (UTF-8: decode the `CA` charset first). White space around
    /// it is ignored, letters in any case.
    ///
    /// The forms read, each with an optional `?` or `*` at the end (after a space or not):
    /// - the number, then the scale: `k`, `kyu`, `級`, `级`, `급` (kyu); `d`, `dan`, `段`, `단`
    ///   (dan); `p` (professional dan); a space or a `-` may come between (`3 kyu`, `9-dan`);
    /// - before a CJK word, the number may be a kanji numeral (`七段`, `三級`), and `初` is 1
    ///   dan (`初段`);
    /// - a professional dan as `Pro 9 dan`, `pro 9d`, `P9段`, `P9`, `职业九段`, `職業`, `プロ`,
    ///   `프로`, or `9 dan pro`; an amateur one may say so (`Amateur 5 dan`, `业余5段`,
    ///   `アマ`, `아마`).
    ///
    /// `None` for anything else, and for a level outside its scale (`0k`, `10d`, `60k`).
    ///
    /// ```
    /// use kifu::sgf::{Rank, RankMark};
    /// let p = |s: &str| Rank::parse(s.as_bytes()).map(|r| r.to_string());
    /// assert_eq!(p("9 dan").as_deref(), Some("9d"));
    /// assert_eq!(p("3 Kyu").as_deref(), Some("3k"));
    /// assert_eq!(p("Pro 9 dan").as_deref(), Some("9p"));
    /// assert_eq!(p("1d?").as_deref(), Some("1d?"));
    /// assert_eq!(p("2级").as_deref(), Some("2k"));
    /// assert_eq!(p("NR"), None);
    /// assert_eq!(p("-"), None);
    /// ```
    pub fn parse(text: &[u8]) -> Option<Rank> {
        let s = core::str::from_utf8(text).ok()?.trim();
        // the server's mark
        let (s, mark) = match s.as_bytes().last()? {
            b'?' => (&s[..s.len() - 1], Some(RankMark::Uncertain)),
            b'*' => (&s[..s.len() - 1], Some(RankMark::Established)),
            _ => (s, None),
        };
        let s = s.trim_end();
        // a prefix saying professional (`Pro`, `P9`, `职业`) or amateur
        let (mut pro, mut amateur) = (false, false);
        let mut s = s;
        if let Some(rest) = strip_word(s, PRO_PREFIXES) {
            (pro, s) = (true, rest);
        } else if let Some(rest) = strip_word(s, AMATEUR_PREFIXES) {
            (amateur, s) = (true, rest);
        } else if let Some(rest) = s.strip_prefix(['P', 'p'])
            && rest.starts_with(|c: char| c.is_ascii_digit())
        {
            (pro, s) = (true, rest);
        }
        s = s.trim_start();
        // the number
        let (level, numeral, rest) = number(s)?;
        let rest = rest.trim_start_matches([' ', '-']);
        // the scale: a kanji numeral only before a CJK word, `初` (first) only before 段
        let (unit, cjk, rest) = unit(rest)?;
        match numeral {
            Numeral::Digits => {}
            Numeral::Kanji if cjk => {}
            Numeral::Sho if cjk && unit == Unit::Dan => {}
            _ => return None,
        }
        let kind = match unit {
            Unit::Kyu if !pro => RankKind::Kyu,
            Unit::Dan if pro => RankKind::Pro,
            Unit::Dan => match strip_word(rest.trim_start_matches([' ', '-']), &["pro"]) {
                Some("") if !amateur => {
                    return Rank::new(RankKind::Pro, level).map(|r| r.with_mark(mark));
                }
                _ => RankKind::Dan,
            },
            Unit::Pro if !amateur => RankKind::Pro,
            // `P9`: a professional prefix and no scale
            Unit::None if pro => RankKind::Pro,
            _ => return None,
        };
        if !rest.is_empty() {
            return None;
        }
        Rank::new(kind, level).map(|r| r.with_mark(mark))
    }
}

const PRO_PREFIXES: &[&str] = &["pro", "职业", "職業", "プロ", "프로"];
const AMATEUR_PREFIXES: &[&str] = &["amateur", "业余", "業餘", "アマ", "아마"];

/// `s` without one of `words` at its start (ASCII letters in any case), and the separators
/// after it (spaces, `.`, `-`).
fn strip_word<'a>(s: &'a str, words: &[&str]) -> Option<&'a str> {
    words.iter().find_map(|w| {
        let head = s.get(..w.len())?;
        head.eq_ignore_ascii_case(w)
            .then(|| s[w.len()..].trim_start_matches([' ', '.', '-']))
    })
}

/// How a rank's number is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Numeral {
    /// One or two ASCII digits.
    Digits,
    /// A kanji numeral, 一 to 九.
    Kanji,
    /// `初` (first): 1, in `初段`.
    Sho,
}

/// One or two ASCII digits, a kanji numeral from 一 to 九, or 初 (1): the number, how it was
/// written, and the rest.
fn number(s: &str) -> Option<(u8, Numeral, &str)> {
    const KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if (1..=2).contains(&digits) {
        let n = s[..digits].parse().ok()?;
        return Some((n, Numeral::Digits, &s[digits..]));
    }
    let c = s.chars().next()?;
    let rest = &s[c.len_utf8()..];
    if c == '初' {
        return Some((1, Numeral::Sho, rest));
    }
    let n = KANJI.iter().position(|&k| k == c)? + 1;
    Some((u8::try_from(n).ok()?, Numeral::Kanji, rest))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Kyu,
    Dan,
    Pro,
    None,
}

/// The scale's word at the start of `s`, whether it is a CJK one, and the rest.
fn unit(s: &str) -> Option<(Unit, bool, &str)> {
    const UNITS: [(&str, Unit, bool); 9] = [
        ("kyu", Unit::Kyu, false),
        ("dan", Unit::Dan, false),
        ("級", Unit::Kyu, true),
        ("级", Unit::Kyu, true),
        ("급", Unit::Kyu, true),
        ("段", Unit::Dan, true),
        ("단", Unit::Dan, true),
        ("k", Unit::Kyu, false),
        ("d", Unit::Dan, false),
    ];
    if s.is_empty() {
        return Some((Unit::None, false, s));
    }
    for (word, unit, cjk) in UNITS {
        if let Some(head) = s.get(..word.len())
            && head.eq_ignore_ascii_case(word)
        {
            return Some((unit, cjk, &s[word.len()..]));
        }
    }
    let rest = s.strip_prefix(['p', 'P'])?;
    Some((Unit::Pro, false, rest))
}

impl fmt::Display for Rank {
    /// The short form: `3k`, `7d`, `9p`, then the mark (`3k*`, `1d?`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = match self.kind {
            RankKind::Kyu => 'k',
            RankKind::Dan => 'd',
            RankKind::Pro => 'p',
        };
        write!(f, "{}{scale}", self.level)?;
        match self.mark {
            Some(RankMark::Uncertain) => f.write_str("?"),
            Some(RankMark::Established) => f.write_str("*"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    fn p(s: &str) -> Option<String> {
        Rank::parse(s.as_bytes()).map(|r| r.to_string())
    }

    #[test]
    fn the_short_forms() {
        for (text, want) in [
            ("7d", "7d"),
            ("3k", "3k"),
            ("9p", "9p"),
            ("1d*", "1d*"),
            ("1d?", "1d?"),
            ("30k", "30k"),
            ("1k", "1k"),
            ("6D", "6d"),
            ("1K", "1k"),
            ("5P", "5p"),
            (" 4d ", "4d"),
            ("14k*", "14k*"),
            ("13k?", "13k?"),
            ("17k ", "17k"),
            ("25k ?", "25k?"),
            ("50k", "50k"),
        ] {
            assert_eq!(p(text).as_deref(), Some(want), "{text:?}");
        }
    }

    #[test]
    fn words_and_separators() {
        for (text, want) in [
            ("9 dan", "9d"),
            ("9 Dan", "9d"),
            ("9dan", "9d"),
            ("9-dan", "9d"),
            ("9-Dan", "9d"),
            ("3 kyu", "3k"),
            ("3 Kyu", "3k"),
            ("3kyu", "3k"),
            ("12-kyu", "12k"),
            ("Pro 9 dan", "9p"),
            ("pro 9d", "9p"),
            ("Pro. 3 dan", "3p"),
            ("PRO 1 DAN", "1p"),
            ("9 dan pro", "9p"),
            ("9d pro", "9p"),
            ("9 dan pro*", "9p*"),
            ("P9", "9p"),
            ("p5", "5p"),
            ("Amateur 5 dan", "5d"),
            ("amateur 3 kyu", "3k"),
        ] {
            assert_eq!(p(text).as_deref(), Some(want), "{text:?}");
        }
    }

    #[test]
    fn chinese_japanese_korean() {
        for (text, want) in [
            ("9段", "9d"),
            ("3段", "3d"),
            ("P9段", "9p"),
            ("P1段", "1p"),
            ("18级", "18k"),
            ("2级", "2k"),
            ("5級", "5k"),
            ("3급", "3k"),
            ("5단", "5d"),
            ("七段", "7d"),
            ("九段", "9d"),
            ("初段", "1d"),
            ("三級", "3k"),
            ("职业九段", "9p"),
            ("職業三段", "3p"),
            ("プロ九段", "9p"),
            ("프로 9단", "9p"),
            ("业余5段", "5d"),
            ("アマ六段", "6d"),
            ("아마 5단", "5d"),
            ("　7段　", "7d"),
        ] {
            assert_eq!(p(text).as_deref(), Some(want), "{text:?}");
        }
    }

    #[test]
    fn no_rank_in_them() {
        for text in [
            "",
            "?",
            "-",
            "*",
            "NR",
            "NR ",
            "UR",
            "Expectant Official",
            "1500*",
            "2100",
            "1660?",
            "16.1k",
            "13.0k",
            "11k+",
            "15k* IGS",
            "0k",
            "0d",
            "10d",
            "10p",
            "51k",
            "100k",
            "9",
            "d",
            "k9",
            "9x",
            "9dd",
            "9d?*",
            "9k pro",
            "Pro 3 kyu",
            "P3k",
            "Amateur 9p",
            "十段",
            "初級",
            "七k",
            "七p",
            "七d",
            "七",
            "P七",
            "9 dan amateur",
            "-3k",
            "+3k",
            "3 k y u",
        ] {
            assert_eq!(p(text), None, "{text:?}");
        }
        assert_eq!(Rank::parse(b"\xff9d"), None);
    }

    #[test]
    fn marks() {
        let r = Rank::parse(b"1d*").unwrap();
        assert!(r.is_established() && !r.is_uncertain());
        assert_eq!(r.mark(), Some(RankMark::Established));
        let r = Rank::parse(b"3k?").unwrap();
        assert!(r.is_uncertain() && !r.is_established());
        let r = Rank::parse(b"3k").unwrap();
        assert!(!r.is_uncertain() && !r.is_established());
        assert_eq!(r.with_mark(Some(RankMark::Uncertain)).to_string(), "3k?");
    }

    #[test]
    fn values_order_every_rank() {
        let mut all = alloc::vec::Vec::new();
        for k in (1..=Rank::MAX_KYU).rev() {
            all.push(Rank::new(RankKind::Kyu, k).unwrap());
        }
        for d in 1..=9 {
            all.push(Rank::new(RankKind::Dan, d).unwrap());
        }
        for d in 1..=9 {
            all.push(Rank::new(RankKind::Pro, d).unwrap());
        }
        assert!(all.windows(2).all(|w| w[0].value() < w[1].value()));
        assert_eq!(all.first().unwrap().value(), -50);
        assert_eq!(all.last().unwrap().value(), 18);
        for r in all {
            assert_eq!(Rank::from_value(r.value()), Some(r));
            assert_eq!(Rank::parse(r.to_string().as_bytes()), Some(r));
        }
        assert_eq!(Rank::from_value(0), None);
        assert_eq!(Rank::from_value(19), None);
        assert_eq!(Rank::from_value(-51), None);
        assert_eq!(Rank::from_value(i16::MIN), None);
    }
}

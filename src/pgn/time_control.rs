//! The `TimeControl` tag (PGN standard §9.6.1) read into its periods, and the speed category
//! lichess gives a clock: [`TimeControl`], [`Period`], [`Speed`].

use core::fmt;
use core::time::Duration;

use smallvec::SmallVec;

/// One period of a time control.
///
/// ```
/// use core::time::Duration;
/// use kifu::pgn::Period;
/// let p = Period::SuddenDeath { time: Duration::from_secs(300), increment: Duration::from_secs(5) };
/// assert_eq!(p.to_string(), "300+5");
/// assert_eq!(p.moves(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Period {
    /// `M/S` (or `M/S+I`): `moves` moves in `time`, `increment` added after each move.
    Moves {
        /// The moves of the period, at least 1.
        moves: u32,
        /// The time given for them.
        time: Duration,
        /// The time added after each move (zero when none is written).
        increment: Duration,
    },
    /// `S` or `S+I`: the rest of the game in `time`, `increment` added after each move.
    SuddenDeath {
        /// The time given.
        time: Duration,
        /// The time added after each move (zero when none is written).
        increment: Duration,
    },
    /// `*S`: a sandclock (hourglass) of `time`: what one player spends, the other gains.
    Sandclock {
        /// The sand the glass holds.
        time: Duration,
    },
}

impl Period {
    /// The time the period gives (`S`).
    pub fn time(self) -> Duration {
        match self {
            Period::Moves { time, .. }
            | Period::SuddenDeath { time, .. }
            | Period::Sandclock { time } => time,
        }
    }

    /// The time added after each move (zero for a sandclock and where none is written).
    pub fn increment(self) -> Duration {
        match self {
            Period::Moves { increment, .. } | Period::SuddenDeath { increment, .. } => increment,
            Period::Sandclock { .. } => Duration::ZERO,
        }
    }

    /// The moves of an `M/S` period; `None` for the others (they last to the end of the game).
    pub fn moves(self) -> Option<u32> {
        match self {
            Period::Moves { moves, .. } => Some(moves),
            _ => None,
        }
    }

    /// Reads one field: `S`, `S+I`, `M/S`, `M/S+I` or `*S`.
    fn parse(field: &[u8]) -> Option<Period> {
        let field = trim(field);
        if let Some(rest) = field.strip_prefix(b"*") {
            return Some(Period::Sandclock {
                time: seconds(rest)?,
            });
        }
        let (moves, rest) = match memchr::memchr(b'/', field) {
            Some(i) => (Some(&field[..i]), &field[i + 1..]),
            None => (None, field),
        };
        let (time, increment) = match memchr::memchr(b'+', rest) {
            Some(i) => (seconds(&rest[..i])?, seconds(&rest[i + 1..])?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        Some(match moves {
            None => Period::SuddenDeath { time, increment },
            Some(m) => Period::Moves {
                moves: u32::try_from(integer(m)?).ok().filter(|&m| m >= 1)?,
                time,
                increment,
            },
        })
    }
}

impl fmt::Display for Period {
    /// The period as the tag writes it (`40/9000`, `300+5`, `*180`; an increment of zero is
    /// left out).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Period::Moves { moves, .. } => write!(f, "{moves}/")?,
            Period::Sandclock { .. } => f.write_str("*")?,
            Period::SuddenDeath { .. } => {}
        }
        write_seconds(f, self.time())?;
        if !self.increment().is_zero() {
            f.write_str("+")?;
            write_seconds(f, self.increment())?;
        }
        Ok(())
    }
}

/// Writes a duration in seconds, its fraction (when it has one) without trailing zeros.
fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    write!(f, "{}", d.as_secs())?;
    let mut nanos = d.subsec_nanos();
    if nanos == 0 {
        return Ok(());
    }
    let mut width = 9;
    while nanos.is_multiple_of(10) {
        nanos /= 10;
        width -= 1;
    }
    write!(f, ".{nanos:0width$}")
}

fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// Decimal digits, at most 19 of them (no sign, no white space).
fn integer(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 19 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0, |n, &b| n * 10 + u64::from(b - b'0')))
}

/// Seconds: `digits` or `digits.digits` (at most nine digits after the point).
fn seconds(s: &[u8]) -> Option<Duration> {
    let s = trim(s);
    let (whole, frac) = match memchr::memchr(b'.', s) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let secs = integer(whole)?;
    let nanos = match frac {
        None => 0,
        Some(f) if f.len() <= 9 => {
            let n = integer(f)?;
            u32::try_from(n).ok()? * 10u32.pow(9 - f.len() as u32)
        }
        Some(_) => return None,
    };
    Some(Duration::new(secs, nanos))
}

/// The periods of a time control, in the order they are played: a slice (see
/// [`TimeControl::periods`]); one or two periods are held without allocating.
///
/// ```
/// use kifu::pgn::TimeControl;
/// let TimeControl::Periods(p) = TimeControl::parse(b"40/7200:20/3600:900+30").unwrap() else {
///     unreachable!()
/// };
/// let moves: Vec<_> = p.iter().map(|p| p.moves()).collect();
/// assert_eq!(moves, [Some(40), Some(20), None]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Periods(SmallVec<[Period; 2]>);

impl core::ops::Deref for Periods {
    type Target = [Period];
    fn deref(&self) -> &[Period] {
        &self.0
    }
}

/// A `TimeControl` tag, read.
///
/// The tag holds `?` (unknown), `-` (no time control), or one or more periods joined by `:`,
/// each of the standard's forms (§9.6.1):
///
/// | form | period | example |
/// |---|---|---|
/// | `S` | sudden death: the rest of the game in `S` seconds | `300` |
/// | `S+I` | `S` seconds, `I` more after each move (incremental) | `4500+60` |
/// | `M/S` | `M` moves in `S` seconds | `40/9000` |
/// | `*S` | a sandclock (hourglass) of `S` seconds | `*180` |
///
/// Two forms outside the standard are read as well, being common in the wild: an increment on
/// a moves period (`40/5400+30`, FIDE's classical control as TWIC writes it), and fractions of
/// a second (`10+0.1`, as engine matches write them). Anything else (`15 min + 10 s`, a sign,
/// a field left empty) is not a time control: [`TimeControl::parse`] answers `None`.
///
/// ```
/// use core::time::Duration;
/// use kifu::pgn::{Period, Speed, TimeControl};
///
/// let tc = TimeControl::parse(b"300+3").unwrap();
/// assert_eq!(tc.base(), Some(Duration::from_secs(300)));
/// assert_eq!(tc.increment(), Some(Duration::from_secs(3)));
/// assert_eq!(tc.speed(), Some(Speed::Blitz)); // 300 + 40 × 3 = 420 s
///
/// let fide = TimeControl::parse(b"40/5400+30:1800+30").unwrap();
/// assert_eq!(fide.periods().len(), 2);
/// assert_eq!(fide.base(), None); // several periods: no single base
/// assert_eq!(fide.speed(), Some(Speed::Classical));
///
/// assert_eq!(TimeControl::parse(b"-"), Some(TimeControl::Untimed));
/// assert_eq!(TimeControl::parse(b"-").unwrap().speed(), Some(Speed::Correspondence));
/// assert_eq!(TimeControl::parse(b"?").unwrap().speed(), None);
/// assert_eq!(TimeControl::parse(b"15 min + 10 s"), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: the time control is not known.
    Unknown,
    /// `-`: there was no time control (lichess writes it for correspondence and unlimited
    /// games).
    Untimed,
    /// One or more periods, in the order they are played (`40/9000:300` is two).
    Periods(Periods),
}

impl TimeControl {
    /// Reads the tag's value (white space around it and around each field is ignored). `None`
    /// when it is none of the forms of [`TimeControl`].
    ///
    /// ```
    /// use kifu::pgn::{Period, TimeControl};
    /// use core::time::Duration;
    /// let s = Duration::from_secs;
    /// let tc = TimeControl::parse(b"40/9000:300").unwrap();
    /// assert_eq!(tc.periods(), [
    ///     Period::Moves { moves: 40, time: s(9000), increment: s(0) },
    ///     Period::SuddenDeath { time: s(300), increment: s(0) },
    /// ]);
    /// assert_eq!(TimeControl::parse(b"*60").unwrap().periods(), [Period::Sandclock { time: s(60) }]);
    /// assert_eq!(TimeControl::parse(b"10+0.1").unwrap().increment(), Some(Duration::from_millis(100)));
    /// assert_eq!(TimeControl::parse(b"300+"), None);
    /// assert_eq!(TimeControl::parse(b"0/300"), None);
    /// assert_eq!(TimeControl::parse(b"40/9000:?"), None);
    /// ```
    pub fn parse(s: &[u8]) -> Option<TimeControl> {
        let s = trim(s);
        match s {
            b"?" => return Some(TimeControl::Unknown),
            b"-" => return Some(TimeControl::Untimed),
            _ => {}
        }
        let mut periods = SmallVec::new();
        for field in s.split(|&b| b == b':') {
            periods.push(Period::parse(field)?);
        }
        Some(TimeControl::Periods(Periods(periods)))
    }

    /// The periods, in the order they are played (none for `?` and `-`).
    pub fn periods(&self) -> &[Period] {
        match self {
            TimeControl::Periods(p) => p,
            _ => &[],
        }
    }

    /// The one period of an `S` or `S+I` control (`None` for every other form: `?`, `-`,
    /// `M/S`, a sandclock, several periods).
    fn single(&self) -> Option<(Duration, Duration)> {
        match self.periods() {
            [Period::SuddenDeath { time, increment }] => Some((*time, *increment)),
            _ => None,
        }
    }

    /// The time each player starts with: `S` of an `S` or `S+I` control; `None` for the other
    /// forms (`?`, `-`, `M/S`, `*S`, several periods), which the tag alone describes.
    ///
    /// ```
    /// use kifu::pgn::TimeControl;
    /// let base = |s: &[u8]| TimeControl::parse(s).and_then(|t| t.base()).map(|d| d.as_secs());
    /// assert_eq!(base(b"180"), Some(180));
    /// assert_eq!(base(b"180+2"), Some(180));
    /// assert_eq!(base(b"40/9000"), None);
    /// assert_eq!(base(b"*60"), None);
    /// assert_eq!(base(b"-"), None);
    /// ```
    pub fn base(&self) -> Option<Duration> {
        self.single().map(|(time, _)| time)
    }

    /// The time added after each move: `I` of an `S+I` control, zero for an `S` one; `None`
    /// where [`base`](Self::base) is.
    ///
    /// ```
    /// use kifu::pgn::TimeControl;
    /// let inc = |s: &[u8]| TimeControl::parse(s).and_then(|t| t.increment()).map(|d| d.as_secs());
    /// assert_eq!(inc(b"180+2"), Some(2));
    /// assert_eq!(inc(b"180"), Some(0));
    /// assert_eq!(inc(b"40/9000:300"), None);
    /// ```
    pub fn increment(&self) -> Option<Duration> {
        self.single().map(|(_, inc)| inc)
    }

    /// The time one player has for a game of 40 moves: lichess's estimate `base + 40 ×
    /// increment` for an `S` or `S+I` control, and the same sum over the periods for the other
    /// forms (each period's time and its increments, as long as fewer than 40 moves are
    /// covered; a last `M/S` period repeats, as in `1/86400`, a day per move). A sandclock `*S`
    /// counts as `S` without increment: the most one player can hold. `None` for `?` and `-`.
    ///
    /// ```
    /// use kifu::pgn::TimeControl;
    /// let est = |s: &[u8]| TimeControl::parse(s).unwrap().estimated_duration().map(|d| d.as_secs());
    /// assert_eq!(est(b"300+3"), Some(420));
    /// assert_eq!(est(b"40/9000:300"), Some(9000));
    /// assert_eq!(est(b"20/3600:900+30"), Some(3600 + 900 + 20 * 30));
    /// assert_eq!(est(b"1/86400"), Some(40 * 86400));
    /// assert_eq!(est(b"*60"), Some(60));
    /// assert_eq!(est(b"-"), None);
    /// ```
    pub fn estimated_duration(&self) -> Option<Duration> {
        const MOVES: u32 = 40;
        let periods = self.periods();
        let last = periods.last()?;
        let mut left = MOVES;
        let mut total = Duration::ZERO;
        for p in periods {
            match *p {
                Period::Moves {
                    moves,
                    time,
                    increment,
                } => {
                    let k = moves.min(left);
                    total = total.saturating_add(time.saturating_add(increment.saturating_mul(k)));
                    left -= k;
                }
                Period::SuddenDeath { time, increment } => {
                    let rest = time.saturating_add(increment.saturating_mul(left));
                    return Some(total.saturating_add(rest));
                }
                Period::Sandclock { time } => return Some(total.saturating_add(time)),
            }
            if left == 0 {
                return Some(total);
            }
        }
        // the periods cover fewer than 40 moves: the last (an `M/S` one) repeats
        if let Period::Moves {
            moves,
            time,
            increment,
        } = *last
        {
            let (full, rest) = (left / moves, left % moves);
            let period = time.saturating_add(increment.saturating_mul(moves));
            total = total.saturating_add(period.saturating_mul(full));
            if rest > 0 {
                total = total.saturating_add(time.saturating_add(increment.saturating_mul(rest)));
            }
        }
        Some(total)
    }

    /// The speed category of the game, as lichess names it: from
    /// [`estimated_duration`](Self::estimated_duration) by [`Speed::of_duration`];
    /// [`Speed::Correspondence`] for `-`; `None` for `?`.
    ///
    /// The estimate is lichess's own for the `S` and `S+I` forms (the only ones lichess
    /// plays); for the others lichess has no rule, and kifu extends the estimate as its
    /// documentation says: `40/9000:300` is classical, `1/86400` correspondence, `*60` bullet.
    ///
    /// ```
    /// use kifu::pgn::{Speed, TimeControl};
    /// let speed = |s: &[u8]| TimeControl::parse(s).unwrap().speed();
    /// assert_eq!(speed(b"15+0"), Some(Speed::UltraBullet));
    /// assert_eq!(speed(b"60+1"), Some(Speed::Bullet)); // 100 s
    /// assert_eq!(speed(b"120+2"), Some(Speed::Blitz)); // 200 s
    /// assert_eq!(speed(b"600+5"), Some(Speed::Rapid)); // 800 s
    /// assert_eq!(speed(b"1800+10"), Some(Speed::Classical));
    /// assert_eq!(speed(b"40/9000:300"), Some(Speed::Classical));
    /// assert_eq!(speed(b"*60"), Some(Speed::Bullet));
    /// assert_eq!(speed(b"-"), Some(Speed::Correspondence));
    /// assert_eq!(speed(b"?"), None);
    /// ```
    pub fn speed(&self) -> Option<Speed> {
        match self {
            TimeControl::Unknown => None,
            TimeControl::Untimed => Some(Speed::Correspondence),
            TimeControl::Periods(_) => self.estimated_duration().map(Speed::of_duration),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The tag's value: `?`, `-`, or the periods joined by `:` (an increment of zero left
    /// out, fractions of a second without trailing zeros).
    ///
    /// ```
    /// use kifu::pgn::TimeControl;
    /// let tc = TimeControl::parse(b" 40/9000 : 300+0 ").unwrap();
    /// assert_eq!(tc.to_string(), "40/9000:300");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Periods(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

/// A game's speed category, as lichess names them (`Speed.scala`), fastest first: the order of
/// the variants is the order of the speeds.
///
/// ```
/// use kifu::pgn::Speed;
/// assert_eq!(Speed::by_name("ultraBullet"), Some(Speed::UltraBullet));
/// assert_eq!(Speed::Blitz.as_str(), "blitz");
/// assert!(Speed::Blitz < Speed::Rapid);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// `ultraBullet`: an estimated duration under 30 s.
    UltraBullet,
    /// `bullet`: under 3 minutes (180 s).
    Bullet,
    /// `blitz`: under 8 minutes (480 s).
    Blitz,
    /// `rapid`: under 25 minutes (1,500 s).
    Rapid,
    /// `classical`: under 6 hours (21,600 s).
    Classical,
    /// `correspondence`: 6 hours and more, or no clock at all (`-`).
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The name lichess gives it: `ultraBullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of a name of [`as_str`](Self::as_str), in any case (`Blitz`, `ULTRABULLET`).
    pub fn by_name(name: &str) -> Option<Speed> {
        Speed::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(name.trim()))
    }

    /// The category of an estimated duration (lichess's `Speed.byTime`): under 30 s
    /// ultraBullet, under 180 s bullet, under 480 s blitz, under 1,500 s rapid, under 21,600 s
    /// (6 hours) classical, else correspondence.
    ///
    /// ```
    /// use core::time::Duration;
    /// use kifu::pgn::Speed;
    /// assert_eq!(Speed::of_duration(Duration::from_secs(179)), Speed::Bullet);
    /// assert_eq!(Speed::of_duration(Duration::from_secs(180)), Speed::Blitz);
    /// assert_eq!(Speed::of_duration(Duration::from_secs(21_600)), Speed::Correspondence);
    /// ```
    pub fn of_duration(estimate: Duration) -> Speed {
        const LIMITS: [(u64, Speed); 5] = [
            (30, Speed::UltraBullet),
            (180, Speed::Bullet),
            (480, Speed::Blitz),
            (1500, Speed::Rapid),
            (21_600, Speed::Classical),
        ];
        LIMITS
            .into_iter()
            .find(|&(limit, _)| estimate < Duration::from_secs(limit))
            .map_or(Speed::Correspondence, |(_, s)| s)
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn tc(s: &str) -> Option<TimeControl> {
        TimeControl::parse(s.as_bytes())
    }

    #[test]
    fn the_standard_forms() {
        // §9.6.1: `?`, `-`, moves/seconds, seconds, seconds+increment, *sandclock
        assert_eq!(tc("?"), Some(TimeControl::Unknown));
        assert_eq!(tc("-"), Some(TimeControl::Untimed));
        let one = |p: Period| tc(&p.to_string()).unwrap().periods().to_vec();
        for p in [
            Period::Moves {
                moves: 40,
                time: s(9000),
                increment: s(0),
            },
            Period::SuddenDeath {
                time: s(300),
                increment: s(0),
            },
            Period::SuddenDeath {
                time: s(4500),
                increment: s(60),
            },
            Period::Sandclock { time: s(180) },
        ] {
            assert_eq!(one(p), [p]);
        }
        assert_eq!(
            tc("40/9000").unwrap().periods(),
            [Period::Moves {
                moves: 40,
                time: s(9000),
                increment: s(0)
            }]
        );
        assert_eq!(
            tc("*60").unwrap().periods(),
            [Period::Sandclock { time: s(60) }]
        );
        let multi = tc("40/7200:20/3600:900+30").unwrap();
        assert_eq!(multi.periods().len(), 3);
        assert_eq!(multi.periods()[2].increment(), s(30));
        assert_eq!(multi.periods()[1].moves(), Some(20));
        assert_eq!(multi.to_string(), "40/7200:20/3600:900+30");
    }

    #[test]
    fn base_and_increment_only_for_one_period_of_sudden_death() {
        let bi = |t: &str| {
            let t = tc(t).unwrap();
            (t.base(), t.increment())
        };
        assert_eq!(bi("300"), (Some(s(300)), Some(s(0))));
        assert_eq!(bi("300+5"), (Some(s(300)), Some(s(5))));
        assert_eq!(bi("0+1"), (Some(s(0)), Some(s(1))));
        for none in [
            "?",
            "-",
            "40/9000",
            "*60",
            "40/9000:300",
            "300:300",
            "40/5400+30",
        ] {
            assert_eq!(bi(none), (None, None), "{none}");
        }
    }

    #[test]
    fn what_is_not_a_time_control() {
        for bad in [
            "",
            " ",
            "15 min + 10 s",
            "15 minutes + 10 seconds increment per move, starting from move 1",
            "+5",
            "300+",
            "-300",
            "300+-5",
            "3 00",
            "/300",
            "40/",
            "0/300",
            "40/9000:",
            ":300",
            "40/9000::300",
            "?:300",
            "-:300",
            "**60",
            "*",
            "300.",
            ".5",
            "1.0000000001",
            "1e3",
            "40/30/20",
            "300+5+5",
            "99999999999999999999",
            "4294967296/60",
        ] {
            assert_eq!(tc(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn fractions_of_a_second_as_engines_write_them() {
        let t = tc("10.931+0.109").unwrap();
        assert_eq!(t.base(), Some(Duration::from_millis(10_931)));
        assert_eq!(t.increment(), Some(Duration::from_millis(109)));
        assert_eq!(t.to_string(), "10.931+0.109");
        assert_eq!(tc("720+1.20").unwrap().to_string(), "720+1.2");
        assert_eq!(tc("1.000000001").unwrap().base(), Some(Duration::new(1, 1)));
    }

    #[test]
    fn speeds_at_lichess_boundaries() {
        let speed = |t: &str| tc(t).unwrap().speed();
        assert_eq!(speed("29"), Some(Speed::UltraBullet));
        assert_eq!(speed("30"), Some(Speed::Bullet));
        assert_eq!(speed("0+1"), Some(Speed::Bullet)); // 40 s
        assert_eq!(speed("179"), Some(Speed::Bullet));
        assert_eq!(speed("60+3"), Some(Speed::Blitz)); // 180 s
        assert_eq!(speed("479"), Some(Speed::Blitz));
        assert_eq!(speed("180+8"), Some(Speed::Rapid)); // 500 s
        assert_eq!(speed("1499"), Some(Speed::Rapid));
        assert_eq!(speed("900+15"), Some(Speed::Classical)); // 1500 s
        assert_eq!(speed("21599"), Some(Speed::Classical));
        assert_eq!(speed("10800+180"), Some(Speed::Classical)); // 18000 s
        assert_eq!(speed("14400+180"), Some(Speed::Correspondence)); // 21600 s
        assert_eq!(speed("21600"), Some(Speed::Correspondence));
        assert_eq!(speed("1/86400"), Some(Speed::Correspondence));
        assert_eq!(speed("-"), Some(Speed::Correspondence));
        assert_eq!(speed("?"), None);
        assert_eq!(speed("*60"), Some(Speed::Bullet));
        assert_eq!(speed("*180"), Some(Speed::Blitz));
        assert_eq!(speed("40/9000:300"), Some(Speed::Classical));
        assert_eq!(speed("720+1.2"), Some(Speed::Rapid)); // 768 s
        assert_eq!(speed("10+0.1"), Some(Speed::UltraBullet)); // 14 s
    }

    #[test]
    fn estimates_over_periods() {
        let est = |t: &str| tc(t).unwrap().estimated_duration();
        assert_eq!(est("40/7200:20/3600:900+30"), Some(s(7200)));
        assert_eq!(est("20/3600:20/1800:900"), Some(s(5400)));
        assert_eq!(est("30/1800:600+10"), Some(s(1800 + 600 + 10 * 10)));
        assert_eq!(est("16/3600"), Some(s(3 * 3600))); // 16 + 16 + 8 moves
        assert_eq!(est("40/5400+30:1800+30"), Some(s(5400 + 40 * 30)));
        assert_eq!(est("10/600:*60"), Some(s(660)));
        assert_eq!(est("?"), None);
        assert_eq!(est("-"), None);
        let huge = "9999999999999999999+9999999999999999999";
        assert_eq!(est(huge), Some(Duration::MAX));
    }

    #[test]
    fn speed_names() {
        for sp in Speed::ALL {
            assert_eq!(Speed::by_name(sp.as_str()), Some(sp));
            assert_eq!(sp.to_string(), sp.as_str());
        }
        assert_eq!(Speed::by_name("Classical"), Some(Speed::Classical));
        assert_eq!(Speed::by_name("standard"), None);
        assert!(Speed::ALL.windows(2).all(|w| w[0] < w[1]));
    }
}

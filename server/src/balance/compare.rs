//! Backgrounds side by side: the same characters (the same world seeds)
//! played once per background, and how often each reached the depths that
//! tell a run apart. The rule of thumb is that no background
//! reaches depth 10 more than twice as often as another.

use std::fmt;

use super::{End, Options, Report, run, run_parties};
use crate::config::Config;

/// The depths a comparison counts arrivals at.
pub const MARKS: [u16; 4] = [5, 10, 15, 20];

/// The row of the parties: a member of each background in each world,
/// every member's life counted.
pub const PARTY: &str = "party";

/// One background's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// "none" for a character of no background.
    pub background: String,
    pub report: Report,
}

/// Every background's run, in the file's order, then one of none, then
/// the parties of one of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub rows: Vec<Row>,
}

/// Plays `options`' characters once per background of `config`, once
/// of none, and in each world a party of one of each.
pub fn compare(config: &Config, options: &Options) -> Comparison {
    let mut rows: Vec<Row> = config
        .backgrounds
        .all()
        .iter()
        .map(|b| {
            let options = Options { background: Some(b.clone()), ..options.clone() };
            Row { background: b.name.clone(), report: run(config, &options) }
        })
        .collect();
    let options = Options { background: None, ..options.clone() };
    rows.push(Row { background: "none".into(), report: run(config, &options) });
    rows.push(Row { background: PARTY.into(), report: run_parties(config, &options) });
    Comparison { rows }
}

impl Row {
    /// How many of its characters came to `depth`.
    pub fn reached(&self, depth: u16) -> usize {
        self.report.lives.iter().filter(|l| l.deepest >= depth).count()
    }
}

impl Comparison {
    /// Of the backgrounds (not "none"), the most and the fewest that came
    /// to `depth`.
    pub fn spread_at(&self, depth: u16) -> (usize, usize) {
        let counts = self
            .rows
            .iter()
            .filter(|r| r.background != "none" && r.background != PARTY)
            .map(|r| r.reached(depth));
        counts.fold((0, usize::MAX), |(most, least), n| (most.max(n), least.min(n)))
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = self.rows.first() else { return Ok(()) };
        let r = &first.report;
        let n = r.lives.len();
        let last = r.first_seed.wrapping_add((n as u64).saturating_sub(1));
        writeln!(
            f,
            "{n} characters a background (world seeds {} to {last}), bottom depth {}, at most {} rounds each\n",
            r.first_seed, r.bottom, r.max_rounds
        )?;
        let marks: String =
            MARKS.iter().map(|d| format!("  {:>10}", format!("depth {d}"))).collect();
        writeln!(f, "background  {marks}  escaped  median deepest  median level")?;
        for row in &self.rows {
            let n = row.report.lives.len();
            let percent = |count: usize| format!("{:>9}%", count * 100 / n.max(1));
            let reached: String =
                MARKS.iter().map(|&d| format!("  {}", percent(row.reached(d)))).collect();
            let lives = &row.report.lives;
            let escaped = lives.iter().filter(|l| l.end == End::Escaped).count();
            let deepest =
                super::report::spread(lives.iter().map(|l| u64::from(l.deepest)).collect()).0;
            let level = super::report::spread(lives.iter().map(|l| u64::from(l.level)).collect()).0;
            writeln!(
                f,
                "{:<10}  {reached}  {escaped:>7}  {deepest:>14}  {level:>12}",
                row.background
            )?;
        }
        writeln!(f, "(party: a member of each background in each world, every member counted)")?;
        let (most, least) = self.spread_at(10);
        let ratio = if least == 0 { f64::INFINITY } else { most as f64 / least as f64 };
        writeln!(
            f,
            "\ndepth 10: the likeliest background reaches it {ratio:.2} times as often as the least (at most 2)"
        )
    }
}

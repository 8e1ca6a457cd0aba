//! What a balance run found, as tables to read: per depth, how many
//! reached it, how many stopped there, and how strong they were when they
//! came; what killed them; how long they played, how deep they got and to
//! what level; and the Gloamstone.

use std::collections::BTreeMap;
use std::fmt;

use super::{End, Life, Options};

/// The widest bar of the curve, in characters.
const BAR: usize = 40;

/// Every character's life in a run, and what the run was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub bottom: u16,
    pub first_seed: u64,
    pub max_rounds: u64,
    /// In the order of their seeds.
    pub lives: Vec<Life>,
}

/// One depth of the curve.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DepthRow {
    pub reached: usize,
    pub died: usize,
    /// Still alive there when their rounds ran out.
    pub playing: usize,
    /// The medians of those who reached it, when they first came to it:
    /// their level, experience and rounds played.
    pub level: u64,
    pub xp: u64,
    pub rounds: u64,
}

/// One figure of a character's life, to spread over them all.
type Measure = fn(&Life) -> u64;

impl Report {
    pub(super) fn of(bottom: u16, options: &Options, lives: Vec<Life>) -> Self {
        Self { bottom, first_seed: options.seed, max_rounds: options.max_rounds, lives }
    }

    /// Per depth from 1 to the deepest any reached.
    pub fn depths(&self) -> Vec<DepthRow> {
        let deepest = self.lives.iter().map(|l| l.deepest).max().unwrap_or(1);
        let mut rows = vec![DepthRow::default(); usize::from(deepest)];
        for life in &self.lives {
            for row in &mut rows[..usize::from(life.deepest)] {
                row.reached += 1;
            }
            let row = &mut rows[usize::from(life.depth.max(1)) - 1];
            match life.end {
                End::Died(_) => row.died += 1,
                End::Playing => row.playing += 1,
                End::Escaped => {}
            }
        }
        for (i, row) in rows.iter_mut().enumerate() {
            let came: Vec<_> = self.lives.iter().filter_map(|l| l.arrivals.get(i)).collect();
            let median =
                |of: fn(&super::Arrived) -> u64| spread(came.iter().map(|a| of(a)).collect()).0;
            row.level = median(|a| u64::from(a.level));
            row.xp = median(|a| u64::from(a.xp));
            row.rounds = median(|a| a.rounds);
        }
        rows
    }

    /// The kinds that killed, with the depths they killed on (sorted),
    /// the deadliest first.
    pub fn killers(&self) -> Vec<(String, Vec<u16>)> {
        let mut by: BTreeMap<&str, Vec<u16>> = BTreeMap::new();
        for life in &self.lives {
            if let End::Died(kind) = &life.end {
                by.entry(kind).or_default().push(life.depth);
            }
        }
        let mut killers: Vec<(String, Vec<u16>)> = by
            .into_iter()
            .map(|(kind, mut depths)| {
                depths.sort_unstable();
                (kind.to_owned(), depths)
            })
            .collect();
        killers.sort_by_key(|(kind, depths)| (std::cmp::Reverse(depths.len()), kind.clone()));
        killers
    }

    /// One line per character: its seed, how it ended, where, and how it
    /// fared (to find a seed worth a closer look).
    pub fn each(&self) -> String {
        let mut text = String::from("seed  depth  deepest  rounds  level  kills  end\n");
        for l in &self.lives {
            let end = match &l.end {
                End::Died(by) => format!("killed by {by}"),
                End::Escaped => "escaped".to_owned(),
                End::Playing => "playing".to_owned(),
            };
            let (seed, depth, deepest, rounds) = (l.seed, l.depth, l.deepest, l.rounds);
            let (level, kills) = (l.level, l.kills);
            text += &format!(
                "{seed:>4}  {depth:>5}  {deepest:>7}  {rounds:>6}  {level:>5}  {kills:>5}  {end}\n"
            );
        }
        text
    }

    fn count(&self, end: impl Fn(&End) -> bool) -> usize {
        self.lives.iter().filter(|l| end(&l.end)).count()
    }

    fn depths_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.lives.len().max(1);
        writeln!(f, "depth  reached  died  playing  level      xp  rounds  reached, of all")?;
        for (i, row) in self.depths().iter().enumerate() {
            let bar = "#".repeat((row.reached * BAR).div_ceil(n));
            let DepthRow { reached, died, playing, level, xp, rounds } = *row;
            let depth = i + 1;
            writeln!(
                f,
                "{depth:>5}  {reached:>7}  {died:>4}  {playing:>7}  {level:>5}  {xp:>6}  {rounds:>6}  {bar}"
            )?;
        }
        writeln!(f, "(level, xp, rounds: medians of those who came, on first coming)")
    }

    fn killers_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "killed by        deaths  on depths (median)")?;
        for (kind, depths) in self.killers() {
            let (first, last) = (depths[0], depths[depths.len() - 1]);
            let median = depths[depths.len() / 2];
            writeln!(f, "{kind:<16} {:>6}  {first}-{last} ({median})", depths.len())?;
        }
        Ok(())
    }

    fn spreads(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: [(&str, Measure); 4] = [
            ("deepest depth", |l| u64::from(l.deepest)),
            ("rounds played", |l| l.rounds),
            ("level reached", |l| u64::from(l.level)),
            ("monsters killed", |l| u64::from(l.kills)),
        ];
        for (what, field) in lines {
            let (median, p90, most) = spread(self.lives.iter().map(field).collect());
            writeln!(f, "{what:<16} median {median:>6}, p90 {p90:>6}, most {most:>6}")?;
        }
        Ok(())
    }
}

/// The median, the 90th percentile and the greatest of `values` (the
/// lower middle of an even count).
pub(super) fn spread(mut values: Vec<u64>) -> (u64, u64, u64) {
    values.sort_unstable();
    let at = |share: usize| values[(values.len() * share).div_ceil(100).saturating_sub(1)];
    if values.is_empty() { (0, 0, 0) } else { (at(50), at(90), values[values.len() - 1]) }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.lives.len() as u64;
        let last = self.first_seed.wrapping_add(n.saturating_sub(1));
        writeln!(
            f,
            "{n} characters (world seeds {} to {last}), bottom depth {}, at most {} rounds each\n",
            self.first_seed, self.bottom, self.max_rounds
        )?;
        self.depths_table(f)?;
        writeln!(f)?;
        self.killers_table(f)?;
        let died = self.count(|e| matches!(e, End::Died(_)));
        let escaped = self.count(|e| *e == End::Escaped);
        let playing = self.count(|e| *e == End::Playing);
        let found = self.lives.iter().filter(|l| l.found_artifact).count();
        writeln!(f, "\nended: {died} died, {escaped} escaped, {playing} still playing")?;
        writeln!(f, "the Gloamstone: found by {found}, escaped with by {escaped}")?;
        self.spreads(f)
    }
}

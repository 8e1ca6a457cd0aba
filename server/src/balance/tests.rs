use std::sync::Arc;

use super::*;
use crate::bestiary::Bestiary;

fn shallow(bottom: u16) -> Config {
    Config { max_depth: bottom, ..Config::default() }
}

#[test]
fn a_short_run_ends_and_its_report_adds_up() {
    let options = Options { characters: 3, seed: 7, max_rounds: 3_000, jobs: 1 };
    let report = run(&shallow(3), &options);
    assert_eq!(report.lives.len(), 3);
    for life in &report.lives {
        assert!(life.deepest <= 3 && life.depth <= life.deepest, "{life:?}");
        assert!(life.rounds <= 3_000 && life.level >= 1, "{life:?}");
        assert_eq!(life.arrivals.len(), usize::from(life.deepest), "{life:?}");
    }
    let rows = report.depths();
    assert_eq!(rows[0].reached, 3, "everyone starts on depth 1");
    assert!(rows.windows(2).all(|w| w[1].reached <= w[0].reached), "{rows:?}");
    let stopped: usize = rows.iter().map(|r| r.died + r.playing).sum();
    let escaped = report.lives.iter().filter(|l| l.end == End::Escaped).count();
    assert_eq!(stopped + escaped, 3);
    let text = report.to_string();
    for line in ["3 characters (world seeds 7 to 9)", "depth  reached", "rounds played"] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    let threads = Options { jobs: 2, ..options };
    assert_eq!(run(&shallow(3), &threads), report, "the same run on two threads");
}

#[test]
fn the_policy_brings_the_gloamstone_up_from_a_quiet_bottom() {
    let config = Config { bestiary: Arc::new(Bestiary::empty()), ..shallow(2) };
    let life = play(&config, 5, 5_000);
    assert_eq!(life.end, End::Escaped, "{life:?}");
    assert!(life.found_artifact && life.deepest == 2, "{life:?}");
}

#[test]
fn spread_gives_the_median_the_90th_percentile_and_the_most() {
    assert_eq!(report::spread(vec![]), (0, 0, 0));
    assert_eq!(report::spread(vec![4]), (4, 4, 4));
    assert_eq!(report::spread((1..=10).rev().collect()), (5, 9, 10));
}

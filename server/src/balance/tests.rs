use std::sync::Arc;

use super::*;
use crate::bestiary::Bestiary;

fn shallow(bottom: u16) -> Config {
    Config { max_depth: bottom, ..Config::default() }
}

#[test]
fn a_short_run_ends_and_its_report_adds_up() {
    let options = Options { characters: 3, seed: 7, max_rounds: 3_000, jobs: 1, background: None };
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
    let life = play(&config, 5, 5_000, None);
    assert_eq!(life.end, End::Escaped, "{life:?}");
    assert!(life.found_artifact && life.deepest == 2, "{life:?}");
}

#[test]
fn spread_gives_the_median_the_90th_percentile_and_the_most() {
    assert_eq!(report::spread(vec![]), (0, 0, 0));
    assert_eq!(report::spread(vec![4]), (4, 4, 4));
    assert_eq!(report::spread((1..=10).rev().collect()), (5, 9, 10));
}

#[test]
fn a_comparison_plays_the_same_seeds_once_per_background_and_once_of_none() {
    let options = Options { characters: 2, seed: 11, max_rounds: 1_500, jobs: 1, background: None };
    let config = shallow(3);
    let comparison = compare(&config, &options);
    let names: Vec<&str> = comparison.rows.iter().map(|r| r.background.as_str()).collect();
    let mut wanted: Vec<&str> = config.backgrounds.all().iter().map(|b| b.name.as_str()).collect();
    wanted.extend(["none", PARTY]);
    assert_eq!(names, wanted);
    let party = comparison.rows.last().unwrap();
    let members = config.backgrounds.all().len();
    assert_eq!(party.report.lives.len(), 2 * members, "every member of both parties counted");
    for row in &comparison.rows[..comparison.rows.len() - 1] {
        let seeds: Vec<u64> = row.report.lives.iter().map(|l| l.seed).collect();
        assert_eq!(seeds, [11, 12], "{}", row.background);
        assert_eq!(row.reached(1), 2);
    }
    let fighter = &comparison.rows[0];
    let alone = Options { background: config.backgrounds.find("fighter").cloned(), ..options };
    assert_eq!(fighter.report, run(&config, &alone), "a row is the background's own run");
    let text = comparison.to_string();
    assert!(text.contains("depth 10: the likeliest background"), "{text}");
}

#[test]
fn a_background_changes_how_a_character_fares() {
    let config = shallow(4);
    let fighter = config.backgrounds.find("fighter").cloned();
    let plain = play(&config, 21, 4_000, None);
    let armed = play(&config, 21, 4_000, fighter.as_ref());
    assert_ne!(plain, armed, "a fighter's sword, armour and skills change its life");
}

#[test]
fn an_adept_zaps_its_wands_and_a_character_without_wands_never_does() {
    let config = shallow(3);
    let adept = config.backgrounds.find("adept").cloned();
    let zaps: u32 = (41..44).map(|seed| play(&config, seed, 3_000, adept.as_ref()).zaps).sum();
    assert!(zaps > 0, "the adept's striking and slow monster wands were used");
    let fighter = config.backgrounds.find("fighter").cloned();
    assert_eq!(play(&config, 41, 3_000, fighter.as_ref()).zaps, 0, "a fighter has no wand");
}

#[test]
fn a_party_of_one_of_each_plays_together_on_one_clock() {
    let config = shallow(3);
    let all = config.backgrounds.all();
    let lives = play_party(&config, 31, 3_000, all);
    assert_eq!(lives.len(), all.len());
    assert!(lives.iter().all(|l| l.seed == 31 && l.deepest >= 1 && l.rounds <= 3_000), "{lives:?}");
    assert!(lives.iter().any(|l| l.kills > 0), "somebody fought: {lives:?}");
    assert_eq!(play_party(&config, 31, 3_000, all), lives, "a party's run is the same again");
}

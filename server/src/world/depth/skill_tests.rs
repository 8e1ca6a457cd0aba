//! A background's skills in the rules: a stealthy player lets sleepers
//! sleep on, and a skilled one's blows land more often and harder.

use super::monster_tests::hall;
use super::testing::PlayAndTell;
use super::*;
use crate::character::Skills;
use gloam_protocol::Dir;

const ANN: PlayerId = PlayerId(1);

/// Rounds ann, of `skills`, waits beside a sleeping orc before it wakes
/// (at most `most`).
fn rounds_until_woken(seed: u64, skills: Skills, most: u32) -> u32 {
    let mut d = hall(seed);
    let mut ann = Player::new(ANN, "ann".into());
    ann.skills = skills;
    d.come(ann, Arrival::Resume(Pos::new(5, 2)));
    let kind = d.rules.bestiary.find("orc").unwrap();
    let orc = d.spawn(kind, Pos::new(6, 2)).unwrap();
    for round in 0..most {
        if d.rules.monsters.get(&orc).is_some_and(|m| m.is_awake()) {
            return round;
        }
        d.act(ANN, Action::Wait);
    }
    most
}

#[test]
fn a_stealthy_player_lets_a_sleeper_sleep_longer() {
    let quiet = Skills { stealth: 80, ..Skills::default() };
    let (mut loud, mut soft) = (0, 0);
    for seed in 0..20 {
        loud += rounds_until_woken(seed, Skills::default(), 200);
        soft += rounds_until_woken(seed, quiet, 200);
    }
    assert!(soft > 2 * loud, "stealth 80 kept it asleep {soft} rounds, none {loud}");
}

/// What ann's blows on a sturdy troll did over `blows` swings with
/// `skills`: how many landed and their damage.
fn swings(skills: Skills, blows: u32) -> (u32, u32) {
    let mut d = hall(5);
    let mut ann = Player::new(ANN, "ann".into());
    ann.skills = skills;
    ann.vitals.hp = 999;
    ann.vitals.max_hp = 999;
    d.come(ann, Arrival::Resume(Pos::new(5, 2)));
    let kind = d.rules.bestiary.find("troll").unwrap();
    let (mut landed, mut damage) = (0, 0);
    for _ in 0..blows {
        let troll = d.spawn(kind, Pos::new(6, 2)).unwrap();
        let before = d.rules.monsters.get(&troll).map(|m| m.hp).unwrap();
        d.act(ANN, Action::Move(Dir::E));
        let after = d.rules.monsters.get(&troll).map_or(0, |m| m.hp);
        if after < before {
            landed += 1;
            damage += u32::from(before - after);
        }
        d.rules.monsters.remove(troll);
        d.rules.occupancy.get_mut(ANN).unwrap().vitals.hp = 999;
    }
    (landed, damage)
}

#[test]
fn a_skilled_players_blows_land_more_often_and_harder() {
    let (plain_landed, plain_damage) = swings(Skills::default(), 200);
    let skilled = Skills { to_hit: 15, damage: 3, ..Skills::default() };
    let (landed, damage) = swings(skilled, 200);
    assert!(landed > plain_landed, "{landed} blows landed against {plain_landed}");
    let mean = |d: u32, n: u32| f64::from(d) / f64::from(n.max(1));
    let (plain, skilled) = (mean(plain_damage, plain_landed), mean(damage, landed));
    assert!(skilled > plain + 2.5, "a blow did {skilled:.2} against {plain:.2}");
}

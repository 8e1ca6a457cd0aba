//! Backgrounds over real WebSockets: a new character asks for the
//! backgrounds, picks one and starts as it says (its hit points, its kit
//! wielded and worn, the potions of its kit known by name while a friend
//! of another background knows them only by their look); a background the
//! server lacks, or a name already taken, is refused with its reason. The
//! oracle checks every message, and the depth replayed from its log (which
//! carries each arrival's skills) what each was shown.

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{Refusal, ServerMsg, codec};
use gloam_server::Config;
use gloam_tests::scenario::World;
use gloam_tests::{SimClient, SimError};
use tokio_tungstenite::tungstenite::Message;

const SEED: u64 = 20_261_204;

fn config() -> Config {
    Config { actions_per_second: 1_000_000, action_burst: 1_000_000, ..Config::quiet(SEED) }
}

async fn start() -> World {
    let config = config();
    let oracle = World::oracle_of(&config).with_changing_floor();
    World::start(config, oracle).await
}

#[tokio::test]
async fn a_new_character_starts_as_the_background_it_picked() {
    let world = start().await;
    let url = world.server.url();
    let oracle = || Some(world.oracle.clone());
    let ann = SimClient::create(&url, "ann", "fighter", oracle()).await.expect("a fighter");
    let bob = SimClient::create(&url, "bob", "skirmisher", oracle()).await.expect("a skirmisher");
    assert_eq!(ann.state.hp, Some((36, 36)), "a fighter's hit points");
    assert_eq!(bob.state.hp, Some((30, 30)));
    let carried = |sim: &SimClient| -> Vec<(String, u16, bool)> {
        let kinds = &sim.state.item_kinds;
        let entry = |c: &gloam_protocol::Carried| {
            (kinds[usize::from(c.kind)].name.clone(), c.count, c.equipped)
        };
        sim.state.pack.iter().map(entry).collect()
    };
    let (sword, armour) = (("short sword".into(), 1, true), ("leather armour".into(), 1, true));
    assert_eq!(carried(&ann), vec![sword, armour, ("potion of healing".into(), 1, false)]);
    let healing = ann.state.pack[2].kind;
    let look = &bob.state.item_kinds[usize::from(healing)].name;
    assert_ne!(look, "potion of healing", "bob's kit has no potion: he knows it by its look");
    assert_eq!(carried(&bob)[1], ("dart".into(), 16, false));
    let covered = world.replayed(vec![ann, bob], vec![]).await;
    assert!(covered.known >= 1, "ann's knowing checked against the replay: {covered:?}");
}

#[tokio::test]
async fn a_background_the_server_lacks_or_a_name_taken_is_refused() {
    let world = start().await;
    let url = world.server.url();
    let bard = SimClient::create(&url, "ann", "bard", None).await.err();
    assert!(matches!(bard, Some(SimError::Stuck(ref why)) if why.contains("bard")), "{bard:?}");
    // Straight to the create, without asking first: refused by the server.
    let mut raw = gloam_tests::sim::connect_raw(&url).await.unwrap();
    let create = gloam_protocol::ClientMsg::Create {
        version: gloam_protocol::PROTOCOL_VERSION,
        name: "ann".into(),
        token: None,
        background: "bard".into(),
    };
    raw.send(Message::Binary(codec::encode(&create).into())).await.unwrap();
    let Some(Ok(Message::Binary(bytes))) = raw.next().await else { panic!("no answer") };
    let wanted = Refusal::NoSuchBackground { name: "bard".into() };
    assert_eq!(codec::decode_server(&bytes), Ok(ServerMsg::Refused(wanted)));
    let ann = SimClient::create(&url, "ann", "scout", Some(world.oracle.clone())).await.unwrap();
    let again = SimClient::create(&url, "ann", "fighter", None).await.err();
    assert!(matches!(again, Some(SimError::Refused(Refusal::WrongToken))), "{again:?}");
    world.replayed(vec![ann], vec![]).await;
}

#[tokio::test]
async fn a_create_with_the_token_of_a_living_character_resumes_it_as_it_was() {
    let world = start().await;
    let url = world.server.url();
    let oracle = || Some(world.oracle.clone());
    let ann = SimClient::create(&url, "ann", "scout", oracle()).await.expect("a scout");
    let (token, at, pack) = (ann.token, ann.at(), ann.state.pack.clone());
    let kept = ann.quit_with_oracle().await.expect("ann leaves");
    // A client that believes her dead asks for a fighter with her token.
    let ann = SimClient::create_again(&url, "ann", token, "fighter", kept).await.unwrap();
    assert_eq!(ann.state.hp, Some((26, 26)), "still a scout, not a fighter");
    assert_eq!((ann.at(), &ann.state.pack), (at, &pack), "where she stood, with her kit");
    world.replayed(vec![ann], vec![]).await;
}

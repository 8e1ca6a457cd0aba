//! Why the mirror refuses a message that does not fit, in words: every
//! reason [`StateError::Inconsistent`](super::StateError) gives, in one
//! place, so the page reads the same words (`web_export` writes them as
//! `web/src/generated/refusals.json`, with the typed reasons' templates).

pub(crate) const CELL_SHOWN_AGAIN_WAS_NEVER_REVEALED: &str =
    "a cell shown again was never revealed";
pub(crate) const CHANGE_TO_SOMETHING_NOT_IN_SIGHT: &str = "a change to something not in sight";
pub(crate) const DEATH_WHOSE_RECORD_SAYS_IT_ESCAPED: &str = "a death whose record says it escaped";
pub(crate) const GRAVEYARD_LONGER_THAN_A_CLIENT_KEEPS: &str =
    "a graveyard longer than a client keeps";
pub(crate) const LINE_OF_CHAT_NO_SERVER_SENDS: &str = "a line of chat no server sends";
pub(crate) const LONGER_LIST_OF_BACKGROUNDS_THAN_ANY_SENT: &str =
    "a longer list of backgrounds than any sent";
pub(crate) const LONGER_LIST_OF_PLAYERS_THAN_ANY_SENT: &str =
    "a longer list of players than any sent";
pub(crate) const MAP_OF_A_LEVEL_NEVER_ENTERED: &str = "a map of a level never entered";
pub(crate) const MAP_WITH_NO_CELLS: &str = "a map with no cells";
pub(crate) const MONSTER_DRAWN_AS_A_CONTROL_CHARACTER: &str =
    "a monster drawn as a control character";
pub(crate) const MONSTER_IN_SIGHT_LOST_ITS_KIND: &str = "a monster in sight lost its kind";
pub(crate) const MONSTER_OF_A_KIND_NEVER_NAMED: &str = "a monster of a kind never named";
pub(crate) const NAME_EMPTY_OR_LONGER_THAN_THE_PROTOCOL_ALLOWS: &str =
    "a name empty or longer than the protocol allows";
pub(crate) const PACK_ENTRY_OF_NO_ITEMS: &str = "a pack entry of no items";
pub(crate) const PACK_OF_MORE_THAN_26_ITEMS: &str = "a pack of more than 26 items";
pub(crate) const PARTY_LARGER_THAN_ANY_DEPTH_HOLDS: &str = "a party larger than any depth holds";
pub(crate) const PARTY_MEMBER_TWICE: &str = "a party member twice";
pub(crate) const PARTY_MEMBERS_HIT_POINTS_OVER_THEIR_MOST: &str =
    "a party member's hit points over their most";
pub(crate) const PARTY_THAT_DOES_NOT_START_WITH_THE_PLAYER: &str =
    "a party that does not start with the player";
pub(crate) const PILE_OF_NO_ITEMS: &str = "a pile of no items";
pub(crate) const PLAYER_NAME_THE_SERVER_WOULD_NEVER_ALLOW: &str =
    "a player name the server would never allow";
pub(crate) const ROSTER_LONGER_THAN_ANY_DEPTH_HOLDS: &str = "a roster longer than any depth holds";
pub(crate) const ESCAPE_WHOSE_RECORD_SAYS_IT_DIED: &str = "an escape whose record says it died";
pub(crate) const ITEM_DRAWN_AS_A_CONTROL_CHARACTER: &str = "an item drawn as a control character";
pub(crate) const ITEM_KNOWN_LOST_ITS_KIND: &str = "an item known lost its kind";
pub(crate) const ITEM_OF_NO_KIND: &str = "an item of no kind";
pub(crate) const CELLS_HIDDEN_BEFORE_ANY_SIGHT: &str = "cells hidden before any sight";
pub(crate) const HIT_POINTS_OVER_THEIR_MOST: &str = "hit points over their most";
pub(crate) const MORE_ARRIVALS_THAN_ANY_DEPTH_HOLDS: &str = "more arrivals than any depth holds";
pub(crate) const MORE_IN_SIGHT_THAN_ANY_DEPTH_HOLDS: &str = "more in sight than any depth holds";
pub(crate) const MORE_KINDS_OF_ITEM_THAN_A_CLIENT_KEEPS: &str =
    "more kinds of item than a client keeps";
pub(crate) const MORE_KINDS_OF_MONSTER_THAN_A_CLIENT_KEEPS: &str =
    "more kinds of monster than a client keeps";
pub(crate) const MORE_WATCHERS_THAN_A_CLIENT_KEEPS: &str = "more watchers than a client keeps";
pub(crate) const NOT_ONE_TERRAIN_ENTRY_PER_REMEMBERED_CELL: &str =
    "not one terrain entry per remembered cell";
pub(crate) const REMEMBERED_BITSET_LONGER_THAN_THE_MAP: &str =
    "remembered bitset longer than the map";
pub(crate) const REMEMBERED_CELL_OFF_THE_MAP: &str = "remembered cell off the map";
pub(crate) const SIGHT_RADIUS_TOO_LARGE: &str = "sight radius too large";
pub(crate) const WAITING_FOR_MORE_THAN_ANY_DEPTH_HOLDS: &str =
    "waiting for more than any depth holds";
pub(crate) const WORLD_NAME_THE_SERVER_WOULD_NEVER_ALLOW: &str =
    "a world name the server would never allow";

/// Every reason above, by its name in `refusals.json`.
#[cfg(test)]
pub(crate) const ALL: &[(&str, &str)] = &[
    ("cell_shown_again_was_never_revealed", CELL_SHOWN_AGAIN_WAS_NEVER_REVEALED),
    ("change_to_something_not_in_sight", CHANGE_TO_SOMETHING_NOT_IN_SIGHT),
    ("death_whose_record_says_it_escaped", DEATH_WHOSE_RECORD_SAYS_IT_ESCAPED),
    ("graveyard_longer_than_a_client_keeps", GRAVEYARD_LONGER_THAN_A_CLIENT_KEEPS),
    ("line_of_chat_no_server_sends", LINE_OF_CHAT_NO_SERVER_SENDS),
    ("longer_list_of_backgrounds_than_any_sent", LONGER_LIST_OF_BACKGROUNDS_THAN_ANY_SENT),
    ("longer_list_of_players_than_any_sent", LONGER_LIST_OF_PLAYERS_THAN_ANY_SENT),
    ("map_of_a_level_never_entered", MAP_OF_A_LEVEL_NEVER_ENTERED),
    ("map_with_no_cells", MAP_WITH_NO_CELLS),
    ("monster_drawn_as_a_control_character", MONSTER_DRAWN_AS_A_CONTROL_CHARACTER),
    ("monster_in_sight_lost_its_kind", MONSTER_IN_SIGHT_LOST_ITS_KIND),
    ("monster_of_a_kind_never_named", MONSTER_OF_A_KIND_NEVER_NAMED),
    (
        "name_empty_or_longer_than_the_protocol_allows",
        NAME_EMPTY_OR_LONGER_THAN_THE_PROTOCOL_ALLOWS,
    ),
    ("pack_entry_of_no_items", PACK_ENTRY_OF_NO_ITEMS),
    ("pack_of_more_than_26_items", PACK_OF_MORE_THAN_26_ITEMS),
    ("party_larger_than_any_depth_holds", PARTY_LARGER_THAN_ANY_DEPTH_HOLDS),
    ("party_member_twice", PARTY_MEMBER_TWICE),
    ("party_members_hit_points_over_their_most", PARTY_MEMBERS_HIT_POINTS_OVER_THEIR_MOST),
    ("party_that_does_not_start_with_the_player", PARTY_THAT_DOES_NOT_START_WITH_THE_PLAYER),
    ("pile_of_no_items", PILE_OF_NO_ITEMS),
    ("player_name_the_server_would_never_allow", PLAYER_NAME_THE_SERVER_WOULD_NEVER_ALLOW),
    ("roster_longer_than_any_depth_holds", ROSTER_LONGER_THAN_ANY_DEPTH_HOLDS),
    ("escape_whose_record_says_it_died", ESCAPE_WHOSE_RECORD_SAYS_IT_DIED),
    ("item_drawn_as_a_control_character", ITEM_DRAWN_AS_A_CONTROL_CHARACTER),
    ("item_known_lost_its_kind", ITEM_KNOWN_LOST_ITS_KIND),
    ("item_of_no_kind", ITEM_OF_NO_KIND),
    ("cells_hidden_before_any_sight", CELLS_HIDDEN_BEFORE_ANY_SIGHT),
    ("hit_points_over_their_most", HIT_POINTS_OVER_THEIR_MOST),
    ("more_arrivals_than_any_depth_holds", MORE_ARRIVALS_THAN_ANY_DEPTH_HOLDS),
    ("more_in_sight_than_any_depth_holds", MORE_IN_SIGHT_THAN_ANY_DEPTH_HOLDS),
    ("more_kinds_of_item_than_a_client_keeps", MORE_KINDS_OF_ITEM_THAN_A_CLIENT_KEEPS),
    ("more_kinds_of_monster_than_a_client_keeps", MORE_KINDS_OF_MONSTER_THAN_A_CLIENT_KEEPS),
    ("more_watchers_than_a_client_keeps", MORE_WATCHERS_THAN_A_CLIENT_KEEPS),
    ("not_one_terrain_entry_per_remembered_cell", NOT_ONE_TERRAIN_ENTRY_PER_REMEMBERED_CELL),
    ("remembered_bitset_longer_than_the_map", REMEMBERED_BITSET_LONGER_THAN_THE_MAP),
    ("remembered_cell_off_the_map", REMEMBERED_CELL_OFF_THE_MAP),
    ("sight_radius_too_large", SIGHT_RADIUS_TOO_LARGE),
    ("waiting_for_more_than_any_depth_holds", WAITING_FOR_MORE_THAN_ANY_DEPTH_HOLDS),
    ("world_name_the_server_would_never_allow", WORLD_NAME_THE_SERVER_WOULD_NEVER_ALLOW),
];

#[cfg(test)]
mod tests {
    /// The words name the pack's size, which they cannot be made from.
    #[test]
    fn the_packs_reason_names_its_size() {
        let slots = gloam_protocol::PACK_SLOTS.to_string();
        assert!(super::PACK_OF_MORE_THAN_26_ITEMS.contains(&slots));
    }
}

-- Gloam's store on PostgreSQL, first layout: the same records as the redb
-- store's tables (server/src/store/tables.rs), one world per database.
-- Unsigned numbers are kept in signed columns of the next size up, but
-- u64 values (rounds, entry numbers, checksums) as bigint, bit for bit.

CREATE TABLE meta (
    key text PRIMARY KEY,
    value bytea NOT NULL
);

-- A character's name and the SHA-256 of its secret token; kept after its
-- death, for a new character under the same name.
CREATE TABLE tokens (
    name text PRIMARY KEY,
    token_hash bytea NOT NULL
);

-- A character in play: where it stands, its vitals, and what it carries,
-- knows and killed (the codec's encodings, as in redb).
CREATE TABLE characters (
    name text PRIMARY KEY,
    depth integer NOT NULL,
    x integer NOT NULL,
    y integer NOT NULL,
    hp integer NOT NULL,
    max_hp integer NOT NULL,
    kills bigint NOT NULL,
    rounds bigint NOT NULL,
    deepest integer NOT NULL,
    pack bytea NOT NULL,
    progress bytea NOT NULL,
    known bytea,
    slain bytea NOT NULL,
    background bytea
);

CREATE TABLE explored (
    name text NOT NULL,
    depth integer NOT NULL,
    cells bytea NOT NULL,
    PRIMARY KEY (name, depth)
);

CREATE TABLE remembered_piles (
    name text NOT NULL,
    depth integer NOT NULL,
    piles bytea NOT NULL,
    PRIMARY KEY (name, depth)
);

-- The dead, numbered in the order they were buried.
CREATE TABLE graves (
    number bigint PRIMARY KEY,
    name text NOT NULL,
    died_at bigint NOT NULL,
    depth integer NOT NULL,
    rounds bigint NOT NULL,
    kills bigint NOT NULL,
    killed_by text NOT NULL,
    level integer NOT NULL,
    morgue bigint NOT NULL
);

-- The hall of the living, in the order they escaped.
CREATE TABLE living (
    number bigint PRIMARY KEY,
    name text NOT NULL,
    escaped_at bigint NOT NULL,
    depth integer NOT NULL,
    rounds bigint NOT NULL,
    kills bigint NOT NULL,
    escaped_with text NOT NULL,
    level integer NOT NULL,
    morgue bigint NOT NULL
);

CREATE TABLE life_ends (
    name text NOT NULL,
    life bigint NOT NULL,
    depth integer NOT NULL,
    round bigint NOT NULL,
    PRIMARY KEY (name, life)
);

CREATE TABLE depth_log (
    depth integer NOT NULL,
    entry bigint NOT NULL,
    bytes bytea NOT NULL,
    PRIMARY KEY (depth, entry)
);

CREATE TABLE depth_sums (
    depth integer PRIMARY KEY,
    kept bigint NOT NULL,
    checksum bigint NOT NULL
);

CREATE TABLE depth_histories (
    depth integer PRIMARY KEY,
    start bigint NOT NULL,
    rules bigint NOT NULL
);

CREATE TABLE depth_snapshots (
    depth integer NOT NULL,
    after bigint NOT NULL,
    rules bigint NOT NULL,
    checksum bigint NOT NULL,
    bytes bytea NOT NULL,
    PRIMARY KEY (depth, after)
);

CREATE TABLE uniques_slain (
    kind text PRIMARY KEY,
    slain_by text NOT NULL
);

-- Morgue files: a redb store keeps them as files beside it.
CREATE TABLE morgues (
    name text NOT NULL,
    number bigint NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (name, number)
);

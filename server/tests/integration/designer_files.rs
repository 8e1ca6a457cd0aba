//! A host's own bestiary, items file or vaults with a mistake stops the real
//! binary before it touches the data folder, with one line naming the
//! file, the line and the field; a sound one is played.

#![cfg(unix)]

use gloam_tests::process::ServerProcess;

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");

/// The server given `flag` naming a copy of `built_in` with `from` made
/// `to` refuses to start, leaves the data folder it was given uncreated,
/// and prints one line: the file, the line of `to`, and `what`.
fn refused(flag: &str, built_in: &str, from: &str, to: &str, what: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    let text = built_in.replacen(from, to, 1);
    std::fs::write(&file, &text).unwrap();
    let data = dir.path().join("world");
    let args = [flag, file.to_str().unwrap()];
    let failure = ServerProcess::try_start(SERVER, &data, &args).expect_err("refused");
    assert!(!failure.status.success());
    assert!(!data.exists(), "the data folder is not touched");
    let line = text.lines().position(|l| l == to).unwrap() + 1;
    let file = file.display();
    assert_eq!(failure.stderr, format!("gloam-server: {file}:{line}: {what}\n"));
}

#[test]
fn a_bad_items_file_stops_the_server_with_one_line() {
    let what = "item \"dart\", field `range`: 60 cells: give 1 to 20";
    refused("--items", gloam_server::items::BUILT_IN, "range = 6", "range = 60", what);
}

#[test]
fn a_bad_bestiary_stops_the_server_with_one_line() {
    let what = "monster \"kobold\", field `hp`: a monster needs at least 1 hit point";
    refused("--bestiary", gloam_server::bestiary::BUILT_IN, "hp = 7", "hp = 0", what);
}

/// A host's folder of vaults with a mistake in one file, or naming a
/// monster the world lacks, stops the server with that file and line; a
/// sound folder is played.
#[test]
fn a_bad_vault_stops_the_server_with_one_line_and_a_sound_folder_is_played() {
    let room = "name = a test room\ndepths = 2-9\no = monster orc\n---\n#####\n#o..#\n##.##\n";
    for (text, line, what) in [
        (room.replace("#o..#", "#o.x#"), 6, "'x' is not `#`, `.`, a space or in the legend"),
        (room.replace("monster orc", "monster urk"), 3, "no monster \"urk\" in the bestiary"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("room.txt");
        std::fs::write(&file, text).unwrap();
        let data = dir.path().join("world");
        let args = ["--vaults", dir.path().to_str().unwrap()];
        let failure = ServerProcess::try_start(SERVER, &data, &args).expect_err("refused");
        assert!(!data.exists(), "the data folder is not touched");
        let file = file.display();
        assert_eq!(failure.stderr, format!("gloam-server: {file}:{line}: {what}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("room.txt"), room).unwrap();
    let data = dir.path().join("world");
    let _server = ServerProcess::start(SERVER, &data, &["--vaults", dir.path().to_str().unwrap()]);
    assert!(data.exists());
}

#[test]
fn a_sound_items_file_of_the_hosts_own_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    let text = gloam_server::items::BUILT_IN.replacen("\"dagger\"", "\"knife\"", 1);
    std::fs::write(&file, text).unwrap();
    let data = dir.path().join("world");
    let _server = ServerProcess::start(SERVER, &data, &["--items", file.to_str().unwrap()]);
    assert!(data.exists());
}

/// A message of the day too long, or that cannot be read, stops the server
/// before it touches the data folder, with one line naming the file.
#[test]
fn a_bad_message_of_the_day_stops_the_server_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("motd.txt");
    std::fs::write(&file, "A line.\n".repeat(11)).unwrap();
    let data = dir.path().join("world");
    let args = ["--motd", file.to_str().unwrap()];
    let failure = ServerProcess::try_start(SERVER, &data, &args).expect_err("refused");
    assert!(!failure.status.success());
    assert!(!data.exists(), "the data folder is not touched");
    let file = file.display();
    let want =
        format!("gloam-server: --motd {file}: 11 lines; a message of the day is 10 at most\n");
    assert_eq!(failure.stderr, want);
    let missing = dir.path().join("nowhere.txt");
    let args = ["--motd", missing.to_str().unwrap()];
    let failure = ServerProcess::try_start(SERVER, &data, &args).expect_err("refused");
    assert_eq!(failure.stderr.lines().count(), 1, "{}", failure.stderr);
    assert!(failure.stderr.starts_with(&format!("gloam-server: --motd {}: ", missing.display())));
}

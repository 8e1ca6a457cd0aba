//! The host's message of the day (`--motd FILE`): a few lines every player
//! and watcher reads in its log on joining. The file is read and checked
//! once, at start: a file that cannot be read, that is too long, or that
//! holds what a client would refuse or draw badly stops the server with one
//! line naming it, as a bad bestiary does.

use std::path::Path;

/// The most lines a message of the day holds (blank lines are left out):
/// a few lines of the log, not a page.
pub const MAX_LINES: usize = 10;

/// The most characters of one line: what a log line of the window's HUD
/// wraps onto a few rows, well under what a client takes in a note.
pub const MAX_LINE_CHARS: usize = 200;

/// The largest file read, in bytes.
pub const MAX_BYTES: u64 = 4096;

/// Reads and checks the message of the day in `file`; the error is one
/// line naming the file and what is wrong.
pub fn read(file: &Path) -> Result<Vec<String>, String> {
    let named = |why: String| format!("--motd {}: {why}", file.display());
    let size = std::fs::metadata(file).map_err(|e| named(e.to_string()))?.len();
    if size > MAX_BYTES {
        return Err(named(format!("{size} bytes; a message of the day is {MAX_BYTES} at most")));
    }
    let text = std::fs::read_to_string(file).map_err(|e| named(e.to_string()))?;
    parse(&text).map_err(named)
}

/// The lines of a message of the day, trimmed at their ends, blank ones
/// left out; or why it cannot be one.
pub fn parse(text: &str) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() {
            continue;
        }
        if let Some(c) = line.chars().find(|&c| forbidden(c)) {
            return Err(format!("line {number} holds the control character {:?}", c));
        }
        let chars = line.chars().count();
        if chars > MAX_LINE_CHARS {
            return Err(format!(
                "line {number} is {chars} characters; a line is {MAX_LINE_CHARS} at most"
            ));
        }
        lines.push(line.to_owned());
    }
    if lines.len() > MAX_LINES {
        return Err(format!("{} lines; a message of the day is {MAX_LINES} at most", lines.len()));
    }
    Ok(lines)
}

/// A character no line of the log may hold: controls (a tab too), and the
/// marks that turn the direction of text, which chat refuses as well.
fn forbidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_blank_ones_left_out() {
        let text = "  Welcome to Gloamhold!  \n\n\r\nRestart at 22:00 UTC.\r\n";
        assert_eq!(parse(text).unwrap(), ["Welcome to Gloamhold!", "Restart at 22:00 UTC."]);
        assert_eq!(parse("").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn too_many_lines_are_refused() {
        let text = "a line\n".repeat(MAX_LINES + 1);
        assert_eq!(parse(&text).unwrap_err(), "11 lines; a message of the day is 10 at most");
        assert!(parse(&"a line\n".repeat(MAX_LINES)).is_ok());
    }

    #[test]
    fn a_line_too_long_is_refused_by_its_number() {
        let text = format!("first\n{}\n", "é".repeat(MAX_LINE_CHARS + 1));
        assert_eq!(parse(&text).unwrap_err(), "line 2 is 201 characters; a line is 200 at most");
        assert!(parse(&"é".repeat(MAX_LINE_CHARS)).is_ok());
    }

    #[test]
    fn control_and_direction_characters_are_refused() {
        assert!(parse("a\u{7}bell").unwrap_err().starts_with("line 1 holds the control"));
        assert!(parse("ok\nab\u{202e}cd").unwrap_err().starts_with("line 2 holds"));
    }

    #[test]
    fn a_file_is_read_or_refused_in_one_line_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("motd.txt");
        std::fs::write(&file, "Be kind.\n").unwrap();
        assert_eq!(read(&file).unwrap(), ["Be kind."]);
        std::fs::write(&file, "x".repeat(MAX_BYTES as usize + 1)).unwrap();
        let too_big = read(&file).unwrap_err();
        assert!(too_big.starts_with("--motd ") && too_big.contains("4097 bytes"), "{too_big}");
        let missing = read(&dir.path().join("nowhere.txt")).unwrap_err();
        assert!(missing.contains("nowhere.txt") && !missing.contains('\n'), "{missing}");
        std::fs::write(&file, [0xff, 0xfe, b'\n']).unwrap();
        assert!(read(&file).unwrap_err().contains("motd.txt"));
    }
}

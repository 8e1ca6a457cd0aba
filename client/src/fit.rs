//! Text made to fit a row of so many letters, so nothing the HUD says is
//! ever cut off by the window's edge: a row of items (keys, say) keeps
//! the items that fit; a message is wrapped onto more rows.

/// `text`, a row of items parted by `sep`, cut to at most `cols` letters:
/// the items that fit from the first, and always the last (the help key,
/// say); at worst, its first letters.
pub(crate) fn fit(text: &str, cols: usize, sep: &str) -> String {
    if text.chars().count() <= cols {
        return text.to_owned();
    }
    let items: Vec<&str> = text.split(sep).collect();
    let Some((last, rest)) = items.split_last() else { return String::new() };
    let mut kept = String::new();
    for item in rest {
        let wanted = kept.chars().count() + item.chars().count() + 2 * sep.chars().count();
        if wanted + last.chars().count() > cols {
            break;
        }
        kept.push_str(item);
        kept.push_str(sep);
    }
    kept.push_str(last);
    kept.chars().take(cols).collect()
}

/// `text` wrapped onto rows of at most `cols` letters, at spaces where it
/// can be (a word longer than a row is broken). Gives each row with the
/// letter of `text` it starts at.
pub(crate) fn wrap(text: &str, cols: usize) -> Vec<(usize, String)> {
    let cols = cols.max(1);
    let chars: Vec<char> = text.chars().collect();
    let mut rows = Vec::new();
    let mut start = 0;
    while chars.len() - start > cols {
        let window = &chars[start..=start + cols];
        let cut = match window.iter().rposition(|&c| c == ' ') {
            Some(at) if at > 0 => at,
            _ => cols,
        };
        rows.push((
            start,
            chars[start..start + cut].iter().collect::<String>().trim_end().to_owned(),
        ));
        start += cut;
        while chars.get(start) == Some(&' ') {
            start += 1;
        }
    }
    rows.push((start, chars[start..].iter().collect()));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_items_keeps_what_fits_and_always_the_last() {
        let keys = "a one  b two  c three  ? help";
        assert_eq!(fit(keys, 40, "  "), keys);
        assert_eq!(fit(keys, 22, "  "), "a one  b two  ? help");
        assert_eq!(fit(keys, 8, "  "), "? help");
        assert_eq!(fit(keys, 3, "  "), "? h");
    }

    #[test]
    fn a_long_message_wraps_at_spaces_and_breaks_a_word_longer_than_a_row() {
        assert_eq!(wrap("short", 10), [(0, "short".to_string())]);
        let rows = wrap("The jackal bites you hard.", 11);
        let texts: Vec<&str> = rows.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts, ["The jackal", "bites you", "hard."]);
        assert_eq!(rows[1].0, 11);
        let long = wrap("abcdefghij", 4);
        let texts: Vec<&str> = long.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts, ["abcd", "efgh", "ij"]);
        for (_, row) in wrap(&"word ".repeat(50), 17) {
            assert!(row.chars().count() <= 17, "{row}");
        }
    }
}

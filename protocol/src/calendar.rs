//! Days since 1970-01-01 as calendar dates, for the times the server
//! stamps: a death's (`DeathRecord::when_utc`) and a page answer's `Date`.
//! Written out rather than taken from a crate: it is a dozen lines of
//! integer arithmetic, and the protocol depends on nothing for clocks.

/// The proleptic Gregorian date of `days` since 1970-01-01, as (year,
/// month 1-12, day 1-31): Howard Hinnant's `civil_from_days`.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Both fit: a month is 1 to 12 and a day 1 to 31.
    (year, month as u32, day as u32)
}

/// The day of the week of `days` since 1970-01-01 (a Thursday), 0 for
/// Sunday to 6 for Saturday.
pub fn weekday(days: i64) -> u32 {
    // 0..7 always fits.
    (days + 4).rem_euclid(7) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_days_are_their_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        // RFC 9110's example date, 1994-11-06, a Sunday.
        assert_eq!(civil_from_days(9075), (1994, 11, 6));
        assert_eq!(weekday(9075), 0);
        // A leap day in a year divisible by 400, and the day after.
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(weekday(0), 4);
        assert_eq!(civil_from_days(20_790), (2026, 12, 3));
        assert_eq!(weekday(20_790), 4);
    }
}

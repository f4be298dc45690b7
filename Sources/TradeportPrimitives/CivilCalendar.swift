/// Days since 1970-01-01 in the proleptic Gregorian calendar, and back: Howard Hinnant's
/// `days_from_civil` and `civil_from_days` (http://howardhinnant.github.io/date_algorithms.html),
/// exact over the whole range of `Int64` days that cannot overflow (far beyond any real date).
public enum CivilCalendar {
    /// The days from 1970-01-01 to `year`-`month`-`day` (negative before it). `month` is 1–12;
    /// `day` is not checked against the month's length.
    @inlinable
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// How many days `month` (1–12) of `year` has.
    @inlinable
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The calendar date `days` after 1970-01-01 (before it when negative): month 1–12, day 1–31.
    @inlinable
    public static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

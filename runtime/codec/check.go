package codec

import "math"

// IsDateTime reports whether s is an RFC 3339 date-time, as the JSON Schema
// format "date-time" means it: full-date "T" full-time, with "T" and "Z"
// in either case, an optional fraction of a second of any length, and a
// "Z" or ±hh:mm offset (hours 00-23, minutes 00-59). The day must exist in
// its month (29 February only in leap years), and second 60 is accepted
// only as a leap second: at 23:59:60 once the offset is removed.
func IsDateTime(s string) bool {
	// yyyy-mm-ddThh:mm:ss is 19 bytes; the shortest offset is "Z".
	if len(s) < 20 {
		return false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	second, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		s[4] != '-' || s[7] != '-' || s[10] != 'T' && s[10] != 't' || s[13] != ':' || s[16] != ':' {
		return false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour > 23 || minute > 59 || second > 60 {
		return false
	}
	rest := s[19:]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	var offset int // minutes east of UTC
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return false
	}
	if second == 60 {
		// A leap second is the last second of a UTC day.
		utc := ((hour*60+minute-offset)%(24*60) + 24*60) % (24 * 60)
		return utc == 23*60+59
	}
	return true
}

// digits returns the value of s if it is all ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn returns the number of days in month of year (Gregorian).
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	default:
		return 31
	}
}

// multipleOfEpsilon is the relative tolerance of MultipleOf. A float64
// quotient of two decimals read from JSON is off by at most a few units in
// the last place (about 4e-16 relative); 1e-12 leaves a wide margin for
// that while still telling apart multiples for quotients below about 1e11.
const multipleOfEpsilon = 1e-12

// MultipleOf reports whether v is an integer multiple of m, as the JSON
// Schema keyword "multipleOf" means it, tolerating binary rounding: decimals
// such as 0.3 and 0.1 are not exact in binary, so v/m is accepted when it
// is within a relative 1e-12 of an integer (0.3 is a multiple of 0.1).
// A non-positive, infinite or NaN m, and an infinite or NaN v, give false.
func MultipleOf(v, m float64) bool {
	if !(m > 0) || math.IsInf(m, 0) || math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	q := v / m
	if math.IsInf(q, 0) {
		// v is so much larger than m that every float near it is a multiple.
		return true
	}
	return math.Abs(q-math.Round(q)) <= multipleOfEpsilon*math.Abs(q)
}

package clock

import (
	"context"
	"time"
)

// Tells the current date and time: the timestamp, the time zone and its
// offset from UTC, the weekday, the ISO week and the day of the year.
//
//tool:name clock_now
//tool:readonly
//tool:title Current time
//tool:verb Checking the time
//tool:zerovalue
type NowTool struct {
	Clock    func() time.Time // the current time; nil means time.Now
	Location *time.Location   // the time zone to report in; nil means UTC
}

// Now is the result of clock_now.
type Now struct {
	// The current time, in the time zone below.
	Time time.Time `json:"time"`
	// Seconds since 1970-01-01 UTC.
	Unix int64 `json:"unix"`
	// The time zone's name, such as "Europe/Lisbon" or "UTC".
	Location string `json:"location"`
	// The zone's abbreviation at this time, such as "WEST".
	Zone string `json:"zone"`
	// Seconds east of UTC.
	Offset int32 `json:"offset"`
	// Day of the week, in English.
	Weekday string `json:"weekday"`
	// ISO 8601 week number, 1 to 53.
	ISOWeek uint8 `json:"iso_week"`
	// Day of the year, 1 to 366.
	YearDay uint16 `json:"year_day"`
}

// Call reads the clock.
func (t NowTool) Call(ctx context.Context) (Now, error) {
	now := readClock(t.Clock)
	loc := t.Location
	if loc == nil {
		loc = time.UTC
	}
	now = now.In(loc)
	zone, offset := now.Zone()
	_, week := now.ISOWeek()
	return Now{
		Time:     now,
		Unix:     now.Unix(),
		Location: loc.String(),
		Zone:     zone,
		Offset:   int32(offset),
		Weekday:  now.Weekday().String(),
		ISOWeek:  uint8(week),
		YearDay:  uint16(now.YearDay()),
	}, nil
}

// readClock returns clock(), or time.Now() when clock is nil.
func readClock(clock func() time.Time) time.Time {
	if clock == nil {
		return time.Now()
	}
	return clock()
}

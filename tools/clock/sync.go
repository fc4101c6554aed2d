package clock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Compares this machine's clock with a trusted reference clock and tells
// how far off it is. Use it when times look wrong or before relying on
// exact timestamps.
//
//tool:name clock_sync
//tool:readonly
//tool:openworld
//tool:group time
//tool:weight 2
//tool:timeout 3s
//tool:title Check clock
//tool:verb Comparing clocks
type SyncTool struct {
	Clock func() time.Time // the local clock; nil means time.Now
	// Reference reads the reference clock: an NTP server or the Date
	// header of a trusted HTTPS service, in a real deployment. Without one
	// the tool is not offered.
	Reference func(ctx context.Context) (time.Time, error)
	// Tolerance is the largest offset still reported as in sync; zero
	// means one second.
	Tolerance time.Duration
}

// Sync is the result of clock_sync.
type Sync struct {
	// The local time when the reference answered (the midpoint of the request).
	Local time.Time `json:"local"`
	// The reference clock's time.
	Reference time.Time `json:"reference"`
	// How far the reference is ahead of the local clock, in nanoseconds
	// (negative: behind).
	Offset time.Duration `json:"offset"`
	// How long the reference took to answer, in nanoseconds.
	RoundTrip time.Duration `json:"round_trip"`
	// Whether the offset is within the tolerance.
	InSync bool `json:"in_sync"`
}

// Available reports the tool unusable when it has no reference clock.
func (t SyncTool) Available() error {
	if t.Reference == nil {
		return errors.New("clock_sync: no reference clock configured")
	}
	return nil
}

// Call asks the reference clock for the time.
func (t SyncTool) Call(ctx context.Context) (Sync, error) {
	before := readClock(t.Clock)
	ref, err := t.Reference(ctx)
	after := readClock(t.Clock)
	if err != nil {
		// The model learns what happened, not the network error's text;
		// the error itself is kept as the cause, for the logs.
		return Sync{}, &tool.ModelError{
			Message: "the reference clock did not answer; the local clock could not be checked, try again later",
			Cause:   fmt.Errorf("clock_sync: read the reference clock: %w", err),
		}
	}
	rtt := after.Sub(before)
	local := before.Add(rtt / 2)
	offset := ref.Sub(local)
	tolerance := t.Tolerance
	if tolerance <= 0 {
		tolerance = time.Second
	}
	return Sync{
		Local:     local,
		Reference: ref,
		Offset:    offset,
		RoundTrip: rtt,
		InSync:    offset.Abs() <= tolerance,
	}, nil
}

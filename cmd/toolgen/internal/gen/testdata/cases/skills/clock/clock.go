// Package clock is the clock half of the skills case.
package clock

import "context"

// Tells the time.
//
//tool:name clock_now
//tool:readonly
type Now struct{}

// Call runs it.
func (Now) Call(ctx context.Context) (string, error) { return "noon", nil }

// Package slow is a bootstrap fixture whose init takes a minute, so that a
// run can be canceled while the program runs.
package slow

import "time"

func init() { time.Sleep(time.Minute) }

// Input is an input.
type Input struct {
	X int `json:"x"`
}

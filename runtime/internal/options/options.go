// Package options holds what a registry's options (tool.Option) set,
// where both runtime/tool, which writes them, and the registry's
// implementation (runtime/internal/registry), which reads them, reach
// them. It imports nothing of the runtime but the codec's limits, so
// that runtime/tool can import it.
package options

import "github.com/toolgen-go/toolgen/runtime/codec"

// Registry is what the options given to a generated package's New set.
type Registry struct {
	// Limits are the limits every call's arguments are decoded under; the
	// zero Limits means the codec's defaults.
	Limits codec.Limits
	// MaxOutputBytes caps the size of a call's output; it must be
	// positive.
	MaxOutputBytes int
	// MaxAbandoned caps a tool's abandoned runs still running; 0 means
	// the default, and it must not be negative.
	MaxAbandoned int
}

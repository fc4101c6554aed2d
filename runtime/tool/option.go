package tool

import (
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/options"
)

// Defaults of the registry's options.
const (
	// DefaultMaxOutputBytes is the output cap of a registry built without
	// WithMaxOutputBytes: 1 MiB.
	DefaultMaxOutputBytes = 1 << 20
	// DefaultMaxAbandoned is how many abandoned runs of one tool (runs
	// that outlived their call's context) a registry built without
	// WithMaxAbandoned lets go on running before it refuses new calls of
	// that tool.
	DefaultMaxAbandoned = 8
)

// Option configures the Registry a generated package's New builds.
type Option func(*options.Registry)

// WithLimits sets the limits every call's arguments are decoded under; the
// zero Limits means the codec's defaults.
func WithLimits(lim codec.Limits) Option {
	return func(o *options.Registry) { o.Limits = lim }
}

// WithMaxOutputBytes caps the size of a call's output; n must be positive.
// A larger output fails with CodeOutputTooLarge. The default is
// DefaultMaxOutputBytes.
func WithMaxOutputBytes(n int) Option {
	return func(o *options.Registry) { o.MaxOutputBytes = n }
}

// WithMaxAbandoned sets how many abandoned runs of one tool (runs that
// outlived their call's context) may go on running
// before calls of that tool are refused with CodeBusy; n must not be
// negative, and 0 means DefaultMaxAbandoned.
func WithMaxAbandoned(n int) Option {
	return func(o *options.Registry) { o.MaxAbandoned = n }
}

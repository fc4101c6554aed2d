package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
)

// gcPercent is toolgen's GOGC unless the environment sets one: a run is
// short and its heap mostly live (the loaded packages, the plan), so the
// default of 100 spends a fifth of its CPU collecting; 400 trades peak
// memory (some 1.5× at 1,000 tools) for most of that time.
const gcPercent = 400

// memoryLimit is toolgen's soft memory limit unless the environment sets
// one (GOMEMLIMIT): with GOGC at 400 the heap may grow to five times what
// is live, which at 10,000 tools (some 500 MiB live: the types, the model
// and the generated files) was gigabytes. Under the limit the collector
// runs as often as it takes to stay there, so a catalog that fits never
// makes a laptop or a CI runner swap; a small catalog never reaches it
// and keeps GOGC's speed. A run whose live heap exceeds it goes on, the
// collector's share of the CPU capped by the runtime.
const memoryLimit = 896 << 20

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

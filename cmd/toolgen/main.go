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

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

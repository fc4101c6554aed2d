package mcpclient

import (
	"context"
	"time"
)

// SetSleep replaces the wait between two polls of a remote task.
func SetSleep(p *Toolkit, sleep func(ctx context.Context, d time.Duration) error) { p.sleep = sleep }

package service

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Running a task on the instance that holds it: its lease renewed every
// Tick, its progress and cancellation carried through the store, its end
// written (see the lease in tasks.go).

// taskProgress keeps a running task's latest progress report as a
// message, for the next renewal to write.
type taskProgress struct {
	msg *atomic.Pointer[string]
}

// Progress implements tool.ProgressListener.
func (p taskProgress) Progress(_ context.Context, r tool.ProgressReport) {
	m := r.Message
	if m == "" {
		m = strconv.FormatFloat(r.Done, 'g', -1, 64)
		if r.Total > 0 {
			m += " of " + strconv.FormatFloat(r.Total, 'g', -1, 64)
		}
	}
	p.msg.Store(&m)
}

// runTask runs work for the task id, which this instance holds, renewing
// its lease every Tick until work returns, then writes the outcome work
// returned (a function applied to the task as read then). A cancellation
// asked on any instance, or the lease lost, cancels work's context.
func (s *Service) runTask(ctx context.Context, id string, work func(ctx context.Context) func(*Task)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var msg atomic.Pointer[string]
	done := make(chan func(*Task), 1)
	go func() { done <- work(tool.WithProgress(ctx, taskProgress{&msg})) }()
	tick := time.NewTicker(s.tasks.Tick)
	defer tick.Stop()
	for {
		select {
		case settle := <-done:
			s.settleTask(context.WithoutCancel(ctx), id, settle)
			return
		case <-tick.C:
			if s.renewTask(context.WithoutCancel(ctx), id, &msg) {
				cancel()
			}
		}
	}
}

// renewTask renews this instance's lease on the task id and writes its
// latest progress; it reports whether the tool must stop: a cancellation
// was asked, or the task is no longer this instance's.
func (s *Service) renewTask(ctx context.Context, id string, msg *atomic.Pointer[string]) (stop bool) {
	ctx, cancel := context.WithTimeout(ctx, s.tasks.Lease/2)
	defer cancel()
	for range 4 {
		t, err := s.store.Task(ctx, id)
		if err != nil {
			if errors.Is(err, ErrTaskNotFound) {
				return true
			}
			s.log.LogAttrs(ctx, slog.LevelWarn, "call service: renew a task's lease", slog.String("error", err.Error()))
			return false // the store may come back before the lease passes
		}
		if t.Instance != s.tasks.Instance || t.Status != TaskWorking {
			return true
		}
		now := s.now()
		t.Lease = now.Add(s.tasks.Lease)
		if m := msg.Load(); m != nil && *m != t.Message {
			t.Message, t.Updated = *m, now
		}
		err = s.store.UpdateTask(ctx, t)
		if errors.Is(err, ErrTaskChanged) {
			continue
		}
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelWarn, "call service: renew a task's lease", slog.String("error", err.Error()))
		}
		return t.CancelRequested
	}
	return false
}

// settleTask writes the end of the task id that this instance ran.
func (s *Service) settleTask(ctx context.Context, id string, settle func(*Task)) {
	for range 16 {
		t, err := s.store.Task(ctx, id)
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "call service: write a task's end", slog.String("error", err.Error()))
			return
		}
		if t.Instance != s.tasks.Instance || t.Status != TaskWorking {
			s.log.LogAttrs(ctx, slog.LevelWarn, "call service: a task's lease was lost before it ended; its end is not written",
				slog.String("tool", t.Tool))
			return
		}
		settle(t)
		t.Instance, t.Lease, t.Updated = "", time.Time{}, s.now()
		err = s.store.UpdateTask(ctx, t)
		if errors.Is(err, ErrTaskChanged) {
			continue
		}
		if err != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "call service: write a task's end", slog.String("error", err.Error()))
		}
		return
	}
}

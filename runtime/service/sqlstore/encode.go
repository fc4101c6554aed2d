package sqlstore

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Times are stored as int64 nanoseconds since the Unix epoch (UTC), so
// that they come back exactly as they went in (a PostgreSQL timestamp
// keeps microseconds) and compare the same in both dialects. The zero
// time is stored as zeroTime, below every other value, so that it sorts
// and purges as the memory store's zero time does.
const zeroTime = math.MinInt64

var (
	minTime = time.Unix(0, math.MinInt64+1)
	maxTime = time.Unix(0, math.MaxInt64)
)

// nanos returns t as stored: nanoseconds since the epoch, clamped to the
// years 1678 to 2262, or zeroTime for the zero time.
func nanos(t time.Time) int64 {
	switch {
	case t.IsZero():
		return zeroTime
	case t.Before(minTime):
		return math.MinInt64 + 1
	case t.After(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// fromNanos returns a stored time, in UTC.
func fromNanos(n int64) time.Time {
	if n == zeroTime {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// Enums are stored by name ("call", "ok", "read", "refused"), so that the
// tables read plainly in SQL and do not depend on the constants' order;
// the zero value is "", and a value that has no name is stored as its
// String form ("Event(9)") and read back.

// enumName returns the stored form of an enum value.
func enumName[E interface {
	~uint8
	String() string
}](e E) string {
	if e == 0 {
		return ""
	}
	return e.String()
}

// parseEnum reads a stored enum of the type typ: "" is the zero value,
// a name what parse knows, "Type(N)" the value N.
func parseEnum[E ~uint8](s, typ string, parse func(string) (E, bool)) (E, error) {
	if s == "" {
		return 0, nil
	}
	if e, ok := parse(s); ok {
		return e, nil
	}
	if rest, ok := strings.CutPrefix(s, typ+"("); ok {
		if rest, ok = strings.CutSuffix(rest, ")"); ok {
			if n, err := strconv.ParseUint(rest, 10, 8); err == nil {
				return E(n), nil
			}
		}
	}
	return 0, fmt.Errorf("unknown %s %q", strings.ToLower(typ), s)
}

func parseEvent(s string) (service.Event, error) { return parseEnum(s, "Event", service.ParseEvent) }
func parseOutcome(s string) (service.Outcome, error) {
	return parseEnum(s, "Outcome", service.ParseOutcome)
}
func parseState(s string) (service.State, error) { return parseEnum(s, "State", service.ParseState) }
func parseKind(s string) (tool.Kind, error)      { return parseEnum(s, "Kind", noErr(tool.ParseKind)) }
func parseCode(s string) (tool.Code, error)      { return parseEnum(s, "Code", noErr(tool.ParseCode)) }

// noErr turns a parser that returns an error into one that reports ok.
func noErr[E any](parse func(string) (E, error)) func(string) (E, bool) {
	return func(s string) (E, bool) {
		e, err := parse(s)
		return e, err == nil
	}
}

// keyed reports whether rec takes the key of its call ID: a call or a
// proposal with a call ID, as the memory store indexes them.
func keyed(rec *service.Record) bool {
	return rec.CallID != "" && (rec.Event == service.EventCall || rec.Event == service.EventProposal)
}

// The columns of the two tables, in the order scanRecord and
// scanProposal read them.
const (
	recordColumns   = "id, time_ns, principal, conversation, turn, call_id, agent, tool, kind, event, outcome, code, duration_ns, error, args, args_digest, proposal, result, structured"
	proposalColumns = "id, principal, conversation, turn, call_id, tool, args, digest, summary, created_ns, expires_ns, state, decided_by, decided_ns"
)

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanRecord reads a row of recordColumns.
func scanRecord(row scanner, r *service.Record) error {
	var t, d int64
	var kind, event, outcome, code string
	if err := row.Scan(&r.ID, &t, textInto{&r.Principal}, textInto{&r.Conversation}, textInto{&r.Turn}, textInto{&r.CallID},
		textInto{&r.Agent}, textInto{&r.Tool}, &kind, &event, &outcome, &code, &d, textInto{&r.Error}, &r.Args, textInto{&r.ArgsDigest},
		textInto{&r.Proposal}, &r.Result, &r.Structured); err != nil {
		return err
	}
	r.Time, r.Duration = fromNanos(t), time.Duration(d)
	var err [4]error
	r.Kind, err[0] = parseKind(kind)
	r.Event, err[1] = parseEvent(event)
	r.Outcome, err[2] = parseOutcome(outcome)
	r.Code, err[3] = parseCode(code)
	for _, e := range err {
		if e != nil {
			return fmt.Errorf("record %d: %w", r.ID, e)
		}
	}
	return nil
}

// recordValues returns rec's values for the insert's columns: those of
// recordColumns but the ID, then keyed; text in its stored form.
func recordValues(rec *service.Record, key bool) []any {
	return []any{nanos(rec.Time), text(rec.Principal), text(rec.Conversation), text(rec.Turn), text(rec.CallID), text(rec.Agent),
		text(rec.Tool), enumName(rec.Kind), enumName(rec.Event), enumName(rec.Outcome), enumName(rec.Code), int64(rec.Duration),
		text(rec.Error), rec.Args, text(rec.ArgsDigest), text(rec.Proposal), rec.Result, rec.Structured, key}
}

// scanProposal reads a row of proposalColumns.
func scanProposal(row scanner, p *service.Proposal) error {
	var created, expires, decided int64
	var state string
	if err := row.Scan(textInto{&p.ID}, textInto{&p.Principal}, textInto{&p.Conversation}, textInto{&p.Turn}, textInto{&p.CallID},
		textInto{&p.Tool}, &p.Args, textInto{&p.Digest}, textInto{&p.Summary}, &created, &expires, &state, textInto{&p.DecidedBy},
		&decided); err != nil {
		return err
	}
	p.Created, p.Expires, p.Decided = fromNanos(created), fromNanos(expires), fromNanos(decided)
	var err error
	if p.State, err = parseState(state); err != nil {
		return fmt.Errorf("proposal %s: %w", p.ID, err)
	}
	return nil
}

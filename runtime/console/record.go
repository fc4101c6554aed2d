package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// filter is what the record is filtered by: the query of the record page
// and of api/records.
type filter struct {
	// Principal selects one principal's records: always the person's own,
	// unless they hold the operator permission ("": everyone's).
	Principal string
	// Conversation and Tool select exact values.
	Conversation, Tool string
	// Event selects one kind of event; 0 selects all.
	Event service.Event
	// Since and Until bound the time: Since <= Time < Until.
	Since, Until time.Time
	// Before is the cursor of the page: records older than it.
	Before cursor
	// Limit is the page's size.
	Limit int
}

// cursor is a record's place in the record, newest first: its time, then
// its ID (records of one time are ordered by ID).
type cursor struct {
	Time time.Time
	ID   int64
}

// String encodes the cursor as UNIXNANO.ID.
func (c cursor) String() string {
	if c.Time.IsZero() {
		return ""
	}
	return strconv.FormatInt(c.Time.UnixNano(), 10) + "." + strconv.FormatInt(c.ID, 10)
}

// parseCursor decodes a cursor of String.
func parseCursor(s string) (cursor, bool) {
	t, id, ok := strings.Cut(s, ".")
	if !ok {
		return cursor{}, false
	}
	ns, err1 := strconv.ParseInt(t, 10, 64)
	n, err2 := strconv.ParseInt(id, 10, 64)
	if err1 != nil || err2 != nil || n < 0 {
		return cursor{}, false
	}
	return cursor{Time: time.Unix(0, ns).UTC(), ID: n}, true
}

// maxFilterLen bounds a filter's text.
const maxFilterLen = 256

// timeLayouts are the forms a filter's time may take, in UTC unless it
// says otherwise: an HTML datetime-local field's, and RFC 3339.
var timeLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", time.RFC3339Nano}

// parseFilter reads a filter from q for who; the message of its error
// names the parameter, never its value.
func (c *Console) parseFilter(q url.Values, who tool.Principal) (filter, error) {
	f := filter{Principal: who.ID, Conversation: q.Get("conversation"), Tool: q.Get("tool"), Limit: c.pageSize}
	if c.isOperator(who) {
		f.Principal = q.Get("principal")
	}
	for name, v := range map[string]string{"principal": f.Principal, "conversation": f.Conversation, "tool": f.Tool} {
		if len(v) > maxFilterLen {
			return f, errors.New(name + ": longer than " + strconv.Itoa(maxFilterLen) + " bytes")
		}
	}
	if e := q.Get("event"); e != "" {
		ev, ok := service.ParseEvent(e)
		if !ok {
			return f, errors.New("event: not one of " + strings.Join(eventNames(), ", "))
		}
		f.Event = ev
	}
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{"since", &f.Since}, {"until", &f.Until}} {
		v := q.Get(p.name)
		if v == "" {
			continue
		}
		ok := false
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, v); err == nil {
				*p.t, ok = t.UTC(), true
				break
			}
		}
		if !ok {
			return f, errors.New(p.name + ": not a time (2006-01-02T15:04 in UTC, or RFC 3339)")
		}
	}
	if v := q.Get("before"); v != "" {
		cur, ok := parseCursor(v)
		if !ok {
			return f, errors.New("before: not a cursor of this record")
		}
		f.Before = cur
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPageSize {
			return f, errors.New("limit: not a number from 1 to " + strconv.Itoa(MaxPageSize))
		}
		f.Limit = n
	}
	return f, nil
}

// eventNames are the events' names, for a filter.
func eventNames() []string {
	var names []string
	for e := service.EventCall; ; e++ {
		s := e.String()
		if strings.HasPrefix(s, "Event(") {
			return names
		}
		names = append(names, s)
	}
}

// records returns the newest f.Limit records f selects, newest first, and
// the cursor of the next (older) page, zero when there is none: one
// newest-first keyset page of the store (service.Query's Newest and
// Before), which reads only the page's rows, however long the record.
func (c *Console) records(ctx context.Context, f filter) ([]service.Record, cursor, error) {
	q := service.Query{
		Principal: f.Principal, Conversation: f.Conversation, Tool: f.Tool, Event: f.Event, Since: f.Since, Until: f.Until,
		Before: service.Position{Time: f.Before.Time, ID: f.Before.ID}, Newest: true,
		Limit: f.Limit + 1, // one more tells whether there is a next page
	}
	recs, err := c.svc.Records(ctx, q)
	if err != nil {
		return nil, cursor{}, err
	}
	var next cursor
	if len(recs) > f.Limit {
		recs = recs[:f.Limit]
		r := &recs[len(recs)-1]
		next = cursor{Time: r.Time, ID: r.ID}
	}
	return recs, next, nil
}

// recordData is the record page's.
type recordData struct {
	Filter   filter
	Operator bool
	Records  []service.Record
	// Next is the URL of the next (older) page; "" when there is none.
	Next string
	// Events are the events' names, for the filter.
	Events []string
	// Tools are the tools the person is offered, for the filter.
	Tools []string
	// Err says what is wrong with the filter.
	Err string
	// Form holds the filter's fields as they were sent.
	Form url.Values
}

// recordPage serves the person's record.
func (c *Console) recordPage(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	ctx := as(r.Context(), who)
	d := &recordData{Operator: c.isOperator(who), Events: eventNames(), Form: r.URL.Query()}
	for _, spec := range c.svc.Offer(ctx) {
		d.Tools = append(d.Tools, spec.Name)
	}
	f, err := c.parseFilter(r.URL.Query(), who)
	d.Filter = f
	if err != nil {
		d.Err = err.Error()
		c.render(w, r, http.StatusBadRequest, "record", who, d)
		return
	}
	recs, next, err := c.records(ctx, f)
	if err != nil {
		c.failed(w, r, "read the record", err)
		return
	}
	d.Records = recs
	if !next.Time.IsZero() {
		q := r.URL.Query()
		q.Set("before", next.String())
		d.Next = base(r) + "record?" + q.Encode()
	}
	c.render(w, r, http.StatusOK, "record", who, d)
}

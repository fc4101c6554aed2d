package console_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
)

// recordPage is an answer of api/records.
type recordPage struct {
	Records []struct {
		ID           int64     `json:"id"`
		Time         time.Time `json:"time"`
		Principal    string    `json:"principal"`
		Conversation string    `json:"conversation"`
		Tool         string    `json:"tool"`
		Event        string    `json:"event"`
	} `json:"records"`
	Next string `json:"next"`
}

// allPages reads every page of api/records with the query q, and returns
// the IDs in the order read.
func allPages(t *testing.T, e *env, token string, q url.Values) []int64 {
	t.Helper()
	var ids []int64
	for range 100 {
		r := e.get(t, "api/records?"+q.Encode(), token)
		require.Equal(t, http.StatusOK, r.status, r.body)
		var p recordPage
		require.NoError(t, json.Unmarshal([]byte(r.body), &p))
		for _, rec := range p.Records {
			ids = append(ids, rec.ID)
		}
		if p.Next == "" {
			return ids
		}
		q.Set("before", p.Next)
	}
	t.Fatal("the pages never end")
	return nil
}

// wantIDs returns the IDs of the records q selects that keep says to,
// newest first.
func wantIDs(t *testing.T, e *env, q service.Query, keep func(*service.Record) bool) []int64 {
	t.Helper()
	q.Limit = 1 << 20
	recs, err := e.svc.Records(t.Context(), q)
	require.NoError(t, err)
	var ids []int64
	for i := range recs {
		if keep == nil || keep(&recs[i]) {
			ids = append(ids, recs[i].ID)
		}
	}
	slices.Reverse(ids)
	return ids
}

// TestRecordPages checks that the record's pages, newest first, hold
// every record the filter selects once, in order, over hours and days
// and records of one instant, and only the person's own unless they are
// an operator.
func TestRecordPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	start := e.clock.now()
	for i := range 150 {
		switch {
		case i%40 == 39:
			e.clock.add(72 * time.Hour)
		case i%5 != 0:
			e.clock.add(7 * time.Minute)
		} // else: the same instant as the last
		who, name := ana, "files_list"
		if i%4 == 0 {
			who = ben
		}
		if i%3 == 0 && who.ID == "ana" {
			name = "files_touch"
		}
		_, err := e.svc.Call(as(who, "c-"+strconv.Itoa(i%3)), name, []byte(`{"path":"/f"}`))
		require.NoError(t, err)
	}
	_, err := e.svc.Call(as(ben, "c-0"), "files_touch", []byte(`{}`)) // a refusal: ben may not
	require.Error(t, err)
	mid := start.Add(100 * time.Hour)

	tests := []struct {
		name  string
		token string
		q     url.Values
		want  service.Query
		keep  func(*service.Record) bool
	}{
		{"ana's", anaToken, url.Values{}, service.Query{Principal: "ana"}, nil},
		{"ana cannot ask for ben's", anaToken, url.Values{"principal": {"ben"}}, service.Query{Principal: "ana"}, nil},
		{"a conversation", anaToken, url.Values{"conversation": {"c-1"}}, service.Query{Principal: "ana", Conversation: "c-1"}, nil},
		{"a tool", anaToken, url.Values{"tool": {"files_touch"}}, service.Query{Principal: "ana", Tool: "files_touch"}, nil},
		{"since", anaToken, url.Values{"since": {mid.Format("2006-01-02T15:04")}}, service.Query{Principal: "ana", Since: mid}, nil},
		{"until", anaToken, url.Values{"until": {mid.Format(time.RFC3339)}}, service.Query{Principal: "ana", Until: mid}, nil},
		{"an event", benToken, url.Values{"event": {"refusal"}}, service.Query{Principal: "ben"},
			func(r *service.Record) bool { return r.Event == service.EventRefusal }},
		{"an operator sees everyone's", olgaToken, url.Values{}, service.Query{}, nil},
		{"an operator filters by principal", olgaToken, url.Values{"principal": {"ben"}}, service.Query{Principal: "ben"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := wantIDs(t, e, tt.want, tt.keep)
			require.NotEmpty(t, want)
			for _, limit := range []string{"7", "50", "500"} {
				q := url.Values{"limit": {limit}}
				for k, v := range tt.q {
					q[k] = v
				}
				assert.Equal(t, want, allPages(t, e, tt.token, q), "limit %s", limit)
			}
		})
	}
}

func TestRecordPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *console.Options) { o.PageSize = 2 })
	for range 3 {
		e.clock.add(time.Second)
		_, err := e.svc.Call(as(ana, "chat-9"), "files_list", []byte(`{}`))
		require.NoError(t, err)
	}
	r := e.get(t, "record", anaToken)
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, 2, countRows(r.body))
	assert.Contains(t, r.body, `<a id="older" href="/console/record?before=`)
	older := olderRE.FindStringSubmatch(r.body)
	require.NotNil(t, older)
	r = e.get(t, "record?"+htmlUnescape(older[1]), anaToken)
	assert.Equal(t, 1, countRows(r.body))
	assert.NotContains(t, r.body, `id="older"`)
	assert.NotContains(t, r.body, `<th>Who</th>`, "ana sees her own: no column of who")
	assert.Contains(t, e.get(t, "record", olgaToken).body, `<th>Who</th>`)

	for _, q := range []string{"event=nope", "since=yesterday", "before=x", "limit=0", "limit=501"} {
		r := e.get(t, "record?"+q, anaToken)
		assert.Equal(t, http.StatusBadRequest, r.status, q)
		assert.Contains(t, r.body, `<p class="problem" role="alert">`, q)
		assert.NotContains(t, r.body, "yesterday<", "the value is not echoed in the message")
		r = e.get(t, "api/records?"+q, anaToken)
		assert.Equal(t, http.StatusBadRequest, r.status, q)
	}
}

// rowRE finds the record's rows; olderRE the link to the next page.
var (
	rowRE   = regexp.MustCompile(`<tr class="event-`)
	olderRE = regexp.MustCompile(`<a id="older" href="/console/record\?([^"]+)"`)
)

// countRows counts the rows of a record page.
func countRows(page string) int { return len(rowRE.FindAllString(page, -1)) }

// htmlUnescape undoes the escaping of a URL in an attribute.
func htmlUnescape(s string) string { return html.UnescapeString(s) }

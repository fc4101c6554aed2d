package sqlstore

import (
	"math"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestBind(t *testing.T) {
	q := "SELECT a FROM t WHERE b = ? AND c IN (?, ?)"
	assert.Equal(t, q, SQLite.bind(q))
	assert.Equal(t, "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)", Postgres.bind(q))
}

func TestMigrationsNumberedInOrder(t *testing.T) {
	for _, d := range []*Dialect{SQLite, Postgres} {
		for i, m := range d.Migrations() {
			assert.Equal(t, i+1, m.Version, "%s: versions count from 1 without gaps", d.Name())
			assert.NotEmpty(t, m.Statements)
		}
	}
	assert.Equal(t, len(SQLite.Migrations()), len(Postgres.Migrations()), "the dialects' schemas move together")
}

func TestTimes(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 123456789, time.FixedZone("x", 3600))
	for _, tm := range []time.Time{now, time.Unix(0, 0), time.Unix(0, -1)} {
		assert.True(t, tm.Equal(fromNanos(nanos(tm))), "%v round-trips", tm)
	}
	assert.Equal(t, time.UTC, fromNanos(nanos(now)).Location(), "read back in UTC")
	assert.True(t, fromNanos(nanos(time.Time{})).IsZero())
	assert.Equal(t, int64(math.MinInt64), nanos(time.Time{}))
	assert.Less(t, nanos(time.Time{}), nanos(time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)), "the zero time sorts first")
	assert.Equal(t, int64(math.MaxInt64), nanos(time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)), "clamped")
}

func TestEnums(t *testing.T) {
	for _, e := range []service.Event{0, service.EventCall, service.EventReplay, 99} {
		got, err := parseEvent(enumName(e))
		assert.NoError(t, err)
		assert.Equal(t, e, got)
	}
	for _, c := range []tool.Code{0, tool.CodeRefused, tool.CodeNotProposal, 200} {
		got, err := parseCode(enumName(c))
		assert.NoError(t, err)
		assert.Equal(t, c, got)
	}
	assert.Equal(t, "running", enumName(service.StateRunning))
	_, err := parseOutcome("bogus")
	assert.Error(t, err)
	_, err = parseKind("Kind(300)")
	assert.Error(t, err, "out of range")
}

func TestSchemaInEachDialectsWords(t *testing.T) {
	for _, d := range []*Dialect{SQLite, Postgres} {
		for _, m := range d.Migrations() {
			for _, stmt := range m.Statements {
				assert.NotContains(t, stmt, "{", "%s: every placeholder replaced", d.Name())
			}
		}
	}
	assert.Contains(t, SQLite.Migrations()[0].Statements[0], ") STRICT")
	assert.Contains(t, Postgres.Migrations()[0].Statements[0], "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,")
	assert.Contains(t, Postgres.Migrations()[0].Statements[0], "args BYTEA,")
}

func TestStoredForm(t *testing.T) {
	t.Parallel()
	for _, plain := range []string{"", "alice", "é ü 日本", "tab\tand\nnewline", "\u2028\ufffd", `back\slash "quoted" 100%`} {
		assert.Equal(t, plain, storedForm(plain), "valid UTF-8 without NUL or ESC is stored as it is")
	}
	for _, c := range []struct{ in, stored string }{
		{"\x00", "\x1b00"},
		{"\x1b", "\x1b1b"},
		{"a\xffb", "a\x1bffb"},
		{"\xed\xa0\x80", "\x1bed\x1ba0\x1b80"},
		{"é\xc3", "é\x1bc3"},
	} {
		assert.Equal(t, c.stored, storedForm(c.in), "%q", c.in)
	}
	// Every string of up to two bytes, and some longer: the form is
	// valid UTF-8 without NUL, reads back, and is one to one.
	seen := map[string]string{}
	check := func(s string) {
		f := storedForm(s)
		assert.True(t, utf8.ValidString(f), "%q", s)
		assert.NotContains(t, f, "\x00", "%q", s)
		assert.Equal(t, s, fromStoredForm(f), "%q", s)
		if other, ok := seen[f]; ok {
			t.Errorf("%q and %q have one stored form", s, other)
		}
		seen[f] = s
	}
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	check("")
	check("\x1b1b\x1b")
	check("\x1bzz")
	// An ESC that starts no escape (a row written before the form) reads
	// as itself.
	for _, s := range []string{"\x1b", "a\x1b", "\x1bz", "\x1b0", "\x1bAB"} {
		assert.Equal(t, s, fromStoredForm(s), "%q", s)
	}
}

package clock

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func fixed(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestNowTool(t *testing.T) {
	t.Parallel()
	instant := time.Date(2025, time.March, 30, 0, 30, 0, 0, time.UTC) // a Sunday
	lisbon, err := time.LoadLocation("Europe/Lisbon")
	require.NoError(t, err)
	tests := []struct {
		name string
		tool NowTool
		want Now
	}{
		{
			name: "UTC by default",
			tool: NowTool{Clock: fixed(instant)},
			want: Now{
				Time: instant, Unix: instant.Unix(), Location: "UTC", Zone: "UTC", Offset: 0,
				Weekday: "Sunday", ISOWeek: 13, YearDay: 89,
			},
		},
		{
			name: "a zone west of UTC on another day",
			tool: NowTool{Clock: fixed(instant), Location: time.FixedZone("UTC-5", -5*3600)},
			want: Now{
				Time: instant.In(time.FixedZone("UTC-5", -5*3600)), Unix: instant.Unix(), Location: "UTC-5", Zone: "UTC-5",
				Offset: -5 * 3600, Weekday: "Saturday", ISOWeek: 13, YearDay: 88,
			},
		},
		{
			name: "an IANA zone on the first day of summer time",
			tool: NowTool{Clock: fixed(instant.Add(2 * time.Hour)), Location: lisbon},
			want: Now{
				Time: instant.Add(2 * time.Hour).In(lisbon), Unix: instant.Unix() + 7200, Location: "Europe/Lisbon", Zone: "WEST",
				Offset: 3600, Weekday: "Sunday", ISOWeek: 13, YearDay: 89,
			},
		},
		{
			name: "ISO week of early January belongs to the previous year",
			tool: NowTool{Clock: fixed(time.Date(2027, time.January, 1, 12, 0, 0, 0, time.UTC))},
			want: Now{
				Time: time.Date(2027, time.January, 1, 12, 0, 0, 0, time.UTC), Unix: 1798804800, Location: "UTC", Zone: "UTC",
				Weekday: "Friday", ISOWeek: 53, YearDay: 1,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.tool.Call(context.Background())
			require.NoError(t, err)
			assert.True(t, tt.want.Time.Equal(got.Time))
			assert.Equal(t, tt.want.Time.Location().String(), got.Time.Location().String())
			got.Time, tt.want.Time = time.Time{}, time.Time{}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNowToolRealClock(t *testing.T) {
	t.Parallel()
	got, err := NowTool{}.Call(context.Background())
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), got.Time, time.Hour)
	assert.Equal(t, "UTC", got.Location)
}

func TestZonesTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		tool   ZonesTool
		prefix string
		want   []string
		check  func(t *testing.T, got []string)
	}{
		{name: "prefix", prefix: "Europe/L", want: []string{"Europe/Lisbon", "Europe/London"}},
		{name: "prefix in any case", prefix: "asia/s", want: []string{"Asia/Seoul", "Asia/Shanghai", "Asia/Singapore"}},
		{name: "no match is an empty list", prefix: "Mars/", want: []string{}},
		{
			name: "everything, sorted",
			check: func(t *testing.T, got []string) {
				assert.Len(t, got, len(commonZones()))
				assert.IsNonDecreasing(t, got)
				assert.Contains(t, got, "UTC")
			},
		},
		{
			name: "configured zones, sorted without duplicates",
			tool: ZonesTool{Zones: []string{"Europe/Paris", "Etc/UTC", "Europe/Paris"}},
			want: []string{"Etc/UTC", "Europe/Paris"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.tool.Call(context.Background(), ZonesInput{Prefix: tt.prefix})
			require.NoError(t, err)
			if tt.check != nil {
				tt.check(t, got)
				return
			}
			assert.Equal(t, tt.want, got)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			assert.NotEqual(t, "null", string(b))
		})
	}
}

// TestCommonZonesLoad checks that the built-in list holds only real IANA
// names.
func TestCommonZonesLoad(t *testing.T) {
	t.Parallel()
	for _, z := range commonZones() {
		_, err := time.LoadLocation(z) // time/tzdata makes this independent of the machine
		assert.NoError(t, err, z)
	}
}

// steps returns a clock that returns the given times, one per call.
func steps(times ...time.Time) func() time.Time {
	i := 0
	return func() time.Time {
		t := times[min(i, len(times)-1)]
		i++
		return t
	}
}

func TestSyncTool(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, time.April, 1, 12, 0, 0, 0, time.UTC)
	down := errors.New("dial udp: i/o timeout")
	tests := []struct {
		name      string
		tool      SyncTool
		want      Sync
		wantModel string
	}{
		{
			name: "ahead by 3s",
			tool: SyncTool{
				Clock:     steps(t0, t0.Add(200*time.Millisecond)),
				Reference: func(context.Context) (time.Time, error) { return t0.Add(3100 * time.Millisecond), nil },
			},
			want: Sync{
				Local: t0.Add(100 * time.Millisecond), Reference: t0.Add(3100 * time.Millisecond),
				Offset: 3 * time.Second, RoundTrip: 200 * time.Millisecond, InSync: false,
			},
		},
		{
			name: "behind within tolerance",
			tool: SyncTool{
				Clock:     steps(t0, t0),
				Reference: func(context.Context) (time.Time, error) { return t0.Add(-400 * time.Millisecond), nil },
				Tolerance: 500 * time.Millisecond,
			},
			want: Sync{Local: t0, Reference: t0.Add(-400 * time.Millisecond), Offset: -400 * time.Millisecond, InSync: true},
		},
		{
			name: "reference down",
			tool: SyncTool{
				Clock:     steps(t0),
				Reference: func(context.Context) (time.Time, error) { return time.Time{}, down },
			},
			wantModel: "the reference clock did not answer",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, tt.tool.Available())
			got, err := tt.tool.Call(context.Background())
			if tt.wantModel != "" {
				var me *tool.ModelError
				require.ErrorAs(t, err, &me)
				assert.Contains(t, me.Message, tt.wantModel)
				assert.NotContains(t, me.Message, down.Error(), "the network error stays in the logs")
				assert.ErrorIs(t, err, down)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSyncToolAvailable(t *testing.T) {
	t.Parallel()
	assert.EqualError(t, SyncTool{}.Available(), "clock_sync: no reference clock configured")
}

func TestSyncToolPassesContext(t *testing.T) {
	t.Parallel()
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "request-7")
	var seen any
	_, err := SyncTool{Reference: func(ctx context.Context) (time.Time, error) {
		seen = ctx.Value(key{})
		return time.Now(), nil
	}}.Call(ctx)
	require.NoError(t, err)
	assert.Equal(t, "request-7", seen)
}

package weather

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

var april = time.Date(2025, time.April, 1, 15, 42, 0, 0, time.UTC)

func configured() ForecastTool {
	return ForecastTool{APIKey: "test-key", Clock: func() time.Time { return april }}
}

func TestForecastToolAvailable(t *testing.T) {
	t.Parallel()
	assert.EqualError(t, ForecastTool{}.Available(), "weather_forecast: no API key configured")
	assert.NoError(t, configured().Available())
}

func TestForecastTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		in         ForecastInput
		wantPlace  string
		wantCoords [2]float64
		wantDays   int
		wantUnits  string
		wantErr    string // a model error containing this
	}{
		{name: "city with defaults", in: ForecastInput{Place: Place{Name: "Lisbon"}}, wantPlace: "Lisbon", wantCoords: [2]float64{38.72, -9.14}, wantDays: 3, wantUnits: "metric"},
		{name: "city in another case and spacing", in: ForecastInput{Place: Place{Name: "  new   YORK "}, Days: 7}, wantPlace: "New York", wantCoords: [2]float64{40.71, -74.01}, wantDays: 7, wantUnits: "metric"},
		{name: "coordinates", in: ForecastInput{Place: Place{Lat: -1.5, Lon: 30}, Days: 1, Units: "imperial"}, wantPlace: "-1.50, 30.00", wantCoords: [2]float64{-1.5, 30}, wantDays: 1, wantUnits: "imperial"},
		{name: "unknown city", in: ForecastInput{Place: Place{Name: "Atlantis"}}, wantErr: "unknown city"},
		{name: "too many days", in: ForecastInput{Place: Place{Name: "Paris"}, Days: 8}, wantErr: "days is from 1 to 7"},
		{name: "negative days", in: ForecastInput{Place: Place{Name: "Paris"}, Days: -1}, wantErr: "days is from 1 to 7"},
		{name: "unknown units", in: ForecastInput{Place: Place{Name: "Paris"}, Units: "kelvin"}, wantErr: `units is "metric" or "imperial"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := configured().Call(context.Background(), tt.in)
			if tt.wantErr != "" {
				var me *tool.ModelError
				require.ErrorAs(t, err, &me)
				assert.Contains(t, me.Message, tt.wantErr)
				assert.NotContains(t, me.Message, "Atlantis", "the message does not echo the argument")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantPlace, got.Place.Name)
			assert.Equal(t, tt.wantCoords, got.Place.Coordinates)
			assert.Equal(t, tt.wantUnits, got.Units)
			assert.Equal(t, time.Date(2025, time.April, 1, 15, 0, 0, 0, time.UTC), got.Issued)
			require.Len(t, got.Days, tt.wantDays)
			for i, d := range got.Days {
				assert.Equal(t, april.AddDate(0, 0, i).Format(time.DateOnly), d.Date)
				assert.LessOrEqual(t, d.Low, d.High, d.Date)
				assert.LessOrEqual(t, d.RainChance, uint8(100))
				assert.NotEmpty(t, d.Summary)
				assert.Positive(t, d.Wind)
				assert.Equal(t, d.RainChance > 40, d.Rain > 0, "rain only when likely, %s", d.Date)
			}
			again, err := configured().Call(context.Background(), tt.in)
			require.NoError(t, err)
			assert.Equal(t, got, again, "canned data is the same for the same arguments and day")
		})
	}
}

func TestForecastToolUnits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	metric, err := configured().Call(ctx, ForecastInput{Place: Place{Name: "Sydney"}, Days: 7})
	require.NoError(t, err)
	imperial, err := configured().Call(ctx, ForecastInput{Place: Place{Name: "Sydney"}, Days: 7, Units: "imperial"})
	require.NoError(t, err)
	for i, m := range metric.Days {
		f := imperial.Days[i]
		assert.InDelta(t, m.High*9/5+32, f.High, 0.06, m.Date)
		assert.InDelta(t, m.Low*9/5+32, f.Low, 0.06, m.Date)
		assert.InDelta(t, float64(m.Wind)/1.609344, float64(f.Wind), 0.06, m.Date)
		assert.InDelta(t, float64(m.Rain)/25.4, float64(f.Rain), 0.006, m.Date)
		assert.Equal(t, m.RainChance, f.RainChance)
		assert.Equal(t, m.Summary, f.Summary)
	}
}

func TestForecastToolSeasons(t *testing.T) {
	t.Parallel()
	at := func(month time.Month) ForecastTool {
		return ForecastTool{APIKey: "k", Clock: func() time.Time { return time.Date(2025, month, 15, 12, 0, 0, 0, time.UTC) }}
	}
	mean := func(f *Forecast) float64 {
		var sum float64
		for _, d := range f.Days {
			sum += (d.High + d.Low) / 2
		}
		return sum / float64(len(f.Days))
	}
	ctx := context.Background()
	for _, tt := range []struct {
		city            string
		warmerInJanuary bool
	}{{"Berlin", false}, {"Sydney", true}} {
		jan, err := at(time.January).Call(ctx, ForecastInput{Place: Place{Name: tt.city}, Days: 7})
		require.NoError(t, err)
		jul, err := at(time.July).Call(ctx, ForecastInput{Place: Place{Name: tt.city}, Days: 7})
		require.NoError(t, err)
		assert.Equal(t, tt.warmerInJanuary, mean(jan) > mean(jul), tt.city)
	}
}

func TestForecastToolCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := configured().Call(ctx, ForecastInput{Place: Place{Name: "Paris"}})
	require.ErrorIs(t, err, context.Canceled)
	var me *tool.ModelError
	assert.False(t, errors.As(err, &me))
}

func TestPlaceJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		json    string
		want    Place
		wantErr string
	}{
		{name: "name", json: `"Lisbon"`, want: Place{Name: "Lisbon"}},
		{name: "name is trimmed", json: `"  Tokyo "`, want: Place{Name: "Tokyo"}},
		{name: "coordinates", json: `{"lat": 38.72, "lon": -9.14}`, want: Place{Lat: 38.72, Lon: -9.14}},
		{name: "coordinates at the limits", json: ` {"lon":180,"lat":-90} `, want: Place{Lat: -90, Lon: 180}},
		{name: "blank name", json: `"   "`, wantErr: "a city name has 1 to 100 characters"},
		{name: "long name", json: `"` + strings.Repeat("x", 101) + `"`, wantErr: "a city name has 1 to 100 characters"},
		{name: "missing lon", json: `{"lat": 1}`, wantErr: "a place is a city name"},
		{name: "unknown member", json: `{"lat": 1, "lon": 2, "alt": 3}`, wantErr: "a place is a city name"},
		{name: "coordinates as strings", json: `{"lat": "1", "lon": "2"}`, wantErr: "a place is a city name"},
		{name: "latitude out of range", json: `{"lat": 91, "lon": 0}`, wantErr: "lat is from -90 to 90"},
		{name: "longitude out of range", json: `{"lat": 0, "lon": -180.5}`, wantErr: "lon from -180 to 180"},
		{name: "number", json: `42`, wantErr: "a place is a city name"},
		{name: "array", json: `[38.72, -9.14]`, wantErr: "a place is a city name"},
		{name: "null", json: `null`, wantErr: "a place is a city name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p Place
			err := p.UnmarshalJSON([]byte(tt.json))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), "alt", "errors do not echo the input")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p)
			b, err := json.Marshal(p)
			require.NoError(t, err)
			var back Place
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, p, back, "round trip through %s", b)
		})
	}
}

// FuzzPlace checks that UnmarshalJSON never panics, that what it accepts
// is in range and survives a round trip, and that its errors never repeat
// the input.
func FuzzPlace(f *testing.F) {
	for _, s := range []string{`"Lisbon"`, `{"lat":1,"lon":2}`, `null`, `[1,2]`, `{"lat":1e999,"lon":0}`, `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Place
		if err := p.UnmarshalJSON(data); err != nil {
			if len(data) >= 8 {
				assert.NotContains(t, err.Error(), string(data))
			}
			return
		}
		if p.Name == "" {
			assert.True(t, p.Lat >= -90 && p.Lat <= 90 && p.Lon >= -180 && p.Lon <= 180, "%+v", p)
		}
		b, err := json.Marshal(p)
		require.NoError(t, err)
		var back Place
		require.NoError(t, back.UnmarshalJSON(b))
		assert.Equal(t, p, back)
	})
}

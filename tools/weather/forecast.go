package weather

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Gives the daily weather forecast for a city or a point on Earth, today
// and up to six days ahead: the sky, high and low temperatures, rain and
// wind.
//
//tool:name weather_forecast
//tool:readonly
//tool:openworld
//tool:title Weather forecast
//tool:verb Checking the forecast
//tool:timeout 10s
//tool:meta provider example-weather
type ForecastTool struct {
	// APIKey authenticates with the weather service. Without one the tool
	// is not offered. (This sample only checks that it is set.)
	APIKey string
	Clock  func() time.Time // today's date; nil means time.Now
}

// ForecastInput holds the arguments of weather_forecast.
type ForecastInput struct {
	// Where: a city's name in English, or coordinates.
	Place Place `json:"place"`
	// Number of days, today included; 3 when omitted.
	Days int `json:"days,omitempty" jsonschema:"minimum=1,maximum=7,default=3"`
	// metric (°C, mm, km/h; the default) or imperial (°F, inches, mph).
	Units string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,default=metric"`
}

// Forecast is the result of weather_forecast.
type Forecast struct {
	// The place the forecast is for.
	Place struct {
		Name        string     `json:"name" jsonschema:"description=The city's name; for a point its coordinates"`
		Coordinates [2]float64 `json:"coordinates" jsonschema:"description=Latitude and longitude in degrees"`
	} `json:"place"`
	// The units of the numbers in days: metric or imperial.
	Units string `json:"units"`
	// One entry per day, starting today.
	Days []Day `json:"days"`
	// When the forecast was issued.
	Issued time.Time `json:"issued"`
}

// Day is the forecast for one day.
type Day struct {
	// The date, YYYY-MM-DD.
	Date string `json:"date"`
	// The sky in a few words.
	Summary string `json:"summary"`
	// Highest temperature, °C or °F.
	High float64 `json:"high"`
	// Lowest temperature, °C or °F.
	Low float64 `json:"low"`
	// Chance of rain, in percent.
	RainChance uint8 `json:"rain_chance"`
	// Expected rain, in mm or inches.
	Rain float32 `json:"rain"`
	// Wind speed, in km/h or mph.
	Wind float32 `json:"wind"`
}

// Available reports the tool unusable without an API key.
func (t ForecastTool) Available() error {
	if t.APIKey == "" {
		return errors.New("weather_forecast: no API key configured")
	}
	return nil
}

// Call returns the forecast.
func (t ForecastTool) Call(ctx context.Context, in ForecastInput) (*Forecast, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("weather_forecast: %w", err)
	}
	var out Forecast
	lat, lon := in.Place.Lat, in.Place.Lon
	out.Place.Name = fmt.Sprintf("%.2f, %.2f", lat, lon)
	if in.Place.Name != "" {
		c, ok := city(in.Place.Name)
		if !ok {
			return nil, tool.Errorf(`unknown city: give a major city's name in English, such as "Lisbon", or its coordinates`)
		}
		out.Place.Name, lat, lon = c.name, c.lat, c.lon
	}
	out.Place.Coordinates = [2]float64{lat, lon}

	days := in.Days
	if days == 0 {
		days = 3
	}
	if days < 1 || days > 7 {
		return nil, tool.Errorf("days is from 1 to 7")
	}
	out.Units = in.Units
	switch out.Units {
	case "":
		out.Units = "metric"
	case "metric", "imperial":
	default:
		return nil, tool.Errorf(`units is "metric" or "imperial"`)
	}

	now := time.Now()
	if t.Clock != nil {
		now = t.Clock()
	}
	now = now.UTC()
	out.Issued = now.Truncate(time.Hour)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	out.Days = make([]Day, days)
	for i := range out.Days {
		d := cannedDay(lat, lon, today.AddDate(0, 0, i))
		if out.Units == "imperial" {
			d = d.imperial()
		}
		out.Days[i] = d
	}
	return &out, nil
}

// cannedDay makes up a plausible metric forecast from the latitude, the
// season and a hash of the place and date: warmer near the equator, a
// yearly swing opposite in the two hemispheres, and day-to-day noise.
func cannedDay(lat, lon float64, date time.Time) Day {
	h := fnv.New64a()
	fmt.Fprintf(h, "%.2f,%.2f,%s", lat, lon, date.Format(time.DateOnly))
	r := h.Sum64()

	summer := math.Cos(2 * math.Pi * float64(date.YearDay()-200) / 365.25) // 1 in mid July
	if lat < 0 {
		summer = -summer
	}
	mean := 27 - 0.4*math.Abs(lat) + 0.2*math.Abs(lat)*summer
	noise := float64(r%500)/100 - 2.5 // -2.5 to 2.5
	chance := uint8((r >> 16) % 101)
	d := Day{
		Date:       date.Format(time.DateOnly),
		High:       round1(mean + 5 + noise),
		Low:        round1(mean - 5 + noise/2),
		RainChance: chance,
		Wind:       float32(5 + (r>>32)%30),
	}
	if chance > 40 {
		d.Rain = float32(round1(float64(chance-40) / 4))
	}
	switch {
	case chance < 15:
		d.Summary = "sunny"
	case chance < 40:
		d.Summary = "partly cloudy"
	case chance < 70:
		d.Summary = "showers likely"
	default:
		d.Summary = "rain"
	}
	return d
}

// imperial converts a metric day to °F, inches and mph.
func (d Day) imperial() Day {
	d.High = round1(d.High*9/5 + 32)
	d.Low = round1(d.Low*9/5 + 32)
	d.Rain = float32(math.Round(float64(d.Rain)/25.4*100) / 100)
	d.Wind = float32(round1(float64(d.Wind) / 1.609344))
	return d
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// place is a city the canned service knows.
type place struct {
	name     string
	lat, lon float64
}

// city looks a city up by name, in any case.
func city(name string) (place, bool) {
	switch strings.ToLower(strings.Join(strings.Fields(name), " ")) {
	case "lisbon", "lisboa":
		return place{"Lisbon", 38.72, -9.14}, true
	case "london":
		return place{"London", 51.51, -0.13}, true
	case "paris":
		return place{"Paris", 48.86, 2.35}, true
	case "berlin":
		return place{"Berlin", 52.52, 13.40}, true
	case "new york", "new york city", "nyc":
		return place{"New York", 40.71, -74.01}, true
	case "são paulo", "sao paulo":
		return place{"São Paulo", -23.55, -46.63}, true
	case "nairobi":
		return place{"Nairobi", -1.29, 36.82}, true
	case "mumbai":
		return place{"Mumbai", 19.08, 72.88}, true
	case "tokyo":
		return place{"Tokyo", 35.68, 139.69}, true
	case "sydney":
		return place{"Sydney", -33.87, 151.21}, true
	}
	return place{}, false
}

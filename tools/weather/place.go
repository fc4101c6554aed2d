package weather

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Place is where a forecast is for: a city, or a point given by its
// coordinates. In JSON it is either a string ("Lisbon") or an object
// ({"lat": 38.72, "lon": -9.14}), through its MarshalJSON and
// UnmarshalJSON methods.
type Place struct {
	Name string  // a city name; empty when the place is a point
	Lat  float64 // latitude in degrees, north positive, when Name is empty
	Lon  float64 // longitude in degrees, east positive, when Name is empty
}

// maxPlaceName bounds a city name, in characters.
const maxPlaceName = 100

// errPlace is the error of UnmarshalJSON. Like every error here it says
// what is expected without repeating what was sent.
var errPlace = errors.New(`a place is a city name ("Lisbon") or coordinates ({"lat": 38.72, "lon": -9.14})`)

// coordinates is the JSON object form of a Place.
type coordinates struct {
	Lat *float64 `json:"lat"`
	Lon *float64 `json:"lon"`
}

// MarshalJSON writes the name as a JSON string, or the coordinates as an
// object.
func (p Place) MarshalJSON() ([]byte, error) {
	if p.Name != "" {
		return json.Marshal(p.Name)
	}
	return json.Marshal(coordinates{Lat: &p.Lat, Lon: &p.Lon})
}

// UnmarshalJSON reads a city name (a non-blank string of at most 100
// characters, trimmed) or an object with exactly the numbers "lat" (-90 to
// 90) and "lon" (-180 to 180). Unlike most Unmarshalers it refuses null: a
// forecast needs a place.
func (p *Place) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return errPlace
	}
	switch data[0] {
	case '"':
		var name string
		if err := json.Unmarshal(data, &name); err != nil {
			return errPlace
		}
		name = strings.TrimSpace(name)
		if name == "" || utf8.RuneCountInString(name) > maxPlaceName {
			return fmt.Errorf("a city name has 1 to %d characters", maxPlaceName)
		}
		*p = Place{Name: name}
	case '{':
		var c coordinates
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil || c.Lat == nil || c.Lon == nil {
			return errPlace
		}
		if *c.Lat < -90 || *c.Lat > 90 || *c.Lon < -180 || *c.Lon > 180 {
			return errors.New("lat is from -90 to 90 and lon from -180 to 180")
		}
		*p = Place{Lat: *c.Lat, Lon: *c.Lon}
	default:
		return errPlace
	}
	return nil
}

package clock

import (
	"context"
	"slices"
	"strings"
)

// Lists the time zones clock tools know, as IANA names such as
// "Europe/Lisbon", optionally only those whose name starts with a prefix.
//
//tool:name clock_zones
//tool:readonly
//tool:title Time zones
//tool:zerovalue
type ZonesTool struct {
	// Zones this deployment offers; nil means a built-in list of common
	// zones.
	Zones []string
}

// ZonesInput holds the arguments of clock_zones.
type ZonesInput struct {
	// Only zones whose name starts with this, such as "Europe/" or "America/New".
	Prefix string `json:"prefix,omitempty" jsonschema:"maxLength=64,example=Europe/"`
}

// Call lists the zones, sorted; the result is never null, at worst [].
func (t ZonesTool) Call(ctx context.Context, in ZonesInput) ([]string, error) {
	zones := t.Zones
	if zones == nil {
		zones = commonZones()
	}
	out := []string{}
	for _, z := range zones {
		if strings.HasPrefix(strings.ToLower(z), strings.ToLower(in.Prefix)) {
			out = append(out, z)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// commonZones returns a fresh list of widely used IANA time zones.
func commonZones() []string {
	return []string{
		"UTC",
		"Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Africa/Nairobi",
		"America/Chicago", "America/Denver", "America/Los_Angeles", "America/Mexico_City",
		"America/New_York", "America/Sao_Paulo", "America/Toronto",
		"Asia/Dubai", "Asia/Hong_Kong", "Asia/Kolkata", "Asia/Seoul", "Asia/Shanghai",
		"Asia/Singapore", "Asia/Tokyo",
		"Australia/Sydney",
		"Europe/Berlin", "Europe/Lisbon", "Europe/London", "Europe/Madrid", "Europe/Moscow",
		"Europe/Paris", "Europe/Rome",
		"Pacific/Auckland", "Pacific/Honolulu",
	}
}

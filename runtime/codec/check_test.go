package codec

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsDateTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		// Cases of the JSON Schema test suite (format "date-time").
		{"1963-06-19T08:30:06.283185Z", true},
		{"1963-06-19T08:30:06Z", true},
		{"1937-01-01T12:00:27.87+00:20", true},
		{"1990-12-31T15:59:50.123-08:00", true},
		{"1998-12-31T23:59:60Z", true},
		{"1998-12-31T15:59:60.123-08:00", true},
		{"1998-12-31T23:59:61Z", false},
		{"1998-12-31T23:58:60Z", false},
		{"1998-12-31T22:59:60Z", false},
		{"1990-02-31T15:59:59.123-08:00", false},
		{"1990-12-31T15:59:59-24:00", false},
		{"1963-06-19T08:30:06.28123+01:00Z", false},
		{"06/19/1963 08:30:06 PST", false},
		{"1963-06-19t08:30:06.283185z", true},
		{"2013-350T01:01:01", false},
		{"1963-6-19T08:30:06.283185Z", false},
		{"1963-06-1T08:30:06.283185Z", false},
		{"1963-06-1৪T00:00:00Z", false},
		{"1963-06-11T0৪:00:00Z", false},
		// More.
		{"2000-02-29T00:00:00Z", true},
		{"1900-02-29T00:00:00Z", false},
		{"2004-02-29T00:00:00Z", true},
		{"2001-02-29T00:00:00Z", false},
		{"2001-04-31T00:00:00Z", false},
		{"2001-00-10T00:00:00Z", false},
		{"2001-13-10T00:00:00Z", false},
		{"2001-01-00T00:00:00Z", false},
		{"2001-01-01T24:00:00Z", false},
		{"2001-01-01T23:60:00Z", false},
		{"2001-01-01T00:00:00+23:59", true},
		{"2001-01-01T00:00:00+00:60", false},
		{"2001-01-01T00:00:00+0100", false},
		{"2001-01-01T00:00:00.Z", false},
		{"2001-01-01T00:00:00", false},
		{"2001-01-01 00:00:00Z", false},
		{"2001-01-01T00:00:00ZZ", false},
		{"1998-12-31T23:59:60+00:00", true},
		{"1999-01-01T00:59:60+01:00", true},
		{"1999-01-01T00:59:60-01:00", false},
		{"", false},
		{"2001-01-01", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsDateTime(tt.in), tt.in)
	}
}

func TestMultipleOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v, m float64
		want bool
	}{
		{10, 2, true},
		{7, 2, false},
		{0, 3, true},
		{-9, 3, true},
		{4.5, 1.5, true},
		{35, 1.5, false},
		{0.0075, 0.0001, true},
		{0.00751, 0.0001, false},
		{0.3, 0.1, true},
		{0.7, 0.1, true},
		{1.1, 0.1, true},
		{19.99, 0.01, true},
		{19.995, 0.01, false},
		{123456789.12, 0.01, true},
		{123456789.125, 0.01, false},
		{1e-20, 1, false},
		{0.5, 1, false},
		{1e308, 1e-308, true},
		{1, 0, false},
		{1, -1, false},
		{1, math.NaN(), false},
		{1, math.Inf(1), false},
		{math.NaN(), 1, false},
		{math.Inf(1), 1, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, MultipleOf(tt.v, tt.m), "MultipleOf(%v, %v)", tt.v, tt.m)
	}
}

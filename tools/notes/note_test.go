package notes

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNoteIDValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id   NoteID
		want bool
	}{
		{"n1", true},
		{"n1234567890", true},
		{"", false},
		{"n", false},
		{"n0", false},
		{"n01", false},
		{"N1", false},
		{"n1a", false},
		{"n-1", false},
		{"n123456789012345678901", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.id.Valid(), "NoteID(%q).Valid()", tt.id)
	}
}

func TestCompareIDs(t *testing.T) {
	t.Parallel()
	assert.Equal(t, -1, compareIDs("n2", "n10"))
	assert.Equal(t, 1, compareIDs("n10", "n9"))
	assert.Equal(t, 0, compareIDs("n7", "n7"))
	assert.Equal(t, -1, compareIDs("n11", "n12"))
}

func TestColorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text    string
		want    Color
		wantErr bool
	}{
		{text: "#ff8800", want: Color{R: 0xff, G: 0x88}},
		{text: "#FF8800", want: Color{R: 0xff, G: 0x88}},
		{text: "#000000"},
		{text: "ff8800", wantErr: true},
		{text: "#ff880", wantErr: true},
		{text: "#ff88001", wantErr: true},
		{text: "#gg8800", wantErr: true},
		{text: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			var c Color
			err := c.UnmarshalText([]byte(tt.text))
			if tt.wantErr {
				require.Error(t, err)
				if tt.text != "" {
					assert.NotContains(t, err.Error(), tt.text, "the error must not echo the input")
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, c)
			text, err := c.MarshalText()
			require.NoError(t, err)
			var back Color
			require.NoError(t, back.UnmarshalText(text))
			assert.Equal(t, c, back)
		})
	}
}

func TestColorJSON(t *testing.T) {
	t.Parallel()
	type holder struct {
		C  Color  `json:"c"`
		P  *Color `json:"p,omitempty"`
		No *Color `json:"no,omitempty"`
	}
	b, err := json.Marshal(holder{C: Color{R: 1, G: 2, B: 3}, P: &Color{B: 255}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"c":"#010203","p":"#0000ff"}`, string(b))
	var h holder
	require.NoError(t, json.Unmarshal(b, &h))
	assert.Equal(t, Color{R: 1, G: 2, B: 3}, h.C)
	assert.Error(t, json.Unmarshal([]byte(`{"c":"red"}`), &h))
}

package palette_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The palette's own refusals are rows of the service's record, once each.
func TestPaletteRefusalsAreRecorded(t *testing.T) {
	_, reg, svc, st := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read", "b_write"), &palette.Options{
		Bind: map[string]json.RawMessage{"a_read": json.RawMessage(`{"x":"fixed"}`)},
	})
	require.NoError(t, err)
	rows := func() []service.Record {
		recs, err := st.Records(context.Background(), service.Query{Limit: 100})
		require.NoError(t, err)
		return recs
	}

	_, err = p.Call(asAna(), "c_show", nil)
	require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	require.Len(t, rows(), 1)
	r := rows()[0]
	assert.Equal(t, service.EventRefusal, r.Event)
	assert.Equal(t, "c_show", r.Tool)
	assert.Equal(t, "ana", r.Principal)
	assert.Equal(t, tool.CodeUnknownTool, r.Code)
	assert.Equal(t, tool.KindDisplay, r.Kind)

	_, err = p.Call(asAna(), "a_read", []byte(`{"x":"mine"}`))
	require.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	require.Len(t, rows(), 2)
	assert.Equal(t, tool.CodeInvalidArguments, rows()[1].Code)
	assert.Equal(t, service.OutcomeRefused, rows()[1].Outcome)

	// Refused by the service itself (the read-only mark): one row, not two.
	_, err = p.Call(tool.WithReadOnly(asAna()), "b_write", []byte(`{}`))
	require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Len(t, rows(), 3)
}

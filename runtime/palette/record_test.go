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

// A palette's offer is a row of the service's record: once per turn
// while it is unchanged, again when a grant changed it, marked when the
// palette is read-only; the palette's own uses of its offer record
// nothing.
func TestPaletteOffersAreRecorded(t *testing.T) {
	_, reg, svc, st := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read", "e_clock"), &palette.Options{
		Requestable: palette.Groups("notes"),
	})
	require.NoError(t, err)
	turn := func(id string) context.Context {
		return tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana, Conversation: "c1", Turn: id, Agent: tool.Agent{Name: "writer"}})
	}
	offerRows := func() []service.Record {
		recs, err := st.Records(context.Background(), service.Query{Limit: 100})
		require.NoError(t, err)
		var out []service.Record
		for _, r := range recs {
			if r.Event == service.EventOffer {
				out = append(out, r)
			}
		}
		return out
	}

	p.Offer(turn("t1"))
	p.Offer(turn("t1")) // the host asks again: the same offer, no new row
	_, err = p.Call(turn("t1"), "f_act", nil)
	require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), "refused, its suggestions drawn from the offer")
	rows := offerRows()
	require.Len(t, rows, 1)
	assert.Equal(t, "ana", rows[0].Principal)
	assert.Equal(t, "t1", rows[0].Turn)
	assert.Equal(t, "writer", rows[0].Agent)
	assert.JSONEq(t, `{"tools":["a_read","e_clock","request_tools"]}`, string(rows[0].Args))

	_, err = p.Call(turn("t1"), palette.RequestTools, []byte(`{"names":["b_write"]}`))
	require.NoError(t, err)
	p.Offer(turn("t1")) // the grant changed the offer within the turn
	p.Offer(turn("t2")) // a new turn
	rows = offerRows()
	require.Len(t, rows, 3)
	assert.JSONEq(t, `{"tools":["a_read","b_write","e_clock","request_tools"]}`, string(rows[1].Args))
	assert.Equal(t, "t2", rows[2].Turn)

	p.BindReadOnly()
	p.Offer(turn("t2"))
	rows = offerRows()
	require.Len(t, rows, 4)
	assert.JSONEq(t, `{"tools":["a_read","e_clock"],"read_only":true}`, string(rows[3].Args))
}

// A palette over service.As records its grants, refusals and offers for
// As's principal, as over the service itself.
func TestPaletteOverAsRecords(t *testing.T) {
	_, reg, svc, st := newFixture(t)
	c := service.As(svc, &tool.Invocation{Principal: ana, Conversation: "stdio"})
	p, err := palette.New(c, reg.Tools(), palette.Names("a_read"), &palette.Options{Requestable: palette.Names("e_clock")})
	require.NoError(t, err)
	ctx := context.Background() // no Invocation: As gives it
	assert.Equal(t, []string{"a_read", "request_tools"}, names(p.Offer(ctx)))
	_, err = p.Call(ctx, "c_show", nil)
	require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	_, err = p.Call(ctx, palette.RequestTools, []byte(`{"names":["e_clock"]}`))
	require.NoError(t, err)
	recs, err := st.Records(context.Background(), service.Query{Limit: 100})
	require.NoError(t, err)
	var got []string
	for _, r := range recs {
		assert.Equal(t, "ana", r.Principal)
		assert.Equal(t, "stdio", r.Conversation)
		got = append(got, r.Event.String()+" "+r.Tool)
	}
	assert.Equal(t, []string{"offer ", "refusal c_show", "call request_tools"}, got)
}

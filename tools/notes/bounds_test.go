package notes

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// attrs returns n attributes named prefix1, prefix2...
func attrs(prefix string, n int) map[string]string {
	out := make(map[string]string, n)
	for i := range n {
		out[fmt.Sprintf("%s%d", prefix, i+1)] = "v"
	}
	return out
}

// TestStoreBounds: every limit that keeps the store, and each note, from
// growing without bound is refused with a *ValidationError that says what
// to do, and leaves the note as it was.
func TestStoreBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		run     func(s *Store) error
		field   string
		problem string
	}{
		{
			name: "attributes on create",
			run: func(s *Store) error {
				_, err := s.Create(Draft{Title: "t", Attributes: attrs("a", MaxAttributes+1)})
				return err
			},
			field:   "attributes",
			problem: "a note has at most 32 attributes (this change would leave 33)",
		},
		{
			// The growth seen in production: each update adds new names,
			// each call within the schema's maxProperties.
			name: "attributes merged across updates",
			run: func(s *Store) error {
				for i := 0; ; i++ {
					if _, err := s.Update("n1", Patch{Attributes: attrs(fmt.Sprintf("u%d-", i), 10)}); err != nil {
						return err
					}
				}
			},
			field:   "attributes",
			problem: `remove some by setting their value to ""`,
		},
		{
			name: "attribute name length",
			run: func(s *Store) error {
				_, err := s.Update("n1", Patch{Attributes: map[string]string{strings.Repeat("k", MaxAttributeNameLen+1): "v"}})
				return err
			},
			field:   "attributes",
			problem: "names must have at most 64 bytes",
		},
		{
			name: "attribute value length",
			run: func(s *Store) error {
				_, err := s.Update("n1", Patch{Attributes: map[string]string{"k": strings.Repeat("é", MaxAttributeValueLen+1)}})
				return err
			},
			field:   "attributes",
			problem: "values must have at most 1000 characters",
		},
		{
			name: "data length",
			run: func(s *Store) error {
				_, err := s.Update("n1", Patch{Data: json.RawMessage(`"` + strings.Repeat("x", MaxDataLen) + `"`)})
				return err
			},
			field:   "data",
			problem: "must be at most 16384 bytes of JSON",
		},
		{
			name: "body length",
			run: func(s *Store) error {
				_, err := s.Update("n1", Patch{Body: ptr(strings.Repeat("b", MaxBodyLen+1))})
				return err
			},
			field:   "body",
			problem: "must have at most 20000 characters",
		},
		{
			name: "notes per store",
			run: func(s *Store) error {
				for {
					if _, err := s.Create(Draft{Title: "t"}); err != nil {
						return err
					}
				}
			},
			field:   "notes",
			problem: "the store holds at most 1000 notes; delete notes",
		},
		{
			name: "revisions, by update",
			run: func(s *Store) error {
				s.notes["n1"].Revision = MaxRevision
				_, err := s.Update("n1", Patch{Title: ptr("new")})
				return err
			},
			field:   "revision",
			problem: "note n1 has reached its last revision (4294967295); create a new note",
		},
		{
			name: "revisions, by tag",
			run: func(s *Store) error {
				s.notes["n1"].Revision = MaxRevision
				_, err := s.Tag("n1", []string{"new-tag"}, nil)
				return err
			},
			field:   "revision",
			problem: "has reached its last revision",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newTestStore(t)
			before, err := s.Get("n1")
			require.NoError(t, err)
			err = tc.run(s)
			var verr *ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.field, verr.Field)
			assert.Contains(t, verr.Problem, tc.problem)
			assert.LessOrEqual(t, s.Len(), MaxNotes)
			after, err := s.Get("n1")
			require.NoError(t, err)
			assert.LessOrEqual(t, len(after.Attributes), MaxAttributes)
			if tc.name != "attributes merged across updates" {
				assert.Equal(t, before.Attributes, after.Attributes, "a refused change leaves the note as it was")
			}
		})
	}
}

// TestAttributesBoundInSchema: the maxProperties the input schemas publish
// is the store's MaxAttributes.
func TestAttributesBoundInSchema(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{reflect.TypeFor[CreateInput](), reflect.TypeFor[UpdateInput]()} {
		f, ok := typ.FieldByName("Attributes")
		require.True(t, ok)
		assert.Equal(t, fmt.Sprintf("maxProperties=%d", MaxAttributes), f.Tag.Get("jsonschema"), "%s", typ)
	}
}

// TestUpdateToolAttributeLimit: the model reads why its update was refused
// and what to do.
func TestUpdateToolAttributeLimit(t *testing.T) {
	t.Parallel()
	s, _ := newTestStore(t)
	up := UpdateTool{Store: s}
	var err error
	for i := 0; err == nil && i < 10; i++ {
		_, err = up.Call(context.Background(), UpdateInput{ID: "n1", Attributes: attrs(fmt.Sprintf("k%d-", i), 8)})
	}
	require.Error(t, err)
	var merr *tool.ModelError
	require.ErrorAs(t, err, &merr)
	assert.Contains(t, merr.Message, "invalid attributes: a note has at most 32 attributes")
	n, gerr := s.Get("n1")
	require.NoError(t, gerr)
	assert.LessOrEqual(t, len(n.Attributes), MaxAttributes, "the note stays readable")
}

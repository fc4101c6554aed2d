package toolimpl_test

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedCallsInlined compiles testdata/inlined, which imports
// runtime/toolimpl and not runtime/codec, as generated code does, and
// checks that its calls of the Encoder's and Decoder's small methods are
// inlined (inline.go; without it, none was: golang/go#74783).
func TestGeneratedCallsInlined(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "build", "-gcflags=-m", "./testdata/inlined").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, m := range []string{
		"(*Encoder).RawKey", "(*Encoder).RawMember", "(*Encoder).ObjectStart", "(*Encoder).ObjectEnd", "(*Encoder).ArrayStart",
		"(*Encoder).ArrayEnd", "(*Encoder).RawText", "(*Encoder).Fail",
		"(*Decoder).PushIndex", "(*Decoder).Pop", "(*Decoder).Member", "(*Decoder).PushKey", "(*Decoder).Unknown",
		"(*Decoder).KeyString", "(*Decoder).Err",
	} {
		assert.Contains(t, string(out), "inlining call to codec."+m, "the call of %s is not inlined", m)
	}
}

package gocode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeyText checks the member-name text the generated encoders write
// with RawKey: the name as encoding/json quotes it (without HTML
// escaping), then ':', and its Go literal.
func TestKeyText(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"query", "", "a<b&c>", `q"u\o`, "tab\there", "é", "\u2028", "back`tick", "\x01"} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(name))
		want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		text := KeyText(name)
		assert.Equal(t, string(want)+":", text, "%q", name)

		// The literal is Go source for the same text, alone and after
		// the '{' of an object's first member.
		for _, text := range []string{text, "{" + text} {
			src := fmt.Sprintf("%#v", jen.Var().Id("x").Op("=").Add(KeyLit(text)))
			var lit string
			_, err := fmt.Sscanf(src, "var x = %q", &lit)
			if err != nil { // a raw literal
				require.Equal(t, "var x = `"+text+"`", src, "%q", name)
				continue
			}
			assert.Equal(t, text, lit, "%q", name)
		}
	}
}

package provider

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namePatterns is every provider's name rule.
var namePatterns = map[string]namePattern{
	ProviderOpenAI: openAINamePattern, ProviderAnthropic: anthropicNamePattern, ProviderGemini: geminiNamePattern,
}

// nameSamples is the names the rules are compared with their regular
// expressions on.
var nameSamples = []string{
	"", "a", "A", "_", "-", "0", ".", ":", "notes_create", "notes-create", "Notes.Create", "ns:tool",
	"9lives", "-x", ".x", ":x", "_x", "a b", "a\n", "a\x00", "é", "aé", "a/b", "a+b", "a$", "a\xff",
	strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("é", 32),
	"_" + strings.Repeat("9", 63), "_" + strings.Repeat(".", 64), "[", "`", "@", "{", "~", "/",
}

func TestNamePatternsMatchTheirExpressions(t *testing.T) {
	t.Parallel()
	for name, p := range namePatterns {
		re := regexp.MustCompile(p.String())
		for _, s := range nameSamples {
			assert.Equal(t, re.MatchString(s), p.MatchString(s), "%s on %q", name, s)
		}
		for c := range 256 {
			for _, s := range []string{string(rune(c)), "a" + string([]byte{byte(c)}), string([]byte{byte(c)}) + "a"} {
				assert.Equal(t, re.MatchString(s), p.MatchString(s), "%s on %q", name, s)
			}
		}
	}
}

// TestProviderLinksNoRegexp checks that the name rules compile no regular
// expression at start-up: the package does not link regexp.
func TestProviderLinksNoRegexp(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.NotContains(t, strings.Fields(string(out)), "regexp")
}

func FuzzNamePattern(f *testing.F) {
	for _, s := range nameSamples {
		f.Add(s)
	}
	res := map[string]*regexp.Regexp{}
	for name, p := range namePatterns {
		res[name] = regexp.MustCompile(p.String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, p := range namePatterns {
			assert.Equal(t, res[name].MatchString(s), p.MatchString(s), "%s on %q", name, s)
		}
	})
}

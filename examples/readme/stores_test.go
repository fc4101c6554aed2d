package readme

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMENamesTheDatabases: where README.md says how to run several
// instances, or names a durable store, it names the database too (SQLite,
// PostgreSQL), not only the Go package: a reader deciding how to deploy
// looks for the database.
func TestREADMENamesTheDatabases(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	n := 0
	var units []string // a table's rows, every other paragraph whole
	for para := range strings.SplitSeq(string(readme), "\n\n") {
		if strings.HasPrefix(para, "|") {
			units = append(units, strings.Split(para, "\n")...)
		} else {
			units = append(units, strings.Join(strings.Fields(para), " "))
		}
	}
	for _, para := range units {
		if strings.Contains(para, "several instances") || strings.Contains(para, "[pgstore]") {
			n++
			assert.Contains(t, para, "PostgreSQL", "a paragraph on pgstore or several instances: %.200s", para)
		}
		if strings.Contains(para, "[sqlitestore]") {
			assert.Contains(t, para, "SQLite", "a paragraph on sqlitestore: %.200s", para)
		}
	}
	assert.NotZero(t, n, "README.md says how to run several instances")
}

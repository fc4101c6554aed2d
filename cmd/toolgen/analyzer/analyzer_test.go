package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgen-go/toolgen/cmd/toolgen/analyzer"
)

// TestAnalyzer checks the diagnostics and facts the testdata packages
// declare in their // want comments: every directive mistake
// (directives), every declaration and method mistake (decls, mainpkg),
// unsupported types (shapes), a duplicate within a package (dup), a
// duplicate across packages where one imports the other (crossa, crossb),
// a correct package whose test file is not checked (clean), directives
// written with a space (spaced), jsonschema tags invopop would drop or no
// argument could satisfy (tags), tool names with one Go field or none
// (fieldnames, and crossb against crossa), and Offered and LogArgs methods
// and toolgen tags it refuses (hooks).
func TestAnalyzer(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.Analyzer,
		"directives", "decls", "mainpkg", "shapes", "dup", "crossa", "crossb", "clean",
		"spaced", "tags", "fieldnames", "hooks")
}

// TestSuggestedFixes applies the did-you-mean fixes of fix/fix.go and
// compares the result with fix/fix.go.golden.
func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analyzer.Analyzer, "fix")
}

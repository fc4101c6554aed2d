package analyzer_test

import (
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/structtag"

	"github.com/toolgen-go/toolgen/cmd/toolgen/analyzer"
)

// A checker of your own that runs toolgen's analyzer beside others: the
// main function of a command of your module, mycheck say. Built, it runs
// standalone on package patterns (mycheck ./...) and, as multichecker
// programs do, as a go vet tool (go vet -vettool=$(command -v mycheck)
// ./...).
func Example_multichecker() {
	multichecker.Main(
		analyzer.Analyzer,
		printf.Analyzer,
		structtag.Analyzer,
	)
}

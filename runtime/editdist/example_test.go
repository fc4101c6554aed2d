package editdist_test

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/editdist"
)

// The distance behind every "did you mean": a misspelt directive or tool
// name is a short distance from the one meant.
func ExampleDistance() {
	fmt.Println(editdist.Distance("readnoly", "readonly")) // two adjacent bytes swapped
	fmt.Println(editdist.Distance("notes_serch", "notes_search"))
	fmt.Println(editdist.Distance("notes_search", "clock_now"))
	// Output:
	// 1
	// 1
	// 11
}

package jsonlex_test

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

func Example() {
	data := []byte(`"caf\u00e9 <b>" , 1`)
	var scratch []byte
	s, next, msg := jsonlex.ReadString(data, 0, &scratch)
	if msg != "" {
		fmt.Printf("invalid JSON at byte %d: %s\n", next, msg)
		return
	}
	fmt.Printf("%s\n", s)
	fmt.Printf("%s\n", jsonlex.AppendString(nil, s))
	fmt.Printf("%s\n", jsonlex.AppendStringHTML(nil, s))

	i := jsonlex.SkipSpace(data, next)
	i = jsonlex.SkipSpace(data, i+1) // after the ','
	end, isInt, msg := jsonlex.ScanNumber(data, i)
	fmt.Println(string(data[i:end]), isInt, msg == "")

	_, _, msg = jsonlex.ReadString([]byte(`"\ud800"`), 0, &scratch)
	fmt.Println(msg)
	// Output:
	// café <b>
	// "café <b>"
	// "café \u003cb\u003e"
	// 1 true true
	// unpaired surrogate in a \u escape in a string
}

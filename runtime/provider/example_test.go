package provider_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// A program that talks to a provider's API builds its Definitions once, at
// start-up, and sends their bytes as the request's "tools" member on every
// turn. The generated providers.NewDefinitions starts from the definitions
// toolgen precomputed; provider.NewDefinitions projects them at start-up
// instead (for a registry that has no generated providers package, or
// tools that differ from the generated ones). Both give the same bytes.
func ExampleNewDefinitions() {
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	precomputed, err := providers.NewDefinitions(reg) // no projection at start-up
	if err != nil {
		panic(err)
	}
	projected, err := provider.NewDefinitions(reg) // every tool projected now
	if err != nil {
		panic(err)
	}
	fmt.Println(precomputed.Len(), "tools; same bytes:", string(precomputed.Anthropic()) == string(projected.Anthropic()))

	search, _ := precomputed.Lookup("notes_search")
	fmt.Println(search.Name(), "strict for OpenAI:", search.OpenAIChat.Strict)
	for _, t := range precomputed.Tools()[:3] {
		fmt.Println(t.Name())
	}
	// Output:
	// 14 tools; same bytes: true
	// notes_search strict for OpenAI: true
	// clock_now
	// clock_sync
	// clock_wait
}

// When the tools offered differ per caller (what a tool.Caller's Offer
// returns for the request's context), each request sends the Definitions of
// its offer: the same definition bytes, joined for the tools offered.
func ExampleDefinitions_Subset() {
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	defs, err := providers.NewDefinitions(reg)
	if err != nil {
		panic(err)
	}
	// An offer of the note tools only, as a call service might make for a
	// principal without the clock and weather permissions.
	var offer []*tool.Spec
	for _, sp := range reg.Tools() {
		if strings.HasPrefix(sp.Name, "notes_") {
			offer = append(offer, sp)
		}
	}
	sub, err := defs.Subset(offer)
	if err != nil {
		panic(err)
	}
	search, _ := defs.Lookup("notes_search")
	fmt.Println(sub.Len(), "tools; notes_search sent as the definitions' bytes:", strings.Contains(string(sub.Anthropic()), string(search.Anthropic.JSON)))
	whole, _ := defs.Subset(reg.Tools())
	fmt.Println("every tool offered: the definitions themselves:", whole == defs)

	_, err = defs.Subset([]*tool.Spec{{Name: "mail_send"}})
	fmt.Println(err)
	// Output:
	// 9 tools; notes_search sent as the definitions' bytes: true
	// every tool offered: the definitions themselves: true
	// provider definitions subset: tool mail_send of the offer is not in the definitions
}

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

// A program that talks to a provider's API builds a Set once, at start-up,
// and sends its bytes as the request's "tools" member on every turn. The
// generated providers.NewSet starts from the definitions toolgen
// precomputed; provider.NewSet projects them at start-up instead (for a
// registry that has no generated providers package, or tools that differ
// from the generated ones). Both give the same bytes.
func ExampleNewSet() {
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	precomputed, err := providers.NewSet(reg) // no projection at start-up
	if err != nil {
		panic(err)
	}
	projected, err := provider.NewSet(reg) // every tool projected now
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
	// 13 tools; same bytes: true
	// notes_search strict for OpenAI: true
	// clock_now
	// clock_sync
	// clock_zones
}

// When the tools offered differ per caller (what a tool.Caller's Offer
// returns for the request's context), each request sends the Set of its
// offer: the same definition bytes, joined for the tools offered.
func ExampleSet_Subset() {
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		panic(err)
	}
	set, err := providers.NewSet(reg)
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
	sub, err := set.Subset(offer)
	if err != nil {
		panic(err)
	}
	search, _ := set.Lookup("notes_search")
	fmt.Println(sub.Len(), "tools; notes_search sent as the set's bytes:", strings.Contains(string(sub.Anthropic()), string(search.Anthropic.JSON)))
	whole, _ := set.Subset(reg.Tools())
	fmt.Println("every tool offered: the set itself:", whole == set)

	_, err = set.Subset([]*tool.Spec{{Name: "mail_send"}})
	fmt.Println(err)
	// Output:
	// 9 tools; notes_search sent as the set's bytes: true
	// every tool offered: the set itself: true
	// provider set subset: tool mail_send of the offer is not in the set
}

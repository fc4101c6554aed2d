package main

// demoPrompt is the request the scripted exchange answers.
const demoPrompt = "What do my notes say about Go? Outline the generics one, and save a short study plan as a new note."

// demoScript is what the fake model does with demoPrompt over the sample
// tools: a call with bad arguments that it corrects after reading the
// error, two calls at once, a propose tool whose call becomes a proposal
// that a person must confirm, and an
// answer.
func demoScript() []turn {
	return []turn{
		{
			text:  "Let me search your notes.",
			calls: []scriptedCall{{"toolu_01", "notes_search", `{"query":"go","limit":"five"}`}},
		},
		{
			results: []expectedResult{{"toolu_01", true, "/limit: expected integer"}},
			text:    "The limit has to be a number; searching again.",
			calls:   []scriptedCall{{"toolu_02", "notes_search", `{"query":"go","limit":5}`}},
		},
		{
			results: []expectedResult{{"toolu_02", false, `"title":"Go generics cheat sheet"`}},
			text:    "Three notes mention Go; reading the two about it.",
			calls: []scriptedCall{
				{"toolu_03", "notes_outline", `{"id":"n1"}`},
				{"toolu_04", "notes_get", `{"id":"n4"}`},
			},
		},
		{
			results: []expectedResult{
				{"toolu_03", false, `"heading":"Type parameters"`},
				{"toolu_04", false, `"title":"Quarterly review"`},
			},
			calls: []scriptedCall{{"toolu_05", "notes_create", `{"title":"Go study plan","body":"# Week 1\n\nType parameters and constraints.\n\n# Week 2\n\nInference and the pitfalls.\n","tags":["go","study"]}`}},
		},
		{
			results: []expectedResult{{"toolu_05", false, `"status":"proposed"`}},
			text: "Two of your notes are about Go. \"Go generics cheat sheet\" (n1) covers type parameters, " +
				"constraints, inference and pitfalls; \"Quarterly review\" (n4) plans a tool registry " +
				"generated from Go types. I drafted \"Go study plan\" (two weeks, following the cheat " +
				"sheet's outline); it is saved once you confirm it.",
		},
	}
}

package notes

import (
	"encoding/json"
	"time"
)

// NewDemoStore returns a store that reads the time from time.Now, seeded
// with a few notes (IDs n1 to n5) that demos and tests can search, render
// and change. The seeded notes have fixed timestamps in March 2025.
func NewDemoStore() *Store {
	s := NewStore(nil)
	seedDemo(s)
	return s
}

// seedDemo adds the demo notes to an empty store and dates them.
func seedDemo(s *Store) {
	author := Person{Name: "Ada Example", Email: "ada@example.com"}
	day := func(d, h int) time.Time { return time.Date(2025, time.March, d, h, 0, 0, 0, time.UTC) }
	due := day(28, 18)
	teal := Color{R: 0x00, G: 0x80, B: 0x80}
	drafts := []struct {
		Draft
		created, updated time.Time
	}{
		{Draft{
			Title: "Go generics cheat sheet",
			Body: "# Type parameters\n\nFunctions and types take type parameters in square brackets.\n\n" +
				"## Constraints\n\nA constraint is an interface; `comparable` and `any` are predeclared.\n\n" +
				"## Inference\n\nArguments usually let the compiler infer type arguments.\n\n" +
				"# Pitfalls\n\nMethods cannot have their own type parameters.\n",
			Tags:     []string{"go", "reference"},
			Priority: 4,
			Author:   author,
		}, day(3, 9), day(10, 14)},
		{Draft{
			Title:  "Groceries",
			Body:   "- oat milk\n- coffee beans\n- basil\n- lemons\n",
			Tags:   []string{"home"},
			Author: author,
		}, day(5, 8), day(5, 8)},
		{Draft{
			Title: "Trip to Lisbon",
			Body: "# Plan\n\n## Day 1\n\nAlfama, tram 28, dinner in Bairro Alto.\n\n" +
				"## Day 2\n\nBelém: the tower and pastéis de nata.\n\n# Packing\n\nLight jacket; the evenings are cool.\n",
			Tags:       []string{"travel"},
			Priority:   2,
			Color:      &teal,
			Due:        &due,
			Attributes: map[string]string{"budget": "1200 EUR", "flight": "TP 1351"},
			Author:     author,
			Data:       json.RawMessage(`{"bookings":["hotel","flight"]}`),
		}, day(7, 20), day(12, 21)},
		{Draft{
			Title: "Quarterly review",
			Body: "# Wins\n\nShipped the notes search; latency halved.\n\n" +
				"# Next quarter\n\n## Goals\n\nTool registry generated from Go types.\n\n## Risks\n\nSchema drift between services.\n",
			Tags:     []string{"work", "go"},
			Priority: 5,
			Author:   Person{Name: "Bo Example"},
		}, day(14, 16), day(14, 17)},
		{Draft{
			Title:  "Reading list",
			Body:   "- The Go Programming Language\n- Designing Data-Intensive Applications\n- A Philosophy of Software Design\n",
			Tags:   []string{"books"},
			Author: author,
		}, day(20, 19), day(21, 7)},
	}
	for _, d := range drafts {
		n, err := s.Create(d.Draft)
		if err != nil {
			panic("notes: invalid demo note: " + err.Error()) // a bug in the literal above
		}
		s.mu.Lock()
		s.notes[n.ID].Created, s.notes[n.ID].Updated = d.created, d.updated
		s.mu.Unlock()
	}
}

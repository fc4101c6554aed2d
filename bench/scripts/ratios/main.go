// Command ratios reads `go test -bench` output on standard input and prints,
// for the call-path benchmarks of the bench module (BenchmarkCall and
// BenchmarkDecode, whose sub-benchmarks are named INPUT/PATH), a Markdown
// table per input: each path's median time, bytes and allocations per
// operation, and how many times toolgen's time it takes. With -count=N the
// medians are over the N runs of one invocation, so that every ratio comes
// from one run of the suite.
//
// Usage:
//
//	go test -run='^$' -bench=. -benchmem -count=6 ./compare/ | go run ./scripts/ratios
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	rows, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
	if err := write(os.Stdout, rows); err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

// result is the medians of one benchmark over its runs.
type result struct {
	group, input, path string // BenchmarkCall/medium/toolgen: Call, medium, toolgen
	ns, bytes, allocs  float64
}

// parse reads benchmark lines and returns the median of each metric per
// benchmark, in the order the benchmarks first appear.
func parse(r io.Reader) ([]result, error) {
	type samples struct{ ns, bytes, allocs []float64 }
	var order []string
	all := map[string]*samples{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i] // the GOMAXPROCS suffix
			}
		}
		s := all[name]
		if s == nil {
			s = &samples{}
			all[name] = s
			order = append(order, name)
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is not a number", fields[0], fields[i])
			}
			switch fields[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out []result
	for _, name := range order {
		parts := strings.Split(strings.TrimPrefix(name, "Benchmark"), "/")
		if len(parts) != 3 || parts[0] != "Call" && parts[0] != "Decode" {
			continue
		}
		s := all[name]
		out = append(out, result{
			group: parts[0], input: parts[1], path: parts[2],
			ns: median(s.ns), bytes: median(s.bytes), allocs: median(s.allocs),
		})
	}
	return out, nil
}

// median returns the median of v, or 0 when v is empty.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

// write prints one table per group and input, with ratios to the toolgen
// path of that table.
func write(w io.Writer, rows []result) error {
	type key struct{ group, input string }
	var keys []key
	tables := map[key][]result{}
	for _, r := range rows {
		k := key{r.group, r.input}
		if _, ok := tables[k]; !ok {
			keys = append(keys, k)
		}
		tables[k] = append(tables[k], r)
	}
	for _, k := range keys {
		var base float64
		for _, r := range tables[k] {
			if r.path == "toolgen" {
				base = r.ns
			}
		}
		fmt.Fprintf(w, "\n%s, %s input\n\n", k.group, k.input)
		fmt.Fprintln(w, "| path | time/op | B/op | allocs/op | time ÷ toolgen's |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
		for _, r := range tables[k] {
			ratio := "n/a"
			if base > 0 {
				ratio = fmt.Sprintf("%.2f", r.ns/base)
			}
			fmt.Fprintf(w, "| %s | %s | %.0f | %.0f | %s |\n", r.path, duration(r.ns), r.bytes, r.allocs, ratio)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// duration formats nanoseconds as benchstat does: ns, µs or ms with
// three or four significant digits.
func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'f', 2, 64) + " µs"
	case ns >= 100:
		return strconv.FormatFloat(ns, 'f', 0, 64) + " ns"
	default:
		return strconv.FormatFloat(ns, 'f', 1, 64) + " ns"
	}
}

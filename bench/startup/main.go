// Command startup measures the start-up of programs side by side: it runs
// them in interleaved rounds (each round runs every program once, in a
// shuffled order) so that the noise of a shared machine falls on all of
// them alike, and prints, per program, the median and 10th percentile of
// the wall time and the median CPU time (user plus system), with the ratio
// of each median to the first program's.
//
// Usage (from bench/):
//
//	go run ./startup -runs 1000 ./bin/empty ./bin/hello ./bin/list
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("runs", 500, "rounds: runs of every program")
	warmup := flag.Int("warmup", 20, "rounds run first and not measured")
	flag.Parse()
	progs := flag.Args()
	if len(progs) == 0 {
		fmt.Fprintln(os.Stderr, "usage: startup [-runs N] program...")
		os.Exit(2)
	}
	wall := make([][]time.Duration, len(progs))
	cpu := make([][]time.Duration, len(progs))
	order := make([]int, len(progs))
	for i := range order {
		order[i] = i
	}
	for r := 0; r < *warmup+*runs; r++ {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, p := range order {
			w, c, err := run(progs[p])
			if err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n", progs[p], err)
				os.Exit(1)
			}
			if r >= *warmup {
				wall[p] = append(wall[p], w)
				cpu[p] = append(cpu[p], c)
			}
		}
	}
	base := median(wall[0])
	baseCPU := median(cpu[0])
	fmt.Printf("%-24s %12s %12s %12s %10s %10s\n", "program", "wall median", "wall p10", "cpu median", "wall ratio", "cpu ratio")
	for i, p := range progs {
		w, c := median(wall[i]), median(cpu[i])
		fmt.Printf("%-24s %12v %12v %12v %10.3f %10.3f\n", p, w.Round(time.Microsecond), pct(wall[i], 10).Round(time.Microsecond), c.Round(time.Microsecond),
			float64(w)/float64(base), float64(c)/float64(baseCPU))
	}
}

// run runs prog once, its output discarded, and returns its wall time and
// the CPU time it used.
func run(prog string) (wall, cpu time.Duration, err error) {
	cmd := exec.Command(prog)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, err
	}
	wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
	}
	return wall, cpu, nil
}

func median(d []time.Duration) time.Duration { return pct(d, 50) }

// pct returns the p-th percentile of d.
func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

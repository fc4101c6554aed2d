// Command startup measures the start-up of programs side by side: it runs
// them in interleaved rounds (each round runs every program once, in a
// shuffled order) so that the noise of a shared machine falls on all of
// them alike, and prints, per program, the median and 10th percentile of
// the wall time, the median CPU time (user plus system) and the median
// number of minor page faults, with the ratio of each median to the first
// program's. Page faults do not depend on the load of the machine: they
// count the pages a program touches, which is most of what a larger
// binary costs at start-up.
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
	faults := make([][]int64, len(progs))
	order := make([]int, len(progs))
	for i := range order {
		order[i] = i
	}
	for r := 0; r < *warmup+*runs; r++ {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, p := range order {
			w, c, f, err := run(progs[p])
			if err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n", progs[p], err)
				os.Exit(1)
			}
			if r >= *warmup {
				wall[p] = append(wall[p], w)
				cpu[p] = append(cpu[p], c)
				faults[p] = append(faults[p], f)
			}
		}
	}
	base := median(wall[0])
	baseCPU := median(cpu[0])
	baseFaults := median(faults[0])
	fmt.Printf("%-24s %12s %12s %12s %8s %10s %10s %10s\n", "program", "wall median", "wall p10", "cpu median", "faults", "wall ratio", "cpu ratio", "faults +")
	for i, p := range progs {
		w, c, f := median(wall[i]), median(cpu[i]), median(faults[i])
		fmt.Printf("%-24s %12v %12v %12v %8d %10.3f %10.3f %10d\n", p, w.Round(time.Microsecond), pct(wall[i], 10).Round(time.Microsecond), c.Round(time.Microsecond),
			f, float64(w)/float64(base), float64(c)/float64(baseCPU), f-baseFaults)
	}
}

// run runs prog once, its output discarded, and returns its wall time,
// the CPU time it used and its minor page faults.
func run(prog string) (wall, cpu time.Duration, faults int64, err error) {
	cmd := exec.Command(prog)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, err
	}
	wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
		faults = ru.Minflt
	}
	return wall, cpu, faults, nil
}

// median returns the median of d.
func median[T time.Duration | int64](d []T) T { return pct(d, 50) }

// pct returns the p-th percentile of d.
func pct[T time.Duration | int64](d []T, p int) T {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

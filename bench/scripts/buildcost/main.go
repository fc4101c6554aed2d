// Command buildcost builds programs of one module side by side, several
// times and interleaved, and reports what each build costs: wall time, the
// peak RSS of the compiler and of the linker, the CPU time of all the
// tools, and the size of the Go source each program brings. It is how
// scripts/catalog.sh compares the program that lists a toolgen registry
// with the program that registers the same tools with the MCP Go SDK.
//
// Usage:
//
//	go run ./scripts/buildcost -dir DIR [-count 3] [-cold] NAME=PKG[:GLOB]...
//
// for instance, on the module scripts/synth -nested writes:
//
//	go run ./scripts/buildcost -dir $work/synth -count 3 \
//		toolgen=./cmd/list:generated/*.go,generated/internal/... sdk=./cmd/sdk:sdk/*/*.go
//
// GLOB names the Go files (tests excluded) whose size is reported for the
// program: the generated packages for toolgen, the registration code for
// the SDK. GLOB is a comma-separated list; one ending in /... is every Go
// file under that directory, as in a go command pattern. The first program
// is the numerator of the ratios.
//
// What a build is. Every build starts from a fresh copy of a build cache
// that holds the compiled dependencies outside DIR's module (the standard
// library, toolgen's runtime, the SDK) and nothing of DIR's module: what a
// user pays to rebuild the program after changing their tools, with
// everything else cached. -cold starts from an empty cache instead (the
// standard library is then compiled too, by both programs alike).
//
// How memory is measured. The go command runs every compile and link
// through this program (-toolexec), which waits for the tool and records
// its peak RSS (getrusage's ru_maxrss), wall and CPU time. The compiler
// peak is the largest compile of the build; it is one process's peak, not
// the sum over the compiles the go command runs at once (-p, by default
// one per CPU). Linux only: elsewhere the RSS figures read 0.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// logEnv names the file a toolexec wrapper appends its records to; when it
// is set, the program is a wrapper, not the driver.
const logEnv = "BUILDCOST_LOG"

func main() {
	if path, ok := os.LookupEnv(logEnv); ok {
		os.Exit(wrap(path, os.Args[1:]))
	}
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "buildcost:", err)
		os.Exit(1)
	}
}

// record is what the wrapper writes for one run of a tool.
type record struct {
	Tool    string  `json:"tool"`    // compile, link
	Package string  `json:"package"` // the compiled package (-p), or "" for link
	Wall    float64 `json:"wall"`    // seconds
	CPU     float64 `json:"cpu"`     // user + system seconds
	RSS     int64   `json:"rss"`     // peak RSS, KiB
}

// wrap runs the tool args[0] with args[1:] as -toolexec does, and appends a
// record of it to path unless it only reports its version (the go command
// asks every tool for it to key its cache). It returns the tool's exit
// code.
func wrap(path string, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "buildcost: toolexec: no tool")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, "buildcost: toolexec:", err)
			return 2
		}
		code = exit.ExitCode()
	}
	tool := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	if (tool != "compile" && tool != "link") || slices.Contains(args[1:], "-V=full") {
		return code
	}
	rec := record{Tool: tool, Package: flagValue(args[1:], "-p"), Wall: wall.Seconds(),
		CPU: (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), RSS: maxRSS(cmd.ProcessState)}
	line, _ := json.Marshal(rec)
	// One write of one short line to a file opened for appending: the
	// records of tools running at once do not interleave.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.Write(append(line, '\n'))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "buildcost: toolexec:", err)
		return cmp.Or(code, 2)
	}
	return code
}

// flagValue returns the value of a "-name value" or "-name=value" flag.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// program is one program to build.
type program struct {
	name, pkg, glob string
}

// parseProgram reads NAME=PKG[:GLOB].
func parseProgram(s string) (program, error) {
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" || rest == "" {
		return program{}, fmt.Errorf("%q: want NAME=PKG[:GLOB]", s)
	}
	pkg, glob, _ := strings.Cut(rest, ":")
	return program{name: name, pkg: pkg, glob: glob}, nil
}

// build is what one build of one program cost.
type build struct {
	program    string
	wall       float64 // seconds, the whole go build
	compileRSS int64   // KiB, the largest compile
	compilePkg string  // the package of that compile
	linkRSS    int64   // KiB
	cpu        float64 // seconds, all compiles and the link
	compiles   int     // how many packages were compiled
	outside    []string
}

// summarize turns the wrapper's records into a build; module is the path
// of the built module: a compile outside it means the dependency cache
// missed.
func summarize(name, module string, wall float64, recs []record) build {
	b := build{program: name, wall: wall}
	for _, r := range recs {
		b.cpu += r.CPU
		switch r.Tool {
		case "compile":
			b.compiles++
			if r.RSS > b.compileRSS {
				b.compileRSS, b.compilePkg = r.RSS, r.Package
			}
			if r.Package != "main" && r.Package != module && !strings.HasPrefix(r.Package, module+"/") {
				b.outside = append(b.outside, r.Package)
			}
		case "link":
			b.linkRSS = max(b.linkRSS, r.RSS)
		}
	}
	return b
}

// readRecords reads the wrapper's log.
func readRecords(path string) ([]record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var recs []record
	for line := range strings.Lines(string(data)) {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("buildcost", flag.ContinueOnError)
	dir := fl.String("dir", "", "the module `directory`")
	count := fl.Int("count", 3, "builds of each program")
	cold := fl.Bool("cold", false, "start every build from an empty build cache (the standard library is compiled too)")
	keep := fl.Bool("keep", false, "keep the work directory (caches, the tools' records, the binaries)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fl.NArg() < 1 || *count < 1 {
		return errors.New("usage: buildcost -dir DIR [-count N] [-cold] NAME=PKG[:GLOB]...")
	}
	var progs []program
	for _, a := range fl.Args() {
		p, err := parseProgram(a)
		if err != nil {
			return err
		}
		progs = append(progs, p)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "buildcost-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(stdout, "keeping", work)
	} else {
		defer os.RemoveAll(work)
	}
	d := &driver{dir: *dir, self: self, work: work, keep: *keep}
	module, err := d.output(ctx, nil, "go", "list", "-m")
	if err != nil {
		return err
	}
	d.module = strings.TrimSpace(module)

	template := ""
	if !*cold {
		template = filepath.Join(work, "deps-cache")
		start := time.Now()
		if err := d.warm(ctx, template, progs); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "dependency cache built in %.1f s\n", time.Since(start).Seconds())
	}

	fmt.Fprintf(stdout, "\n| run | program | wall | compiler peak RSS (package) | link peak RSS | CPU (all tools) | packages compiled |\n|---|---|---:|---:|---:|---:|---:|\n")
	var builds [][]build // [run][program], in progs' order
	for i := range *count {
		order := slices.Clone(progs)
		if i%2 == 1 {
			// Alternate the order so that neither program always builds
			// right after the other's heavy compile.
			slices.Reverse(order)
		}
		row := make([]build, len(progs))
		for _, p := range order {
			b, err := d.build(ctx, p, template, i)
			if err != nil {
				return err
			}
			if len(b.outside) > 0 && !*cold {
				return fmt.Errorf("%s: the dependency cache missed: compiled %s", p.name, strings.Join(b.outside, ", "))
			}
			fmt.Fprintf(stdout, "| %d | %s | %.2f s | %s (%s) | %s | %.1f s | %d |\n",
				i+1, b.program, b.wall, mib(b.compileRSS), b.compilePkg, mib(b.linkRSS), b.cpu, b.compiles)
			row[slices.IndexFunc(progs, func(q program) bool { return q.name == p.name })] = b
		}
		builds = append(builds, row)
	}
	return d.report(ctx, stdout, progs, builds, *cold)
}

// driver runs the go command in the module.
type driver struct {
	dir, self, work, module string
	keep                    bool
}

// output runs a command in the module with extra environment and returns
// its standard output.
func (d *driver) output(ctx context.Context, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = d.dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// warm fills the build cache cache with the programs' dependencies outside
// the module, compiled through the wrapper as the measured builds are (the
// cache keys include the tools' versions, which the wrapper passes on).
func (d *driver) warm(ctx context.Context, cache string, progs []program) error {
	args := []string{"list", "-deps", "-f", "{{if not .Module}}{{.ImportPath}}{{else if not .Module.Main}}{{.ImportPath}}{{end}}"}
	for _, p := range progs {
		args = append(args, p.pkg)
	}
	out, err := d.output(ctx, nil, "go", args...)
	if err != nil {
		return err
	}
	deps := strings.Fields(out)
	env := []string{"GOCACHE=" + cache, logEnv + "=" + os.DevNull}
	_, err = d.output(ctx, env, "go", append([]string{"build", "-toolexec", d.self}, deps...)...)
	return err
}

// build builds p once from a copy of template (or an empty cache).
func (d *driver) build(ctx context.Context, p program, template string, i int) (build, error) {
	cache := filepath.Join(d.work, fmt.Sprintf("cache-%s-%d", p.name, i))
	if template != "" {
		if err := copyTree(template, cache); err != nil {
			return build{}, err
		}
	}
	if !d.keep {
		defer os.RemoveAll(cache)
	}
	log := filepath.Join(d.work, fmt.Sprintf("tools-%s-%d.jsonl", p.name, i))
	bin := filepath.Join(d.work, "bin", p.name)
	// The go command does not relink a binary whose build ID says it is up
	// to date: remove the previous run's.
	if err := os.Remove(bin); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return build{}, err
	}
	env := []string{"GOCACHE=" + cache, logEnv + "=" + log}
	start := time.Now()
	if _, err := d.output(ctx, env, "go", "build", "-toolexec", d.self, "-o", bin, p.pkg); err != nil {
		return build{}, err
	}
	wall := time.Since(start).Seconds()
	recs, err := readRecords(log)
	if err != nil {
		return build{}, err
	}
	return summarize(p.name, d.module, wall, recs), nil
}

// report prints the medians, the ratios of the first program to the
// others, the source sizes and what each program prints.
func (d *driver) report(ctx context.Context, w io.Writer, progs []program, builds [][]build, cold bool) error {
	cache := "dependencies cached, the module's packages compiled afresh"
	if cold {
		cache = "empty build cache"
	}
	fmt.Fprintf(w, "\n%d builds of each, interleaved (%s); medians, with the range:\n\n", len(builds), cache)
	fmt.Fprintf(w, "| program | build wall | compiler peak RSS | link peak RSS | CPU (all tools) | Go source (files) |\n|---|---:|---:|---:|---:|---:|\n")
	for j, p := range progs {
		col := func(f func(build) float64) []float64 {
			var v []float64
			for _, row := range builds {
				v = append(v, f(row[j]))
			}
			return v
		}
		wall := col(func(b build) float64 { return b.wall })
		crss := col(func(b build) float64 { return float64(b.compileRSS) })
		lrss := col(func(b build) float64 { return float64(b.linkRSS) })
		cpu := col(func(b build) float64 { return b.cpu })
		size, files, err := d.sourceSize(p.glob)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", p.name,
			spread(wall, func(v float64) string { return fmt.Sprintf("%.2f s", v) }),
			spread(crss, func(v float64) string { return mib(int64(v)) }),
			spread(lrss, func(v float64) string { return mib(int64(v)) }),
			spread(cpu, func(v float64) string { return fmt.Sprintf("%.1f s", v) }),
			sizeCell(p.glob, size, files))
	}
	for j := 1; j < len(progs); j++ {
		var wall, rss, cpu []float64
		for _, row := range builds {
			wall = append(wall, row[0].wall/row[j].wall)
			rss = append(rss, float64(row[0].compileRSS)/float64(row[j].compileRSS))
			cpu = append(cpu, row[0].cpu/row[j].cpu)
		}
		ratio := func(v float64) string { return fmt.Sprintf("%.2f", v) }
		fmt.Fprintf(w, "\n%s ÷ %s, paired by run: build wall %s (runs: %s); compiler peak RSS %s; CPU %s\n",
			progs[0].name, progs[j].name, spread(wall, ratio), join(wall, ratio), spread(rss, ratio), spread(cpu, ratio))
	}
	fmt.Fprintln(w)
	for _, p := range progs {
		out, err := d.output(ctx, nil, filepath.Join(d.work, "bin", p.name))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s prints: %s", p.name, out)
	}
	return nil
}

// sourceSize adds up the Go files (tests excluded) glob matches in the
// module.
func (d *driver) sourceSize(glob string) (size int64, files int, err error) {
	if glob == "" {
		return 0, 0, nil
	}
	var names []string
	for _, g := range strings.Split(glob, ",") {
		more, err := goFiles(filepath.Join(d.dir, g))
		if err != nil {
			return 0, 0, err
		}
		names = append(names, more...)
	}
	for _, n := range names {
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		fi, err := os.Stat(n)
		if err != nil {
			return 0, 0, err
		}
		size, files = size+fi.Size(), files+1
	}
	return size, files, nil
}

// goFiles lists the files glob matches, or for dir/..., every file under
// dir.
func goFiles(glob string) ([]string, error) {
	dir, ok := strings.CutSuffix(glob, string(filepath.Separator)+"...")
	if !ok {
		return filepath.Glob(glob)
	}
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, path)
		}
		return err
	})
	return names, err
}

func sizeCell(glob string, size int64, files int) string {
	if glob == "" {
		return "-"
	}
	return fmt.Sprintf("%.2f MB (%d in `%s`)", float64(size)/1e6, files, glob)
}

// median returns the median of v (the mean of the middle two for an even
// count).
func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// spread formats the median of v and, for more than one value, its range.
func spread(v []float64, f func(float64) string) string {
	if len(v) == 1 {
		return f(v[0])
	}
	return fmt.Sprintf("%s (%s–%s)", f(median(v)), f(slices.Min(v)), f(slices.Max(v)))
}

func join(v []float64, f func(float64) string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = f(x)
	}
	return strings.Join(s, ", ")
}

// mib formats KiB as MiB, or GiB from 1 GiB.
func mib(kib int64) string {
	if kib >= 1<<20 {
		return fmt.Sprintf("%.2f GiB", float64(kib)/(1<<20))
	}
	return fmt.Sprintf("%d MiB", kib>>10)
}

// copyTree copies the directory src to dst (regular files and
// directories: a build cache holds nothing else). A copy, not hard links:
// the go command updates some files of its cache in place (trim.txt, and
// the modification times it keeps as last use).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

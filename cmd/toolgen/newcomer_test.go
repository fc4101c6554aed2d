package main

import (
	"archive/zip"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The newcomer tests follow README's "Use toolgen in your module" as a
// person new to toolgen does, in a module of their own beside a local
// copy of toolgen (../toolgen, a link to this working tree), in the order
// a person writes code: the tools and the program that imports the
// registry first, toolgen after. The commands they run are the README's,
// word for word: each test first checks that the section shows them.
//
// They run offline: GOPROXY=off, and GOSUMDB=off, since the scratch
// module's go.sum is written from the module cache (a newcomer's go
// command checks it against the checksum database); the modules they need
// are this module's, which CI's go mod download puts in the module cache.
// A published toolgen is this working tree too, as versions v0.1.0 and
// v0.2.0 of a module proxy in a directory (see publish).

// newcomer is a scratch module, dir, beside a link to this working tree.
type newcomer struct {
	t        *testing.T
	root     string   // this working tree
	dir      string   // the scratch module
	env      []string // the go command's environment
	readme   string   // README's "Use toolgen in your module", its blanks folded
	generate string   // the //go:generate line the section shows
}

// newNewcomer writes the two-tool module example.com/twotool: tools/,
// whose doc.go holds the section's //go:generate line, and main.go, which
// imports the registry not yet generated. Its go.mod knows nothing of
// toolgen.
func newNewcomer(t *testing.T) *newcomer {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	base := t.TempDir()
	require.NoError(t, os.Symlink(root, filepath.Join(base, "toolgen")))
	n := &newcomer{t: t, root: root, dir: filepath.Join(base, "app")}
	for _, kv := range os.Environ() {
		// A newcomer's GOFLAGS (CI may set -mod=mod) would hide what the
		// go command asks of go.mod and go.sum.
		if !strings.HasPrefix(kv, "GOFLAGS=") {
			n.env = append(n.env, kv)
		}
	}
	n.env = append(n.env, "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local", "TOOLGEN_CACHE="+t.TempDir())

	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	section := string(readme)
	const heading = "\n## Use toolgen in your module\n"
	start := strings.Index(section, heading)
	require.GreaterOrEqual(t, start, 0, "README.md has no section %q", strings.TrimSpace(heading))
	section = section[start+len(heading):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	n.readme = strings.Join(strings.Fields(section), " ")
	n.generate = regexp.MustCompile(`(?m)^//go:generate .*$`).FindString(section)
	require.NotEmpty(t, n.generate, "README's %q shows no //go:generate line to copy", strings.TrimSpace(heading))

	n.write("go.mod", "module example.com/twotool\n\ngo 1.26\n")
	n.write("tools/doc.go", "// Package tools holds the tools.\npackage tools\n\n"+n.generate+"\n")
	n.write("tools/tools.go", twoTools)
	n.write("main.go", twoToolMain)
	return n
}

// publish serves this working tree as toolgen's versions v0.1.0 and v0.2.0
// from a module proxy in a directory, tried before the module cache's
// downloads (every other module), and gives the scratch module a module
// cache of its own, so that the versions never reach the real one.
func (n *newcomer) publish() {
	t := n.t
	t.Helper()
	proxy := filepath.Join(t.TempDir(), "proxy")
	vdir := filepath.Join(proxy, filepath.FromSlash(modulePath), "@v")
	require.NoError(t, os.MkdirAll(vdir, 0o755))
	gomod, err := os.ReadFile(filepath.Join(n.root, "go.mod"))
	require.NoError(t, err)
	versions := []string{"v0.1.0", "v0.2.0"}
	for _, v := range versions {
		require.NoError(t, os.WriteFile(filepath.Join(vdir, v+".mod"), gomod, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(vdir, v+".info"), []byte(`{"Version":"`+v+`","Time":"2026-01-01T00:00:00Z"}`), 0o644))
		writeModuleZip(t, filepath.Join(vdir, v+".zip"), n.root, modulePath+"@"+v+"/")
	}
	require.NoError(t, os.WriteFile(filepath.Join(vdir, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644))
	cmd := exec.Command("go", "env", "GOMODCACHE")
	cmd.Env = n.env
	out, err := cmd.Output()
	require.NoError(t, err)
	downloads := filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	n.env = append(n.env,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(downloads),
		"GOMODCACHE="+t.TempDir(),
		"GOFLAGS=-modcacherw", // so that the test can remove its module cache
	)
}

// writeModuleZip writes the module zip of the module in root to path: its
// regular files, each under prefix, without version control, node_modules
// and vendor directories, directories whose names start with '.', and
// nested modules.
func writeModuleZip(t *testing.T, path, root, prefix string) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := zip.NewWriter(f)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if name := d.Name(); strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		zf, err := w.Create(prefix + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = zf.Write(data)
		return err
	})
	require.NoError(t, err)
	require.NoError(t, w.Close())
}

// write writes a file of the scratch module.
func (n *newcomer) write(name, src string) {
	n.t.Helper()
	path := filepath.Join(n.dir, name)
	require.NoError(n.t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(n.t, os.WriteFile(path, []byte(src), 0o644))
}

// run runs a command line (the go command, arguments without quotes) in
// the directory sub of the scratch module.
func (n *newcomer) run(sub, line string) (string, error) {
	n.t.Helper()
	args := strings.Fields(line)
	require.Equal(n.t, "go", args[0], "%q", line)
	cmd := exec.Command("go", args[1:]...)
	cmd.Dir = filepath.Join(n.dir, sub)
	cmd.Env = n.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// must runs line and fails the test when it fails.
func (n *newcomer) must(sub, line string) string {
	n.t.Helper()
	out, err := n.run(sub, line)
	require.NoError(n.t, err, "%s:\n%s", line, out)
	return out
}

// documented fails the test unless the README's section says text (its
// blanks folded).
func (n *newcomer) documented(text string) {
	n.t.Helper()
	require.Contains(n.t, n.readme, text, "README's \"Use toolgen in your module\" must say it")
}

// The README's commands: to add the published toolgen, or a local copy,
// and after it.
const (
	readmeAdd      = "go get -tool github.com/toolgen-go/toolgen/cmd/toolgen"
	readmeReplace  = "go mod edit -replace=github.com/toolgen-go/toolgen=../toolgen"
	readmeGetTool  = "go get -tool github.com/toolgen-go/toolgen/cmd/toolgen@v0.0.0"
	readmeGenerate = "go generate ./..."
	readmeTidy     = "go mod tidy"
	readmeCheck    = "go tool toolgen -check -out ../generated ./..." // in tools/
)

// TestNewcomerFirstRun: the README's commands work in the order a person
// writes code, when the program importing the registry exists before
// toolgen is added (issue N, item 1: `go mod tidy` then failed on that
// import and left go.sum without toolgen's requirements, and go generate
// failed on them); the program runs and the registry's tests pass.
func TestNewcomerFirstRun(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []string
	}{
		{"published", []string{readmeAdd, readmeGenerate, readmeTidy}},
		{"local copy", []string{readmeReplace, readmeGetTool, readmeGenerate, readmeTidy}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := newNewcomer(t)
			if tt.name == "published" {
				n.publish()
			}
			for _, line := range tt.lines {
				n.documented(line)
				n.must(".", line)
			}
			assert.Equal(t, twoToolWant, n.must(".", "go run ."))
			n.must(".", "go vet ./...")
			n.must(".", "go test ./...")
		})
	}
}

// TestNewcomerCheckLine: the README's CI line checks what its go:generate
// line writes (issue N, item 3: it named another directory, and each file
// of it was reported stale); a file not there is missing, and a directory
// not there is one line.
func TestNewcomerCheckLine(t *testing.T) {
	n := newNewcomer(t)
	for _, line := range []string{readmeReplace, readmeGetTool, readmeGenerate} {
		n.must(".", line)
	}
	n.documented(readmeCheck)
	assert.Contains(t, n.generate, strings.TrimPrefix(strings.TrimSuffix(readmeCheck, " ./..."), "go tool toolgen -check"),
		"the CI line and the go:generate line name one output directory")
	assert.Empty(t, n.must("tools", readmeCheck))

	require.NoError(t, os.Remove(filepath.Join(n.dir, "generated", "tools.json")))
	out, err := n.run("tools", readmeCheck)
	require.Error(t, err, "a missing file fails the check:\n%s", out)
	assert.Equal(t, filepath.Join("..", "generated", "tools.json")+": missing; run go generate (or toolgen) to write it\n", out)

	out, err = n.run("tools", "go tool toolgen -check -out ../registry ./...")
	require.Error(t, err, "a directory never generated fails the check:\n%s", out)
	assert.Equal(t, filepath.Join("..", "registry")+": missing: no generated files there; run go generate (or toolgen) to write them, or give -check the -out of the go:generate line\n", out)
}

// TestNewcomerUpgrade: upgrading toolgen in a module whose registry an
// older toolgen wrote, in a layout it no longer writes (the codecs beside
// the registry, importing a runtime package that no longer exists), and
// whose go.mod lacks what the new toolgen needs (issue N, item 4: go
// generate stopped at "updates to go.mod needed", and go mod tidy failed
// on the old code's import). The README's steps upgrade it: the go get
// -tool line with @latest (published: from v0.1.0 to v0.2.0) or, over a
// local copy, the @v0.0.0 line again; go generate; go mod tidy.
func TestNewcomerUpgrade(t *testing.T) {
	t.Run("published", func(t *testing.T) {
		n := newNewcomer(t)
		n.publish()
		for _, line := range []string{readmeAdd + "@v0.1.0", readmeGenerate, readmeTidy} {
			n.must(".", line)
		}
		n.upgrade(readmeAdd + "@latest")
		gomod, err := os.ReadFile(filepath.Join(n.dir, "go.mod"))
		require.NoError(t, err)
		assert.Contains(t, string(gomod), "require github.com/toolgen-go/toolgen v0.2.0\n")
	})
	t.Run("local copy", func(t *testing.T) {
		n := newNewcomer(t)
		for _, line := range []string{readmeReplace, readmeGetTool, readmeGenerate, readmeTidy} {
			n.must(".", line)
		}
		n.upgrade(readmeGetTool)
	})
}

// upgrade turns the scratch module, generated, into one an older toolgen
// generated, shows that go generate and go mod tidy each fail, and
// upgrades it with get (the go get -tool line), go generate and go mod
// tidy.
func (n *newcomer) upgrade(get string) {
	t := n.t
	t.Helper()
	// What the older toolgen left: a file of its layout, with toolgen's
	// header, and go.mod and go.sum without two of today's requirements.
	reg, err := os.ReadFile(filepath.Join(n.dir, "generated", "registry_gen.go"))
	require.NoError(t, err)
	header, _, _ := strings.Cut(string(reg), "\n")
	old := filepath.Join(n.dir, "generated", "codec_gen.go")
	require.NoError(t, os.WriteFile(old, []byte(header+"\n\npackage generated\n\nimport _ \"github.com/toolgen-go/toolgen/runtime/oldcodec\"\n"), 0o644))
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(n.dir, name))
		require.NoError(t, err)
		var kept []string
		for l := range strings.SplitSeq(string(data), "\n") {
			if !strings.Contains(l, "golang.org/x/mod ") && !strings.Contains(l, "golang.org/x/sync ") {
				kept = append(kept, l)
			}
		}
		require.Less(t, len(kept), strings.Count(string(data), "\n")+1, "%s requires golang.org/x/mod and x/sync through toolgen", name)
		n.write(name, strings.Join(kept, "\n"))
	}
	out, err := n.run(".", readmeGenerate)
	require.Error(t, err, "go generate alone cannot build the new toolgen:\n%s", out)
	assert.Regexp(t, `go: updates to go.mod needed|missing go.sum entry`, out, "as the README says")
	out, err = n.run(".", readmeTidy)
	require.Error(t, err, "go mod tidy fails on the old layout's import:\n%s", out)
	assert.Contains(t, out, "runtime/oldcodec")

	n.documented("To upgrade toolgen, run the `go get -tool` line with the version you want (`@latest`; over a local copy, update the copy and run the `@v0.0.0` line again), then `go generate ./...` and `go mod tidy`.")
	for _, line := range []string{get, readmeGenerate, readmeTidy} {
		n.must(".", line)
	}
	_, err = os.Stat(old)
	assert.ErrorIs(t, err, os.ErrNotExist, "go generate removes the file of the old layout")
	assert.Equal(t, twoToolWant, n.must(".", "go run ."))
	n.must(".", "go test ./...")
	assert.Empty(t, n.must("tools", readmeCheck))
}

// TestNewcomerGenerateLine: the //go:generate line a newcomer copies is
// the README section's, which works in their module (TestNewcomerFirstRun
// uses it); this repository's own line, which cannot (issue N, item 2),
// is quoted there with the reason, and tools/doc.go shows the other.
func TestNewcomerGenerateLine(t *testing.T) {
	n := newNewcomer(t)
	assert.Equal(t, "//go:generate go tool toolgen -out ../generated ./...", n.generate)
	src, err := os.ReadFile(filepath.Join(n.root, "tools", "doc.go"))
	require.NoError(t, err)
	own := regexp.MustCompile(`(?m)^//go:generate .*$`).FindString(string(src))
	require.NotEmpty(t, own, "tools/doc.go has no go:generate line")
	if own != n.generate {
		n.documented("This repository's own line, in [tools/doc.go](tools/doc.go), is `" + own + "`: there toolgen is the module's own command, built from source")
		assert.Contains(t, string(src), "\t"+n.generate+"\n", "tools/doc.go must show the line for a module of one's own")
	}
}

// TestNewcomerOldRecipe: a module that followed the old recipe (go.mod
// edited to require, replace and use toolgen, then `go mod tidy`, which
// fails on the import of the registry not yet generated) cannot run
// toolgen: the go command builds it in the module and stops. The README
// names what it says, and its one line (the go get -tool line again)
// repairs the module.
func TestNewcomerOldRecipe(t *testing.T) {
	n := newNewcomer(t)
	n.must(".", "go mod edit -require=github.com/toolgen-go/toolgen@v0.0.0 -replace=github.com/toolgen-go/toolgen=../toolgen -tool=github.com/toolgen-go/toolgen/cmd/toolgen")
	out, err := n.run(".", readmeTidy)
	require.Error(t, err, "go mod tidy must fail on the registry's import:\n%s", out)
	assert.Contains(t, out, "example.com/twotool/generated")

	out, err = n.run(".", readmeGenerate)
	require.Error(t, err, "go generate cannot build toolgen:\n%s", out)
	said := ""
	for _, msg := range []string{"go: updates to go.mod needed", "missing go.sum entry"} {
		if strings.Contains(out, msg) {
			said = msg
			n.documented("If `go generate` stops at `go: updates to go.mod needed` or `missing go.sum entry`")
		}
	}
	require.NotEmpty(t, said, "go generate's failure is not one the README names:\n%s", out)
	n.documented("run the `go get -tool` line again")

	n.must(".", readmeGetTool)
	n.must(".", readmeGenerate)
	assert.Equal(t, twoToolWant, n.must(".", "go run ."))
	n.must(".", readmeTidy)
	n.must(".", "go test ./...")
}

const twoTools = `package tools

import (
	"context"
	"strings"
)

// Echoes its text.
//
//tool:name echo
//tool:readonly
type Echo struct{ Prefix string }

// EchoInput holds the arguments of echo.
type EchoInput struct {
	Text string ` + "`json:\"text\" jsonschema:\"maxLength=10\"`" + `
}

// Call echoes.
func (e Echo) Call(ctx context.Context, in EchoInput) (string, error) {
	return e.Prefix + in.Text, nil
}

// Repeats its text in capitals.
//
//tool:name shout
//tool:readonly
//tool:zerovalue
type Shout struct{}

// ShoutInput holds the arguments of shout.
type ShoutInput struct {
	Text string ` + "`json:\"text\"`" + `
}

// Call shouts.
func (Shout) Call(ctx context.Context, in ShoutInput) (string, error) {
	return strings.ToUpper(in.Text), nil
}
`

const twoToolMain = `package main

import (
	"context"
	"fmt"

	"example.com/twotool/generated"
	"example.com/twotool/generated/toolstools"
	"example.com/twotool/tools"
)

func main() {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{Echo: tools.Echo{Prefix: "echo: "}}})
	if err != nil {
		panic(err)
	}
	for _, c := range [][2]string{{"echo", ` + "`{\"text\":\"hello\"}`" + `}, {"shout", ` + "`{\"text\":\"hello\"}`" + `}, {"echo", ` + "`{\"text\":\"far too long a text\"}`" + `}} {
		res, err := reg.Call(context.Background(), c[0], []byte(c[1]))
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(res.Text())
	}
}
`

const twoToolWant = "echo: hello\nHELLO\nerror: invalid arguments: /text: must be at most 10 characters long\n"

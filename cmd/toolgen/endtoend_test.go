package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEndToEnd uses toolgen as README's "Use toolgen in your module" says,
// in a module of its own outside this repository: it generates a
// registry, builds and runs a program against it, then changes an input
// type without regenerating: go test ./... fails with the freshness
// message until go generate ./... runs again; last, a skill beside the
// tools is compiled in, and a change to it is stale for toolgen -check. It runs offline
// (GOPROXY=off): the modules it needs are this module's, which CI's go mod
// download puts in the module cache.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "TOOLGEN_CACHE="+t.TempDir())
	run := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := run(args...)
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return out
	}
	write := func(name, src string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}

	write("go.mod", "module example.com/e2e\n\ngo 1.26\n")
	// This module's checksums: the go command verifies what it reads from
	// the module cache against them, with no checksum database.
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	write("go.sum", string(sums))
	write("tools/doc.go", "// Package tools holds the tools.\npackage tools\n\n//go:generate go tool toolgen -out ../registry .\n")
	write("tools/echo.go", echoTool)
	must("mod", "edit", "-replace=github.com/toolgen-go/toolgen="+root)
	if out, err := run("get", "-tool", "github.com/toolgen-go/toolgen/cmd/toolgen@v0.0.0"); err != nil {
		t.Fatalf("go get -tool (offline) failed; run go mod download in %s first:\n%s", root, out)
	}

	// (a) generate, build and run.
	must("generate", "./...")
	write("main.go", echoMain) // the program that uses the registry, once it exists
	out := must("run", ".")
	assert.Equal(t, "echo: hello\nerror: invalid arguments: /text: must be at most 10 characters long\n", out)
	must("test", "./...")

	// (b) a stale registry fails the user's tests, until go generate runs.
	write("tools/echo.go", strings.Replace(echoTool, "\tText string", "\tLoud bool `json:\"loud,omitempty\"`\n\tText string", 1))
	out, err = run("test", "./...")
	require.Error(t, err, "go test must fail on a stale registry:\n%s", out)
	assert.Contains(t, out, "tool echo: its input type tools.EchoInput changed since the registry was generated (field Loud added); run go generate")
	must("generate", "./...")
	must("test", "./...")

	// (c) a skill beside the tools is compiled in; a change to its
	// SKILL.md makes toolgen -check fail until go generate runs.
	write("tools/skills/echo-politely/SKILL.md", echoSkill)
	must("generate", "./...")
	must("test", "./...")
	reg, err := os.ReadFile(filepath.Join(dir, "registry", "registry_gen.go"))
	require.NoError(t, err)
	assert.Contains(t, string(reg), `Name:         "echo-politely"`)
	write("tools/skills/echo-politely/SKILL.md", strings.Replace(echoSkill, "Say please.", "Say thank you.", 1))
	out, err = run("tool", "toolgen", "-check", "-out", "registry", "./tools")
	require.Error(t, err, "toolgen -check must fail on a changed skill:\n%s", out)
	assert.Contains(t, out, filepath.Join("registry", "registry_gen.go")+": stale; run go generate")
}

const echoSkill = `---
name: echo-politely
description: Echoes the user's words politely. Use when the user wants to hear themselves.
allowed-tools: echo
---
Say please.
`

const echoTool = `package tools

import "context"

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
`

const echoMain = `package main

import (
	"context"
	"fmt"

	"example.com/e2e/registry"
	"example.com/e2e/registry/toolstools"
	"example.com/e2e/tools"
)

func main() {
	reg, err := registry.New([]registry.Tools{toolstools.Tools{Echo: tools.Echo{Prefix: "echo: "}}})
	if err != nil {
		panic(err)
	}
	for _, args := range []string{` + "`{\"text\":\"hello\"}`, `{\"text\":\"far too long a text\"}`" + `} {
		res, err := reg.Call(context.Background(), "echo", []byte(args))
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(res.Text())
	}
}
`

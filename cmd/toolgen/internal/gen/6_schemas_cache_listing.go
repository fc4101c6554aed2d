package gen

// The scan's listings (scanBootstrapInputs): the bootstrap program's,
// beside go env, and the load's, merged in when the load may select files
// the program's listing leaves out.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// listArgs are go list's arguments for the scan of patterns with flags.
func listArgs(flags, patterns []string) []string {
	args := append([]string{"list", "-e", "-deps", "-json=" + listedFields}, flags...)
	return append(append(args, "--"), patterns...)
}

// scanGoEnv is what the scan reads of go env.
type scanGoEnv struct{ GOFLAGS, GOOS, GOARCH string }

// listProgram runs go env in env, and go list -deps over patterns as the
// bootstrap program is built (bootstrapBuildFlags, bootstrapEnv), side by
// side: the listing takes GOFLAGS from env, and runs again when go env
// reports other tags (the go env file sets GOFLAGS). It returns go env's
// output (stableEnv), what the scan reads of it, and the listing.
func listProgram(ctx context.Context, dir string, patterns, buildFlags, env []string) ([]byte, scanGoEnv, []byte, error) {
	var goEnv scanGoEnv
	list := func(goflags string) ([]string, []byte, error) {
		flags := bootstrapBuildFlags(buildFlags, goflags)
		out, err := goOutput(ctx, dir, bootstrapEnv(env), listArgs(flags, patterns)...)
		return flags, out, err
	}
	var envOut []byte
	var envErr error
	envDone := make(chan struct{})
	go func() {
		defer close(envDone)
		envOut, envErr = goOutput(ctx, dir, env, "env", "-json")
	}()
	flags, listOut, err := list(lookupEnv(env, "GOFLAGS"))
	<-envDone
	if err = errors.Join(err, envErr); err != nil {
		return nil, goEnv, nil, err
	}
	if err := json.Unmarshal(envOut, &goEnv); err != nil {
		return nil, goEnv, nil, fmt.Errorf("reading go env's output: %w", err)
	}
	if envOut, err = stableEnv(envOut); err != nil {
		return nil, goEnv, nil, err
	}
	if !slices.Equal(flags, bootstrapBuildFlags(buildFlags, goEnv.GOFLAGS)) {
		if _, listOut, err = list(goEnv.GOFLAGS); err != nil {
			return nil, goEnv, nil, err
		}
	}
	return envOut, goEnv, listOut, nil
}

// decodeListing reads go list -json's output.
func decodeListing(out []byte) ([]*listedPackage, error) {
	var pkgs []*listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		p := new(listedPackage)
		if err := dec.Decode(p); err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// addLoadListing merges the load's listing into the bootstrap program's
// (scanBootstrapInputs): a package in both gets the hash of both
// listings' hashes and the union of their imports, a package in the
// load's alone its own hash, under a mark of its own.
func (in *bootstrapInputs) addLoadListing(listed []*listedPackage) error {
	in.loadListed = true
	for _, lp := range listed {
		var sum []byte
		if !lp.Standard {
			s, _, err := lp.hash()
			if err != nil {
				return err
			}
			sum = s
		}
		path := lp.ImportPath
		bp, ok := in.pkgs[path]
		if !ok {
			in.pkgs[path] = lp
			in.order = append(in.order, path)
			if sum != nil {
				both := sha256.Sum256(append([]byte("load\x00"), sum...))
				in.hashes[path] = both[:]
			}
			continue
		}
		for _, imp := range lp.Imports {
			if !slices.Contains(bp.Imports, imp) {
				bp.Imports = append(bp.Imports, imp)
			}
		}
		if sum != nil || in.hashes[path] != nil {
			both := sha256.Sum256(append(append(append([]byte("both\x00"), in.hashes[path]...), 0), sum...))
			in.hashes[path] = both[:]
		}
	}
	return nil
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// startCPUProfile starts a CPU profile written to path and returns the
// function that stops it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// cacheSetting turns the value of TOOLGEN_CACHE into the bootstrap cache's
// directory and toolgen's identity: "off" turns the cache off, "" means
// the user's cache directory (os.UserCacheDir()/toolgen), anything else
// is the directory. The identity is the SHA-256 of the running
// executable, which under go run is the binary the go command just built:
// it changes with any change to toolgen or its dependencies. When either
// cannot be found the cache is off, and a note says why.
func cacheSetting(setting string, stderr io.Writer) (dir, identity string) {
	if setting == "off" {
		return "", ""
	}
	dir = setting
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: no cache (set TOOLGEN_CACHE to a directory, or to off): %v\n", err)
			return "", ""
		}
		dir = filepath.Join(base, "toolgen")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: no cache: %v\n", err)
		return "", ""
	}
	identity, err = executableHash()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: no cache: cannot identify this toolgen build: %v\n", err)
		return "", ""
	}
	return dir, identity
}

// executableHash is the hex SHA-256 of the running executable's content.
func executableHash() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

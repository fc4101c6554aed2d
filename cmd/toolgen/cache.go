package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
)

// cacheMaxEnv names the environment variable that bounds the cache's size.
const cacheMaxEnv = "TOOLGEN_CACHE_MAX"

// cacheMaxSize is the size bound of the cache in bytes that setting, the
// value of TOOLGEN_CACHE_MAX, asks for: a number of bytes, or of K, M or G
// (powers of 1024), such as 512M or 2G; "" is cache.DefaultMaxSize.
func cacheMaxSize(setting string) (int64, error) {
	s := strings.TrimSpace(setting)
	if s == "" {
		return cache.DefaultMaxSize, nil
	}
	unit := int64(1)
	if n := len(s); n > 0 {
		switch strings.ToUpper(s[n-1:]) {
		case "K":
			unit = 1 << 10
		case "M":
			unit = 1 << 20
		case "G":
			unit = 1 << 30
		}
		if unit > 1 {
			s = s[:n-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/unit {
		return 0, fmt.Errorf("%s=%q: want a size in bytes, or with K, M or G, such as 512M or 2G", cacheMaxEnv, setting)
	}
	return n * unit, nil
}

// cacheFlags checks -cache's value op and returns the size bound
// TOOLGEN_CACHE_MAX sets, or says what is wrong and reports false.
func cacheFlags(op string, stderr io.Writer) (int64, bool) {
	if op != "" && op != "clean" && op != "trim" {
		fmt.Fprintf(stderr, "toolgen: -cache=%s: want clean or trim\n", op)
		return 0, false
	}
	maxSize, err := cacheMaxSize(os.Getenv(cacheMaxEnv))
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 0, false
	}
	return maxSize, true
}

// checkCache opens the cache directory dir ("" is no cache) and says once
// on stderr when it cannot serve: a file there, or a directory that cannot
// be created, turns the cache off; a directory toolgen cannot write to is
// read, but stores nothing. It returns the directory the run uses and
// whether entries can be stored there.
func checkCache(dir string, stderr io.Writer) (string, bool) {
	if dir == "" {
		return "", false
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		fmt.Fprintf(stderr, "toolgen: no cache: %s is a file, not a directory (set TOOLGEN_CACHE to a directory, or to off)\n", dir)
		return "", false
	}
	c, err := cache.Open(dir)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: no cache: %v (set TOOLGEN_CACHE to a directory, or to off)\n", err)
		return "", false
	}
	if err := c.Writable(); err != nil {
		fmt.Fprintf(stderr, "toolgen: the cache in %s is read-only: it is read, and nothing is stored (%v)\n", dir, unwrapPath(err))
		return dir, false
	}
	return dir, true
}

// unwrapPath is err without the path of a *os.PathError: the probe's
// temporary file name means nothing to the user.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// trimCache trims the cache in dir, at most once a day (cache.Trim); a
// failed trim is left to the next one.
func trimCache(dir string, maxSize int64) {
	if dir == "" {
		return
	}
	if c, err := cache.Open(dir); err == nil {
		c.Trim(maxSize)
	}
}

// cacheCommand is -cache=op: clean removes every entry, trim removes the
// unused ones and trims to the size bound now. It says what it removed.
func cacheCommand(op, dir string, maxSize int64, stdout, stderr io.Writer) int {
	if dir == "" {
		fmt.Fprintln(stderr, "toolgen: -cache: there is no cache (TOOLGEN_CACHE is off, or the cache cannot be used)")
		return exitProblems
	}
	c, err := cache.Open(dir)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: -cache: %v\n", err)
		return exitProblems
	}
	var removed cache.Removed
	switch op {
	case "clean":
		removed, err = c.Clean()
	case "trim":
		removed, err = c.TrimNow(maxSize)
	}
	fmt.Fprintf(stdout, "toolgen: removed %d cache files (%.1f MB) from %s\n", removed.Entries, float64(removed.Bytes)/(1<<20), dir)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: -cache=%s: %v\n", op, err)
		return exitProblems
	}
	return exitOK
}

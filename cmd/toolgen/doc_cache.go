// # Cache and timings
//
// toolgen caches by content, in three layers. The whole output first: a
// run whose inputs are unchanged returns the stored files, loading,
// checking, reflecting and rendering nothing. Its key hashes toolgen's
// executable, go env and its file, the directory, -out, -pkg, -tags, the
// patterns, the skills folders, any other file a directive names, and the
// non-test Go files (whatever their tags), other source and embedded
// files, go.mod and main go.sum of every package the tools packages and
// the bootstrap program import, as the load (GOFLAGS, -tags, GOOS, GOARCH)
// and the program (those tags and toolgen, here) select them (the standard
// library by GOROOT and GOVERSION: clear the cache after editing GOROOT).
//
// On a miss, the schemas are kept per tools package under the same inputs
// restricted to its import closure and the types asked for: those derived
// from source (static/), and those of the bootstrap program, also under
// their doc comments and the program's source (a hook reading a file, or
// an environment variable other than go env's, must run with the cache
// off). Then the generated files (format/): each unit's (tools packages
// sharing codec packages: its codec packages, providers file and
// fresh_<name>codec_gen_test.go) under the SHA-256 of what they are made
// of, found for an unchanged unit by its packages' files (unitsource/);
// the others by their source. Imports load from export data (export/).
//
// The cache lives in os.UserCacheDir()/toolgen or TOOLGEN_CACHE (off:
// none; a file there, or a directory toolgen can only read, is said once
// on standard error); concurrent runs share it; entries are checked when
// read. After a run, at most once a day (trim.txt), entries unused for
// five days go, then the least recently used while over TOOLGEN_CACHE_MAX
// (default 1G; bytes, K, M or G); -cache=trim trims now, -cache=clean empties.
//
// -timings prints each phase's wall time as it ends: cache hit or miss
// (go list, go env, hashing the inputs), load (parsing, type-checking),
// model (directives, model, shapes, skills), comments, static schemas,
// cache lookup and bootstrap build and run (when an entry is missing),
// schemas, plan (the units and their keys), render (the codecs of the
// units not cached, each planned as it is printed), cache store, write,
// and the total.
//
// Memory. A unit's plan is held only while its files are printed, by one
// of GOMAXPROCS workers, and the parsed source of the tools packages is
// dropped once the schemas are derived; what grows with the catalog is its
// types, its model and the generated files, held until they are written.
// toolgen runs with GOGC=400 and a soft memory limit of 896 MiB unless the
// environment sets GOGC or GOMEMLIMIT: a catalog of 10,000 tools stays
// under the limit (bench/README.md), a small one never reaches it, and one
// whose live heap exceeds it still runs, the collector's share of the CPU
// capped by the Go runtime.
package main

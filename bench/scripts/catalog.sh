#!/usr/bin/env bash
# catalog.sh measures toolgen at catalog scale on a synthetic module of
# 1,000 annotated tools across 20 packages, written afresh into a temporary
# directory by ./synth (never committed):
#
#   1. toolgen's wall and CPU time and peak RSS (/usr/bin/time -v: the
#      largest of toolgen and the processes it runs), with its -timings
#      phases, cold (empty toolgen cache), warm, and after a one-field
#      change;
#   2. the time to compile the generated packages into a program, and the
#      binary size per tool;
#   3. the start-up of a program that builds and lists the registry against
#      an empty Go program (hyperfine, or /usr/bin/time over many runs);
#   4. the catalog benchmarks (building the registry, listing it, encoding
#      the tools list, copying precomputed list bytes, one call).
#
# NESTED=1 writes the nested catalog instead (synth -nested: three tools in
# four take a nested struct, a slice of structs or both) and, between 1 and
# 2, builds side by side the program that lists the toolgen registry and
# the program that registers the same types with the MCP Go SDK's
# mcp.AddTool (./buildcost: BUILDS interleaved builds of each, 3 by
# default, every one from a build cache holding only the dependencies;
# wall time, the compiler's and the linker's peak RSS, the generated Go's
# size (the registry and its codec packages, which the program compiles),
# and the ratios).
#
# Usage: scripts/catalog.sh [packages [tools-per-package]]  (from bench/)
# KEEP=1 keeps the temporary directory; RUNS sets the start-up runs (500),
# COUNT the runs of the catalog benchmarks (6), BUILDS the builds of each
# program with NESTED=1 (3).
set -euo pipefail

packages=${1:-20}
per=${2:-50}
runs=${RUNS:-500}
bench=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$bench/.." && pwd)
work=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then
	echo "keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

cd "$bench"
nested=()
if [ "${NESTED:-}" = 1 ]; then
	nested=(-nested)
fi
go run ./scripts/synth -out "$work/synth" -repo "$repo" -packages "$packages" -tools "$per" "${nested[@]}"
cd "$work/synth"
go mod tidy -e >/dev/null 2>&1 || true
go build -o "$work/toolgen" github.com/toolgen-go/toolgen/cmd/toolgen

# toolgen's times: the bootstrap cache (TOOLGEN_CACHE) in $work. A first
# run warms the Go build cache (the tools packages, the bootstrap's
# dependencies); then "cold" is a run with an empty toolgen cache and that
# warm build cache, "warm" a run on the unchanged module, and "one field"
# a run after adding a field to one struct of one package. Each deletes
# the generated files first, so that every run writes them all.
export TOOLGEN_CACHE="$work/toolgen-cache"
"$work/toolgen" -out generated ./tools/...
total=$((packages * per))
# summary KEY VALUE appends a line to $SUMMARY, when set (scripts/growth.sh
# reads it).
summary() {
	if [ -n "${SUMMARY:-}" ]; then echo "$1 $2" >>"$SUMMARY"; fi
}
seconds() { # h:mm:ss or m:ss(.ss) -> seconds
	echo "$1" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }'
}
toolgen_run() { # label [summary key]
	rm -rf generated/registry_gen.go generated/internal generated/tools.json
	if ! /usr/bin/time -v "$work/toolgen" -timings -out generated ./tools/... 2>"$work/toolgen.time"; then
		cat "$work/toolgen.time" >&2
		exit 1
	fi
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/toolgen.time")
	cpu=$(sed -n 's/.*User time (seconds): //p; s/.*System time (seconds): //p' "$work/toolgen.time" | paste -sd+ | bc | xargs printf "%.2f")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/toolgen.time")
	phases=$(sed -n 's/^toolgen: \([a-z ]*[a-z]\) *\([0-9.]*\) s$/\1 \2/p' "$work/toolgen.time" | paste -sd, | sed 's/,/, /g')
	echo "$1: wall $wall, CPU $cpu s, peak RSS $((rss / 1024)) MiB; phases (s): $phases"
	if [ -n "${2:-}" ]; then
		summary "toolgen_${2}_s" "$(seconds "$wall")"
		summary "toolgen_${2}_rss_mib" "$((rss / 1024))"
	fi
}
echo
echo "## toolgen on $total tools in $packages packages (Go build cache warm)"
rm -rf "$TOOLGEN_CACHE"
toolgen_run "cold (toolgen cache empty)" cold
toolgen_run "warm" warm
edited=$(grep -rlP '^\tLimit int ' tools | sort | head -1)
cp "$edited" "$work/edited.go"
perl -0pi -e 's/(\n\tLimit int [^\n]*\n)/$1\tExtra bool `json:"extra,omitempty"`\n/' "$edited"
toolgen_run "one field added in $edited" onefield
cp "$work/edited.go" "$edited"
"$work/toolgen" -out generated ./tools/...

if [ "${NESTED:-}" = 1 ]; then
	echo
	echo "## building the toolgen program and the MCP SDK program side by side"
	(cd "$bench" && go run ./scripts/buildcost -dir "$work/synth" -count "${BUILDS:-3}" \
		'toolgen=./cmd/list:generated/*.go,generated/internal/...' 'sdk=./cmd/sdk:sdk/*/*.go')
fi

# Compile the generated packages (new to the cache) into the list program.
/usr/bin/time -f "%e %M" -o "$work/build.time" go build -o bin/list ./cmd/list
read -r build_s build_kb <"$work/build.time"
go build -o bin/empty ./cmd/empty
go build -o bin/hello ./cmd/hello
go build -o bin/none ./cmd/none
size_list=$(stat -c %s bin/list)
size_none=$(stat -c %s bin/none)
size_empty=$(stat -c %s bin/empty)
# The generated Go but the tests: what bin/list compiles (the registry and
# its codec packages under generated/internal/), and the providers package.
list_go=$(find generated -name '*.go' ! -name '*_test.go' ! -path 'generated/providers/*')
gen_files=$(echo "$list_go" | wc -l)
gen_bytes=$(echo "$list_go" | xargs cat | wc -c)
prov_bytes=$(find generated/providers -name '*.go' ! -name '*_test.go' -exec cat {} + | wc -c)

echo
echo "## compiling the generated packages into a program (warm cache otherwise)"
echo "generated Go: $((gen_bytes / 1024)) KiB in $gen_files files (providers package: $((prov_bytes / 1024)) KiB); compiling it into bin/list: ${build_s} s, peak RSS $((build_kb / 1024)) MiB"
echo "binaries: empty $size_empty B, runtime with an empty registry $size_none B, list $size_list B"
echo "binary size per tool: $(((size_list - size_none) / total)) B"
summary gen_kib "$((gen_bytes / 1024))"
summary build_s "$build_s"
summary build_rss_mib "$((build_kb / 1024))"
summary bin_per_tool_b "$(((size_list - size_none) / total))"

echo
echo "## start-up: ./bin/list (builds and lists $total tools) vs ./bin/empty"
./bin/list
if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 20 --runs "$runs" --export-json "$work/startup.json" ./bin/empty ./bin/hello ./bin/none ./bin/list
	python3 - "$work/startup.json" <<'PY' || true
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
e, h = r["./bin/empty"], r["./bin/hello"]
for name in ("./bin/hello", "./bin/none", "./bin/list"):
    x = r[name]
    print(f"{name}: mean {x['mean']*1e3:.2f} ms, median {x['median']*1e3:.2f} ms, user {x['user']*1e3:.2f} ms; "
          f"ratio to empty: mean {x['mean']/e['mean']:.2f}, median {x['median']/e['median']:.2f}; "
          f"to hello: median {x['median']/h['median']:.2f}")
print(f"./bin/empty: mean {e['mean']*1e3:.2f} ms, median {e['median']*1e3:.2f} ms, user {e['user']*1e3:.2f} ms")
import os
if os.environ.get("SUMMARY"):
    with open(os.environ["SUMMARY"], "a") as f:
        for name, x in r.items():
            f.write(f"startup_{name.removeprefix('./bin/')}_ms {x['median']*1e3:.2f}\n")
PY
else
	for b in empty hello none list; do
		start=$(date +%s%N)
		for _ in $(seq "$runs"); do ./bin/$b >/dev/null; done
		end=$(date +%s%N)
		echo "$b: $(((end - start) / runs / 1000)) µs per run over $runs runs"
		summary "startup_${b}_ms" "$(awk -v n=$(((end - start) / runs)) 'BEGIN { printf "%.2f", n / 1e6 }')"
	done
fi
for b in empty hello none list; do
	/usr/bin/time -f "$b: peak RSS %M KiB, %R minor page faults" ./bin/$b >/dev/null
done

echo
if [ "${COUNT:-6}" = 0 ]; then
	exit 0
fi
echo "## catalog benchmarks"
go test -run='^$' -bench=. -benchmem -count="${COUNT:-6}" ./generated/ | tee "$work/catalog.txt"

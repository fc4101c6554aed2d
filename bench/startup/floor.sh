#!/usr/bin/env bash
# floor.sh measures what linked code costs a Go program at start-up before
# any of it runs: it writes the synthetic programs of ./startup/floor
# (hello, funcs, text, data, regexp) into DIR, builds them, and runs them
# with ./startup beside the codeonly and list programs of a catalog that
# startup/programs.sh built (optional), all as copies of what go build
# wrote (see programs.sh on why copies).
#
# Usage (from bench/): startup/floor.sh DIR [CATALOG] [runs]
set -euo pipefail

dir=$1
catalog=${2:-}
runs=${3:-400}
bench=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
(cd "$bench" && go run ./startup/floor -out "$dir" && go build -o "$dir/bin/startup" ./startup)
cd "$dir"
progs=()
for p in hello funcs text data regexp; do
	go build -o "bin/$p" "./cmd/$p"
	rm -f "bin/c-$p"
	cp "bin/$p" "bin/c-$p"
	progs+=("./bin/c-$p")
done
if [[ -n $catalog ]]; then
	for p in codeonly list; do
		rm -f "bin/c-cat-$p"
		cp "$catalog/bin/$p" "bin/c-cat-$p"
		progs+=("./bin/c-cat-$p")
	done
fi
for p in "${progs[@]}"; do
	echo "$p: $(stat -c %s "$p") B, $(go tool nm "$p" 2>/dev/null | grep -c ' T ') functions," \
		"$(size -A "$p" | awk '$1 == ".text" || $1 == ".data" || $1 == ".gopclntab" {printf "%s %d ", $1, $2}')"
done
./bin/startup -runs "$runs" "${progs[@]}"

#!/usr/bin/env bash
# pairs.sh times two toolgen builds side by side on the nested catalog of
# P packages of T tools (scripts/synth -nested), each with a cache of its
# own, ROUNDS rounds (3) of pairs whose order alternates from round to
# round, so that load on the machine hits both alike:
#
#   scripts/pairs.sh OLD NEW P T      OLD and NEW: toolgen executables
#                                     (go build -o ... ./cmd/toolgen in
#                                     each checkout)
#
# CASES picks the cases ("cold onefield warm" by default):
#
#   cold      new to toolgen's cache: the cache emptied and the generated
#             registry, codec packages and tools.json deleted first;
#   onefield  after adding a field, with a new name each run, to the
#             first package's first search input (as layers.sh does),
#             every cache layer warm;
#   warm      nothing changed (the output cache answers).
#
# Each run prints its wall and CPU seconds (user+system, toolgen and its
# go commands), its peak RSS (MiB), the load average when it started and
# toolgen's -timings phases; after both runs of every pair, the generated
# directories are compared (diff -r): the two builds must write the same
# bytes. KEEP=1 keeps the temporary directory.
set -euo pipefail

old=$(realpath "${1:?old toolgen}")
new=$(realpath "${2:?new toolgen}")
packages=${3:?packages}
per=${4:?tools per package}
rounds=${ROUNDS:-3}
cases=${CASES:-cold onefield warm}
bench=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$bench/.." && pwd)
work=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then
	echo "keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

(cd "$bench" && go run ./scripts/synth -out "$work/synth" -repo "$repo" -packages "$packages" -tools "$per" -nested >/dev/null)
mod="$work/synth"
# Without it the cache's go list fails and most layers are off.
(cd "$mod" && go mod tidy -e >/dev/null 2>&1 || true)
edited=$(cd "$mod" && grep -rlP '^\tLimit int ' tools | sort | head -1)
edited="$mod/$edited"

edits=0
edit() { # adds a field never seen before to the edited struct
	edits=$((edits + 1))
	perl -0pi -e "s/(\tLimit int [^\n]*\n)/\$1\tPairs$edits bool \`json:\"pairs$edits,omitempty\"\`\n/" "$edited"
}
clean() {
	rm -rf "$mod/generated/registry_gen.go" "$mod/generated/internal" "$mod/generated/tools.json"
}
run() { # which case -> "wall cpu peak | phases"
	local bin=$old
	[ "$1" = new ] && bin=$new
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	if [ "$2" = cold ]; then
		rm -rf "$work/cache-$1"
		clean
	fi
	(cd "$mod" && TOOLGEN_CACHE="$work/cache-$1" /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" -timings -out generated ./tools/... >/dev/null 2>"$work/err") ||
		{ cat "$work/err" "$work/time" >&2; exit 1; }
	local phases
	phases=$(sed -n 's/^toolgen: \([a-z ]*[a-z]\) *\([0-9.]*\) s$/\1 \2;/p' "$work/err" | tr '\n' ' ')
	tail -1 "$work/time" | awk -v l="$load" -v p="$phases" '{ printf "%.2f s, %.2f s CPU, %d MiB (load %s) | %s", $1, $2 + $3, $4 / 1024, l, p }'
	rm -rf "$work/out-$1"
	cp -r "$mod/generated" "$work/out-$1"
}

# Warm both caches: a cold run, a one-field run, a warm one.
for which in old new; do
	run $which cold >/dev/null
	edit
	run $which onefield >/dev/null
	run $which warm >/dev/null
done

echo "## nested catalog of $((packages * per)) tools: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "## old: $old"
echo "## new: $new"
for c in $cases; do
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
		[ "$c" = onefield ] && edit
		for which in $order; do
			res=$(run $which $c)
			echo "$c round $r $which: $res"
		done
		diff -r "$work/out-old" "$work/out-new" >/dev/null || { echo "$c round $r: the generated files differ" >&2; exit 1; }
	done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

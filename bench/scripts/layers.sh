#!/usr/bin/env bash
# layers.sh measures what each layer of the toolgen cache saves: for each
# layer, the run it serves (its case) with the layer on and with it off
# (TOOLGEN_CACHE_SKIP=<layer>, which turns that layer alone off, for
# measurement), ROUNDS rounds (3) of side-by-side pairs, the order of each
# pair alternating from round to round. Every other layer is on and warm.
#
#   scripts/layers.sh sample             the sample tools (./tools/... of a
#                                        copy of this repository)
#   scripts/layers.sh catalog P T        the nested catalog of P packages
#                                        of T tools (scripts/synth -nested)
#
# The cases: "warm" is a run with nothing changed (the output layer);
# "one field" is a run after adding a field, a new one each run, to one
# struct: in the sample, of clock_now's output (tools/clock: no schema
# hooks, so a run with the bootstrap layer on runs no bootstrap program,
# notes' and weather's schemas come from the cache) or, with EDIT=notes,
# of notes_update's input (tools/notes, whose types have schema hooks:
# the bootstrap program runs either way, for notes), of the first
# package's first search tool in a catalog (no catalog type has a hook:
# the static path derives every schema), so the whole-output entry misses
# and the other layers answer for every package but the changed one.
# LAYERS picks the layers (all eight by default), KEEP=1 keeps the
# temporary directory. It prints, per layer,
# the wall and CPU (user+system) seconds of each run and their means, the
# saving, (off - on) / off, of the means, and the median of the pairs'
# savings (wall).
set -euo pipefail

rounds=${ROUNDS:-3}
layers=${LAYERS:-output recent export static bootstrap units unitsource format}
bench=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$bench/.." && pwd)
work=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then
	echo "keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

case "${1:-}" in
sample)
	git -C "$repo" archive HEAD | tar -x -C "$work" --one-top-level=src
	mod="$work/src"
	rundir="$mod/tools"
	args=(-out ../generated ./...)
	if [ "${EDIT:-}" = notes ]; then
		edited="$mod/tools/notes/tool_update.go"
		anchor='\tData any `json:"data,omitempty"`\n'
		label="sample tools, field added to notes (schema hooks)"
	else
		edited="$mod/tools/clock/now.go"
		anchor='\tZone string `json:"zone"`\n'
		label="sample tools, field added to clock (no schema hooks)"
	fi
	;;
catalog)
	packages=${2:?packages}
	per=${3:?tools per package}
	(cd "$bench" && go run ./scripts/synth -out "$work/synth" -repo "$repo" -packages "$packages" -tools "$per" -nested)
	mod="$work/synth"
	(cd "$mod" && go mod tidy -e >/dev/null 2>&1 || true)
	rundir="$mod"
	args=(-out generated ./tools/...)
	edited=$(cd "$mod" && grep -rlP '^\tLimit int ' tools | sort | head -1)
	edited="$mod/$edited"
	anchor='\tLimit int [^\n]*\n'
	label="nested catalog of $((packages * per)) tools"
	;;
*)
	echo "usage: scripts/layers.sh sample | catalog packages tools-per-package" >&2
	exit 2
	;;
esac
(cd "$mod" && go build -o "$work/toolgen" github.com/toolgen-go/toolgen/cmd/toolgen)
export TOOLGEN_CACHE="$work/cache"

edits=0
edit() { # adds a field never seen before to the edited struct
	edits=$((edits + 1))
	perl -0pi -e "s/($anchor)/\$1\tLayers$edits bool \`json:\"layers$edits,omitempty\"\`\n/" "$edited"
}
run() { # skip -> "wall cpu"
	(cd "$rundir" && TOOLGEN_CACHE_SKIP="$1" /usr/bin/time -f "%e %U %S" -o "$work/time" "$work/toolgen" "${args[@]}" >/dev/null 2>"$work/err") ||
		{ cat "$work/err" "$work/time" >&2; exit 1; }
	tail -1 "$work/time" | awk '{ printf "%.2f %.2f", $1, $2 + $3 }'
}
# Warm every layer: a cold run, a one-field run, a warm one.
run "" >/dev/null
edit
run "" >/dev/null
run "" >/dev/null

echo "## $label: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for layer in $layers; do
	caseName="one field"
	[ "$layer" = output ] && caseName="warm"
	on=() off=()
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) = 1 ]; then order="on off"; else order="off on"; fi
		for which in $order; do
			[ "$caseName" = "one field" ] && edit
			if [ "$which" = on ]; then on+=("$(run "")"); else off+=("$(run "$layer")"); fi
		done
	done
	printf '%s\n' "${on[@]}" >"$work/on"
	printf '%s\n' "${off[@]}" >"$work/off"
	paste -d' ' "$work/on" "$work/off" | awk -v layer="$layer" -v c="$caseName" '
		{ won += $1; con += $2; woff += $3; coff += $4; runs = runs sprintf(" %s/%s", $1, $3); s[NR] = 1 - $1 / $3 }
		END {
			n = NR; won /= n; con /= n; woff /= n; coff /= n
			# the median of the pairs savings (wall)
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
			med = n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
			printf "%s (%s): wall on %.2f s, off %.2f s, saving %.2f (pairs median %.2f); CPU on %.2f s, off %.2f s, saving %.2f; runs on/off (wall):%s\n",
				layer, c, won, woff, (woff - won) / woff, med, con, coff, (coff - con) / coff, runs
		}'
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

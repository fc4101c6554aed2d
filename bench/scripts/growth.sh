#!/usr/bin/env bash
# growth.sh runs scripts/catalog.sh at several catalog sizes and prints how
# each measure grows with the number of tools: toolgen's wall time (warm
# and cold cache, peak RSS), the compile of the generated code into a
# program (wall, the compiler's peak RSS), the generated Go's size, the
# binary size per tool and the start-up of the program that lists the
# registry.
#
# Usage: scripts/growth.sh [packages...]   (from bench/; 50 tools each)
# The default, 2 20 200, is 100, 1,000 and 10,000 tools. NESTED=1 uses the
# nested catalog. Every size's full output is kept in $OUT (default a
# temporary directory) as catalog-N.txt. COUNT runs of the catalog
# benchmarks at each size (0: none), RUNS start-ups of each program (200).
set -euo pipefail

bench=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then
	sizes=(2 20 200)
fi
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
echo "outputs in $out"
cd "$bench"
for p in "${sizes[@]}"; do
	n=$((p * 50))
	echo "== $n tools"
	SUMMARY="$out/summary-$n.txt" COUNT=${COUNT:-0} RUNS=${RUNS:-200} \
		scripts/catalog.sh "$p" 50 2>&1 | tee "$out/catalog-$n.txt"
done
python3 - "$out" "${sizes[@]}" <<'PY'
import sys
out, sizes = sys.argv[1], [int(s) * 50 for s in sys.argv[2:]]
rows = {}
for n in sizes:
    d = {}
    for line in open(f"{out}/summary-{n}.txt"):
        k, v = line.split(None, 1)
        d[k] = v.strip()
    rows[n] = d
keys = [
    ("toolgen_warm_s", "toolgen, warm cache (s)"),
    ("toolgen_cold_s", "toolgen, new to the cache (s)"),
    ("toolgen_warm_rss_mib", "toolgen peak RSS, warm (MiB)"),
    ("toolgen_onefield_s", "toolgen after a one-field change (s)"),
    ("gen_kib", "generated Go (KiB)"),
    ("build_s", "compiling the generated code into a program (s)"),
    ("build_rss_mib", "compiler peak RSS (MiB)"),
    ("bin_per_tool_b", "binary size per tool (B)"),
    ("startup_list_ms", "start-up, listing every tool (ms)"),
    ("startup_hello_ms", "start-up of a fmt.Println program (ms)"),
]
print()
print("| measure | " + " | ".join(f"{n:,} tools" for n in sizes) + " | last step (×) |")
print("|---|" + "---:|" * (len(sizes) + 1))
for n in sizes:
    try:
        rows[n]["startup_ratio"] = f'{float(rows[n]["startup_list_ms"]) / float(rows[n]["startup_hello_ms"]):.2f}'
    except (KeyError, ValueError, ZeroDivisionError):
        pass
keys.append(("startup_ratio", "start-up ÷ fmt.Println's"))
for k, label in keys:
    vals = [rows[n].get(k, "") for n in sizes]
    g = ""
    try:
        a, b = float(vals[-2]), float(vals[-1])
        g = f"{b / a:.1f}" if a else ""
    except (ValueError, IndexError):
        pass
    print(f"| {label} | " + " | ".join(vals) + f" | {g} |")
PY

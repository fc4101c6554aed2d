#!/usr/bin/env bash
# programs.sh builds, in a synthetic catalog that ./scripts/synth wrote and
# toolgen generated (generated/ up to date), the programs that split the
# start-up of the program listing the registry into its parts, and
# measures them side by side with ./startup:
#
#   hello     prints a line with fmt (the goal's reference);
#   none      the runtime with an empty registry (cmd/none);
#   codeonly  links every codec package's Call function (the tools' code)
#             but no registry, spec table or schema, and runs none of it:
#             the same amount of code, none of toolgen's data;
#   nocall    links the registry (its spec table, dispatch and codecs) but
#             never calls New;
#   list      builds the registry and sums its tools' input schema sizes
#             (cmd/list, what catalog.sh measures);
#   list-sw   list linked with -ldflags='-s -w' (no symbol table or DWARF).
#
# Each program is measured as a copy (cp) of what go build wrote: a copy
# starts 0.7–0.8 ms faster than the file the linker wrote, with the same
# bytes (bench/README.md, "Start-up, fourth round"), so programs compared
# must all be copies or all be built.
#
# Usage (from bench/): startup/programs.sh CATALOG [runs]
# With BUILD_ONLY=1 it builds and copies the programs (bin/c-*) without
# measuring them: startup/compare.sh measures two catalogs' together.
set -euo pipefail

cat=$(cd "$1" && pwd)
runs=${2:-400}
bench=$(cd "$(dirname "$0")/.." && pwd)
(cd "$bench" && go build -o "$cat/bin/startup" ./startup)
cd "$cat"
mkdir -p bin cmd/nocall cmd/codeonly generated/codeonly

cat >cmd/nocall/main.go <<'GO'
// Command nocall links the registry but never builds it.
package main

import (
	"fmt"
	"os"

	"example.com/synth/generated"
	"example.com/synth/sets"
)

func main() {
	if len(os.Args) > 5 {
		reg, err := generated.New(sets.All())
		fmt.Println(len(reg.Tools()), err)
		return
	}
	fmt.Println(0, 0)
}
GO

# codeonly references every Call function of the codec packages (what the
# set packages' dispatch calls) behind a branch never taken; it lives under
# generated/ since the codec packages are internal to it.
{
	echo '// Package codeonly links the codec packages without the registry.'
	echo 'package codeonly'
	echo
	echo 'import ('
	echo '	"fmt"'
	echo '	"os"'
	echo
	cat generated/*tools/tools_gen.go | grep -o 'example.com/synth/generated/internal/p[0-9]*codec' | sort -u | sed 's/.*/	"&"/'
	echo ')'
	echo
	echo '// Run prints a line; with more than five arguments, the Call functions.'
	echo 'func Run() {'
	echo '	if len(os.Args) > 5 {'
	echo '		fmt.Println('
	cat generated/*tools/tools_gen.go | grep -oE 'p[0-9]+codec\.Call[A-Za-z0-9_]+' | sort -u | sed 's/.*/			&,/'
	echo '		)'
	echo '		return'
	echo '	}'
	echo '	fmt.Println(0, 0)'
	echo '}'
} >generated/codeonly/codeonly.go
cat >cmd/codeonly/main.go <<'GO'
// Command codeonly links the tools' code but no registry.
package main

import "example.com/synth/generated/codeonly"

func main() { codeonly.Run() }
GO

for p in hello none codeonly nocall list; do
	go build -o "bin/$p" "./cmd/$p"
done
go build -ldflags='-s -w' -o bin/list-sw ./cmd/list
for p in hello none codeonly nocall list list-sw; do
	echo "$p: $(stat -c %s "bin/$p") B, $(go tool nm "bin/$p" 2>/dev/null | grep -c ' T ') functions"
	rm -f "bin/c-$p"
	cp "bin/$p" "bin/c-$p"
done
if [ "${BUILD_ONLY:-}" = 1 ]; then
	exit 0
fi
./bin/startup -runs "$runs" ./bin/c-hello ./bin/c-none ./bin/c-codeonly ./bin/c-nocall ./bin/c-list ./bin/c-list-sw

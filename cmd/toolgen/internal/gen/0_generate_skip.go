package gen

import (
	"os"
	"strings"
)

// cacheSkipEnv names the environment variable that turns single layers
// of the toolgen cache off, for measurement only (bench/README.md, "Cache
// layers, what each saves"): a comma-separated list of layer names,
// each layer's directory in the cache (cacheLayers). A layer turned off
// neither finds nor stores entries; the others work as usual, and the
// output is the same. An unknown name is ignored.
const cacheSkipEnv = "TOOLGEN_CACHE_SKIP"

// cacheLayers returns the names of the cache's layers TOOLGEN_CACHE_SKIP
// takes: the whole output (0_generate_cache.go), the recent record
// (0_generate_recent.go), the export data (1_load_cached.go), the static
// schemas (6_schemas_static_cache.go), the bootstrap schemas
// (6_schemas_cache.go), the units (7_codecs_units.go), the units' source
// keys (7_codecs_units_source.go) and the formatted files
// (9_render_format.go).
func cacheLayers() []string {
	return []string{"output", "recent", "export", "static", "bootstrap", "units", "unitsource", "format"}
}

// cacheSkips is the set of layers the environment's TOOLGEN_CACHE_SKIP
// turns off; nil when it names none.
func cacheSkips() map[string]bool {
	var skip map[string]bool
	for name := range strings.SplitSeq(os.Getenv(cacheSkipEnv), ",") {
		name = strings.TrimSpace(name)
		for _, l := range cacheLayers() {
			if name == l {
				if skip == nil {
					skip = map[string]bool{}
				}
				skip[name] = true
			}
		}
	}
	return skip
}

// cacheOff reports whether the cache layer named layer is off this run:
// the cache is, or TOOLGEN_CACHE_SKIP names the layer.
func (o *Options) cacheOff(layer string) bool {
	return o.Cache == "" || o.Identity == "" || o.skip[layer]
}

package provider

import (
	"bytes"
	"crypto/sha256"
	"sync"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// DefaultCacheSize is the number of tool versions a Cache built with size
// 0 keeps before it starts forgetting the ones not used lately.
const DefaultCacheSize = 1024

// Cache projects the definitions of tools known only at run time (the
// tools of runtime/dynamic's toolkits, whose schemas arrive while the
// program runs), with the same projection code as toolgen and
// NewDefinitions (Compute), once per version of a tool: its name,
// description and input schema. The precomputed bytes of a Definitions
// cover the generated registry's tools only; Definitions.SubsetWith takes
// the others from a Cache.
//
// A version's definitions are computed once and then shared, so that two
// requests offering the same dynamic tool send the same bytes. A
// version's failure (a schema a provider cannot take) is kept too, and not
// computed again. The Cache keeps about size versions: past that, the
// versions not used since the last time it filled up are forgotten (and
// computed again if they come back). A Cache is safe for concurrent use.
type Cache struct {
	size        int
	projections atomic.Int64

	mu        sync.Mutex
	cur, prev map[cacheKey]*cached
	// byPtr finds a version by the spec that last asked for it, without
	// hashing its schema; it is reset with cur.
	byPtr map[*tool.Spec]*cached
}

// cacheKey identifies one version of a tool.
type cacheKey struct {
	name, description string
	schema            [sha256.Size]byte
	deferred          bool // tool.Spec.Defer: the definitions for native search
}

// cached is one version's definitions, computed once.
type cached struct {
	name, description string
	schema            []byte
	deferred          bool
	once              sync.Once
	pre               *Precomputed
	err               error
}

// NewCache returns an empty Cache that keeps about size versions;
// 0 or less means DefaultCacheSize.
func NewCache(size int) *Cache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return &Cache{size: size, cur: map[cacheKey]*cached{}, byPtr: map[*tool.Spec]*cached{}}
}

// Projections returns how many versions the Cache has projected since it
// was made: what its callers could not share.
func (c *Cache) Projections() int { return int(c.projections.Load()) }

// Tool returns spec's definitions for every provider, projected the first
// time this version of the tool is asked for. Its error is an *Error
// naming the tool and the provider that cannot take it (its name or
// input schema): no definition of the tool can be sent, and the caller
// leaves the tool out of the request.
func (c *Cache) Tool(spec *tool.Spec) (Tool, error) {
	if spec == nil {
		return Tool{}, &Error{Msg: "no spec", Err: errNilSpec}
	}
	e := c.entry(spec)
	e.once.Do(func() {
		c.projections.Add(1)
		e.pre, e.err = Compute(spec)
	})
	if e.err != nil {
		return Tool{}, e.err
	}
	return e.pre.tool(spec), nil
}

// entry returns the cache entry of spec's version, adding it when it is
// new.
func (c *Cache) entry(spec *tool.Spec) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byPtr[spec]; ok && e.name == spec.Name && e.description == spec.Description && e.deferred == spec.Defer && bytes.Equal(e.schema, spec.InputSchema) {
		return e
	}
	k := cacheKey{name: spec.Name, description: spec.Description, schema: sha256.Sum256(spec.InputSchema), deferred: spec.Defer}
	e, ok := c.cur[k]
	if !ok {
		if e, ok = c.prev[k]; !ok {
			e = &cached{name: spec.Name, description: spec.Description, schema: bytes.Clone(spec.InputSchema), deferred: spec.Defer}
		}
		if len(c.cur) >= c.size {
			c.prev, c.cur, c.byPtr = c.cur, map[cacheKey]*cached{}, map[*tool.Spec]*cached{}
		}
		c.cur[k] = e
	}
	c.byPtr[spec] = e
	return e
}

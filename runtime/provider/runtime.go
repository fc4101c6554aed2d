package provider

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// DefaultCacheSize is the number of tool versions a Cache built with size
// 0 keeps before it starts forgetting the ones not used lately.
const DefaultCacheSize = 1024

// Cache projects the definitions of tools known only at run time (the
// tools of runtime/dynamic's providers, whose schemas arrive while the
// program runs), with the same projection code as toolgen and NewSet
// (Compute), once per version of a tool: its name, description and input
// schema. The precomputed bytes of a Set cover the generated registry's
// tools only; Set.SubsetWith takes the others from a Cache.
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

// SubsetWith is Subset for an offer that mixes the Set's tools with tools
// it does not hold, such as dynamic tools (runtime/dynamic): a tool of
// offer that the Set holds (the same *tool.Spec, or a spec of the same
// name, description and input schema) gets the Set's precomputed
// definitions, and any other tool gets the definitions c projected for
// its version, computed once. offer must be sorted by name, without
// duplicates. With a nil c, SubsetWith is Subset.
//
// A tool that no provider can take (its name breaks a provider's pattern,
// its input schema is not an object schema) is an error wrapping the
// *Error that names the tool and the provider; the caller may leave the
// tool out of the offer and call SubsetWith again (the failure is cached,
// so asking again costs a lookup).
//
// Two calls with offers of the same versions return the same bytes.
func (s *Set) SubsetWith(offer []*tool.Spec, c *Cache) (*Set, error) {
	if c == nil {
		return s.Subset(offer)
	}
	if len(offer) == len(s.tools) && s.sameSpecs(offer) {
		return s, nil
	}
	sub := &Set{tools: make([]Tool, len(offer))}
	j := 0
	for i, spec := range offer {
		if spec == nil {
			return nil, fmt.Errorf("provider set subset: tool %d of the offer is nil", i)
		}
		if i > 0 && offer[i-1].Name >= spec.Name {
			return nil, fmt.Errorf("provider set subset: offer not sorted by name: %q before %q", offer[i-1].Name, spec.Name)
		}
		for j < len(s.tools) && s.tools[j].Spec.Name < spec.Name {
			j++
		}
		if j < len(s.tools) && s.tools[j].Spec.Name == spec.Name {
			if t := &s.tools[j]; t.Spec == spec || t.Spec.Description == spec.Description && bytes.Equal(t.Spec.InputSchema, spec.InputSchema) {
				sub.tools[i] = *t
				continue
			}
		}
		t, err := c.Tool(spec)
		if err != nil {
			return nil, fmt.Errorf("provider set subset: %w", err)
		}
		sub.tools[i] = t
	}
	sub.join()
	return sub, nil
}

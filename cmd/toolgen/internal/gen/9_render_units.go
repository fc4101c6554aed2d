package gen

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

// renderUnits produces the files of every unit and the tools.json entries
// of their tools, stored in parts at their indices (unitTask); when
// printing is false it plans and projects them and prints nothing. The
// units are planned one at a time, in the plan's order, as one Planner
// over every tool would meet them (planUnit), and each planned unit is
// projected and printed by one of GOMAXPROCS workers while the next is
// planned; once printed, its plan is dropped. What is held at once is
// therefore the files printed so far and the plans of at most
// GOMAXPROCS+1 units, not the plan of the whole catalog: at 10,000 tools
// the decoders' and encoders' code of every unit was most of toolgen's
// live heap.
//
// The problems are those of planning, in the plan's order, if any; else
// those of the providers' projections; else the first unit's failure to
// print, in the plan's order. The planned codec packages are added to
// plan.units, unsorted.
func renderUnits(fc formatCache, uc *unitCache, l *loaded, m *model, fields map[*toolModel]string, plan *codecPlan, opts *Options, marks []toolMark, parts [][]byte, printing bool) ([]File, []*problem.Error) {
	type result struct {
		files []File
		plan  []*problem.Error // planning's
		proj  []*problem.Error // the projections'
		err   *problem.Error   // printing's
	}
	results := make([]result, len(plan.groups))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(plan.groups), 1)) {
		wg.Go(func() {
			for gi := range next {
				g, r := plan.groups[gi], &results[gi]
				var proj map[*toolModel]*provider.Precomputed
				if g.cached == nil {
					tools := make([]*toolModel, len(g.tools))
					for j, i := range g.tools {
						tools[j] = m.tools[i]
					}
					proj, r.proj = projectTools(tools)
				}
				if printing && len(r.proj) == 0 {
					r.files, r.err = unitTask(fc, uc, l, m, fields, plan, g, proj, opts, marks, parts)()
				}
				// The unit's code is printed: drop it.
				for _, i := range g.tools {
					plan.tools[i].decode, plan.tools[i].encode = nil, nil
				}
				g.planned, g.empty = nil, nil
			}
		})
	}
	for gi, g := range plan.groups {
		if g.cached == nil {
			if errs := planUnit(l, plan.layout, m, plan, g); len(errs) > 0 {
				results[gi].plan = errs
				continue
			}
			for _, u := range g.planned {
				plan.units = append(plan.units, unitRef{Path: u.Path, Name: u.Name})
			}
		}
		next <- gi
	}
	close(next)
	wg.Wait()
	var files []File
	var planErrs, projErrs []*problem.Error
	var first *problem.Error
	for _, r := range results {
		planErrs = append(planErrs, r.plan...)
		projErrs = append(projErrs, r.proj...)
		if first == nil {
			first = r.err
		}
		files = append(files, r.files...)
	}
	switch {
	case len(planErrs) > 0:
		return nil, planErrs
	case len(projErrs) > 0:
		return nil, projErrs
	case first != nil:
		return nil, []*problem.Error{first}
	}
	return files, nil
}

// unitTask is the task producing the files of unit g (7_codecs_units.go)
// and the tools.json entries of its tools, stored in parts at their
// indices: from the cache when the unit was found there, else printed and
// formatted, then stored in the cache. proj holds the providers'
// definitions of g's tools when g was planned.
func unitTask(fc formatCache, uc *unitCache, l *loaded, m *model, fields map[*toolModel]string, plan *codecPlan, g *renderUnit, proj map[*toolModel]*provider.Precomputed, opts *Options, marks []toolMark, parts [][]byte) fileTask {
	out := opts.outDir()
	return func() ([]File, *problem.Error) {
		if e := g.cached; e != nil {
			files := make([]File, len(e.files))
			for i, f := range e.files {
				files[i] = File{Path: filepath.Join(out, filepath.FromSlash(f.rel)), Data: f.data}
			}
			for j, i := range g.tools {
				parts[i] = e.parts[j]
			}
			return files, nil
		}
		if uc.cache != nil {
			fc = formatCache{} // the unit's entry holds its files: not twice
		}
		tasks := codecTasks(fc, l, m, fields, plan, g, opts, marks)
		for _, gj := range guardCode(l, m, plan, g, opts) {
			tasks = append(tasks, formatTask(fc, gj.name, gj.path, marks, func() *jen.File { return gj.file }))
		}
		byUnit := map[string][]*toolModel{}
		for _, i := range g.tools {
			byUnit[plan.tools[i].unit] = append(byUnit[plan.tools[i].unit], m.tools[i])
		}
		for _, u := range g.planned {
			tools := byUnit[u.Path]
			if len(tools) == 0 {
				continue
			}
			rel := providersUnitFile(u.Name)
			tasks = append(tasks, formatTask(fc, rel, filepath.Join(out, filepath.FromSlash(rel)), marks, func() *jen.File {
				return providersUnitCode(l, u.Name, tools, fields, proj)
			}))
			setRel := setName(u.Name) + "/" + setFile
			tasks = append(tasks, formatTask(fc, setRel, filepath.Join(out, filepath.FromSlash(setRel)), marks, func() *jen.File {
				return setCode(l, u.Path, tools, fields, opts)
			}))
			if l.outPath != "" {
				rel := freshUnitFile(u.Name)
				tasks = append(tasks, func() ([]File, *problem.Error) {
					src := freshUnitSource(opts, u.Name, tools, fields)
					return []File{{Path: filepath.Join(out, rel), Data: formatFresh(fc, rel, src)}}, nil
				})
			}
		}
		files, err := formatAll(tasks)
		if err != nil {
			return nil, err
		}
		e := &unitEntry{}
		for _, u := range g.planned {
			e.units = append(e.units, unitRef{Path: u.Path, Name: u.Name})
		}
		for _, f := range files {
			rel, rerr := filepath.Rel(out, f.Path)
			if rerr != nil || strings.HasPrefix(rel, "..") {
				return files, nil // not under the output directory: not cached
			}
			uf := unitFile{rel: filepath.ToSlash(rel), data: f.Data}
			if uc.cache != nil {
				uf.key = cache.ContentKey(outputFileKind, f.Data)
			}
			e.files = append(e.files, uf)
		}
		for _, i := range g.tools {
			parts[i] = manifestPart(m.tools[i], proj[m.tools[i]])
			e.parts = append(e.parts, parts[i])
		}
		uc.put(g.key, e)
		return files, nil
	}
}

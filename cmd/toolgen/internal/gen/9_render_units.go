package gen

import (
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

// unitTask is the task producing the files of unit g (7_codecs_units.go)
// and the tools.json entries of its tools, stored in parts at their
// indices: from the cache when the unit was found there, else printed and
// formatted, then stored in the cache.
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
			rel := providersDir + "/" + providersUnitFile(u.Name)
			tasks = append(tasks, formatTask(fc, rel, filepath.Join(out, filepath.FromSlash(rel)), marks, func() *jen.File {
				return providersUnitCode(l, u.Name, tools, proj)
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
			e.files = append(e.files, unitFile{rel: filepath.ToSlash(rel), data: f.Data})
		}
		for _, i := range g.tools {
			parts[i] = manifestPart(m.tools[i], proj[m.tools[i]])
			e.parts = append(e.parts, parts[i])
		}
		uc.put(g.key, e)
		return files, nil
	}
}

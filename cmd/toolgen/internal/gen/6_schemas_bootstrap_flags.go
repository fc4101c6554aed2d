package gen

// The bootstrap program's build flags: the user's, with BootstrapTag.

import (
	"context"
	"os"
	"slices"
	"strings"
)

// bootstrapGOFLAGS is GOFLAGS as go env reports it in the user's
// environment (the environment's, or the go env file's): the scan's when
// it ran, else go env's, run in dir.
func bootstrapGOFLAGS(ctx context.Context, cfg bootstrapConfig, dir string) (string, error) {
	if in, err := cfg.scan.wait(); err == nil {
		return in.goflags, nil
	}
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	out, err := goOutput(ctx, dir, env, "env", "GOFLAGS")
	return strings.TrimSpace(string(out)), err
}

// bootstrapBuildFlags returns the user's build flags with BootstrapTag
// added to their -tags, or, when they set none, a -tags flag of its own
// with the tags of goflags (GOFLAGS as go env reports it) and
// BootstrapTag: a -tags flag on the command line replaces GOFLAGS' own,
// which the program must still be built with.
func bootstrapBuildFlags(flags []string, goflags string) []string {
	out := make([]string, 0, len(flags)+1)
	tagged := false
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		value, ok := tagsFlag(f)
		if !ok {
			out = append(out, f)
			continue
		}
		if !strings.Contains(f, "=") && i+1 < len(flags) {
			i++
			value = flags[i]
		}
		out = append(out, withBootstrapTag(value))
		tagged = true
	}
	if !tagged {
		value := ""
		for _, f := range strings.Fields(goflags) {
			if v, ok := tagsFlag(f); ok {
				value = v // the last one counts, as for the go command
			}
		}
		out = append(out, withBootstrapTag(value))
	}
	return out
}

// tagsFlag reports whether f is a -tags (or --tags) flag, with its value
// when it has one.
func tagsFlag(f string) (value string, ok bool) {
	name, value, _ := strings.Cut(strings.TrimPrefix(f, "-"), "=")
	return value, name == "tags" || name == "-tags"
}

// withBootstrapTag is the -tags flag of the tags in value (separated by
// commas or spaces) and BootstrapTag.
func withBootstrapTag(value string) string {
	tags := slices.DeleteFunc(strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' }), func(t string) bool { return t == BootstrapTag })
	return "-tags=" + strings.Join(append(tags, BootstrapTag), ",")
}

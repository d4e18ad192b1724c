package deploy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

func TestDockerfile(t *testing.T) {
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("Dockerfile does not parse: %v", err)
	}
	var warnings []string
	lint := linter.New(&linter.Config{Warn: func(rule, desc, url, msg string, _ []parser.Range) {
		warnings = append(warnings, rule+": "+msg)
	}})
	stages, _, err := instructions.Parse(res.AST, lint)
	if err != nil {
		t.Fatalf("Dockerfile instructions: %v", err)
	}
	if len(warnings) > 0 {
		t.Errorf("buildkit lint warnings: %v", warnings)
	}
	if len(stages) != 2 || !strings.HasPrefix(stages[0].BaseName, "golang:") || !strings.HasPrefix(stages[1].BaseName, "debian:") {
		t.Fatalf("want a Go build stage then a Debian runtime, got %d stages", len(stages))
	}
	var (
		user             string
		health           bool
		entry, cmd       []string
		installs, copies string
	)
	for _, c := range stages[1].Commands {
		switch c := c.(type) {
		case *instructions.UserCommand:
			user = c.User
		case *instructions.HealthCheckCommand:
			health = c.Health != nil && len(c.Health.Test) > 1 && strings.Contains(strings.Join(c.Health.Test, " "), "/v1/health")
		case *instructions.EntrypointCommand:
			entry = c.CmdLine
		case *instructions.CmdCommand:
			cmd = c.CmdLine
		case *instructions.EnvCommand:
			for _, kv := range c.Env {
				checkVar(t, "Dockerfile ENV", kv.Key)
			}
		case *instructions.RunCommand:
			installs += strings.Join(c.CmdLine, " ")
		case *instructions.CopyCommand:
			if c.From == stages[0].Name {
				copies += strings.Join(c.SourcePaths, " ")
			}
		}
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Errorf("runtime user %q: want a non-root user", user)
	}
	if !health {
		t.Error("no HEALTHCHECK on /v1/health")
	}
	if len(entry) == 0 || filepath.Base(entry[0]) != "dragoman" || !slices.Equal(cmd, []string{"serve"}) {
		t.Errorf("ENTRYPOINT %v CMD %v: want dragoman serve", entry, cmd)
	}
	for _, pkg := range []string{"apertium", "libreoffice-writer", "fonts-noto-core", "fonts-hosny-amiri", "culmus"} {
		if !strings.Contains(installs, pkg) {
			t.Errorf("the runtime does not install %s", pkg)
		}
	}
	if !strings.Contains(copies, "bin/dragoman") || !strings.Contains(copies, "bin/plugins") {
		t.Errorf("the runtime copies %q from the build, want the binary and the plugins", copies)
	}
	checkFlags(t, "Dockerfile CMD", cmd)
	checkText(t, "Dockerfile")
}

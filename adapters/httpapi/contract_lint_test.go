package httpapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestContractPassesRedoclyAndSpectral runs two linters nobody here wrote
// on the committed contract (which TestCommittedContractMatchesCode keeps
// equal to the code's): Redocly's recommended ruleset and Spectral's oas
// ruleset must report no error. Warnings are logged (README "API
// behaviour worth knowing" lists the ones accepted). Both come from npm
// (the Makefile's NPM_PACKAGES); a missing one fails the test.
func TestContractPassesRedoclyAndSpectral(t *testing.T) {
	contract, err := filepath.Abs("../../openapi/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")

	t.Run("redocly", func(t *testing.T) {
		bin := lookTool(t, "redocly")
		cmd := exec.Command(bin, "lint", "--extends=recommended", "--format=stylish", contract)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		t.Logf("redocly lint --extends=recommended:\n%s", keepFindings(out))
		if err != nil || !strings.Contains(string(out), "Your API description is valid") {
			t.Fatalf("redocly reports errors (%v)", err)
		}
	})
	t.Run("spectral", func(t *testing.T) {
		bin := lookTool(t, "spectral")
		ruleset := filepath.Join(dir, ".spectral.yaml")
		if err := os.WriteFile(ruleset, []byte("extends: [\"spectral:oas\"]\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "lint", "--ruleset", ruleset, "--format", "text", "--fail-severity", "error", contract)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		t.Logf("spectral lint (spectral:oas):\n%s", out)
		if err != nil || strings.Contains(string(out), " error ") {
			t.Fatalf("spectral reports errors (%v)", err)
		}
	})
}

func lookTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed: `make deps` installs it from npm (NPM_PACKAGES)", name)
	}
	return p
}

// keepFindings drops Redocly's boxed banners (Node version notices).
func keepFindings(out []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(out), "\n") {
		if strings.ContainsAny(l, "║╔╚") {
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

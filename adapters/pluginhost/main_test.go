package pluginhost

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Test plugin directories, built once by TestMain.
var (
	pluginDir string // apertium, pseudo, crashy, glossecho providers and the upperconv converter
	oldDir    string // a provider speaking another protocol version
)

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	tmp, err := os.MkdirTemp("", "pluginhost-test-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	build := filepath.Join(tmp, "build")
	cmd := exec.Command("go", "build", "-o", build+string(filepath.Separator),
		"../../plugins/apertium", "../../plugins/pseudo",
		"../../testdata/plugins/crashy", "../../testdata/plugins/oldproto", "../../testdata/plugins/upperconv",
		"../../testdata/plugins/glossecho")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("building the test plugins: %w", err)
	}
	pluginDir = filepath.Join(tmp, "plugins")
	oldDir = filepath.Join(tmp, "old")
	links := map[string]string{
		"apertium":  filepath.Join(pluginDir, "dragoman-provider-apertium"),
		"pseudo":    filepath.Join(pluginDir, "dragoman-provider-pseudo"),
		"crashy":    filepath.Join(pluginDir, "dragoman-provider-crashy"),
		"glossecho": filepath.Join(pluginDir, "dragoman-provider-glossecho"),
		"upperconv": filepath.Join(pluginDir, "dragoman-converter-upper"),
		"oldproto":  filepath.Join(oldDir, "dragoman-provider-old"),
	}
	for bin, dst := range links {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return 0, err
		}
		if err := os.Rename(filepath.Join(build, bin), dst); err != nil {
			return 0, err
		}
	}
	// Not an executable: discovery must ignore it.
	if err := os.WriteFile(filepath.Join(pluginDir, "dragoman-provider-notes.txt"), []byte("x"), 0o644); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

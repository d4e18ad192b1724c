package deploy

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// makeList reads a variable of the Makefile (continuation lines joined).
func makeList(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	m := regexp.MustCompile(`(?m)^` + name + ` :=(.*)$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the Makefile has no %s", name)
	}
	return strings.Fields(m[1])
}

// TestEveryApertiumPair (issue 22 §1): make deps, CI and the image install
// every Apertium pair package Debian ships, so the offline default serves
// all 36 languages wherever Dragoman runs.
func TestEveryApertiumPair(t *testing.T) {
	pairs := makeList(t, "APERTIUM_PAIRS")
	if !slices.Contains(makeList(t, "APT_PACKAGES"), "$(APERTIUM_PAIRS)") {
		t.Error("APT_PACKAGES does not include $(APERTIUM_PAIRS)")
	}
	// Debian's pair packages: the translation data of a pair, not the
	// transitional dummies (which only depend on one of these) nor the
	// single-language or tool packages.
	out, err := exec.Command("apt-cache", "search", "--names-only", "^apertium-").Output()
	if err != nil {
		t.Fatalf("apt-cache search: %v", err)
	}
	var debian []string
	pair := regexp.MustCompile(`^(apertium-\S+) - Apertium (translation data for the .+ pair|linguistic data to translate between)`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := pair.FindStringSubmatch(line); m != nil {
			debian = append(debian, m[1])
		}
	}
	if len(debian) == 0 {
		t.Fatal("apt-cache knows no Apertium pair: run apt-get update (make deps does)")
	}
	for _, p := range debian {
		if !slices.Contains(pairs, p) {
			t.Errorf("Debian ships %s; APERTIUM_PAIRS lacks it", p)
		}
	}
	docker, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields(strings.ReplaceAll(string(docker), "\\", " "))
	for _, p := range pairs {
		if !slices.Contains(debian, p) {
			t.Errorf("APERTIUM_PAIRS names %s, which is not a pair package Debian ships", p)
		}
		if !slices.Contains(words, p) {
			t.Errorf("the image does not install %s", p)
		}
	}
}

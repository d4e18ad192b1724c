package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// The plugin as the server runs it: built once per test binary and
// started through the real plugin host.
var (
	buildOnce sync.Once
	pluginDir string
	buildErr  error
)

func builtPlugin(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		pluginDir, buildErr = os.MkdirTemp("", "apertium-plugin-test-")
		if buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(pluginDir, "dragoman-provider-apertium"), ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building the plugin: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return pluginDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pluginDir != "" {
		os.RemoveAll(pluginDir)
	}
	os.Exit(code)
}

// startPlugin runs the plugin with env set (name=value) and returns its engine.
func startPlugin(tb testing.TB, env ...string) ports.Engine {
	tb.Helper()
	dir := builtPlugin(tb)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		tb.Setenv(k, v)
	}
	h, err := pluginhost.New(dir, []string{"apertium"}, nil, pluginhost.WithHealthInterval(0), pluginhost.WithStartTimeout(60*time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	engines, err := h.Engines(context.Background())
	if err != nil || len(engines) != 1 {
		tb.Fatalf("engines %v: %v", engines, err)
	}
	return engines[0]
}

// uniqueSentences are n distinct English sentences from a combinatorial
// grammar (no two alike, so nothing is deduplicated); every tenth has a
// word in bold. plain is the same text without codes.
func uniqueSentences(n int, seed uint64) (plain, tagged []string) {
	r := rand.New(rand.NewPCG(seed, 7))
	subj := strings.Fields("teacher doctor company engineer child farmer student driver committee government writer manager neighbour customer scientist")
	adj := strings.Fields("big small red old new happy long short green quiet important simple modern famous strange cheap expensive busy empty heavy")
	noun := strings.Fields("dog house car city river letter system project report street market bridge garden window book machine road school village office")
	verb := strings.Fields("sees builds sells finds reads writes opens closes visits describes needs wants paints cleans repairs buys")
	prep := strings.Fields("in near behind beside under")
	adv := strings.Fields("today quickly often carefully again slowly yesterday rarely")
	pick := func(w []string) string { return w[r.IntN(len(w))] }
	seen := map[string]bool{}
	for len(plain) < n {
		w := []string{"The", pick(adj), pick(subj), pick(verb), "the", pick(adj), pick(noun), pick(prep), "the", pick(adj), pick(noun), pick(adv)}
		s := strings.Join(w, " ") + "."
		if seen[s] {
			continue
		}
		seen[s] = true
		plain = append(plain, s)
		if len(plain)%10 == 1 {
			k := 1 + r.IntN(len(w)-1)
			w[k] = `<g id="1">` + w[k] + `</g>`
			s = strings.Join(w, " ") + "."
		}
		tagged = append(tagged, s)
	}
	return plain, tagged
}

// traceApertium is an apertium command that logs when each translation
// pipeline starts and ends (not `apertium -l`) and runs the real one.
func traceApertium(t *testing.T) (bin, log string) {
	dir := t.TempDir()
	bin, log = filepath.Join(dir, "apertium"), filepath.Join(dir, "runs.log")
	real, err := exec.LookPath("apertium")
	if err != nil {
		t.Fatal("apertium not installed: ", err)
	}
	script := fmt.Sprintf(`#!/bin/sh
case "$*" in *-l*) exec %q "$@";; esac
echo start >> %q
%q "$@"
rc=$?
echo end >> %q
exit $rc
`, real, log, real, log)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

// runs reads the trace: pipelines started, and the most at once.
func runs(t *testing.T, log string) (started, most int) {
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	now := 0
	for _, l := range strings.Fields(string(b)) {
		if l == "start" {
			started++
			now++
			most = max(most, now)
		} else {
			now--
		}
	}
	return started, most
}

func translateAll(t *testing.T, e ports.Engine, segs []string) []string {
	t.Helper()
	res, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "es", Mode: "full", Segments: segs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Segments) != len(segs) {
		t.Fatalf("%d segments back for %d", len(res.Segments), len(segs))
	}
	return res.Segments
}

// One large batch goes to DRAGOMAN_APERTIUM_PROCESSES pipelines at once,
// and comes back in order, as one pipeline translates it.
func TestLargeBatchSplitAcrossProcesses(t *testing.T) {
	_, segs := uniqueSentences(2*minSplitChars/60+200, 3) // a little over two pieces' worth
	bin, log := traceApertium(t)
	split := translateAll(t, startPlugin(t, "DRAGOMAN_APERTIUM_BIN="+bin, envProcesses+"=2"), segs)
	if started, most := runs(t, log); started != 2 || most != 2 {
		t.Errorf("%d pipelines, %d at once; want 2 at once", started, most)
	}
	os.Remove(log)
	one := translateAll(t, startPlugin(t, "DRAGOMAN_APERTIUM_BIN="+bin, envProcesses+"=1"), segs)
	if started, most := runs(t, log); started != 1 || most != 1 {
		t.Errorf("with 1 process: %d pipelines, %d at once", started, most)
	}
	for i := range segs {
		if split[i] != one[i] {
			t.Fatalf("segment %d: split %q, one pipeline %q", i, split[i], one[i])
		}
	}
	if !strings.Contains(one[len(one)-1], " ") || one[0] == segs[0] {
		t.Errorf("not translated: %q … %q", one[0], one[len(one)-1])
	}
}

// Small batches of many jobs run side by side, never more than
// DRAGOMAN_APERTIUM_PROCESSES at once.
func TestSmallBatchesBoundedByProcesses(t *testing.T) {
	for _, procs := range []int{1, 2} {
		bin, log := traceApertium(t)
		e := startPlugin(t, "DRAGOMAN_APERTIUM_BIN="+bin, fmt.Sprintf("%s=%d", envProcesses, procs))
		var wg sync.WaitGroup
		for i := range 4 {
			_, segs := uniqueSentences(150, uint64(10+i))
			wg.Add(1)
			go func() { defer wg.Done(); translateAll(t, e, segs) }()
		}
		wg.Wait()
		if started, most := runs(t, log); started != 4 || most != procs {
			t.Errorf("%d processes: %d pipelines, %d at once; want 4, %d at once", procs, started, most, procs)
		}
	}
}

func TestBadProcessesSettingRefused(t *testing.T) {
	dir := builtPlugin(t)
	t.Setenv(envProcesses, "none")
	h, err := pluginhost.New(dir, []string{"apertium"}, nil, pluginhost.WithHealthInterval(0), pluginhost.WithStartTimeout(20*time.Second))
	if err == nil {
		_, err = h.Engines(context.Background())
		h.Close()
	}
	if err == nil {
		t.Fatal("the plugin started with DRAGOMAN_APERTIUM_PROCESSES=none")
	}
	t.Log(err)
}

// pieces: nothing below minSplitChars is split, at most procs pieces, in
// order, of similar size.
func TestPieces(t *testing.T) {
	seg := strings.Repeat("x", 1000)
	many := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(i) + seg
		}
		return out
	}
	for _, c := range []struct {
		procs, segs, want int
	}{{4, 40, 1}, {4, 120, 2}, {4, 1000, 4}, {1, 1000, 1}, {3, 1, 1}} {
		segs := many(c.segs)
		parts := newEngineProcs("", "", c.procs).pieces(segs)
		if len(parts) != c.want {
			t.Errorf("%d segments, %d procs: %d pieces, want %d", c.segs, c.procs, len(parts), c.want)
		}
		var joined []string
		for _, p := range parts {
			if len(p) < c.segs/c.want-1 || len(p) > c.segs/c.want+1 {
				t.Errorf("%d segments, %d procs: a piece of %d", c.segs, c.procs, len(p))
			}
			joined = append(joined, p...)
		}
		if strings.Join(joined, "|") != strings.Join(segs, "|") {
			t.Errorf("%d segments, %d procs: pieces do not add up to the batch in order", c.segs, c.procs)
		}
	}
}

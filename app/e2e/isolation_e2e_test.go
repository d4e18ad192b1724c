package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// Issue 26: account b translating a sentence account a translated before
// learnt it from its own job's metrics (cache_hits 1, engine_calls 0).
// Each account has its own memory unless the operator shares it, and even
// shared, b's job reads as if the engine had been asked.
func TestAccountsDoNotSeeEachOthersMemory(t *testing.T) {
	for _, shared := range []bool{false, true} {
		s := startServer(t, []string{"--shared-memory=" + map[bool]string{false: "false", true: "true"}[shared]}, "DRAGOMAN_ENGINES=pseudo")
		_, keyA, _ := s.account("pro")
		_, keyB, _ := s.account("pro")
		metrics := func(key string) map[string]any {
			t.Helper()
			id := s.submitFile(key, "../../testdata/e2e/english.docx", "guess.docx")
			j := s.waitJob(key, id, 5*time.Minute)
			if j["status"] != "completed" {
				t.Fatalf("job %v: %v", j["status"], j["error"])
			}
			return j["metrics"].(map[string]any)
		}
		first := metrics(keyA)
		again := metrics(keyA)
		b := metrics(keyB)
		t.Logf("shared %v: a's first job %v, a's second %v, b's job of the same document %v", shared, first, again, b)
		if again["cache_hits"].(float64) == 0 {
			t.Errorf("shared %v: a's second job took nothing from a's memory: %v", shared, again)
		}
		for _, k := range []string{"cache_hits", "engine_calls", "chars_sent"} {
			if b[k] != first[k] {
				t.Errorf("shared %v: b's %s is %v, a's first job's %v: b's metrics tell it what a translated", shared, k, b[k], first[k])
			}
		}
	}
}

// workDirs lists the LibreOffice work directories a server of dataDir
// has under tmp (named after the server's data dir).
func workDirs(t *testing.T, tmp, dataDir string) []string {
	t.Helper()
	abs, _ := filepath.Abs(dataDir)
	sum := sha256.Sum256([]byte(abs))
	m, _ := filepath.Glob(filepath.Join(tmp, "dragoman-lo-"+hex.EncodeToString(sum[:6])+"-*"))
	return m
}

// Issue 26: two servers on one machine share the temp dir, and one's
// start-up sweep must not touch the other's work directories, live or
// left by a killed plugin: each server sweeps only its own.
func TestServersSweepOnlyTheirOwnWorkDirectories(t *testing.T) {
	tmp := t.TempDir()
	plugins := converterPlugins(t)
	env := []string{"DRAGOMAN_ENGINES=pseudo", "TMPDIR=" + tmp}
	a := startServer(t, []string{"--plugin-dir", plugins}, env...)
	b := startServer(t, []string{"--plugin-dir", plugins}, env...)
	_, keyA, _ := a.account("pro")
	_, keyB, _ := b.account("pro")
	convert := func(s *server, key string) {
		t.Helper()
		id := s.submit(key, "small.rtf", pooltest.LargeRTF(1500))
		if j := s.waitJob(key, id, 10*time.Minute); j["status"] != "completed" {
			t.Fatalf("conversion: %v %v", j["status"], j["error"])
		}
	}
	convert(a, keyA)
	convert(b, keyB)
	bDirs := workDirs(t, tmp, b.dataDir)
	if len(workDirs(t, tmp, a.dataDir)) != 1 || len(bDirs) != 1 {
		t.Fatalf("work directories: a %v, b %v; want one each", workDirs(t, tmp, a.dataDir), bDirs)
	}
	b.kill() // its plugin dies with it: its directory is left, unlocked
	a.stop()
	a.start() // a's start sweeps a's dead directories, not b's
	convert(a, keyA)
	if _, err := os.Stat(bDirs[0]); err != nil {
		t.Fatalf("a's start swept b's work directory: %v", err)
	}
	b.start()
	waitUntil(t, time.Minute, "b's dead directory swept by b's restart", func() bool {
		_, err := os.Stat(bDirs[0])
		return os.IsNotExist(err)
	})
	convert(b, keyB)
	convert(a, keyA)
}

// Issue 25: LibreOffice's work directory vanished during a run, and every
// PDF and preview failed while /v1/ready answered 200 with plugins "ok".
// The converter makes it again; while it cannot, readiness says so.
func TestReadinessReportsAConverterThatCannotWork(t *testing.T) {
	tmp := t.TempDir()
	s := startServer(t, []string{"--plugin-dir", converterPlugins(t)}, "DRAGOMAN_ENGINES=pseudo", "TMPDIR="+tmp)
	_, key, _ := s.account("pro")
	convert := func() map[string]any {
		t.Helper()
		id := s.submit(key, "small.rtf", pooltest.LargeRTF(1500))
		return s.waitJob(key, id, 10*time.Minute)
	}
	if j := convert(); j["status"] != "completed" {
		t.Fatalf("first conversion: %v", j["error"])
	}
	dirs := workDirs(t, tmp, s.dataDir)
	if len(dirs) != 1 {
		t.Fatalf("work directories %v", dirs)
	}
	os.RemoveAll(dirs[0])
	if r := s.do("GET", "/v1/ready", "", nil, ""); r.status != 200 {
		t.Fatalf("ready after the directory vanished (it is made again): %d %s", r.status, r.body)
	}
	if j := convert(); j["status"] != "completed" {
		t.Fatalf("conversion after the directory vanished: %v", j["error"])
	}
	// Something in the way: the directory cannot be made again.
	os.RemoveAll(dirs[0])
	if err := os.WriteFile(dirs[0], nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.do("GET", "/v1/ready", "", nil, "")
	t.Logf("ready with the work directory unmakeable: %d %s", r.status, r.body)
	if r.status != 503 || !strings.Contains(string(r.body), "work directory") {
		t.Fatalf("ready: %d %s, want 503 naming the converter's work directory", r.status, r.body)
	}
	os.Remove(dirs[0])
	waitUntil(t, time.Minute, "ready again", func() bool { return s.do("GET", "/v1/ready", "", nil, "").status == 200 })
	if j := convert(); j["status"] != "completed" {
		t.Fatalf("conversion once it can work again: %v", j["error"])
	}
}

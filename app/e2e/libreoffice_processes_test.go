package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// The product's conversion timeout holds through the API: with
// DRAGOMAN_LIBREOFFICE_TIMEOUT=2s a document built to take a minute to
// convert fails soon after 2 s, saying why, and leaves no LibreOffice
// behind after the server stops.
func TestConversionTimeoutThroughTheAPI(t *testing.T) {
	plugins := converterPlugins(t)
	tmp := t.TempDir()
	s := startServer(t, []string{"--plugin-dir", plugins}, "DRAGOMAN_ENGINES=pseudo", "TMPDIR="+tmp,
		"DRAGOMAN_LIBREOFFICE_POOL_SIZE=1", "DRAGOMAN_LIBREOFFICE_TIMEOUT=2s")
	key := enterpriseKey(t, s)
	// The first conversion starts LibreOffice (issue 13); a small one
	// first, so the figure below is the timeout's, not the start's (on a
	// busy machine the first conversion of an instance may itself take
	// over 2 s: try again).
	for attempt := 1; ; attempt++ {
		r, err := translateDoc(s, key, filepath.Join(corpusDir, "rtf/pandoc-footnote.rtf"))
		if err == nil && r.status == "completed" {
			break
		}
		if attempt == 5 {
			t.Fatalf("warm-up: %+v %v", r.message, err)
		}
	}
	doc := filepath.Join(t.TempDir(), "slow.odt")
	if err := os.WriteFile(doc, pooltest.SlowODT(2000), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := translateDoc(s, key, doc)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("upload %d, job %s after %s: %s", r.upload, r.status, r.elapsed.Round(time.Millisecond), r.message)
	if r.upload != http.StatusAccepted || r.status != "failed" || !strings.Contains(r.message, "too long") {
		t.Fatalf("upload %d, job %q (%s), want a job failed for taking too long", r.upload, r.status, r.message)
	}
	if r.elapsed > 30*time.Second {
		t.Errorf("a 2 s conversion timeout ended the job after %s", r.elapsed)
	}
	s.stop()
	waitNoOffice(t, tmp, 5*time.Second, "after a graceful stop")
}

// issue 13 through a real server's process tree: a server that has only
// translated a .docx runs its converter plugin but no LibreOffice; the
// first .rtf starts one; after DRAGOMAN_LIBREOFFICE_IDLE without
// conversions it is stopped (the plugin stays), and the next .rtf starts
// one again.
func TestLibreOfficeRunsOnlyWhenNeeded(t *testing.T) {
	const idle = 5 * time.Second
	plugins := converterPlugins(t)
	tmp := t.TempDir()
	s := startServer(t, []string{"--plugin-dir", plugins}, "DRAGOMAN_ENGINES=pseudo", "TMPDIR="+tmp,
		"DRAGOMAN_LIBREOFFICE_POOL_SIZE=2", "DRAGOMAN_LIBREOFFICE_IDLE="+idle.String())
	key := enterpriseKey(t, s)
	running := func(comm string) bool {
		for _, p := range tagged(t, s.dataDir) {
			if strings.HasSuffix(p, " "+comm) {
				return true
			}
		}
		return false
	}
	const converter = "dragoman-conver" // the kernel keeps 15 characters of the name
	if r, err := translateDoc(s, key, englishDocx); err != nil || r.status != "completed" {
		t.Fatalf(".docx: %+v %v", r.message, err)
	}
	if !running(converter) {
		t.Fatalf("the converter plugin is not running (processes %v): the checks below would prove nothing", tagged(t, s.dataDir))
	}
	if running("soffice.bin") || len(officeProcesses(tmp)) > 0 {
		t.Fatalf("after start-up and a .docx job LibreOffice runs: %v %q", tagged(t, s.dataDir), officeProcesses(tmp))
	}
	rtf := filepath.Join(corpusDir, "rtf/pandoc-footnote.rtf")
	for round := 1; round <= 2; round++ {
		r, err := translateDoc(s, key, rtf)
		if err != nil || r.status != "completed" {
			t.Fatalf("round %d: .rtf: %+v %v", round, r.message, err)
		}
		done := time.Now()
		if !running("soffice.bin") {
			t.Fatalf("round %d: no soffice.bin after a conversion: %v", round, tagged(t, s.dataDir))
		}
		if n := strings.Count(strings.Join(tagged(t, s.dataDir), "\n"), "soffice.bin"); n != 1 {
			t.Errorf("round %d: %d soffice.bin for one conversion, want 1", round, n)
		}
		waitNoOffice(t, tmp, idle+15*time.Second, fmt.Sprintf("round %d: idle for %s", round, idle))
		t.Logf("round %d: LibreOffice stopped %s after the conversion", round, time.Since(done).Round(100*time.Millisecond))
		if !running(converter) {
			t.Fatalf("round %d: the converter plugin stopped with its idle LibreOffice", round)
		}
	}
	s.stop()
	waitNoOffice(t, tmp, 5*time.Second, "after a graceful stop")
}

// A SIGKILL of the whole `dragoman serve` process group leaves no
// LibreOffice behind, and the next start sweeps the dead pool's files.
func TestKilledServerLeavesNoLibreOffice(t *testing.T) {
	plugins := converterPlugins(t)
	tmp := t.TempDir()
	s := startServer(t, []string{"--plugin-dir", plugins}, "DRAGOMAN_ENGINES=pseudo", "TMPDIR="+tmp, "DRAGOMAN_LIBREOFFICE_POOL_SIZE=2")
	key := enterpriseKey(t, s)
	doc := filepath.Join(corpusDir, "rtf/pandoc-footnote.rtf")
	if r, err := translateDoc(s, key, doc); err != nil || r.status != "completed" {
		t.Fatalf("before the kill: %+v %v", r.message, err)
	}
	if len(officeProcesses(tmp)) == 0 {
		t.Fatal("no LibreOffice process under TMPDIR: the check below would prove nothing")
	}
	s.kill()
	waitNoOffice(t, tmp, 5*time.Second, "after SIGKILL of the server's process group")
	stale, _ := filepath.Glob(filepath.Join(tmp, "dragoman-lo-*"))
	if len(stale) == 0 {
		t.Fatal("the killed pool left no work directory: the sweep below would prove nothing")
	}

	s.start()
	if r, err := translateDoc(s, key, doc); err != nil || r.status != "completed" {
		t.Fatalf("after the restart: %+v %v", r.message, err)
	}
	s.stop()
	waitNoOffice(t, tmp, 5*time.Second, "after a graceful stop")
	for _, d := range stale {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("the restarted server did not sweep %s", d)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "dragoman-*")); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

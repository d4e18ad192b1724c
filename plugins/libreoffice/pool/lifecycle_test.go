package pool

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// newLazyPool is a pool as the plugin makes it: nothing warmed up.
func newLazyPool(t *testing.T, cfg Config) *Pool {
	t.Helper()
	cfg.Timeout, _ = time.ParseDuration(pooltest.TestTimeout)
	p, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		if left := officeProcesses(cfg.TempDir); len(left) > 0 {
			t.Errorf("after Close: %q", left)
		}
	})
	return p
}

// issue 13: a pool starts no LibreOffice until a conversion needs one,
// and then only as many as conversions ask for (Size is a ceiling).
func TestNoLibreOfficeUntilTheFirstConversion(t *testing.T) {
	tmp := t.TempDir()
	p := newLazyPool(t, Config{Size: 2, TempDir: tmp})
	time.Sleep(time.Second) // what an eager start would have used to fork
	if n, procs := p.Running(), officeProcesses(tmp); n != 0 || len(procs) > 0 {
		t.Fatalf("before any conversion: %d instances, processes %q", n, procs)
	}
	if err := p.Health(); err != nil {
		t.Fatalf("an idle pool reports unhealthy: %v", err)
	}
	b, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	if err != nil {
		t.Fatalf("first conversion: %+v", err)
	}
	assertDocx(t, "first conversion", b)
	if n := p.Running(); n != 1 {
		t.Errorf("after one conversion %d instances run, want 1", n)
	}
	if len(officeProcesses(tmp)) == 0 {
		t.Error("no LibreOffice process after a conversion: the check above proves nothing")
	}
}

// issue 13: an instance left idle for IdleTimeout is stopped (its
// processes and files gone), not before; the next conversion starts one.
func TestIdleInstancesAreStopped(t *testing.T) {
	const idle = 3 * time.Second
	tmp := t.TempDir()
	p := newLazyPool(t, Config{Size: 1, TempDir: tmp, IdleTimeout: idle})
	for round := 1; round <= 2; round++ {
		if _, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf")); err != nil {
			t.Fatalf("round %d: %+v", round, err)
		}
		done := time.Now()
		tr := p.snapshot()
		if len(tr) != 1 {
			t.Fatalf("round %d: %d instances after a conversion", round, len(tr))
		}
		time.Sleep(idle / 2)
		if p.Running() != 1 {
			t.Fatalf("round %d: stopped after %s, before the idle time", round, time.Since(done))
		}
		for p.Running() > 0 && time.Since(done) < idle+10*time.Second {
			time.Sleep(50 * time.Millisecond)
		}
		stopped := time.Since(done)
		if p.Running() > 0 {
			t.Fatalf("round %d: still running %s after the last conversion", round, stopped)
		}
		t.Logf("round %d: stopped %s after the last conversion", round, stopped.Round(time.Millisecond))
		assertGone(t, tr, t.TempDir())
		if left := officeProcesses(tmp); len(left) > 0 {
			t.Fatalf("round %d: stopped, but still running: %q", round, left)
		}
	}
}

// issue 13: after a document larger than RecycleAbove the instance is
// stopped, giving back the memory the document took (a fresh instance
// is as fast on large documents); after a small one it stays.
func TestInstanceIsRecycledAfterALargeDocument(t *testing.T) {
	tmp := t.TempDir()
	p := newLazyPool(t, Config{Size: 1, TempDir: tmp, RecycleAbove: 1 << 20})
	var out bytes.Buffer
	if err := p.Convert(context.Background(), ODT, bytes.NewReader(pooltest.PaddedSlowODT(10, 2<<20)), &out); err != nil {
		t.Fatalf("large: %+v", err)
	}
	assertDocx(t, "large", out.Bytes())
	if n, procs := p.Running(), officeProcesses(tmp); n != 0 || len(procs) > 0 {
		t.Fatalf("after a 2 MB document: %d instances, processes %q", n, procs)
	}
	if _, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf")); err != nil {
		t.Fatalf("small: %+v", err)
	}
	if n := p.Running(); n != 1 {
		t.Fatalf("after a small document: %d instances, want the one kept", n)
	}
}

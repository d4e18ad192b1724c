package pool

import (
	"bytes"
	"context"
	"io"
	"os"
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

// issue 13: the conversion timeout grows with the document. With a 2 s
// base, a document built to take a minute times out after 2 s when small
// (TestConversionTimeout) and after 18 s when its content.xml holds
// 4.6 MB (three started 2 MB units: 3² × 2 s).
func TestLargeDocumentGetsALongerTimeout(t *testing.T) {
	c := Config{Timeout: 2 * time.Second}
	for _, tc := range []struct {
		size int64
		want time.Duration
	}{{0, 2 * time.Second}, {2 << 20, 2 * time.Second}, {2<<20 + 1, 8 * time.Second},
		{10 << 20, 50 * time.Second}, {1 << 40, 60 * time.Second}} {
		if got := c.TimeoutFor(tc.size); got != tc.want {
			t.Errorf("TimeoutFor(%d) = %s, want %s", tc.size, got, tc.want)
		}
	}

	const want = 18 * time.Second
	p := newTestPool(t, Config{Size: 1, Timeout: 2 * time.Second})
	doc := pooltest.PaddedSlowODT(2000, 3<<20)
	start := time.Now()
	err := p.Convert(context.Background(), ODT, bytes.NewReader(doc), io.Discard)
	d := time.Since(start)
	t.Logf("a %d kB .odt timed out after %s: %+v", len(doc)>>10, d.Round(time.Millisecond), err)
	if reasonOf(err) != TimedOut {
		t.Fatalf("got %v after %s, want a timeout", err, d)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "d.odt"), doc, 0o600)
	if c, _ := measure(filepath.Join(dir, "d.odt"), ODT, int64(len(doc))); c.size <= 4<<20 || c.size > 6<<20 {
		n := c.size
		t.Fatalf("the padded document counts %d bytes, want 4 to 6 MB", n)
	}
	if d < want || d > want+5*time.Second {
		t.Errorf("timed out after %s, want the scaled %s", d, want)
	}
	if e := err.(*Error); e.Detail != "after "+want.String() {
		t.Errorf("detail %q, want %q", e.Detail, "after "+want.String())
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

package pool

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// The timeout tests make the converter slow on purpose: a document that
// takes LibreOffice a minute here may take less than the timeout on a
// faster machine, so the instance is frozen (SIGSTOP) before the
// conversion and can only time out.

// slowDown freezes every running instance of p until the test ends (or
// the pool kills it).
func slowDown(t *testing.T, p *Pool) {
	t.Helper()
	for _, tr := range p.snapshot() {
		for _, pgid := range tr.pgids {
			if err := syscall.Kill(-pgid, syscall.SIGSTOP); err != nil {
				t.Fatalf("freeze soffice (%d): %v", pgid, err)
			}
			t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGCONT) })
		}
	}
}

// The pool's own conversion timeout (Config.Timeout, the product's
// DRAGOMAN_LIBREOFFICE_TIMEOUT) ends a conversion that outlasts it: a
// document built to take a minute, given 2 s, fails as timed out soon
// after 2 s and its instance is killed.
func TestConversionTimeout(t *testing.T) {
	const limit = 2 * time.Second
	p := newTestPool(t, Config{Size: 1, Timeout: limit})
	before := p.snapshot()[0]
	slowDown(t, p)
	start := time.Now()
	var out bytes.Buffer
	err := p.Convert(context.Background(), ODT, bytes.NewReader(pooltest.SlowODT(2000)), &out)
	d := time.Since(start)
	t.Logf("timed out after %s: %v", d.Round(time.Millisecond), err)
	if reasonOf(err) != TimedOut {
		t.Fatalf("got %v after %s, want a timeout", err, d)
	}
	if d < limit || d > limit+5*time.Second {
		t.Errorf("the %s timeout ended the conversion after %s", limit, d)
	}
	if !strings.Contains(err.Error(), "too long") {
		t.Errorf("message %q does not say why", err)
	}
	assertGone(t, []trace{before}, t.TempDir())
}

func TestTimeoutKillsAndReplacesTheInstance(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	before := p.snapshot()[0]
	slowDown(t, p)
	// 8 MB of content.xml takes many seconds; give it one (reading its
	// structure first takes about 100 ms).
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := convertFile(t, p, ctx, ODT, filepath.Join(corpus, "odt/odftoolkit-Text1.odt"))
	if reasonOf(err) != TimedOut {
		t.Fatalf("got %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %s to return", d)
	}
	if !strings.Contains(err.Error(), "too long") {
		t.Errorf("message %q does not say why", err)
	}
	assertGone(t, []trace{before}, t.TempDir())
	b, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	if err != nil {
		t.Fatalf("replacement instance: %v", err)
	}
	assertDocx(t, "after timeout", b)
}

// issue 13: the conversion timeout grows with the document. With a 2 s
// base, a document times out after 2 s when small (TestConversionTimeout)
// and after 18 s when its content.xml holds 4.6 MB (three started 2 MB
// units: 3² × 2 s), however fast the machine: the instance is frozen.
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
	slowDown(t, p)
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

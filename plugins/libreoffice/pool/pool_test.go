package pool

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

const corpus = "../../../testdata/corpus"

// newTestPool starts a real pool whose files all live under a test
// directory, and checks at the end that nothing is left behind.
func newTestPool(t *testing.T, cfg Config) *Pool {
	t.Helper()
	if cfg.Timeout == 0 {
		// The tests' own generous timeout, not the product's: a busy
		// machine must not fail a conversion test.
		d, _ := time.ParseDuration(pooltest.TestTimeout)
		cfg.Timeout = d
	}
	if cfg.StartTimeout == 0 {
		// Under load LibreOffice took over the product's 60 s to start.
		cfg.StartTimeout = 5 * time.Minute
	}
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	p, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.StartTimeout+time.Minute)
	defer cancel()
	if err := p.Ready(ctx); err != nil {
		p.Close()
		t.Fatal(err)
	}
	seen := p.snapshot()
	t.Cleanup(func() {
		seen = append(seen, p.snapshot()...)
		p.Close()
		assertGone(t, seen, cfg.TempDir)
	})
	return p
}

// trace is what one instance owns, for leak checks.
type trace struct {
	pgids   []int // soffice.bin's and the helper's
	dir     string
	sockets []string
}

func (p *Pool) snapshot() []trace {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []trace
	for in := range p.live {
		out = append(out, in.trace())
	}
	return out
}

func (in *instance) trace() trace {
	in.office.mu.Lock()
	defer in.office.mu.Unlock()
	return trace{pgids: []int{in.office.pid, in.helper.Process.Pid}, dir: in.dir, sockets: in.pipeSockets()}
}

func assertGone(t *testing.T, traces []trace, tempDir string) {
	t.Helper()
	for _, tr := range traces {
		for _, pgid := range tr.pgids {
			if err := syscall.Kill(-pgid, 0); err == nil || !errors.Is(err, syscall.ESRCH) {
				t.Errorf("process group %d still alive (%v)", pgid, err)
			}
		}
		for _, s := range append(tr.sockets, tr.dir) {
			if _, err := os.Lstat(s); err == nil {
				t.Errorf("left behind: %s", s)
			}
		}
	}
	if entries, _ := os.ReadDir(tempDir); len(entries) > 0 {
		t.Errorf("temp dir not empty: %v", entries)
	}
}

func convertFile(t *testing.T, p *Pool, ctx context.Context, k Kind, path string) ([]byte, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	err = p.Convert(ctx, k, f, &out)
	return out.Bytes(), err
}

// assertDocx checks that b is a zip holding word/document.xml with text.
func assertDocx(t *testing.T, name string, b []byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("%s: output is not a zip: %v", name, err)
	}
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			return
		}
	}
	t.Fatalf("%s: output has no word/document.xml", name)
}

func TestConvertsWordODTAndRTF(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	for _, c := range []struct {
		k    Kind
		path string
	}{
		{Word, "doc/poi-Word6.doc"},
		{Word, "doc/poi-Word95.doc"},
		{Word, "doc/abiword-Word97Test.doc"},
		{ODT, "odt/pandoc-trackedChanges.odt"},
		{RTF, "rtf/rtfpipe-phprtflite-nested_tables.rtf"},
		{WordML, "bad/tika-testWORDML_tableInsideParagraph.doc"},
	} {
		b, err := convertFile(t, p, context.Background(), c.k, filepath.Join(corpus, c.path))
		if err != nil {
			t.Fatalf("%s: %v (%+v)", c.path, err, err)
		}
		assertDocx(t, c.path, b)
	}
}

func TestRefusesContentReadAsAnotherFormat(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	// 24 bytes of text named .odt: LibreOffice would happily open it as plain text.
	_, err := convertFile(t, p, context.Background(), ODT, filepath.Join(corpus, "bad/tika-testODTnotaZipFile.odt"))
	if r := reasonOf(err); r != Unsupported && r != Corrupt {
		t.Fatalf("got %v (reason %d), want a refusal", err, r)
	}
	t.Logf("not a zip: %v (%s)", err, err.(*Error).Detail)
	// The instance survives document errors.
	b, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	if err != nil {
		t.Fatal(err)
	}
	assertDocx(t, "after refusal", b)
}

// LibreOffice 7.4 over UNO neither asks the interaction handler nor says
// why it gave up on an encrypted file, so the pool can only call it
// unreadable; the plugin tells encryption apart before (see docformat).
func TestEncryptedFailsFastAndKeepsTheInstance(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	for _, c := range []struct {
		k    Kind
		path string
	}{
		{Word, "bad/poi-password_tika_binaryrc4.doc"},
		{ODT, "bad/tika-testODTEncrypted.odt"},
	} {
		start := time.Now()
		_, err := convertFile(t, p, context.Background(), c.k, filepath.Join(corpus, c.path))
		if r := reasonOf(err); r != PasswordProtected && r != Corrupt {
			t.Errorf("%s: got %+v, want password-protected or corrupt", c.path, err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: took %s", c.path, d)
		}
	}
	if n := len(p.snapshot()); n != 1 {
		t.Fatalf("%d live instances, want the same 1", n)
	}
}

func TestCrashedInstanceIsReplacedAndColdRetried(t *testing.T) {
	// soffice dies in the middle of a conversion (killed once the long
	// RTF is on its way: it takes LibreOffice several seconds); a one-shot
	// soffice converts it. (Documents that made a -nogui 7.4 abort, such as
	// poi-MarkAuthorsTable.doc, convert warm with the full Writer's .ui
	// files, so the crash is made here.)
	var rtf bytes.Buffer
	rtf.WriteString(`{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}}` + "\n")
	for i := range 20000 {
		fmt.Fprintf(&rtf, `\pard Paragraph %d with {\b bold} and {\i italic} words to lay out.\par`+"\n", i)
	}
	rtf.WriteString("}")
	for _, cold := range []bool{true, false} {
		p := newTestPool(t, Config{Size: 1, NoColdRetry: !cold})
		before := p.snapshot()[0]
		done := make(chan error, 1)
		var out bytes.Buffer
		go func() { done <- p.Convert(context.Background(), RTF, bytes.NewReader(rtf.Bytes()), &out) }()
		time.Sleep(time.Second) // the request is with soffice
		syscall.Kill(-before.pgids[0], syscall.SIGKILL)
		err := <-done
		if cold {
			if err != nil {
				t.Fatalf("with cold retry: %v (%+v)", err, err)
			}
			assertDocx(t, "cold retry", out.Bytes())
		} else if reasonOf(err) != Crashed {
			t.Fatalf("without cold retry: got %v, want a crash", err)
		}
		assertGone(t, []trace{before}, t.TempDir())
		b, err := convertFile(t, p, context.Background(), Word, filepath.Join(corpus, "doc/poi-Word6.doc"))
		if err != nil {
			t.Fatalf("replacement instance: %v", err)
		}
		assertDocx(t, "after crash", b)
	}
}

func TestKilledSofficeIsReplaced(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	victim := p.snapshot()[0]
	syscall.Kill(victim.pgids[0], syscall.SIGKILL) // soffice dies while idle
	b, err := convertFile(t, p, context.Background(), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	if err != nil {
		t.Fatalf("conversion after soffice died: %+v", err)
	}
	assertDocx(t, "after kill", b)
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv(EnvSize, "3")
	t.Setenv(EnvTimeout, "45s")
	t.Setenv(EnvIdle, "90s")
	c, err := ConfigFromEnv()
	if err != nil || c.Size != 3 || c.Timeout != 45*time.Second || c.IdleTimeout != 90*time.Second {
		t.Fatalf("got %+v, %v", c, err)
	}
	t.Setenv(EnvIdle, "0")
	if c, err := ConfigFromEnv(); err != nil || c.IdleTimeout >= 0 {
		t.Fatalf("%s=0: got %+v, %v, want never (negative)", EnvIdle, c, err)
	}
	t.Setenv(EnvIdle, "later")
	if _, err := ConfigFromEnv(); err == nil {
		t.Fatal("bad idle time accepted")
	}
	t.Setenv(EnvIdle, "")
	t.Setenv(EnvSize, "0")
	if _, err := ConfigFromEnv(); err == nil {
		t.Fatal("pool size 0 accepted")
	}
	t.Setenv(EnvSize, "")
	t.Setenv(EnvTimeout, "soon")
	if _, err := ConfigFromEnv(); err == nil {
		t.Fatal("bad timeout accepted")
	}
	t.Setenv(EnvTimeout, "")
	t.Setenv(EnvPerAccount, "2")
	t.Setenv(EnvCPU, "30s")
	t.Setenv(EnvMemory, "1536M")
	t.Setenv(EnvInstance, "4242:77:/srv/dragoman/data")
	c, err = ConfigFromEnv()
	if err != nil || c.PerTenant != 2 || c.CPU != 30*time.Second || c.Memory != 1536<<20 || c.Instance != "/srv/dragoman/data" {
		t.Fatalf("got %+v, %v", c, err)
	}
	for v, want := range map[string]int64{"0": -1, "2G": 2 << 30, "2GiB": 2 << 30, "512mb": 512 << 20, "1048576": 1 << 20} {
		t.Setenv(EnvMemory, v)
		if c, err := ConfigFromEnv(); err != nil || c.Memory != want {
			t.Errorf("%s=%s: %d, %v; want %d", EnvMemory, v, c.Memory, err, want)
		}
	}
	for env, bad := range map[string]string{EnvPerAccount: "0", EnvCPU: "forever", EnvMemory: "lots"} {
		t.Setenv(env, bad)
		if _, err := ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), env) {
			t.Errorf("%s=%s: %v, want an error naming it", env, bad, err)
		}
		t.Setenv(env, "")
	}
	d, err := Config{Size: 3}.withDefaults()
	if err != nil || d.PerTenant != 2 || d.CPU != time.Minute || d.Memory != 1<<30 {
		t.Errorf("defaults: %+v, %v", d, err)
	}
	if got := d.CPUFor(10 << 20); got != 25*time.Minute {
		t.Errorf("CPUFor(10 MB) = %s, want 25 × 60 s as the timeout scales", got)
	}
}

// reasonOf returns the Reason of a conversion error, 0 if it is not one.
func reasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return 0
}

// officeProcesses lists live processes whose command line names dir:
// every soffice.bin and UNO helper names its profile, which lives there.
func officeProcesses(dir string) []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range cmdlines {
		b, err := os.ReadFile(c)
		if err == nil && bytes.Contains(b, []byte(dir)) {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

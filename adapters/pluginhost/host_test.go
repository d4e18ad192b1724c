package pluginhost

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

func newHost(t *testing.T, dir string, engines []string, opts ...Option) *Host {
	t.Helper()
	h, err := New(dir, engines, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func engineByName(t *testing.T, h *Host, name string) ports.Engine {
	t.Helper()
	engines, err := h.Engines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range engines {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("engine %s not in %v", name, engines)
	return ports.Engine{}
}

func TestEnginesInPriorityOrderWithCapabilities(t *testing.T) {
	h := newHost(t, pluginDir, []string{"pseudo", "apertium"})
	engines, err := h.Engines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(engines) != 2 || engines[0].Name != "pseudo" || engines[1].Name != "apertium" {
		t.Fatalf("engines %v, want pseudo then apertium", engines)
	}
	if !engines[0].Caps.AnyToAny || len(engines[0].Caps.Modes) != 4 {
		t.Errorf("pseudo caps %+v", engines[0].Caps)
	}
	ap := engines[1].Caps
	if ap.AnyToAny || ap.MaxSegments == 0 || !hasPair(ap.Pairs, "en", "es") || !hasPair(ap.Pairs, "fr", "es") {
		t.Errorf("apertium caps %+v", ap)
	}
	caps, err := engines[1].Provider.Capabilities(context.Background())
	if err != nil || caps.Name != "apertium" {
		t.Errorf("live capabilities %+v, %v", caps, err)
	}
}

func hasPair(pairs []language.Pair, s, t string) bool {
	for _, p := range pairs {
		if p.Source == s && p.Target == t {
			return true
		}
	}
	return false
}

func TestApertiumThroughPlugin(t *testing.T) {
	e := engineByName(t, newHost(t, pluginDir, []string{"apertium"}), "apertium")
	segs := []string{
		`The <g id="1">big dog</g> eats<x id="2"/> the red apple.`,
		`I have a <g id="3">house</g> in the city.`,
		`Click <g id="4">here</g> to open the file &amp; read it.`,
	}
	res, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "es", Mode: translation.Full, Segments: segs})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]string{{"perro", "manzana"}, {"casa", "ciudad"}, {"aquí", "abrir"}} {
		for _, w := range want {
			if !strings.Contains(strings.ToLower(res.Segments[i]), w) {
				t.Errorf("segment %d %q lacks Spanish %q", i, res.Segments[i], w)
			}
		}
	}
	for i, src := range segs {
		assertSameCodes(t, src, res.Segments[i])
	}
}

// assertSameCodes checks that out carries each code of src exactly once,
// with every <g> closed.
func assertSameCodes(t *testing.T, src, out string) {
	t.Helper()
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, tk := range tagged.Tokenize(s) {
			switch tk.Kind {
			case tagged.Open:
				m["g"+strconv.Itoa(tk.ID)]++
			case tagged.Close:
				m["/g"]++
			case tagged.Place:
				m["x"+strconv.Itoa(tk.ID)]++
			}
		}
		return m
	}
	a, b := count(src), count(out)
	if len(a) != len(b) {
		t.Errorf("codes %v became %v: %s", a, b, out)
		return
	}
	for k, n := range a {
		if b[k] != n {
			t.Errorf("code %s: %d in source, %d in %s", k, n, b[k], out)
		}
	}
	if strings.Count(out, "<g ") != strings.Count(out, "</g>") {
		t.Errorf("unbalanced: %s", out)
	}
}

func TestPseudoThroughPlugin(t *testing.T) {
	e := engineByName(t, newHost(t, pluginDir, []string{"pseudo"}), "pseudo")
	src := `Please read <g id="1">the instructions</g> carefully<x id="2"/> before you start the machine.`
	for target, script := range map[string]*unicode.RangeTable{"he": unicode.Hebrew, "ar": unicode.Arabic, "ru": unicode.Cyrillic, "ja": unicode.Hiragana} {
		res, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: target, Segments: []string{src, src}})
		if err != nil {
			t.Fatal(err)
		}
		out := res.Segments[0]
		if out != res.Segments[1] {
			t.Errorf("%s: not deterministic", target)
		}
		assertSameCodes(t, src, out)
		plain := tagged.Plain(out)
		letters := 0
		for _, r := range plain {
			if unicode.IsLetter(r) {
				letters++
				if !unicode.Is(script, r) {
					t.Errorf("%s: letter %q not in target script: %s", target, r, plain)
					break
				}
			}
		}
		growth := float64(utf8.RuneCountInString(plain)) / float64(utf8.RuneCountInString(tagged.Plain(src)))
		if growth < 1.15 || growth > 1.5 {
			t.Errorf("%s: grew %.2f×, want about 1.3", target, growth)
		}
	}
}

func TestMissingPluginIsAStartupError(t *testing.T) {
	_, err := New(pluginDir, []string{"pseudo", "deepl"}, nil)
	if err == nil || !strings.Contains(err.Error(), `engine "deepl" is enabled`) || !strings.Contains(err.Error(), "dragoman-provider-deepl") {
		t.Fatalf("err = %v", err)
	}
	t.Log(err)
}

func TestProtocolMismatchIsAClearError(t *testing.T) {
	_, err := New(oldDir, []string{"old"}, nil)
	if err == nil || !strings.Contains(err.Error(), "does not speak Dragoman plugin protocol v1") || !strings.Contains(err.Error(), "rebuild") {
		t.Fatalf("err = %v", err)
	}
	t.Log(err)
}

func TestPluginInheritsEnvironment(t *testing.T) {
	t.Setenv("DRAGOMAN_CRASHY_GREETING", "shalom")
	e := engineByName(t, newHost(t, pluginDir, []string{"crashy"}), "crashy")
	res, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Segments: []string{"__env__"}})
	if err != nil || res.Segments[0] != "shalom" {
		t.Fatalf("got %v, %v", res.Segments, err)
	}
}

func pidOf(t *testing.T, p ports.Provider) int {
	t.Helper()
	res, err := p.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Segments: []string{"__pid__"}})
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(res.Segments[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRestartAfterCrashInCall(t *testing.T) {
	e := engineByName(t, newHost(t, pluginDir, []string{"crashy"}, WithHealthInterval(0)), "crashy")
	before := pidOf(t, e.Provider)
	_, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Segments: []string{"__crash__"}})
	if !errors.Is(err, ErrPluginCrashed) {
		t.Fatalf("err = %v, want ErrPluginCrashed", err)
	}
	after := pidOf(t, e.Provider) // the very next call works
	if after == before {
		t.Fatalf("same pid %d after a crash", after)
	}
}

func TestRestartAfterKillDuringCall(t *testing.T) {
	h := newHost(t, pluginDir, []string{"crashy"}, WithHealthInterval(0))
	e := engineByName(t, h, "crashy")
	pid := pidOf(t, e.Provider)
	done := make(chan error, 1)
	go func() {
		_, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Segments: []string{"__sleep__"}})
		done <- err
	}()
	time.Sleep(200 * time.Millisecond) // let the call reach the plugin
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrPluginCrashed) {
			t.Fatalf("in-flight call err = %v, want ErrPluginCrashed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("in-flight call did not return after its plugin was killed")
	}
	if got := pidOf(t, e.Provider); got == pid {
		t.Fatalf("still pid %d", got)
	}
	// The registry hands out the restarted engine too.
	if got := pidOf(t, engineByName(t, h, "crashy").Provider); got == pid {
		t.Fatalf("registry still on pid %d", got)
	}
}

func TestHealthCheckRestartsADeadPlugin(t *testing.T) {
	h := newHost(t, pluginDir, []string{"crashy"}, WithHealthInterval(50*time.Millisecond))
	p := h.engines[0]
	pid := p.pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if now := p.pid(); now != 0 && now != pid {
			return // restarted without any call
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("health check did not restart the killed plugin")
}

func TestCloseLeavesNoChildProcess(t *testing.T) {
	h, err := New(pluginDir, []string{"apertium", "pseudo", "crashy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, p := range h.all() {
		pids = append(pids, p.pid())
	}
	if len(pids) != 4 { // three engines and the converter
		t.Fatalf("pids %v", pids)
	}
	h.Close()
	for _, pid := range pids {
		if pid == 0 {
			t.Fatal("a plugin had no pid")
		}
		// ESRCH: gone and reaped (a zombie would still answer signal 0).
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("plugin pid %d still exists after Close (%v)", pid, err)
		}
	}
	if _, err := h.Engines(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Engines after Close: %v", err)
	}
}

func TestConverterStreamsLargeDocuments(t *testing.T) {
	h := newHost(t, pluginDir, []string{"pseudo"})
	c := h.Converter()
	if c == nil || len(c.Formats()) != 1 || c.Formats()[0] != "txt" {
		t.Fatalf("converter %v", c)
	}
	in := make([]byte, 5<<20+123) // several chunks, not a multiple of the chunk size
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range in {
		in[i] = 'a' + byte(rng.IntN(26))
	}
	var out bytes.Buffer
	if err := c.Convert(context.Background(), ".txt", bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), bytes.ToUpper(in)) {
		t.Fatalf("converted %d bytes, not the upper-cased %d input bytes", out.Len(), len(in))
	}
	if err := c.Convert(context.Background(), "rtf", bytes.NewReader(in), &out); err == nil || !strings.Contains(err.Error(), "no converter plugin handles .rtf") {
		t.Errorf("rtf: %v", err)
	}
}

func TestParseEngines(t *testing.T) {
	if got := ParseEngines(""); len(got) != 1 || got[0] != "apertium" {
		t.Errorf("default %v", got)
	}
	if got := strings.Join(ParseEngines(" Pseudo, apertium,,pseudo "), ","); got != "pseudo,apertium" {
		t.Errorf("got %s", got)
	}
}

// A converter that renders no PDF (it lists no "pdf" target) is never
// asked for one: the host says no plugin renders PDFs.
func TestPDFOnlyFromConvertersThatRenderThem(t *testing.T) {
	h := newHost(t, pluginDir, []string{"pseudo"})
	r := h.PDFRenderer()
	if r == nil {
		t.Fatal("no PDF renderer handle beside a converter plugin")
	}
	if _, _, err := h.converters[0].get(); err != nil { // started, so its targets are known
		t.Fatal(err)
	}
	err := r.RenderPDF(context.Background(), "txt", strings.NewReader("abc"), io.Discard)
	if !errors.Is(err, ErrNoPDFRenderer) {
		t.Errorf("RenderPDF through a converter without PDF: %v", err)
	}
}

// A failure the plugin described reaches the job's warning in its words;
// errors.Is still sees what it wraps.
func TestDescribedPluginFailure(t *testing.T) {
	raw := status.Error(codes.Aborted, "LibreOffice crashed while converting the document")
	err := described(raw)
	if err.Error() != "LibreOffice crashed while converting the document" {
		t.Errorf("described: %q", err)
	}
	if !errors.Is(err, raw) {
		t.Error("the gRPC error is no longer wrapped")
	}
	other := status.Error(codes.Unavailable, "connection refused")
	if described(other) != other {
		t.Error("a lost process was reworded")
	}
}

// An engine's failure (a vendor's refusal, in the plugin's words) reaches
// the job's error as the plugin put it, not as "rpc error: code = Unknown
// desc = …", and the process is not counted as lost.
func TestEngineFailureInThePluginsWords(t *testing.T) {
	e := engineByName(t, newHost(t, pluginDir, []string{"crashy"}), "crashy")
	_, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: []string{"__fail__"}})
	if err == nil || err.Error() != "crashy: the vendor refused the request (HTTP 456)" {
		t.Errorf("error %v, want the plugin's words", err)
	}
	if errors.Is(err, ErrPluginCrashed) {
		t.Errorf("a failed call counted as a crash: %v", err)
	}
	if res, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: []string{"ok"}}); err != nil || res.Segments[0] != "ok" {
		t.Errorf("after the failure: %v %v", res.Segments, err)
	}
}

// issue 26: a conversion tells the plugin which account it works for, as
// an opaque key (the plugin shares its instances fairly between them).
func TestConverterCallsNameTheirTenant(t *testing.T) {
	h := newHost(t, pluginDir, []string{"pseudo"})
	c := h.Converter()
	ask := func(ctx context.Context) string {
		var out bytes.Buffer
		if err := c.Convert(ctx, "txt", strings.NewReader("tenant?"), &out); err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(out.String(), "tenant=")
	}
	a1 := ask(ports.WithAccount(context.Background(), "acct-a"))
	a2 := ask(ports.WithAccount(context.Background(), "acct-a"))
	b := ask(ports.WithAccount(context.Background(), "acct-b"))
	none := ask(context.Background())
	t.Logf("a %q, b %q, none %q", a1, b, none)
	if a1 == "" || a1 != a2 || a1 == b || strings.Contains(a1, "acct") || none != "" {
		t.Fatalf("tenant keys a %q and %q, b %q, none %q: want one stable opaque key per account, none without", a1, a2, b, none)
	}
}

// A plugin that cannot start again after a crash is not spawned on every
// call: the failed start is answered again, in its words, until a
// backoff has passed; then it is tried, and works once it can.
func TestAFailedStartIsNotRetriedOnEveryCall(t *testing.T) {
	dir := t.TempDir()
	starts, refuse := filepath.Join(dir, "starts"), filepath.Join(dir, "refuse")
	t.Setenv("DRAGOMAN_CRASHY_STARTS", starts)
	t.Setenv("DRAGOMAN_CRASHY_REFUSE", refuse)
	h := newHost(t, pluginDir, []string{"crashy"}, WithHealthInterval(0))
	e := engineByName(t, h, "crashy")
	if err := os.WriteFile(refuse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: "en", Target: "de", Segments: []string{"__crash__"}}); !errors.Is(err, ErrPluginCrashed) {
		t.Fatalf("err = %v, want ErrPluginCrashed", err)
	}
	count := func() int {
		b, _ := os.ReadFile(starts)
		return strings.Count(string(b), "start")
	}
	for i := 0; i < 10; i++ {
		if _, err := h.Engines(context.Background()); err == nil || !strings.Contains(err.Error(), "told not to start") {
			t.Fatalf("call %d: %v, want the failed start in the plugin's words", i, err)
		}
	}
	// The first start, then one failed start (the crash's eager restart
	// or the first call's; on a slow machine the eager restart may come
	// after the first backoff and try once more), not one per call (12).
	if n := count(); n < 2 || n > 3 {
		t.Fatalf("%d starts, want 2 (3 at most)", n)
	}
	os.Remove(refuse)
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := h.Engines(context.Background()); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the plugin was never started again")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n := count(); n > 5 {
		t.Errorf("%d starts to get going again, want the backoff's few", n)
	}
}

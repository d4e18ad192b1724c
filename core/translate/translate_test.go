package translate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

var ctx = context.Background()

func TestIdenticalSegmentsSentOnce(t *testing.T) {
	u := &upper{}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}}
	d := docOf("Header", `<g id="1">Total</g>`, "Header", "42", `<g id="1">Total</g>`, "Body text.", "Header")
	res, err := tr.Translate(ctx, d, "en", "de", translation.Full)
	if err != nil {
		t.Fatal(err)
	}
	sent := u.sent()
	if want := []string{"Header", `<g id="1">Total</g>`, "Body text."}; !slices.Equal(sent, want) {
		t.Errorf("sent %q, want each distinct text once %q", sent, want)
	}
	want := []string{"HEADER/de", `<g id="1">TOTAL/de</g>`, "HEADER/de", "42", `<g id="1">TOTAL/de</g>`, "BODY TEXT./de", "HEADER/de"}
	if got := targets(d); !slices.Equal(got, want) {
		t.Errorf("targets %q, want %q", got, want)
	}
	m := res.Metrics
	if m.Segments != 7 || m.EngineCalls != 1 || m.CacheHits != 0 || m.CharsSent != len("Header")+len("Total")+len("Body text.") {
		t.Errorf("metrics %+v", m)
	}
	if res.Engine != "upper" {
		t.Errorf("engine %q", res.Engine)
	}
}

func TestMemoryMakesSecondRunFree(t *testing.T) {
	u := &upper{}
	tm := newMemoryTM()
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true, MaxSegments: 2})}, TM: tm}
	texts := []string{"One.", "Two.", "Three.", "One.", "Four."}
	first, err := tr.Translate(ctx, docOf(texts...), "en", "fr", translation.Full)
	if err != nil {
		t.Fatal(err)
	}
	if first.Metrics.EngineCalls != 2 || first.Metrics.CacheHits != 0 {
		t.Errorf("first run %+v", first.Metrics)
	}
	d := docOf(texts...)
	second, err := tr.Translate(ctx, d, "en", "fr", translation.Full)
	if err != nil {
		t.Fatal(err)
	}
	if second.Metrics.EngineCalls != 0 || second.Metrics.CharsSent != 0 || second.Metrics.CacheHits != 4 || u.calls() != 2 {
		t.Errorf("second run %+v after %d calls, want no engine call and 4 hits", second.Metrics, u.calls())
	}
	if got := targets(d); got[0] != "ONE./fr" || got[4] != "FOUR./fr" {
		t.Errorf("targets from memory %q", got)
	}
	// Another direction or mode is another key.
	if res, _ := tr.Translate(ctx, docOf(texts...), "en", "es", translation.Full); res.Metrics.EngineCalls == 0 {
		t.Error("en→es answered from en→fr memory")
	}
	if res, _ := tr.Translate(ctx, docOf(texts...), "en", "fr", translation.Literal); res.Metrics.EngineCalls == 0 {
		t.Error("literal answered from full-mode memory")
	}
	// A new segment in a known document costs one segment.
	res, _ := tr.Translate(ctx, docOf(append(texts, "Five.")...), "en", "fr", translation.Full)
	if res.Metrics.EngineCalls != 1 || res.Metrics.CharsSent != len("Five.") || res.Metrics.CacheHits != 4 {
		t.Errorf("one new segment: %+v", res.Metrics)
	}
}

func TestBatchesWithinEngineLimits(t *testing.T) {
	for _, c := range []struct {
		caps      ports.Capabilities
		wantCalls int
	}{
		{ports.Capabilities{AnyToAny: true, MaxSegments: 3}, 4}, // 10 segments
		{ports.Capabilities{AnyToAny: true, MaxChars: 25}, 5},   // 10 × 10 bytes
		{ports.Capabilities{AnyToAny: true}, 1},
	} {
		u := &upper{}
		tr := &Translator{Engines: registry{engine("upper", u, c.caps)}}
		var texts []string
		for i := range 10 {
			texts = append(texts, "segment "+string(rune('a'+i))+".")
		}
		res, err := tr.Translate(ctx, docOf(texts...), "en", "de", translation.Full)
		if err != nil {
			t.Fatal(err)
		}
		if res.Metrics.EngineCalls != c.wantCalls || u.calls() != c.wantCalls {
			t.Errorf("caps %+v: %d calls, want %d", c.caps, u.calls(), c.wantCalls)
		}
		for _, r := range u.requests {
			n := 0
			for _, s := range r.Segments {
				n += len(s)
			}
			if (c.caps.MaxSegments > 0 && len(r.Segments) > c.caps.MaxSegments) || (c.caps.MaxChars > 0 && n > c.caps.MaxChars) {
				t.Errorf("batch of %d segments, %d chars over %+v", len(r.Segments), n, c.caps)
			}
		}
	}
}

func TestProfessionalModeProtectsBeforeTheEngine(t *testing.T) {
	u := &upper{}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}}
	d := docOf(
		"Download Dragoman v1.4.2 from https://dragoman.example/get and read <g id=\"1\">config.yaml</g>.",
		"https://dragoman.example/get",
		"Ask Acme Widget support at help@acme.example.",
	)
	res, err := tr.TranslateWith(ctx, d, "en", "de", translation.Professional, Options{DoNotTranslate: []string{"Acme Widget", "Dragoman"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range u.sent() {
		for _, secret := range []string{"Dragoman", "v1.4.2", "https://", "config.yaml", "Acme Widget", "help@acme"} {
			if strings.Contains(s, secret) {
				t.Errorf("engine saw %q in %q", secret, s)
			}
		}
	}
	if len(u.sent()) != 2 {
		t.Errorf("sent %q; a segment that is only a URL needs no engine", u.sent())
	}
	got := targets(d)
	for _, keep := range []string{"Dragoman", "v1.4.2", "https://dragoman.example/get", `<g id="1">config.yaml</g>`} {
		if !strings.Contains(got[0], keep) {
			t.Errorf("target %q lost %q", got[0], keep)
		}
	}
	if !strings.Contains(got[0], "DOWNLOAD") || got[1] != "https://dragoman.example/get" {
		t.Errorf("targets %q", got)
	}
	if !strings.Contains(got[2], "Acme Widget") || !strings.Contains(got[2], "help@acme.example") || !strings.Contains(got[2], "SUPPORT") {
		t.Errorf("target %q", got[2])
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %q", res.Warnings)
	}

	// Full mode sends everything.
	u2 := &upper{}
	tr.Engines = registry{engine("upper", u2, ports.Capabilities{AnyToAny: true})}
	if _, err := tr.Translate(ctx, docOf("Get v1.4.2 now"), "en", "de", translation.Full); err != nil {
		t.Fatal(err)
	}
	if s := u2.sent(); len(s) != 1 || s[0] != "Get v1.4.2 now" {
		t.Errorf("full mode sent %q", s)
	}
}

func TestLostProtectedSpanIsRestoredWithWarning(t *testing.T) {
	drop := providerFunc(func(r ports.TranslateRequest) []string {
		out := make([]string, len(r.Segments))
		for i, s := range r.Segments {
			out[i] = tagged.Plain(s) // drops every code
		}
		return out
	})
	tr := &Translator{Engines: registry{engine("dropper", drop, ports.Capabilities{AnyToAny: true})}}
	d := docOf("Install version v2.0.1 today")
	res, err := tr.Translate(ctx, d, "en", "de", translation.Professional)
	if err != nil {
		t.Fatal(err)
	}
	if got := targets(d)[0]; !strings.HasSuffix(got, "v2.0.1") || len(res.Warnings) != 1 {
		t.Errorf("target %q warnings %q", got, res.Warnings)
	}
}

type providerFunc func(ports.TranslateRequest) []string

func (f providerFunc) Capabilities(context.Context) (ports.Capabilities, error) {
	return ports.Capabilities{AnyToAny: true}, nil
}
func (f providerFunc) Translate(_ context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
	return ports.TranslateResult{Segments: f(r)}, nil
}

func TestRoutesOverridePriority(t *testing.T) {
	a, b := &upper{}, &upper{}
	engines := registry{
		engine("first", a, ports.Capabilities{AnyToAny: true}),
		engine("second", b, ports.Capabilities{Pairs: []language.Pair{{Source: "en", Target: "ar"}}}),
	}
	routes, err := ParseRoutes(" English:ar=second , fr:*=second ")
	if err != nil {
		t.Fatal(err)
	}
	tr := &Translator{Engines: engines, Routes: routes}
	res, err := tr.Translate(ctx, docOf("Hello"), "en", "ar", translation.Full)
	if err != nil || res.Engine != "second" || b.calls() != 1 || a.calls() != 0 {
		t.Fatalf("en→ar went to %q (%v), calls %d/%d", res.Engine, err, a.calls(), b.calls())
	}
	// The route names an engine without fr→es: priority order decides.
	res, err = tr.Translate(ctx, docOf("Bonjour"), "fr", "es", translation.Full)
	if err != nil || res.Engine != "first" {
		t.Errorf("fr→es went to %q (%v)", res.Engine, err)
	}
	for _, bad := range []string{"en-ar=openai", "en:ar", "xx:ar=openai", "en:ar="} {
		if _, err := ParseRoutes(bad); err == nil {
			t.Errorf("ParseRoutes(%q) accepted", bad)
		}
	}
}

func TestPivotThroughEnglish(t *testing.T) {
	fr, es := &upper{}, &upper{}
	engines := registry{
		engine("fr-en", fr, ports.Capabilities{Pairs: []language.Pair{{Source: "fr", Target: "en"}}}),
		engine("en-es", es, ports.Capabilities{Pairs: []language.Pair{{Source: "en", Target: "es"}}}),
	}
	if !Servable(engines, "fr", "es") || Servable(engines, "es", "fr") {
		t.Fatal("Servable disagrees with the legs")
	}
	tm := newMemoryTM()
	tr := &Translator{Engines: engines, TM: tm}
	d := docOf("Bonjour")
	res, err := tr.Translate(ctx, d, "fr", "es", translation.Full)
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != "fr-en+en-es" || targets(d)[0] != "BONJOUR/EN/es" || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "through English (French→English with fr-en, then English→Spanish with en-es)") {
		t.Errorf("engine %q target %q warnings %q", res.Engine, targets(d)[0], res.Warnings)
	}
	if res.Metrics.EngineCalls != 2 {
		t.Errorf("metrics %+v", res.Metrics)
	}
	if _, err := tr.Translate(ctx, docOf("Hola"), "es", "fr", translation.Full); !errors.Is(err, ErrNoRoute) {
		t.Errorf("es→fr: %v, want ErrNoRoute", err)
	}
	res, _ = tr.Translate(ctx, docOf("Bonjour"), "fr", "es", translation.Full)
	if res.Metrics.EngineCalls != 0 || res.Metrics.CacheHits != 2 {
		t.Errorf("second pivot run %+v", res.Metrics)
	}
}

func TestModeWarningWhenEngineCannotHonourIt(t *testing.T) {
	u := &upper{}
	tr := &Translator{Engines: registry{engine("plain", u, ports.Capabilities{AnyToAny: true, Modes: []translation.Mode{translation.Full, translation.Literal}})}}
	for mode, warn := range map[translation.Mode]bool{translation.Literal: false, translation.Extreme: true, translation.Full: false, translation.Professional: false} {
		res, err := tr.Translate(ctx, docOf("Hi there"), "en", "de", mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Warnings) == 1 && strings.Contains(res.Warnings[0], string(mode)); got != warn {
			t.Errorf("mode %s: warnings %q", mode, res.Warnings)
		}
	}
}

func TestEngineFailureNamesEngineAndRetriesOnlyRetryable(t *testing.T) {
	crash := errors.New("plugin crashed")
	u := &upper{fail: errors.New("deepl: quota exceeded (HTTP 456)")}
	tr := &Translator{
		Engines:   registry{engine("deepl", u, ports.Capabilities{AnyToAny: true})},
		Backoff:   time.Millisecond,
		Retryable: func(err error) bool { return errors.Is(err, crash) },
	}
	res, err := tr.Translate(ctx, docOf("Hello"), "en", "de", translation.Full)
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Engine != "deepl" || !strings.Contains(err.Error(), `"deepl"`) || !strings.Contains(err.Error(), "456") {
		t.Fatalf("error %v", err)
	}
	if u.calls() != 1 || res.Metrics.EngineCalls != 1 {
		t.Errorf("%d calls for a final error, want 1", u.calls())
	}
	u2 := &upper{fail: crash}
	tr.Engines = registry{engine("deepl", u2, ports.Capabilities{AnyToAny: true})}
	if _, err := tr.Translate(ctx, docOf("Hello"), "en", "de", translation.Full); err == nil || u2.calls() != 3 {
		t.Errorf("crash retried %d times (err %v), want 3 attempts", u2.calls(), err)
	}
}

func TestConcurrencyBoundedPerEngine(t *testing.T) {
	u := &upper{gate: make(chan struct{})}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true, MaxSegments: 1})}, Concurrency: 2}
	var texts []string
	for i := range 8 {
		texts = append(texts, "Segment "+string(rune('A'+i)))
	}
	done := make(chan error, 2)
	for range 2 { // two jobs share the engine's slots
		go func() {
			_, err := tr.Translate(ctx, docOf(texts...), "en", "de", translation.Full)
			done <- err
		}()
	}
	for range 16 {
		u.gate <- struct{}{}
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if u.maxSeen != 2 {
		t.Errorf("max %d batches in flight, want 2", u.maxSeen)
	}
}

func TestSegmentsWithoutLettersAreNotSent(t *testing.T) {
	u := &upper{}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}}
	d := docOf("", "12.5", `<x id="1"/>`, "—", "Text")
	if _, err := tr.Translate(ctx, d, "en", "de", translation.Full); err != nil {
		t.Fatal(err)
	}
	if s := u.sent(); len(s) != 1 || s[0] != "Text" {
		t.Errorf("sent %q", s)
	}
	if got := targets(d); got[1] != "12.5" || got[2] != `<x id="1"/>` {
		t.Errorf("targets %q", got)
	}
}

// The corpus documents with repeated headers, footers and table cells:
// the engine gets each distinct segment once, and nothing on the second run.
func TestCorpusDocumentsDedupeAndMemory(t *testing.T) {
	for _, name := range []string{"oxpt-RP001-Tracked-Revisions-01", "aspose-Formatted_elements"} {
		d := loadCorpusDoc(t, name)
		uniqueChars, total := uniqueText(d)
		u := &upper{}
		tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}, TM: newMemoryTM()}
		first, err := tr.Translate(ctx, d, "en", "de", translation.Full)
		if err != nil {
			t.Fatal(err)
		}
		second, err := tr.Translate(ctx, loadCorpusDoc(t, name), "en", "de", translation.Full)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d segments, %d chars in all, %d unique; first run sent %d chars in %d calls; second run sent %d chars, %d cache hits",
			name, first.Metrics.Segments, total, uniqueChars, first.Metrics.CharsSent, first.Metrics.EngineCalls, second.Metrics.CharsSent, second.Metrics.CacheHits)
		if first.Metrics.CharsSent > uniqueChars || first.Metrics.CharsSent >= total {
			t.Errorf("%s: sent %d chars, unique text is %d (all %d)", name, first.Metrics.CharsSent, uniqueChars, total)
		}
		if second.Metrics.CharsSent != 0 || second.Metrics.EngineCalls != 0 {
			t.Errorf("%s: second run %+v", name, second.Metrics)
		}
	}
}

// uniqueText is the characters of text (codes excluded) of the distinct
// segment sources with letters, and of all segments.
func uniqueText(d *segment.Document) (unique, total int) {
	seen := map[string]bool{}
	d.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		n := len([]rune(tagged.Plain(s.Source)))
		total += n
		if !seen[s.Source] && strings.IndexFunc(tagged.Plain(s.Source), unicode.IsLetter) >= 0 {
			seen[s.Source] = true
			unique += n
		}
	})
	return unique, total
}

func BenchmarkCorpusDocument(b *testing.B) {
	for _, name := range []string{"oxpt-RP001-Tracked-Revisions-01", "aspose-Formatted_elements"} {
		b.Run(name, func(b *testing.B) {
			d := loadCorpusDoc(b, name)
			uniqueChars, total := uniqueText(d)
			var first, second Result
			for b.Loop() {
				tm := newMemoryTM()
				tr := &Translator{Engines: registry{engine("upper", &upper{}, ports.Capabilities{AnyToAny: true})}, TM: tm}
				first, _ = tr.Translate(ctx, loadCorpusDoc(b, name), "en", "de", translation.Professional)
				second, _ = tr.Translate(ctx, loadCorpusDoc(b, name), "en", "de", translation.Professional)
			}
			if first.Metrics.CharsSent > uniqueChars || second.Metrics.CharsSent != 0 {
				b.Fatalf("first %+v second %+v, unique %d", first.Metrics, second.Metrics, uniqueChars)
			}
			b.ReportMetric(float64(total), "chars_total")
			b.ReportMetric(float64(uniqueChars), "chars_unique")
			b.ReportMetric(float64(first.Metrics.CharsSent), "chars_sent_1st")
			b.ReportMetric(float64(second.Metrics.CharsSent), "chars_sent_2nd")
			b.ReportMetric(float64(second.Metrics.CacheHits), "hits_2nd")
		})
	}
}

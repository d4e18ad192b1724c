package enginetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Suite is the shared wire test of one HTTP engine plugin.
type Suite struct {
	Engine         string                             // plugin name, e.g. "deepl"
	Dir            string                             // where Build put the binary
	Env            func(url string) map[string]string // complete settings for a server at url
	Vendor         func(t *testing.T) *Vendor         // a fresh stand-in server
	Required       []string                           // settings (variable names) whose absence fails the handshake
	Source, Target string
	// Refusals are vendor answers that must fail at once, without retry,
	// with Want in the message (bad key, DeepL's 456 quota, …).
	Refusals []Refusal
	// Malformed is a 200 body the plugin must reject as malformed.
	Malformed string
	// Segments for a document big enough to need several batches.
	BigDoc int
}

// Refusal is a final vendor error.
type Refusal struct {
	Fault Fault
	Want  string
}

// Segments the suite translates: codes, entities, an RTL-unsafe ampersand.
var Segments = []string{
	`The <g id="1">quick</g> brown fox<x id="2"/> jumps.`,
	`Fish &amp; chips &lt;cheap&gt; at <g id="3"><g id="4">Joe's</g></g> "diner".`,
	`Plain sentence without codes.`,
}

func (s Suite) start(t *testing.T, v *Vendor, extra map[string]string) ports.Engine {
	t.Helper()
	env := s.Env(v.URL)
	prefix := "DRAGOMAN_" + strings.ToUpper(s.Engine) + "_"
	env[prefix+"MAX_RETRIES"] = "3"
	env[prefix+"BACKOFF"] = "20ms"
	env[prefix+"TIMEOUT"] = "400ms"
	for k, val := range extra {
		env[k] = val
	}
	e, err := Start(t, s.Dir, s.Engine, env)
	if err != nil {
		t.Fatal(err)
	}
	v.ResetRequests() // start-up queries (a language list) are not the case under test
	return e
}

func (s Suite) translate(e ports.Engine, segs []string) (ports.TranslateResult, error) {
	return e.Provider.Translate(context.Background(), ports.TranslateRequest{Source: s.Source, Target: s.Target, Mode: translation.Full, Segments: segs})
}

// CheckTranslated asserts out is src translated by Upper with every code kept.
func CheckTranslated(t *testing.T, src, out []string) {
	t.Helper()
	if len(out) != len(src) {
		t.Fatalf("%d segments back for %d", len(out), len(src))
	}
	for i := range src {
		if got, want := tagged.Plain(out[i]), strings.ToUpper(tagged.Plain(src[i])); got != want {
			t.Errorf("segment %d: text %q, want %q (from %q)", i, got, want, out[i])
		}
		if a, b := codes(src[i]), codes(out[i]); a != b {
			t.Errorf("segment %d: codes %s became %s in %q", i, a, b, out[i])
		}
	}
}

func codes(s string) string {
	var b strings.Builder
	for _, t := range tagged.Tokenize(s) {
		switch t.Kind {
		case tagged.Open:
			b.WriteString("g" + strconv.Itoa(t.ID) + " ")
		case tagged.Close:
			b.WriteString("/g ")
		case tagged.Place:
			b.WriteString("x" + strconv.Itoa(t.ID) + " ")
		}
	}
	return b.String()
}

// Run runs every shared case as a subtest.
func (s Suite) Run(t *testing.T) {
	t.Run("translates keeping codes", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		if e.Caps.Name != s.Engine {
			t.Errorf("capabilities name %q", e.Caps.Name)
		}
		res, err := s.translate(e, Segments)
		if err != nil {
			t.Fatal(err)
		}
		CheckTranslated(t, Segments, res.Segments)
		if v.Requests() != 1 {
			t.Errorf("%d requests for one batch", v.Requests())
		}
	})
	t.Run("429 honours Retry-After", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Push(Fault{Status: 429, Header: map[string]string{"Retry-After": "1"}, Body: `{"message":"Too many requests"}`})
		began := time.Now()
		res, err := s.translate(e, Segments[:1])
		if err != nil {
			t.Fatal(err)
		}
		CheckTranslated(t, Segments[:1], res.Segments)
		if took := time.Since(began); took < time.Second || v.Requests() != 2 {
			t.Errorf("retried after %s with %d requests; Retry-After: 1 asks for a second", took, v.Requests())
		}
	})
	t.Run("429 without Retry-After backs off", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Push(Fault{Status: 429}, Fault{Status: 429, Body: "slow down"})
		res, err := s.translate(e, Segments[:1])
		if err != nil {
			t.Fatal(err)
		}
		CheckTranslated(t, Segments[:1], res.Segments)
		if v.Requests() != 3 {
			t.Errorf("%d requests, want 3", v.Requests())
		}
	})
	t.Run("5xx retried", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Push(Fault{Status: 500, Body: "internal"}, Fault{Status: 503, Body: "unavailable"})
		if _, err := s.translate(e, Segments[:1]); err != nil || v.Requests() != 3 {
			t.Errorf("err %v after %d requests", err, v.Requests())
		}
	})
	t.Run("timeout retried", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Push(Fault{Delay: time.Second, Status: 200, Body: "{}"})
		if _, err := s.translate(e, Segments[:1]); err != nil || v.Requests() != 2 {
			t.Errorf("err %v after %d requests", err, v.Requests())
		}
	})
	t.Run("malformed body retried", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Push(Fault{Status: 200, Body: s.Malformed})
		res, err := s.translate(e, Segments)
		if err != nil || v.Requests() != 2 {
			t.Fatalf("err %v after %d requests", err, v.Requests())
		}
		CheckTranslated(t, Segments, res.Segments)
	})
	t.Run("always malformed fails naming the engine", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Always(Fault{Status: 200, Body: s.Malformed})
		_, err := s.translate(e, Segments[:1])
		if err == nil || !strings.Contains(err.Error(), s.Engine+": malformed response") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("exhausted retries fail the job naming the engine", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, nil)
		v.Always(Fault{Status: 503, Body: "down for maintenance"})
		tr := &translate.Translator{
			Engines:   staticRegistry{e},
			Retryable: func(error) bool { return false },
		}
		doc := &segment.Document{Units: []segment.Unit{{Segments: []segment.Segment{{Source: Segments[0]}}}}}
		_, err := tr.Translate(context.Background(), doc, s.Source, s.Target, translation.Full)
		var ee *translate.EngineError
		if !errors.As(err, &ee) || ee.Engine != s.Engine || !strings.Contains(err.Error(), "HTTP 503") || !strings.Contains(err.Error(), "gave up after 4 attempts") {
			t.Errorf("error %v", err)
		}
		if v.Requests() != 4 {
			t.Errorf("%d requests, want 1 + MAX_RETRIES=3", v.Requests())
		}
	})
	t.Run("Retry-After beyond the cap fails at once", func(t *testing.T) {
		v := s.Vendor(t)
		e := s.start(t, v, map[string]string{"DRAGOMAN_" + strings.ToUpper(s.Engine) + "_MAX_RETRY_AFTER": "5s"})
		v.Always(Fault{Status: 429, Header: map[string]string{"Retry-After": "3600"}})
		_, err := s.translate(e, Segments[:1])
		if err == nil || !strings.Contains(err.Error(), "rate limited") || v.Requests() != 1 {
			t.Errorf("error %v after %d requests", err, v.Requests())
		}
	})
	for _, r := range s.Refusals {
		t.Run(fmt.Sprintf("HTTP %d is final", r.Fault.Status), func(t *testing.T) {
			v := s.Vendor(t)
			e := s.start(t, v, nil)
			v.Always(r.Fault)
			_, err := s.translate(e, Segments[:1])
			if err == nil || !strings.Contains(err.Error(), s.Engine) || !strings.Contains(err.Error(), r.Want) || v.Requests() != 1 {
				t.Errorf("error %v after %d requests, want %q at once", err, v.Requests(), r.Want)
			}
		})
	}
	if s.BigDoc > 0 {
		t.Run("batches within the vendor's limits", func(t *testing.T) {
			v := s.Vendor(t)
			e := s.start(t, v, nil)
			doc := &segment.Document{}
			var src []string
			for i := range s.BigDoc {
				text := fmt.Sprintf(`Sentence <g id="1">number</g> %d of a long document, repeated to fill the batch limits.`, i)
				src = append(src, text)
				doc.Units = append(doc.Units, segment.Unit{Segments: []segment.Segment{{Source: text}}})
			}
			tr := &translate.Translator{Engines: staticRegistry{e}}
			res, err := tr.Translate(context.Background(), doc, s.Source, s.Target, translation.Full)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) { out = append(out, sg.Target) })
			CheckTranslated(t, src, out)
			if res.Metrics.EngineCalls < 2 || res.Metrics.EngineCalls != v.Requests() {
				t.Errorf("%d calls, %d requests", res.Metrics.EngineCalls, v.Requests())
			}
		})
	}
	for _, key := range s.Required {
		t.Run("missing "+key, func(t *testing.T) {
			v := s.Vendor(t)
			env := s.Env(v.URL)
			env[key] = ""
			_, err := Start(t, s.Dir, s.Engine, env)
			if err == nil || !strings.Contains(err.Error(), key) {
				t.Errorf("start without %s: %v", key, err)
			}
		})
	}
}

type staticRegistry []ports.Engine

func (r staticRegistry) Engines(context.Context) ([]ports.Engine, error) { return r, nil }

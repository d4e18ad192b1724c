package translate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// A glossary is enforced in every mode, together with professional
// protection, and the job reports what it applied.
func TestGlossaryEnforcedWhateverTheMode(t *testing.T) {
	g := &glossary.Glossary{Name: "Billing", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}, {Source: "Dragoman", Target: "Dragoman GmbH"}}}
	for _, mode := range []translation.Mode{translation.Full, translation.Professional} {
		u := &upper{}
		tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}}
		d := docOf(
			`Pay the <g id="1">invoice</g> at https://pay.example/invoice today.`,
			"Invoice",
			"Reinvoice the invoices of Dragoman.",
		)
		res, err := tr.TranslateWith(ctx, d, "en", "de", mode, Options{Glossary: g})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range u.sent() {
			if strings.Contains(s, "invoice at") || strings.Contains(s, "Dragoman") || strings.Contains(s, ">invoice<") {
				t.Errorf("%s: engine saw a glossary term in %q", mode, s)
			}
		}
		got := targets(d)
		if !strings.Contains(got[0], `<g id="1">Rechnung</g>`) || !strings.Contains(got[0], "PAY THE") {
			t.Errorf("%s: target %q", mode, got[0])
		}
		if mode == translation.Professional && !strings.Contains(got[0], "https://pay.example/invoice") {
			t.Errorf("%s: the URL was not kept: %q", mode, got[0])
		}
		if got[1] != "Rechnung" { // capitalised variant, not sent at all
			t.Errorf("%s: target %q", mode, got[1])
		}
		if !strings.Contains(got[2], "REINVOICE THE INVOICES OF") || !strings.Contains(got[2], "Dragoman GmbH") {
			t.Errorf("%s: target %q: terms inside words must stay untouched", mode, got[2])
		}
		// Professional mode protects the URL first; full mode translates
		// everything, the URL's words included.
		applied := map[translation.Mode]string{translation.Full: "4", translation.Professional: "3"}[mode]
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `glossary "Billing": `+applied+` term occurrence(s) applied (2 distinct term(s))`) {
			t.Errorf("%s: warnings %q", mode, res.Warnings)
		}
	}
}

// In professional mode a protected span that is exactly a glossary term
// (an identifier, a do-not-translate term) gets the glossary's target; a
// term inside a URL stays as it is.
func TestGlossaryWinsOverProtectedSpansThatAreTerms(t *testing.T) {
	g := &glossary.Glossary{Name: "G", Entries: []glossary.Entry{{Source: "JavaScript", Target: "JS-es"}, {Source: "Acme", Target: "Acme S.A."}, {Source: "docs", Target: "documentos"}}}
	u := &upper{}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}}
	d := docOf("Learn JavaScript with Acme at https://acme.example/docs and read the docs.")
	res, err := tr.TranslateWith(ctx, d, "en", "es", translation.Professional, Options{DoNotTranslate: []string{"Acme"}, Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	got := targets(d)[0]
	for _, want := range []string{"JS-es", "Acme S.A.", "https://acme.example/docs", "documentos"} {
		if !strings.Contains(got, want) {
			t.Errorf("target %q lacks %q", got, want)
		}
	}
	if strings.Count(got, "documentos") != 1 || strings.Contains(got, "JavaScript") {
		t.Errorf("target %q", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "3 term occurrence(s) applied (3 distinct") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// native is an engine that applies glossaries itself: it translates like
// upper, then writes each entry's target where the upper-cased source term
// is, except for the source terms in skip (a vendor that ignored them).
type native struct {
	upper
	skip map[string]bool
	// refuse: the vendor refused the glossary; the batch is translated
	// without it, with a warning, as the plugins do.
	refuse bool
}

func (n *native) Translate(ctx context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
	res, err := n.upper.Translate(ctx, r)
	if err != nil || r.Glossary == nil {
		return res, err
	}
	if n.refuse {
		res.Warnings = append(res.Warnings, "vendor refused the glossary, so it was not applied")
		return res, nil
	}
	for i, s := range res.Segments {
		for _, e := range r.Glossary.Entries {
			if !n.skip[e.Source] {
				s = strings.ReplaceAll(s, strings.ToUpper(e.Source), e.Target)
			}
		}
		res.Segments[i] = s
	}
	return res, nil
}

var nativeCaps = ports.Capabilities{AnyToAny: true, NativeGlossary: true, GlossaryPairs: []language.Pair{{Source: language.Any, Target: "de"}}}

// An engine that applies glossaries itself for the pair gets the glossary
// and the terms in the text, no placeholder; the job still reports the
// terms applied, and those whose target is missing from the output.
func TestNativeEngineGetsTheGlossaryNotPlaceholders(t *testing.T) {
	g := &glossary.Glossary{Name: "Billing", SourceLang: "en", TargetLang: "de", Entries: []glossary.Entry{
		{Source: "invoice", Target: "Rechnung"}, {Source: "due date", Target: "Fälligkeit"}, {Source: "Acme", Target: "Acme AG"}}}
	n := &native{skip: map[string]bool{"due date": true}}
	tr := &Translator{Engines: registry{engine("native", n, nativeCaps)}}
	d := docOf(`Pay the <g id="1">invoice</g> by the due date.`, "Acme sends the Invoice.", "Nothing else.")
	res, err := tr.TranslateWith(ctx, d, "en", "de", translation.Full, Options{Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	if len(n.requests) != 1 {
		t.Fatalf("%d requests", len(n.requests))
	}
	req := n.requests[0]
	if req.Glossary == nil || req.Glossary.Version != g.Version() || len(req.Glossary.Entries) != 3 {
		t.Fatalf("request glossary %+v", req.Glossary)
	}
	for _, s := range req.Segments {
		if strings.Contains(s, "<x ") {
			t.Errorf("placeholder sent to a native engine: %q", s)
		}
	}
	if got := targets(d); got[0] != `PAY THE /de<g id="1">Rechnung/de</g> BY THE DUE DATE./de` || got[1] != "Acme AG SENDS THE Rechnung./de" {
		t.Errorf("targets %q", got)
	}
	want := []string{
		`glossary "Billing": 3 term occurrence(s) applied (2 distinct term(s))`,
		`glossary "Billing": the engine applied the glossary itself but its output lacks the target term for 1 occurrence(s): "due date"`,
	}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings\n%q, want\n%q", res.Warnings, want)
	}

	// Another pair: the core's placeholders.
	n = &native{}
	tr = &Translator{Engines: registry{engine("native", n, nativeCaps)}}
	if _, err := tr.TranslateWith(ctx, docOf("Pay the invoice."), "en", "fr", translation.Full, Options{Glossary: g}); err != nil {
		t.Fatal(err)
	}
	if r := n.requests[0]; r.Glossary != nil || !strings.Contains(r.Segments[0], `<x id="0"/>`) {
		t.Errorf("en→fr: request %+v, want a placeholder and no glossary", r)
	}
	// A route through English (he→en→de): neither leg is the glossary's pair.
	first, second := &native{}, &native{}
	tr = &Translator{Engines: registry{
		engine("first", first, ports.Capabilities{Pairs: []language.Pair{{Source: "he", Target: "en"}}}),
		engine("second", second, ports.Capabilities{Pairs: []language.Pair{{Source: "en", Target: "de"}}, NativeGlossary: true}),
	}}
	gHe := &glossary.Glossary{Name: "He", SourceLang: "he", TargetLang: "de", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}}}
	if _, err := tr.TranslateWith(ctx, docOf("Pay the invoice."), "he", "de", translation.Full, Options{Glossary: gHe}); err != nil {
		t.Fatal(err)
	}
	if len(second.requests) != 1 || second.requests[0].Glossary != nil || !strings.Contains(first.requests[0].Segments[0], `<x id="0"/>`) {
		t.Errorf("pivot: requests %+v then %+v, want the core's placeholders", first.requests, second.requests)
	}
}

// With a native engine the terms are in the text hashed for the memory,
// so the glossary's version keys the memory too: the same glossary is
// served from memory, another one (or none) is not served its output.
func TestMemoryIsKeyedByTheGlossaryOfANativeEngine(t *testing.T) {
	tm := newMemoryTM()
	gA := &glossary.Glossary{Name: "A", SourceLang: "en", TargetLang: "de", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}}}
	gB := &glossary.Glossary{Name: "B", SourceLang: "en", TargetLang: "de", Entries: []glossary.Entry{{Source: "invoice", Target: "Faktura"}}}
	gA2 := &glossary.Glossary{Name: "A again", SourceLang: "en", TargetLang: "de", Entries: gA.Entries}
	run := func(g *glossary.Glossary) (string, job.Metrics) {
		t.Helper()
		tr := &Translator{Engines: registry{engine("native", &native{}, nativeCaps)}, TM: tm}
		d := docOf("Pay the invoice.")
		res, err := tr.TranslateWith(ctx, d, "en", "de", translation.Full, Options{Glossary: g})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Close(ctx); err != nil {
			t.Fatal(err)
		}
		return targets(d)[0], res.Metrics
	}
	if out, m := run(gA); out != "PAY THE Rechnung./de" || m.EngineCalls != 1 {
		t.Fatalf("glossary A: %q %+v", out, m)
	}
	if out, m := run(gB); out != "PAY THE Faktura./de" || m.CacheHits != 0 {
		t.Errorf("glossary B was served A's output: %q %+v", out, m)
	}
	if out, m := run(nil); out != "PAY THE INVOICE./de" || m.CacheHits != 0 {
		t.Errorf("no glossary was served a glossary's output: %q %+v", out, m)
	}
	if out, m := run(gA2); out != "PAY THE Rechnung./de" || m.CacheHits != 1 || m.EngineCalls != 0 {
		t.Errorf("the same entries under another name: %q %+v, want the memory", out, m)
	}
}

// A segment with no letters is never sent to an engine, so a native
// engine cannot apply the glossary to it: its terms (a sign, a number)
// take the core's placeholders and become their targets all the same,
// as with any other engine.
func TestNativeEngineTermInASegmentNotSent(t *testing.T) {
	g := &glossary.Glossary{Name: "Signs", SourceLang: "en", TargetLang: "de", Entries: []glossary.Entry{
		{Source: "§", Target: "Art."}, {Source: "invoice", Target: "Rechnung"}}}
	n := &native{}
	tr := &Translator{Engines: registry{engine("native", n, nativeCaps)}}
	d := docOf("§ 12", "The invoice.")
	res, err := tr.TranslateWith(ctx, d, "en", "de", translation.Full, Options{Glossary: g})
	if err != nil {
		t.Fatal(err)
	}
	if got := targets(d); got[0] != "Art. 12" || got[1] != "THE Rechnung./de" {
		t.Errorf("targets %q", got)
	}
	if len(n.requests) != 1 || len(n.requests[0].Segments) != 1 || n.requests[0].Glossary == nil {
		t.Errorf("requests %+v, want the lettered segment only, with the glossary", n.requests)
	}
	want := []string{`glossary "Signs": 2 term occurrence(s) applied (2 distinct term(s))`}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

// A batch the engine could not apply the glossary to (the vendor refused
// it: the warning says so) is not kept in the memory under the glossary's
// version: once the vendor takes the glossary, the next job gets it
// applied, not the memory's translation without it.
func TestMemoryKeepsNoOutputAVendorTranslatedWithoutTheGlossary(t *testing.T) {
	tm := newMemoryTM()
	g := &glossary.Glossary{Name: "A", SourceLang: "en", TargetLang: "de", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}}}
	run := func(n *native) (string, job.Metrics) {
		t.Helper()
		tr := &Translator{Engines: registry{engine("native", n, nativeCaps)}, TM: tm}
		d := docOf("Pay the invoice.")
		res, err := tr.TranslateWith(ctx, d, "en", "de", translation.Full, Options{Glossary: g})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Close(ctx); err != nil {
			t.Fatal(err)
		}
		return targets(d)[0], res.Metrics
	}
	if out, m := run(&native{refuse: true}); out != "PAY THE INVOICE./de" || m.EngineCalls != 1 {
		t.Fatalf("refused: %q %+v", out, m)
	}
	if out, m := run(&native{}); out != "PAY THE Rechnung./de" || m.CacheHits != 0 || m.EngineCalls != 1 {
		t.Errorf("after the refusal: %q %+v, want the engine applying the glossary", out, m)
	}
	if out, m := run(&native{}); out != "PAY THE Rechnung./de" || m.CacheHits != 1 {
		t.Errorf("third run: %q %+v, want the memory", out, m)
	}
}

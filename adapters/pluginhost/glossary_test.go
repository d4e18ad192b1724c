package pluginhost

import (
	"context"
	"testing"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// An engine that says it applies glossaries itself (glossecho, for pairs
// from English) gets the job's glossary over the plugin protocol and the
// terms left in the text; for a pair it does not cover, and for an engine
// without the capability (pseudo), the core hides the terms behind codes
// and sends no glossary.
func TestNativeGlossaryCrossesThePluginProtocol(t *testing.T) {
	h := newHost(t, pluginDir, []string{"glossecho", "pseudo"})
	echo := engineByName(t, h, "glossecho")
	if !echo.Caps.NativeGlossary || !echo.Caps.GlossaryNative("en", "de") || echo.Caps.GlossaryNative("de", "en") {
		t.Fatalf("glossecho capabilities %+v", echo.Caps)
	}
	if pseudo := engineByName(t, h, "pseudo"); pseudo.Caps.NativeGlossary {
		t.Errorf("pseudo says it applies glossaries: %+v", pseudo.Caps)
	}
	run := func(e ports.Engine, src, tgt string, g *glossary.Glossary) (string, translate.Result) {
		t.Helper()
		doc := &segment.Document{Units: []segment.Unit{{Segments: []segment.Segment{{Source: `Send the <g id="1">invoice</g> today.`}}}}}
		tr := &translate.Translator{Engines: staticRegistry{e}}
		res, err := tr.TranslateWith(context.Background(), doc, src, tgt, translation.Full, translate.Options{Glossary: g})
		if err != nil {
			t.Fatal(err)
		}
		return doc.Units[0].Segments[0].Target, res
	}

	g := &glossary.Glossary{Name: "G", SourceLang: "en", TargetLang: "de", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}}}
	out, res := run(echo, "en", "de", g)
	if out != `Send the <g id="1">Rechnung</g> today.` {
		t.Errorf("native: target %q", out)
	}
	if want := "glossecho: glossary " + g.Version() + " of 1 entries, 0 code(s)"; !contains(res.Warnings, want) {
		t.Errorf("native: warnings %q, want %q (the glossary, no placeholder)", res.Warnings, want)
	}
	if !contains(res.Warnings, `glossary "G": 1 term occurrence(s) applied (1 distinct term(s))`) {
		t.Errorf("native: warnings %q lack the terms applied", res.Warnings)
	}

	g2 := &glossary.Glossary{Name: "G", SourceLang: "de", TargetLang: "en", Entries: []glossary.Entry{{Source: "invoice", Target: "bill"}}}
	out, res = run(echo, "de", "en", g2)
	if out != `Send the <g id="1">bill</g> today.` || !contains(res.Warnings, "glossecho: no glossary, 1 code(s)") {
		t.Errorf("pair not covered: target %q, warnings %q; want the core's placeholder", out, res.Warnings)
	}

	_, res = run(engineByName(t, h, "pseudo"), "en", "de", g)
	if !contains(res.Warnings, `glossary "G": 1 term occurrence(s) applied (1 distinct term(s))`) {
		t.Errorf("pseudo: warnings %q", res.Warnings)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type staticRegistry []ports.Engine

func (r staticRegistry) Engines(context.Context) ([]ports.Engine, error) { return r, nil }

package httpengine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Terms finds what the host's glossary matcher finds, so a term applied by
// an engine's markup is the term the host counts (plugins may not import
// core, hence the copy and this test).
func TestTermsAgreeWithTheCoreMatcher(t *testing.T) {
	entries := []glossary.Entry{
		{Source: "invoice", Target: "Rechnung"}, {Source: "invoice date", Target: "Rechnungsdatum"},
		{Source: "Go", Target: "Go (lang)"}, {Source: "東京", Target: "Tokyo"}, {Source: "C++", Target: "C plus plus"},
		{Source: "Acme", Target: "ACME AG"},
	}
	var sdkEntries []sdk.GlossaryEntry
	for _, e := range entries {
		sdkEntries = append(sdkEntries, sdk.GlossaryEntry{Source: e.Source, Target: e.Target})
	}
	m, terms := glossary.NewMatcher(entries), NewTerms(sdkEntries)
	for _, text := range []string{
		"Invoice the invoice date of the invoices; reinvoice.",
		"Go, Gopher, go and Go.",
		"東京都と東京タワー",
		"C++ and C++17 by Acme, not Acmes.",
		"nothing here",
	} {
		_, placed := m.Protect(text)
		var core, ours []string
		for _, p := range placed {
			core = append(core, p.Target)
		}
		for _, f := range terms.Find(text) {
			ours = append(ours, f.Target)
		}
		if fmt.Sprint(core) != fmt.Sprint(ours) {
			t.Errorf("%q: core %q, plugins %q", text, core, ours)
		}
	}
}

func TestToHTMLMarkingKeepsCodesAndEscapes(t *testing.T) {
	terms := NewTerms([]sdk.GlossaryEntry{{Source: "Fish & chips", Target: `"F&C"`}, {Source: "quick", Target: "schnell"}})
	seg := `The <g id="1">quick</g> Fish &amp; chips<x id="2"/> &lt;here&gt;`
	got := ToHTMLMarking(seg, terms, func(src, tgt string) string { return "[" + src + "→" + tgt + "]" })
	want := `The <span id="g1">[quick→schnell]</span> [Fish & chips→"F&C"]<br id="x2"> &lt;here&gt;`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if plain := tagged.Plain(FromHTML(ToHTMLMarking(seg, nil, nil))); !strings.Contains(plain, "Fish & chips") {
		t.Errorf("no terms: %q", plain)
	}
}

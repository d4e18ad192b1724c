package translate

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// A glossary is enforced in every mode, together with professional
// protection, and the job reports what it applied.
func TestGlossaryEnforcedWhateverTheMode(t *testing.T) {
	g := &glossary.Glossary{Name: "Billing", Entries: []glossary.Entry{{Source: "invoice", Target: "Rechnung"}, {Source: "Dragoman", Target: "Dragoman GmbH"}}}
	for _, mode := range []job.Mode{job.Full, job.Professional} {
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
		if mode == job.Professional && !strings.Contains(got[0], "https://pay.example/invoice") {
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
		applied := map[job.Mode]string{job.Full: "4", job.Professional: "3"}[mode]
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
	res, err := tr.TranslateWith(ctx, d, "en", "es", job.Professional, Options{DoNotTranslate: []string{"Acme"}, Glossary: g})
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

package terms

import (
	"slices"
	"strings"
	"testing"
)

// replaced writes text with every match replaced by its target.
func replaced(m *Matcher, text string) string {
	var b strings.Builder
	pos := 0
	for _, f := range m.Find(text) {
		b.WriteString(text[pos:f.From])
		b.WriteString(f.Target)
		pos = f.To
	}
	return b.String() + text[pos:]
}

func TestFindRespectsWordsCaseAndLength(t *testing.T) {
	m := New([]Entry{
		{Source: "data", Target: "datos"}, {Source: "data center", Target: "centro de datos"}, {Source: "Go", Target: "Ir"},
		{Source: "C++", Target: "C más más"}, {Source: "東京", Target: "Tokio"}, {Source: "ภาษา", Target: "idioma"}, {Source: "API", Target: "interfaz"},
	})
	for in, want := range map[string]string{
		"The data center stores data.":                     "The centro de datos stores datos.",
		"Data matters; metadata and database do not.":      "Datos matters; metadata and database do not.",
		"Go, Gopher, GoLang, go and GO.":                   "Ir, Gopher, GoLang, go and GO.",
		"Use C++ or C++17 and C.":                          "Use C más más or C más más17 and C.",
		"東京都に行く":                                           "Tokio都に行く",
		"ภาษาไทย":                                          "idiomaไทย",
		"The APIs and the API_KEY stay; an API stays out.": "The APIs and the API_KEY stay; an interfaz stays out.",
		"data centers hold data":                           "datos centers hold datos",
	} {
		if got := replaced(m, in); got != want {
			t.Errorf("%q:\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestCapitalisedVariantNamesItsEntry(t *testing.T) {
	m := New([]Entry{{Source: "invoice", Target: "factura"}, {Source: "word", Target: "palabra"}, {Source: "Word", Target: "Word"}})
	got := m.Find("Invoice the invoice. Word is a word.")
	want := []Match{
		{From: 0, To: 7, Target: "Factura", Entry: "invoice"},
		{From: 12, To: 19, Target: "factura", Entry: "invoice"},
		{From: 21, To: 25, Target: "Word", Entry: "Word"}, // its own entry wins over the variant
		{From: 31, To: 35, Target: "palabra", Entry: "word"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if f, ok := m.Exact("Invoice"); !ok || f.Target != "Factura" || f.Entry != "invoice" {
		t.Errorf("Exact(Invoice) = %+v, %v", f, ok)
	}
	if _, ok := m.Exact("invoices"); ok {
		t.Error("Exact matched a longer text")
	}
	var none *Matcher
	if !none.Empty() || none.Find("invoice") != nil || !New(nil).Empty() {
		t.Error("an empty matcher finds something")
	}
}

func TestWithCapitalisedAddsWhatFindMatches(t *testing.T) {
	got := WithCapitalised([]Entry{{Source: "invoice", Target: "factura"}, {Source: "Word", Target: "Word"}, {Source: "word", Target: "palabra"}, {Source: "東京", Target: "Tokio"}})
	want := []Entry{{Source: "invoice", Target: "factura"}, {Source: "Word", Target: "Word"}, {Source: "word", Target: "palabra"}, {Source: "東京", Target: "Tokio"},
		{Source: "Invoice", Target: "Factura"}}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

package glossary

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

func TestParseFormats(t *testing.T) {
	want := []Entry{{Source: "invoice", Target: "factura"}, {Source: "Dragoman, Inc.", Target: "Dragoman S.A."}, {Source: "user account", Target: "cuenta de usuario"}}
	csv := "\ufeffinvoice,factura,en,es\r\n\"Dragoman, Inc.\",Dragoman S.A.\n\nuser account , cuenta de usuario\n"
	tsv := "invoice\tfactura\nDragoman, Inc.\tDragoman S.A.\r\nuser account\tcuenta de usuario"
	tbx := `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <text><body>
  <conceptEntry id="c1">
   <langSec xml:lang="en"><termSec><term>invoice</term></termSec></langSec>
   <langSec xml:lang="es-ES"><termSec><term>factura</term></termSec><termSec><term>recibo</term></termSec></langSec>
  </conceptEntry>
  <conceptEntry id="c2">
   <langSec xml:lang="en-US"><termSec><term>Dragoman, Inc.</term></termSec></langSec>
   <langSec xml:lang="es"><termSec><term>Dragoman S.A.</term></termSec></langSec>
  </conceptEntry>
  <conceptEntry id="c3"><langSec xml:lang="fr"><termSec><term>facture</term></termSec></langSec></conceptEntry>
  <termEntry id="c4">
   <langSet xml:lang="en"><tig><term>user account</term></tig></langSet>
   <langSet xml:lang="es"><ntig><termGrp><term>cuenta de usuario</term></termGrp></ntig></langSet>
  </termEntry>
 </body></text>
</tbx>`
	for name, in := range map[string]string{"csv": csv, "tsv": tsv, "tbx": tbx} {
		got, err := Parse([]byte(in), "en", "es")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q", name, got)
		}
	}
}

func TestRefusalsNameTheLine(t *testing.T) {
	long := strings.Repeat("x", MaxTermChars+1)
	cases := []struct{ in, where, msg string }{
		{"a,b\n,c\n", "line 2", "source term is empty"},
		{"a,b\nc, \n", "line 2", "target term"},
		{"a,b\nc,d\na,e\n", "line 3", `duplicate source term "a" (already on line 1)`},
		{"a,b\n" + long + ",c\n", "line 2", "longer than 200"},
		{"a,b\nc," + long + "\n", "line 2", "target term is longer"},
		{"a,b\nc\n", "line 2", "expected a source and a target"},
		{"a\tb\nc\n", "line 2", "separated by a tab"},
		{"a,b\n\"c,d\n", "line 2", "not valid CSV"},
		{"", "", "empty"},
		{"<!DOCTYPE x [<!ENTITY e \"boom\">]><tbx><text><body><termEntry><langSet xml:lang=\"en\"><tig><term>&e;</term></tig></langSet></termEntry></body></text></tbx>", "line 1", "DTD"},
		{"<tbx><text><body></body></text></tbx>", "", "not a TBX glossary"},
		{"<tbx><text><body><termEntry><langSet xml:lang=\"en\"><tig><term>a</term></tig></langSet></termEntry></body></text></tbx>", "", "no concept with terms in both"},
		{"<tbx><text>\n<body><termEntry>\n<langSet xml:lang=\"en\"><tig><term>a</term></tig></langSet><langSet xml:lang=\"es\"><tig><term></term></tig></langSet></termEntry></body></text></tbx>", "line 2", "target term"},
		{"<tbx><text><body>\n<termEntry></body></text></tbx>", "line 2", "not valid TBX"},
		{"\xff\xfe,a", "", "not UTF-8"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in), "en", "es")
		var ge *Error
		if !errors.As(err, &ge) {
			t.Errorf("%q: err %v, want *Error", c.in, err)
			continue
		}
		if ge.Where != c.where || !strings.Contains(ge.Msg, c.msg) {
			t.Errorf("%q: got %q at %q, want %q at %q", c.in, ge.Msg, ge.Where, c.msg, c.where)
		}
	}
	if _, err := Validate([]Entry{{Source: "a", Target: "b"}, {Source: "a", Target: "c"}}); err == nil || err.Error() != `entries[1]: duplicate source term "a" (already on entries[0])` {
		t.Errorf("JSON duplicate: %v", err)
	}
	var b strings.Builder
	for i := 0; i <= MaxEntries; i++ {
		fmt.Fprintf(&b, "t%d,u\n", i)
	}
	if _, err := Parse([]byte(b.String()), "en", "es"); err == nil || !strings.Contains(err.Error(), "at most 10000") {
		t.Errorf("too many entries: %v", err)
	}
	if _, err := Parse(make([]byte, MaxBytes+1), "en", "es"); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("too large: %v", err)
	}
}

// protectPlain runs Protect and Restore with an identity "engine" and
// returns the protected text and the result.
func protectPlain(m *Matcher, in string) (string, string, []Placed) {
	prot, placed := m.Protect(tagged.Escape(in))
	out, lost := Restore(prot, placed)
	if len(lost) > 0 {
		panic("lost with an identity engine")
	}
	return prot, tagged.Plain(out), placed
}

func TestMatchingRespectsWordsCaseAndLength(t *testing.T) {
	m := NewMatcher([]Entry{
		{Source: "data", Target: "datos"}, {Source: "data center", Target: "centro de datos"}, {Source: "Go", Target: "Ir"}, {Source: "C++", Target: "C más más"},
		{Source: "東京", Target: "Tokio"}, {Source: "ภาษา", Target: "idioma"}, {Source: "API", Target: "interfaz"},
	})
	cases := []struct{ in, want string }{
		{"The data center stores data.", "The centro de datos stores datos."},
		{"Data matters; metadata and database do not.", "Datos matters; metadata and database do not."},
		{"Go, Gopher, GoLang, go and GO.", "Ir, Gopher, GoLang, go and GO."},
		{"Use C++ or C++17 and C.", "Use C más más or C más más17 and C."},
		{"東京都に行く", "Tokio都に行く"},
		{"ภาษาไทย", "idiomaไทย"},
		{"The APIs and the API_KEY stay; an API stays out.", "The APIs and the API_KEY stay; an interfaz stays out."},
		{"data centers hold data", "datos centers hold datos"}, // "data center" cannot end inside "centers": the shorter term wins there
	}
	for _, c := range cases {
		_, got, _ := protectPlain(m, c.in)
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestCapitalisedEntryWinsOverVariant(t *testing.T) {
	m := NewMatcher([]Entry{{Source: "word", Target: "palabra"}, {Source: "Word", Target: "Word"}})
	if _, got, _ := protectPlain(m, "Word is a word."); got != "Word is a palabra." {
		t.Errorf("got %q", got)
	}
}

func TestTermsKeepInlineCodes(t *testing.T) {
	m := NewMatcher([]Entry{{Source: "invoice", Target: "factura"}})
	prot, placed := m.Protect(`Send the <g id="3">invoice</g> and the<x id="7"/>invoice &amp; more`)
	if len(placed) != 2 || placed[0].ID != 8 || placed[1].ID != 9 {
		t.Fatalf("placed %+v", placed)
	}
	if prot != `Send the <g id="3"><x id="8"/></g> and the<x id="7"/><x id="9"/> &amp; more` {
		t.Fatalf("protected %q", prot)
	}
	// An engine that moves the span, repeats one code and drops the other.
	out, lost := Restore(`<g id="3"><x id="8"/></g> enviar<x id="7"/> y <x id="8"/>`, placed)
	if out != `<g id="3">factura</g> enviar<x id="7"/> y factura factura` || len(lost) != 1 || lost[0].ID != 9 {
		t.Fatalf("restored %q lost %+v", out, lost)
	}
	var tally Tally
	tally.Add(placed, lost)
	w := tally.Warnings("Billing")
	if tally.Applied != 1 || len(w) != 2 || !strings.Contains(w[0], "1 term occurrence(s) applied") || !strings.Contains(w[1], `"invoice"`) {
		t.Errorf("tally %+v warnings %q", tally, w)
	}
}

func TestTermSpanningCodesIsNotMatched(t *testing.T) {
	m := NewMatcher([]Entry{{Source: "data center", Target: "centro de datos"}})
	in := `the <g id="1">data</g> center`
	if prot, placed := m.Protect(in); prot != in || placed != nil {
		t.Errorf("got %q %+v", prot, placed)
	}
}

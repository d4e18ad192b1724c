package review

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// kinds is the kinds of flags, in order.
func kinds(flags []Flag) []Kind {
	var out []Kind
	for _, f := range flags {
		out = append(out, f.Kind)
	}
	return out
}

func only(t *testing.T, flags []Flag, want ...Kind) {
	t.Helper()
	got := kinds(flags)
	if len(got) != len(want) {
		t.Fatalf("flags %v, want kinds %v", flags, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("flags %v, want kinds %v", flags, want)
		}
	}
	for _, f := range flags {
		if f.Message == "" || !strings.HasSuffix(f.Message, ".") || f.Severity == "" {
			t.Errorf("flag %+v: a message is one sentence with a severity", f)
		}
	}
}

var enEs = NewChecker(Job{SourceLang: "en", TargetLang: "es"})

func TestCleanTranslationHasNoFlag(t *testing.T) {
	for _, c := range [][2]string{
		{"The report is due on 12 March 2024.", "El informe vence el 12 de marzo de 2024."},
		{`Pay <g id="1">1,234.50</g> euros by <x id="2"/>Friday.`, `Pague <g id="1">1.234,50</g> euros antes del <x id="2"/>viernes.`},
		{"Write to help@acme.example or see https://acme.example/help.", "Escriba a help@acme.example o vea https://acme.example/help."},
		{"Hello {name}, you have %d messages.", "Hola {name}, tiene %d mensajes."},
		{"John Smith", "John Smith"},       // a name is no sentence
		{"OK", "OK"},                       // nor a word
		{"ISO 9001", "ISO 9001"},           // nor a code
		{"Annual Report", "Annual Report"}, // nor a heading of capitalised words
	} {
		only(t, enEs.Check(Segment{Source: c[0], Target: c[1]}))
	}
}

func TestUntranslated(t *testing.T) {
	f := enEs.Check(Segment{Source: "The meeting starts at noon.", Target: "The  meeting starts at noon. "})
	only(t, f, Untranslated)
	if f[0].Severity != High {
		t.Errorf("untranslated is %s", f[0].Severity)
	}
	// The same language: nothing was translated, nothing to flag.
	same := NewChecker(Job{SourceLang: "en", TargetLang: "en"})
	only(t, same.Check(Segment{Source: "The meeting starts at noon.", Target: "The meeting starts at noon."}))
}

func TestNumbers(t *testing.T) {
	only(t, enEs.Check(Segment{Source: "Call us on 555 0100 before 5 pm.", Target: "Llámenos al 555 0100 antes de las 17."}), Numbers)
	f := enEs.Check(Segment{Source: "We sold 42 units in 2023.", Target: "Vendimos unidades en 2023."})
	only(t, f, Numbers)
	if !strings.Contains(f[0].Message, "“42” is missing") {
		t.Errorf("message %q does not name the number", f[0].Message)
	}
	// Digits of another script are the same numbers; the digits of an
	// address are the address's.
	ar := NewChecker(Job{SourceLang: "en", TargetLang: "ar"})
	only(t, ar.Check(Segment{Source: "Page 12 of 340, see www.example.org/v2", Target: "الصفحة ١٢ من ٣٤٠، انظر www.example.org/v2"}))
	only(t, ar.Check(Segment{Source: "Page 12 of 340.", Target: "الصفحة ١٣ من ٣٤٠."}), Numbers)
}

func TestAddressesAndPlaceholders(t *testing.T) {
	only(t, enEs.Check(Segment{Source: "Visit https://acme.example/docs today.", Target: "Visite https://acme.example/documentos hoy."}), Addresses)
	only(t, enEs.Check(Segment{Source: "Mail sales@acme.example now.", Target: "Escriba a ventas@acme.example ahora."}), Addresses)
	only(t, enEs.Check(Segment{Source: "Dear {customer}, welcome back.", Target: "Estimado {cliente}, bienvenido de nuevo."}), Placeholders)
	only(t, enEs.Check(Segment{Source: "Saved %s of your files.", Target: "Se guardaron sus archivos."}), Placeholders)
}

func TestUnknownWords(t *testing.T) {
	f := enEs.Check(Segment{Source: "The frobnicator zorbles.", Target: "El frobnicator zorbles.", Unknown: []string{"frobnicator", "zorbles", "zorbles"}})
	only(t, f, UnknownWords)
	if !strings.Contains(f[0].Message, "“frobnicator” and “zorbles”") || f[0].Severity != Medium {
		t.Errorf("%s: %q", f[0].Severity, f[0].Message)
	}
	// Names, acronyms and code the engine did not know: a glance, not a
	// sentence to check; a common word among them makes it one.
	for _, c := range []struct {
		words []string
		want  Severity
	}{
		{[]string{"Aspose", "DOCX", "docx4j", "getTarget", "org.docx4j", "slf4j-api"}, Low},
		{[]string{"Aspose", "grout"}, Medium},
		{[]string{"debris"}, Medium},
	} {
		f := UnknownWordsFlag(c.words)
		if f.Severity != c.want || ToCheck([]Flag{*f}) != (c.want != Low) {
			t.Errorf("%v: %s (%q), want %s", c.words, f.Severity, f.Message, c.want)
		}
	}
	if f := UnknownWordsFlag([]string{"Aspose", "grout"}); !strings.Contains(f.Message, "“grout” and “Aspose”") {
		t.Errorf("the common word first: %q", f.Message)
	}
}

// Code and identifiers left as they were are not an untranslated
// sentence; a sentence starting with a capital still is.
func TestUntranslatedIsNotCode(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"t.setValue(simpleText);", false},
		{"org.docx4j.wml.P", false},
		{"PresentationMLPackage presentationMLPackage = ", false},
		{"Please keep this document confidential.", true},
		{"Install docx4j on the server.", true},
	} {
		if got := UntranslatedFlag(c.text, c.text) != nil; got != c.want {
			t.Errorf("%q: untranslated %v, want %v", c.text, got, c.want)
		}
	}
}

func TestCodesDroppedByTheEngine(t *testing.T) {
	types := map[int]string{1: "link", 2: "fmt", 3: "fn"}
	f := enEs.Check(Segment{Source: `See <g id="1">the guide</g>.`, Target: `Vea <g id="1">la guía</g>.`, Codes: types,
		Fixes: []tagged.Fix{{Code: 1, Problem: tagged.Missing, Placed: tagged.ByPosition}}})
	only(t, f, Links)
	if f[0].Severity != Medium || !strings.Contains(f[0].Message, "link") {
		t.Errorf("a link placed by guess: %+v", f[0])
	}
	f = enEs.Check(Segment{Source: "x", Target: "y", Codes: types, Fixes: []tagged.Fix{
		{Code: 2, Problem: tagged.Missing, Placed: tagged.SameText}, {Code: 9, Problem: tagged.Unknown}}})
	only(t, f, Formatting)
	if f[0].Severity != Low {
		t.Errorf("formatting put back around the same words is %s, want low", f[0].Severity)
	}
	f = enEs.Check(Segment{Source: "x", Target: "y", Codes: types, Fixes: []tagged.Fix{{Code: 3, Problem: tagged.Missing, Placed: tagged.ByPosition}}})
	only(t, f, Formatting)
	if f[0].Severity != Medium || !strings.Contains(f[0].Message, "footnote") {
		t.Errorf("a footnote reference placed by guess: %+v", f[0])
	}
}

func TestGlossaryAndDoNotTranslate(t *testing.T) {
	c := NewChecker(Job{SourceLang: "en", TargetLang: "es",
		Glossary:       []terms.Entry{{Source: "invoice", Target: "factura"}},
		DoNotTranslate: []string{"Acme Widget"}})
	only(t, c.Check(Segment{Source: "Send the invoice for the Acme Widget.", Target: "Envíe la factura del Acme Widget."}))
	f := c.Check(Segment{Source: "Send the invoice today.", Target: "Envíe el recibo hoy."})
	only(t, f, Glossary)
	if !strings.Contains(f[0].Message, "“invoice” → “factura”") {
		t.Errorf("message %q", f[0].Message)
	}
	only(t, c.Check(Segment{Source: "Invoices: see the invoice.", Target: "Facturas: vea el documento. factura", LostTerms: []string{"factura"}}), Glossary)
	only(t, c.Check(Segment{Source: "Buy the Acme Widget now.", Target: "Compre el Widget Acme ahora."}), DoNotTranslate)
}

func TestLength(t *testing.T) {
	src := "The committee will meet again next week to discuss the budget."
	only(t, enEs.Check(Segment{Source: src, Target: "El comité."}), Length)
	only(t, enEs.Check(Segment{Source: src, Target: strings.Repeat("El comité se reunirá de nuevo la próxima semana. ", 4)}), Length)
	only(t, enEs.Check(Segment{Source: src, Target: "El comité se reunirá de nuevo la próxima semana para discutir el presupuesto."}))
	// Chinese needs far fewer characters than English: that is usual.
	zh := NewChecker(Job{SourceLang: "en", TargetLang: "zh"})
	only(t, zh.Check(Segment{Source: src, Target: "委员会下周将再次开会讨论预算。"}))
}

func TestScript(t *testing.T) {
	hiUr := NewChecker(Job{SourceLang: "hi", TargetLang: "ur"})
	only(t, hiUr.Check(Segment{Source: "यह एक अच्छी किताब है।", Target: "یہ ایک اچھی کتاب ہے۔"}))
	f := hiUr.Check(Segment{Source: "यह एक अच्छी किताब है। The meeting was long.", Target: "یہ ایک اچھی کتاب ہے۔ The meeting was long."})
	only(t, f, Script)
	// A brand name, an acronym, an address and a do-not-translate term
	// in Latin letters are usual in an Urdu sentence.
	enUr := NewChecker(Job{SourceLang: "en", TargetLang: "ur", DoNotTranslate: []string{"Dragoman Cloud"}})
	only(t, enUr.Check(Segment{Source: "Open Dragoman Cloud at https://dragoman.example and save as PDF.",
		Target: "Dragoman Cloud کو https://dragoman.example پر کھولیں اور PDF کے طور پر محفوظ کریں۔"}))
}

func TestRoute(t *testing.T) {
	c := NewChecker(Job{SourceLang: "en", TargetLang: "pt", Via: []string{"es"}})
	f := c.Check(Segment{Source: "The house is big.", Target: "A casa é grande."})
	only(t, f, Route)
	if f[0].Severity != Low || ToCheck(f) || !strings.Contains(f[0].Message, "Spanish") {
		t.Errorf("a route alone: %+v, to check %v", f, ToCheck(f))
	}
}

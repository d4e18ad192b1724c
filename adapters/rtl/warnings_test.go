package rtl

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

var kindNames = map[kind]string{
	kindFloats: "floats", kindAsymmetric: "asymmetric", kindNarrowTable: "narrow-table", kindChart: "chart",
	kindEquation: "equation", kindArrowBullet: "arrow-bullet", kindRotated: "rotated", kindBookFold: "book-fold",
	kindFields: "fields", kindSmartArt: "smartart", kindWordArt: "wordart", kindOLE: "ole", kindPictures: "pictures",
	kindFont: "font", kindControls: "controls", kindSubstitution: "substitution",
}

// kindsOf runs the inventory and the conversion and returns the kinds found.
func kindsOf(t *testing.T, l *Layout, doc []byte, from, to string) map[kind]int {
	t.Helper()
	pk, ps, err := l.prepare(newBlob(doc), ports.LayoutRequest{SourceLang: from, TargetLang: to})
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := l.inventory(pk, ps)
	if err != nil {
		t.Fatal(err)
	}
	if err := ps.convert(pk, f); err != nil {
		t.Fatal(err)
	}
	if len(ps.substituted) > 0 {
		f.add(kindSubstitution, len(ps.substituted))
	}
	return f.count
}

// TestEveryWarningKind: each warning kind of lists A and B is
// produced by at least one test document, and each status is reached.
func TestEveryWarningKind(t *testing.T) {
	l := New(Options{})
	seen := map[kind][]string{}
	record := func(name string, counts map[kind]int) {
		for k, n := range counts {
			if n > 0 {
				seen[k] = append(seen[k], name)
			}
		}
	}
	for _, p := range corpus(t, "ltr") {
		record(filepath.Base(p), kindsOf(t, l, read(t, p), "en", "ar"))
	}
	for _, p := range corpus(t, "rtl") {
		record(filepath.Base(p), kindsOf(t, l, read(t, p), "ar", "en"))
	}
	for _, p := range syntheticDocs(t) {
		record(filepath.Base(p), kindsOf(t, l, read(t, p), "en", "ar"))
	}
	// No installed font covers the target: a coverage that knows none.
	blind := New(Options{Coverage: noFonts{}})
	record("any document with a blind font coverage", kindsOf(t, blind, read(t, corpus(t, "ltr")[0]), "en", "he"))
	for k, name := range kindNames {
		if len(seen[k]) == 0 {
			t.Errorf("warning kind %s is produced by no test document", name)
		} else {
			t.Logf("%-13s %d documents, e.g. %s", name, len(seen[k]), seen[k][0])
		}
	}
}

type noFonts struct{}

func (noFonts) Covers(string, string) bool { return false }

// TestFidelityStatus checks the report through the port for the three
// statuses and nil for LTR→LTR without RTL text.
func TestFidelityStatus(t *testing.T) {
	l := New(Options{})
	ctx := context.Background()
	doc := func(p string) []byte { return read(t, testDoc(p)) }
	cases := []struct {
		doc, from, to, want string
	}{
		{"ltr/oxpt-WC043-Nested-Table.docx", "en", "ar", "full"},
		{"ltr/docxjs-equation-document.docx", "en", "he", "partial"},
		{"ltr/aspose-SmartArt.docx", "en", "fa", "degraded"},
		{"rtl/oxpt-HC014-RTL-Table-01.docx", "he", "en", "degraded"},
		{"ltr/oxpt-WC043-Nested-Table.docx", "en", "de", ""},
	}
	for _, c := range cases {
		req := ports.LayoutRequest{SourceLang: c.from, TargetLang: c.to}
		est, err := l.Estimate(ctx, newBlob(doc(c.doc)), req)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		got, err := l.Apply(ctx, newBlob(pseudoTranslate(t, doc(c.doc), targetWords(c.to))), req, &out)
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]*job.RTLReport{"Estimate": est, "Apply": got} {
			switch {
			case c.want == "" && f != nil:
				t.Errorf("%s %s %s→%s: want nil, got %+v", name, c.doc, c.from, c.to, *f)
			case c.want != "" && (f == nil || f.Status != c.want):
				t.Errorf("%s %s %s→%s: want %s, got %+v", name, c.doc, c.from, c.to, c.want, f)
			case f != nil:
				t.Logf("%s %s %s→%s: %s %q", name, c.doc, c.from, c.to, f.Status, f.Warnings)
			}
		}
	}
}

func targetWords(code string) string {
	if _, ok := words[code]; ok {
		return code
	}
	return "en"
}

func syntheticDocs(t *testing.T) []string {
	m, _ := filepath.Glob(testDoc("synthetic/*.docx"))
	return m
}

package rtl

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// layoutDoc pseudo-translates and lays out one document.
func layoutDoc(t testing.TB, l *Layout, src []byte, from, to string) (in, out []byte) {
	t.Helper()
	in = pseudoTranslate(t, src, to)
	var buf bytes.Buffer
	if _, err := l.Apply(context.Background(), newBlob(in), ports.LayoutRequest{SourceLang: from, TargetLang: to}, &buf); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return in, buf.Bytes()
}

// TestCorpusXML runs the XML assertions of rtltest over every corpus
// document: LTR documents to Arabic and Hebrew, RTL documents to English.
func TestCorpusXML(t *testing.T) {
	l := New(Options{})
	fc := rtltest.NewFontconfig()
	cases := []struct{ dir, from, to string }{
		{"ltr", "en", "ar"}, {"ltr", "en", "he"}, {"rtl", "ar", "en"}, {"synthetic", "en", "ar"},
	}
	for _, c := range cases {
		for _, path := range corpus(t, c.dir) {
			t.Run(c.to+"/"+filepath.Base(path), func(t *testing.T) {
				t.Parallel()
				in, out := layoutDoc(t, l, read(t, path), c.from, c.to)
				target := rtltest.Target{RTL: c.to != "en", Lang: c.to, ForceTwins: c.to != "en", Covers: fc.Covers}
				fs, st, err := rtltest.CheckXML(in, out, target)
				if err != nil {
					t.Fatal(err)
				}
				for i, f := range fs {
					if i == 15 {
						t.Errorf("… %d findings in all", len(fs))
						break
					}
					t.Error(f)
				}
				if st.Paragraphs == 0 {
					t.Log("no paragraphs with text")
				}
			})
		}
	}
}

// TestCheckerCatchesUnconverted proves the assertions can fail: the
// pseudo-translated documents before layout must not pass.
func TestCheckerCatchesUnconverted(t *testing.T) {
	for _, c := range []struct{ path, to string }{
		{"ltr/aspose-Nested_tables.docx", "ar"},
		{"ltr/tika-testWORD_various.docx", "he"},
		{"rtl/oxpt-HC014-RTL-Table-01.docx", "en"},
	} {
		in := pseudoTranslate(t, read(t, testDoc(c.path)), c.to)
		fs, _, err := rtltest.CheckXML(in, in, rtltest.Target{RTL: c.to != "en", Lang: c.to, ForceTwins: true})
		if err != nil {
			t.Fatal(err)
		}
		rules := map[string]int{}
		for _, f := range fs {
			rules[f.Rule]++
		}
		if len(fs) == 0 {
			t.Errorf("%s → %s: unconverted document passed the checks", c.path, c.to)
		}
		t.Logf("%s → %s: %d findings by rule %v", c.path, c.to, len(fs), rules)
	}
}

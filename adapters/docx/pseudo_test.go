package docx_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// pseudo is a pseudo-translation that exercises what real engines do to
// layout: it reverses the order of words and code groups in a segment,
// changes script (Latin to Cyrillic), and grows text by about a third,
// keeping every code on the words it wraps.
func pseudo(src string) string {
	toks := tagged.Tokenize(src)
	var items [][]tagged.Token
	for i := 0; i < len(toks); {
		t := toks[i]
		switch t.Kind {
		case tagged.Open: // a whole group moves as one item
			depth, j := 0, i
			for ; j < len(toks); j++ {
				if toks[j].Kind == tagged.Open {
					depth++
				} else if toks[j].Kind == tagged.Close {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			items = append(items, toks[i:j+1])
			i = j + 1
		case tagged.Text:
			for _, w := range strings.Fields(t.Text) {
				items = append(items, []tagged.Token{{Kind: tagged.Text, Text: w}})
			}
			i++
		default:
			items = append(items, toks[i:i+1])
			i++
		}
	}
	var out []tagged.Token
	for k := len(items) - 1; k >= 0; k-- {
		for _, t := range items[k] {
			if t.Kind == tagged.Text {
				t.Text = grow(t.Text)
			}
			out = append(out, t)
		}
		if k > 0 {
			out = append(out, tagged.Token{Kind: tagged.Text, Text: " "})
		}
	}
	return tagged.Render(out)
}

var cyr = []rune("абцдефгхийклмнопярстувшхыз")

func grow(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if r < utf8.RuneSelf && unicode.IsLetter(r) {
			r = cyr[unicode.ToLower(r)-'a']
		}
		b.WriteRune(r)
		if !unicode.IsSpace(r) {
			n++
		}
	}
	b.WriteString(strings.Repeat("ж", (n+2)/3))
	return b.String()
}

func TestPseudo(t *testing.T) {
	got := pseudo(`Click <g id="1">here <g id="2">now</g></g> please<x id="3"/>`)
	want := `<x id="3"/> плеасежж <g id="1">хере жж<g id="2">ношж</g></g> цлицкжж`
	if got != want {
		t.Fatalf("pseudo = %q, want %q", got, want)
	}
}

func corpusFiles(t testing.TB) []string {
	m := corpusDocs()
	if len(m) < 50 {
		t.Fatalf("corpus missing")
	}
	return m
}

func assemble(t testing.TB, path string, fn func(string) string) (src, out []byte, warns []string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	doc, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = fn(s.Source) })
	var buf bytes.Buffer
	warns, err = docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), doc, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return src, buf.Bytes(), warns
}

// Reordered, regrown, rescripted text keeps every structure and every
// formatting span on some word.
func TestPseudoTranslationKeepsFidelity(t *testing.T) {
	for _, path := range corpusFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, out, warns := assemble(t, path, pseudo)
			for _, w := range warns {
				// a reordered sentence may carry a field's parts out of order: a repair
				if !strings.Contains(w, "signature") && !strings.Contains(w, "order was restored") {
					t.Errorf("warning: %s", w)
				}
			}
			rep, err := structure.CompareReaders(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Lost() {
				var b strings.Builder
				rep.Print(&b)
				t.Fatalf("fidelity loss:\n%s", b.String())
			}
		})
	}
}

// dropPairs is an engine that loses every paired code (formatting and
// links) and upper-cases the text.
func dropPairs(s string) string {
	var out []tagged.Token
	for _, t := range tagged.Tokenize(s) {
		switch t.Kind {
		case tagged.Text:
			t.Text = strings.ToUpper(t.Text)
			out = append(out, t)
		case tagged.Place:
			out = append(out, t)
		}
	}
	return tagged.Render(out)
}

// An engine that drops every paired code: Repair puts them all back, hyperlinks
// keep their targets, and each repair is a warning.
func TestDroppedCodesAreRepaired(t *testing.T) {
	for _, name := range []string{"aspose-Hyperlinks.docx", "aspose-Formatted_elements.docx", "mammoth-footnote-hyperlink.docx", "oxsdk-Complex01.docx"} {
		path := doc(name)
		src, out, warns := assemble(t, path, dropPairs)
		if len(warns) == 0 {
			t.Errorf("%s: no repair warnings", name)
		}
		rep, err := structure.CompareReaders(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Source.Hyperlinks > 0 && rep.Output.Hyperlinks != rep.Source.Hyperlinks {
			t.Errorf("%s: hyperlinks %d -> %d", name, rep.Source.Hyperlinks, rep.Output.Hyperlinks)
		}
		if rep.Lost() {
			var b strings.Builder
			rep.Print(&b)
			t.Errorf("%s: fidelity loss:\n%s", name, b.String())
		}
	}
}

package main

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

const sample = `Click <g id="1">the big button</g> now,<x id="2"/> then see www.example.com or mail bob@example.com at 10:30.`

func TestScriptOfTarget(t *testing.T) {
	tables := map[string]*unicode.RangeTable{
		"he": unicode.Hebrew, "ar": unicode.Arabic, "fa": unicode.Arabic, "ur": unicode.Arabic,
		"ru": unicode.Cyrillic, "uk": unicode.Cyrillic, "bg": unicode.Cyrillic,
		"zh-Hans": unicode.Han, "zh-Hant": unicode.Han, "ja": unicode.Hiragana, "ko": unicode.Hangul,
		"el": unicode.Greek, "hi": unicode.Devanagari, "th": unicode.Thai, "fr": unicode.Latin, "de": unicode.Latin,
	}
	for tgt, table := range tables {
		out := tagged.Plain(pseudo(sample, scriptFor(tgt)))
		for _, w := range strings.Fields(out) {
			if keepAsIs.MatchString(w) {
				continue
			}
			for _, r := range w {
				if unicode.IsLetter(r) && !unicode.Is(table, r) {
					t.Errorf("%s: letter %q of %q is not in the target script", tgt, r, out)
				}
			}
		}
	}
	// Latin targets get accents, so untranslated text stands out.
	if out := pseudo("Hello world", scriptFor("fr")); strings.ContainsAny(out, "elowrd") {
		t.Errorf("fr output %q still has plain ASCII letters", out)
	}
}

func TestGrowsAboutAThird(t *testing.T) {
	src := "The committee approved the new budget for the next year and asked the board to publish it"
	out := pseudo(src, scriptFor("de"))
	ratio := float64(utf8.RuneCountInString(out)) / float64(utf8.RuneCountInString(src))
	if ratio < 1.2 || ratio > 1.45 {
		t.Errorf("growth %.2f, want about 1.3: %q", ratio, out)
	}
}

func TestKeepsCodesOnTheirWords(t *testing.T) {
	out := pseudo(sample, scriptFor("he"))
	toks := tagged.Tokenize(out)
	// The g span still wraps exactly three words: the big button.
	var inside []string
	depth := 0
	var xAt int = -1
	var words []string
	for _, tk := range toks {
		switch tk.Kind {
		case tagged.Open:
			depth++
		case tagged.Close:
			depth--
		case tagged.Place:
			if tk.ID == 2 {
				xAt = len(words)
			}
		case tagged.Text:
			for _, w := range strings.Fields(tk.Text) {
				words = append(words, w)
				if depth > 0 {
					inside = append(inside, w)
				}
			}
		}
	}
	if len(inside) != 3 {
		t.Errorf("g span wraps %d words, want 3: %s", len(inside), out)
	}
	if strings.Count(out, `<g id="1">`) != 1 || strings.Count(out, `</g>`) != 1 || strings.Count(out, `<x id="2"/>`) != 1 {
		t.Errorf("codes not kept exactly once: %s", out)
	}
	// The x still sits between "then" and "now," (now reversed: then, x, now).
	then, now := letter("then", scriptFor("he")), letter("now,", scriptFor("he"))
	if xAt < 1 || words[xAt-1] != then || words[xAt] != now {
		t.Errorf("x not between then and now: %s", out)
	}
	for _, keep := range []string{"www.example.com", "bob@example.com", "10:30"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%s changed: %s", keep, out)
		}
	}
	if !strings.HasSuffix(out, ".") {
		t.Errorf("final full stop moved: %s", out)
	}
}

func TestDeterministicAndEscaped(t *testing.T) {
	in := `Tom &amp; Jerry &lt;3 <g id="4">cheese</g>`
	a, b := pseudo(in, scriptFor("ar")), pseudo(in, scriptFor("ar"))
	if a != b {
		t.Fatalf("not deterministic: %q vs %q", a, b)
	}
	if !strings.Contains(a, "&amp;") || !strings.Contains(a, "&lt;3") {
		t.Errorf("escaping lost: %q", a)
	}
	if got := pseudo(` <x id="1"/> `, scriptFor("ar")); got != ` <x id="1"/> ` {
		t.Errorf("blank segment became %q", got)
	}
}

// A TOC entry: heading text, then a tab and the page-number field. The tab
// and the field stay after the text, or the page number lands beside the
// heading instead of at the tab stop (seen in a rendered Arabic TOC).
func TestKeepsEdgeCodesAtTheEdges(t *testing.T) {
	in := `<g id="1">First heading<x id="2"/><x id="3"/></g>`
	out := pseudo(in, scriptFor("ar"))
	if !strings.HasSuffix(out, `<x id="2"/><x id="3"/></g>`) || !strings.HasPrefix(out, `<g id="1">`) {
		t.Errorf("edge codes moved: %s", out)
	}
	in = `<x id="1"/>Step one<x id="2"/>`
	if out := pseudo(in, scriptFor("he")); !strings.HasPrefix(out, `<x id="1"/>`) || !strings.HasSuffix(out, `<x id="2"/>`) {
		t.Errorf("edge codes moved: %s", out)
	}
}

// An edge code keeps the gap it had to the words: a glossary term's
// placeholder after "in real" stays a word of its own, and a list's
// leading tab stays against the text.
func TestEdgeCodesKeepTheirGaps(t *testing.T) {
	out := pseudo(`Co-edit them in real <x id="1"/>`, scriptFor("ar"))
	if !strings.HasSuffix(out, ` <x id="1"/>`) || strings.HasSuffix(out, `  <x id="1"/>`) {
		t.Errorf("a spaced edge code lost its gap: %q", out)
	}
	out = pseudo(`<x id="1"/> Read this`, scriptFor("he"))
	if !strings.HasPrefix(out, `<x id="1"/> `) {
		t.Errorf("a spaced leading code lost its gap: %q", out)
	}
	out = pseudo(`<x id="1"/>Step one<x id="2"/>`, scriptFor("he"))
	if strings.Contains(out, " <x") || strings.Contains(out, "/> ") {
		t.Errorf("codes against the text were spaced: %q", out)
	}
}

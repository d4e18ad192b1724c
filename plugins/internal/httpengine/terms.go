package httpengine

import (
	"html"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// ToHTMLMarking is ToHTML with every glossary term of the text (never
// across a code) written by mark(source, target) instead of as escaped
// text; mark gets the terms unescaped and must escape what it writes.
// The terms are those the host finds (plugins/sdk/terms matches for both).
func ToHTMLMarking(seg string, glossary *terms.Matcher, mark func(source, target string) string) string {
	if glossary.Empty() {
		return ToHTML(seg)
	}
	var b strings.Builder
	for _, t := range tagged.Tokenize(seg) {
		if t.Kind != tagged.Text {
			writeCode(&b, t)
			continue
		}
		pos := 0
		for _, m := range glossary.Find(t.Text) {
			b.WriteString(html.EscapeString(t.Text[pos:m.From]))
			b.WriteString(mark(t.Text[m.From:m.To], m.Target))
			pos = m.To
		}
		b.WriteString(html.EscapeString(t.Text[pos:]))
	}
	return b.String()
}

package review

import (
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// What a code type is called in a message.
var codeNames = map[string]string{
	"link": "a link", "fmt": "formatting (bold, italic, colour…)", "fn": "a footnote reference",
	"en": "an endnote reference", "comment": "a comment mark", "tab": "a tab", "br": "a line break",
	"image": "an image", "field": "a field", "bookmark": "a bookmark", "sym": "a symbol",
	"ins": "a tracked insertion", "sdt": "a content control", "ruby": "a phonetic guide",
	"dir": "a direction mark", "tag": "a smart tag",
}

// CodeFlags turns the repairs made to an engine's inline codes into
// flags: a hyperlink put back by the host (Links), any other code
// (Formatting). A code put back around the text it wrapped in the source
// is very likely right (low); one put back by position is a guess to
// check (medium, as are a footnote or endnote reference). Repeated and
// unknown codes the host dropped change nothing visible (low).
func CodeFlags(fixes []tagged.Fix, types map[int]string) []Flag {
	type group struct {
		sev   Severity
		items []string
	}
	var kinds [2]group // Links, Formatting
	for _, f := range fixes {
		typ := types[f.Code]
		name := codeNames[typ]
		if name == "" {
			name = "formatting"
		}
		sev, what := Low, ""
		switch {
		case f.Problem == tagged.Duplicated:
			what = name + " was repeated by the engine; the copy was removed"
		case f.Problem == tagged.Unknown:
			what = "the engine added a code the original does not have; it was removed"
		case f.Placed == tagged.SameText:
			what = name + " was dropped by the engine and put back around the same words"
		default:
			sev = Medium
			what = name + " was dropped by the engine and put back by guess: check which words it covers"
			if typ == "fn" || typ == "en" || typ == "comment" || typ == "image" || typ == "field" {
				what = name + " was dropped by the engine and put back by guess: check where it stands"
			}
		}
		g := &kinds[1]
		if typ == "link" {
			g = &kinds[0]
		}
		if weight[sev] > weight[g.sev] {
			g.sev = sev
		}
		if !contains(g.items, what) {
			g.items = append(g.items, what)
		}
	}
	var out []Flag
	for i, k := range []Kind{Links, Formatting} {
		g := kinds[i]
		if len(g.items) == 0 {
			continue
		}
		out = append(out, Flag{Kind: k, Severity: g.sev, Message: sentence(strings.Join(g.items, "; "))})
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// termFlags checks the glossary's terms and the do-not-translate terms of
// the source: the target must hold each one's target (or the term itself,
// kept as it is), and one whose placeholder the engine dropped was only
// put back at the end of the sentence.
func (c *Checker) termFlags(src, tgt string, lost []string) []Flag {
	var out []Flag
	var notApplied, misplaced []string
	if c.glossary != nil {
		low := strings.ToLower(tgt)
		for _, m := range c.glossary.Find(src) {
			if !strings.Contains(low, strings.ToLower(m.Target)) {
				notApplied = append(notApplied, fmt.Sprintf("“%s” → “%s”", m.Entry, m.Target))
			}
		}
	}
	isTerm := func(t string) bool {
		for _, d := range c.job.DoNotTranslate {
			if d == t {
				return true
			}
		}
		return false
	}
	var dntLost []string
	for _, t := range lost {
		if isTerm(t) {
			dntLost = append(dntLost, t)
		} else {
			misplaced = append(misplaced, t)
		}
	}
	if len(notApplied) > 0 || len(misplaced) > 0 {
		var parts []string
		if len(notApplied) > 0 {
			parts = append(parts, "the glossary's "+strings.Join(dedupe(notApplied), ", ")+" is not used")
		}
		if len(misplaced) > 0 {
			parts = append(parts, "the engine dropped "+quoted(dedupe(misplaced))+", which was put back in the sentence: check that it stands where it belongs")
		}
		out = append(out, Flag{Kind: Glossary, Severity: Medium, Message: sentence(strings.Join(parts, "; "))})
	}
	var changed []string
	for _, d := range c.job.DoNotTranslate {
		if d != "" && containsWord(src, d) && !strings.Contains(tgt, d) {
			changed = append(changed, d)
		}
	}
	if len(changed) > 0 || len(dntLost) > 0 {
		var parts []string
		if len(changed) > 0 {
			parts = append(parts, quoted(dedupe(changed))+" should stay as written but the translation changed it")
		}
		if len(dntLost) > 0 {
			parts = append(parts, "the engine dropped "+quoted(dedupe(dntLost))+", which was put back in the sentence: check that it stands where it belongs")
		}
		out = append(out, Flag{Kind: DoNotTranslate, Severity: Medium, Message: sentence(strings.Join(parts, "; "))})
	}
	return out
}

// keptTerms are the spans of tgt that hold a glossary target or a
// do-not-translate term: text meant to be there whatever its script.
func (c *Checker) keptTerms(tgt string) []span {
	var out []span
	find := func(term string) {
		if term == "" {
			return
		}
		for i := 0; ; {
			k := strings.Index(tgt[i:], term)
			if k < 0 {
				return
			}
			out = append(out, span{i + k, i + k + len(term)})
			i += k + len(term)
		}
	}
	for _, d := range c.job.DoNotTranslate {
		find(d)
	}
	for _, e := range c.job.Glossary {
		find(e.Target)
	}
	return out
}

// containsWord reports whether term occurs in s on word boundaries.
func containsWord(s, term string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], term)
		if k < 0 {
			return false
		}
		a, b := i+k, i+k+len(term)
		if (a == 0 || !isWordByte(s, a-1, true)) && (b == len(s) || !isWordByte(s, b, false)) {
			return true
		}
		i = a + 1
	}
}

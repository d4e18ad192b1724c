package review

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// Job is what the checks of a job's segments know of the job.
type Job struct {
	SourceLang, TargetLang string // registry codes
	// Glossary is the job's glossary for its pair; DoNotTranslate the
	// account's terms kept as they are (the professional mode only).
	Glossary       []terms.Entry
	DoNotTranslate []string
	// Via are the languages (codes) a chained route went through: en→es→pt
	// is ["es"]; nil for a direct route.
	Via []string
}

// Segment is one translated segment as the checks see it.
type Segment struct {
	Source, Target string         // tagged text
	Codes          map[int]string // the unit's inline code types by id: "fmt", "link", "fn", "tab", …
	// What the translation path noted: words the engine marked as unknown
	// to it, the repairs made to the codes of its output, glossary or
	// do-not-translate terms whose placeholder it dropped (put back at the
	// end of the sentence).
	Unknown   []string
	Fixes     []tagged.Fix
	LostTerms []string
}

// Checker checks the segments of one job; it is safe for concurrent use.
type Checker struct {
	job      Job
	glossary *terms.Matcher
	script   *scriptSet
	ratio    float64
}

// NewChecker prepares the checks of a job.
func NewChecker(j Job) *Checker {
	c := &Checker{job: j, ratio: expectedRatio(j.SourceLang, j.TargetLang)}
	if len(j.Glossary) > 0 {
		c.glossary = terms.New(j.Glossary)
	}
	if l, ok := language.ByCode(j.TargetLang); ok {
		c.script = scriptOf(l.Script)
	}
	return c
}

// Check is every flag of one segment, the segment-level checks in Kinds
// order (overflow and pages need a rendition: see Overflowing, PagesFlag).
func (c *Checker) Check(s Segment) []Flag {
	if c.job.SourceLang == c.job.TargetLang {
		return nil // nothing was translated
	}
	src, tgt := tagged.Plain(s.Source), tagged.Plain(s.Target)
	var out []Flag
	add := func(f *Flag) {
		if f != nil {
			out = append(out, *f)
		}
	}
	add(UntranslatedFlag(src, tgt))
	add(UnknownWordsFlag(s.Unknown))
	srcAddr, srcAt := addresses(src)
	tgtAddr, tgtAt := addresses(tgt)
	srcPh, srcPhAt := placeholders(blank(src, srcAt))
	tgtPh, tgtPhAt := placeholders(blank(tgt, tgtAt))
	add(NumbersFlag(numbers(blank(src, srcAt, srcPhAt)), numbers(blank(tgt, tgtAt, tgtPhAt))))
	add(AddressesFlag(srcAddr, tgtAddr))
	add(PlaceholdersFlag(srcPh, tgtPh))
	out = append(out, CodeFlags(s.Fixes, s.Codes)...)
	out = append(out, c.termFlags(src, tgt, s.LostTerms)...)
	keep := append(append(tgtAt, tgtPhAt...), c.keptTerms(tgt)...)
	add(c.scriptFlag(tgt, keep))
	add(c.lengthFlag(src, tgt))
	add(RouteFlag(c.job.Via))
	return out
}

// UntranslatedFlag: a target equal to its source, for a sentence (two
// words or more, one of them in lower case where the script has case), not
// a name, a code or a heading of capitalised words.
func UntranslatedFlag(src, tgt string) *Flag {
	if folded(src) != folded(tgt) || !sentenceLike(src) {
		return nil
	}
	return &Flag{Kind: Untranslated, Severity: High, Message: "This sentence was left in the original language."}
}

func folded(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func sentenceLike(s string) bool {
	words, other, common := 0, 0, false
	for _, tok := range strings.Fields(s) {
		w := strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) })
		if len([]rune(w)) < 2 {
			continue
		}
		if nameLike(w) && !capitalised(w) {
			other++ // code: org.docx4j.wml, setValue(simpleText)
			continue
		}
		words++
		if first := []rune(w)[0]; !unicode.IsUpper(first) && !unicode.IsTitle(first) {
			common = true // a common word, or a script without case
		}
	}
	return words >= 2 && words > other && common
}

// nameLike: a word that reads as a name, an acronym or code rather than a
// word of the language: capitalised or in capitals (Aspose, DOCX), with
// digits (docx4j, v11), with capitals inside (getTarget, OpenXML), or with
// other characters than letters inside (org.docx4j, slf4j-api).
func nameLike(w string) bool {
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case unicode.IsDigit(r):
			return true
		case !unicode.IsLetter(r) && !unicode.IsMark(r) && r != '\'' && r != '’':
			return true
		case i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]):
			return true
		}
	}
	return len(rs) > 0 && (unicode.IsUpper(rs[0]) || unicode.IsTitle(rs[0]))
}

// capitalised: a word of letters with only its first in capitals (which
// may be a common word starting a sentence).
func capitalised(w string) bool {
	rs := []rune(w)
	if len(rs) == 0 || !unicode.IsUpper(rs[0]) {
		return false
	}
	for _, r := range rs[1:] {
		if !unicode.IsLower(r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

// UnknownWordsFlag names the words the engine marked as unknown to it
// (Apertium leaves them as they were). Names, acronyms and code it did
// not know are usually right left as they are: when those are all there
// is, the flag is low (worth a glance); a common word left untranslated
// makes it medium.
func UnknownWordsFlag(words []string) *Flag {
	if len(words) == 0 {
		return nil
	}
	var common, names []string
	for _, w := range dedupe(words) {
		if nameLike(w) {
			names = append(names, w)
		} else {
			common = append(common, w)
		}
	}
	if len(common) == 0 {
		what := "this name or term"
		if len(names) > 1 {
			what = "these names or terms"
		}
		return &Flag{Kind: UnknownWords, Severity: Low,
			Message: fmt.Sprintf("The engine did not know %s and left it as written: %s.", what, quoted(names))}
	}
	what := "this word and left it as it was"
	if len(common)+len(names) > 1 {
		what = "these words and left them as they were"
	}
	return &Flag{Kind: UnknownWords, Severity: Medium,
		Message: fmt.Sprintf("The engine did not know %s: %s.", what, quoted(append(common, names...)))}
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range s {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// NumbersFlag compares the numbers of source and target (see numbers).
func NumbersFlag(src, tgt []string) *Flag {
	missing, added := differ(src, tgt, exact)
	if len(missing)+len(added) == 0 {
		return nil
	}
	return &Flag{Kind: Numbers, Severity: High, Message: "Numbers differ from the original: " + differences(missing, added) + "."}
}

// AddressesFlag compares web and e-mail addresses (case aside).
func AddressesFlag(src, tgt []string) *Flag {
	missing, added := differ(src, tgt, strings.EqualFold)
	if len(missing)+len(added) == 0 {
		return nil
	}
	return &Flag{Kind: Addresses, Severity: High, Message: "Web or e-mail addresses differ from the original: " + differences(missing, added) + "."}
}

// PlaceholdersFlag compares placeholders such as {name}, %s and ${var}.
func PlaceholdersFlag(src, tgt []string) *Flag {
	missing, added := differ(src, tgt, exact)
	if len(missing)+len(added) == 0 {
		return nil
	}
	return &Flag{Kind: Placeholders, Severity: High, Message: "Placeholders differ from the original: " + differences(missing, added) + "."}
}

// RouteFlag notes a translation through other languages: each leg loses
// some nuance.
func RouteFlag(via []string) *Flag {
	if len(via) == 0 {
		return nil
	}
	names := make([]string, len(via))
	for i, c := range via {
		names[i] = language.NameOf(c)
	}
	return &Flag{Kind: Route, Severity: Low, Message: "Translated through " + strings.Join(names, " and ") + ", which loses some nuance."}
}

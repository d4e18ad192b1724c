package review

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Containers of fixed size, as a unit names the one its text must fit
// (segment.Unit.Fixed).
const (
	TextBox  = "text box"
	TableRow = "table row"
	Frame    = "frame"
)

// Fit is a paragraph whose text must fit a container of fixed size: its
// segments' plain text, in order, in the rendition (Target) and in the
// original (Source).
type Fit struct {
	Container string
	Source    []string
	Target    []string
}

// Rendition is a document's text as a PDF renderer laid it out, page by
// page, split into words for matching.
type Rendition struct {
	Pages int
	words []string
	at    map[string][]int // positions of each word
}

// NewRendition reads a rendition's text: pages separated by form feeds
// (as pdftotext writes them).
func NewRendition(text string) *Rendition {
	r := &Rendition{at: map[string][]int{}}
	pages := strings.Split(text, "\f")
	for len(pages) > 0 && strings.TrimSpace(pages[len(pages)-1]) == "" {
		pages = pages[:len(pages)-1]
	}
	r.Pages = len(pages)
	r.words = wordsOf(text)
	for i, w := range r.words {
		r.at[w] = append(r.at[w], i)
	}
	return r
}

// wordsOf splits text into comparable words: compatibility forms folded
// (the ligatures and Arabic presentation forms PDFs hold), lower case.
func wordsOf(s string) []string {
	s = strings.ToLower(norm.NFKC.String(s))
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) })
}

// shown is how many of words, from the first, the rendition holds in a
// row somewhere; -1 when not even the first word is there (the text cannot
// be found, so nothing can be said).
func (r *Rendition) shown(words []string) int {
	if len(words) == 0 {
		return 0
	}
	best := -1
	for _, i := range r.at[words[0]] {
		k := 0
		for k < len(words) && i+k < len(r.words) && r.words[i+k] == words[k] {
			k++
		}
		best = max(best, k)
		if best == len(words) {
			break
		}
	}
	return best
}

// clipped is the index of the first segment of texts whose words the
// rendition lacks after the ones it shows, -1 when all of it is shown or
// the text cannot be found at all.
func (r *Rendition) clipped(texts []string) int {
	var words []string
	var seg []int // the segment of each word
	for i, t := range texts {
		for _, w := range wordsOf(t) {
			words = append(words, w)
			seg = append(seg, i)
		}
	}
	n := r.shown(words)
	if n < 1 || n == len(words) {
		return -1
	}
	return seg[n]
}

// Overflowing says, for each fit, from which segment on its text is cut
// off in the rendition of the translation (out), -1 for none: a renderer
// clips what a fixed-size container cannot hold. A container whose
// original was cut off in its own rendition (src, when there is one) is
// not counted: the translation did not cause it.
func Overflowing(out, src *Rendition, fits []Fit) []int {
	res := make([]int, len(fits))
	for i, f := range fits {
		res[i] = out.clipped(f.Target)
		if res[i] >= 0 && src != nil && src.clipped(f.Source) >= 0 {
			res[i] = -1
		}
	}
	return res
}

// OverflowFlag is the flag of a segment cut off in its container.
func OverflowFlag(container string) Flag {
	if container == "" {
		container = "container"
	}
	return Flag{Kind: Overflow, Severity: High, Message: fmt.Sprintf(
		"The translation does not fit its %s: the end of the text is cut off in the rendered document. Shorten it or enlarge the %s.", container, container)}
}

// PagesFlag is the document's flag when its rendition has more pages than
// the original's.
func PagesFlag(source, translation int) *Flag {
	if source <= 0 || translation <= source {
		return nil
	}
	return &Flag{Kind: Pages, Severity: Medium, Message: fmt.Sprintf(
		"The translation has %d pages where the original has %d: check page breaks and fixed layouts.", translation, source)}
}

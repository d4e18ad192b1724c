// Package langdetect detects the source language of a document with
// lingua-go in low-accuracy mode, restricted to the registry's languages
// (measured: about 35 MiB, well under a millisecond per call). Chinese is
// reported as Chinese (Simplified): lingua does not tell the two scripts
// apart. The models load lazily, on the first detection.
//
// Detection is weighed by script over the whole text (issue 10 §2): the
// letters of each script are counted, lingua reads a sample of each
// script's words spread over the whole text, and the script with the most
// letters decides, so a Latin-language guess never hides a majority of
// Arabic or Hebrew letters. Mix reports every script's language and share.
//
// Lingua knows 28 of the 36 languages Apertium serves. refine.go corrects
// its answer where it has no model (Aragonese, Asturian, Galician,
// Occitan, Franco-Provençal and Sardinian by an n-gram model of our own,
// Silesian and Breton by their spelling and words) or confuses two
// (Serbo-Croatian's standards, Indonesian and Malay, Hindi and Marathi,
// Ukrainian and Kazakh). accuracy_test.go measures every language the
// engines serve on 60 paragraphs and fails under 95 % (README, "Detection").
package langdetect

import (
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/pemistahl/lingua-go"

	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// Detector implements ports.LanguageDetector.
type Detector struct {
	once  sync.Once
	det   lingua.LanguageDetector
	codes map[lingua.IsoCode639_1]string // lingua code → registry code
}

// New returns a detector; nothing is loaded until the first call.
func New() *Detector { return &Detector{} }

func (d *Detector) init() {
	d.codes = map[lingua.IsoCode639_1]string{}
	var isos []lingua.IsoCode639_1
	for _, l := range language.All() {
		base, _, _ := strings.Cut(l.Code, "-")
		iso := lingua.GetIsoCode639_1FromValue(base)
		if iso == lingua.UnknownIsoCode639_1 {
			continue
		}
		if _, dup := d.codes[iso]; dup {
			continue // zh-Hans and zh-Hant share "zh": the first (Simplified) wins
		}
		d.codes[iso] = l.Code
		isos = append(isos, iso)
	}
	d.det = lingua.NewLanguageDetectorBuilder().FromIsoCodes639_1(isos...).WithLowAccuracyMode().Build()
}

// Detect returns the registry code of the language with the largest share
// of text's letters and lingua's confidence in it; "" when the text has no
// letters to go by.
func (d *Detector) Detect(text string) (string, float64) {
	parts := d.parts(text)
	if len(parts) == 0 {
		return "", 0
	}
	return parts[0].code, parts[0].conf
}

// Mix lists the languages of text by their share of its letters, largest
// first (one per script; shares add up to 1).
func (d *Detector) Mix(text string) (codes []string, shares []float64) {
	parts := d.parts(text)
	total := 0
	for _, p := range parts {
		total += p.letters
	}
	for _, p := range parts {
		codes = append(codes, p.code)
		shares = append(shares, float64(p.letters)/float64(total))
	}
	return codes, shares
}

// part is the words of one script.
type part struct {
	script  string
	letters int
	words   []string
	code    string
	conf    float64
}

// sampleRunes bounds the text lingua reads per script; the words are taken
// evenly over the whole text, not from its start.
const sampleRunes = 20_000

// parts splits text into words by script, detects each script's language
// and orders them by letters, largest first. Scripts whose words lingua
// cannot place (digits-only, unknown scripts) are dropped.
func (d *Detector) parts(text string) []part {
	d.once.Do(d.init)
	byScript := map[string]*part{}
	var order []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) && r != '\u200c' && r != '\'' && r != '’'
	}) {
		// Apostrophes stay inside words (Breton c'h, Catalan l'aigua).
		if w = strings.Trim(w, "'’"); w == "" {
			continue
		}
		sc, n := scriptOf(w)
		if n == 0 {
			continue
		}
		p := byScript[sc]
		if p == nil {
			p = &part{script: sc}
			byScript[sc] = p
			order = append(order, sc)
		}
		p.letters += n
		p.words = append(p.words, w)
	}
	var out []part
	for _, sc := range order {
		p := byScript[sc]
		text := sample(p.words)
		var cands []string // lingua's languages, likeliest first
		for _, v := range d.det.ComputeLanguageConfidenceValues(text) {
			if c := d.codes[v.Language().IsoCode639_1()]; c != "" && v.Value() > 0 {
				cands = append(cands, c)
				if p.conf == 0 {
					p.conf = v.Value()
				}
			}
		}
		if p.code = refine(p.script, text, cands); p.code == "" {
			continue
		}
		if p.conf == 0 { // lingua had no answer; a rule of refine.go had
			p.conf = 0.5
		}
		out = append(out, *p)
	}
	// Two scripts of one language (Japanese kana and kanji are one
	// script here already) merge into the larger.
	merged := out[:0]
	seen := map[string]int{}
	for _, p := range out {
		if i, ok := seen[p.code]; ok {
			merged[i].letters += p.letters
			continue
		}
		seen[p.code] = len(merged)
		merged = append(merged, p)
	}
	sort.SliceStable(merged, func(i, j int) bool { return merged[i].letters > merged[j].letters })
	return merged
}

// sample joins words spread evenly over the list, about sampleRunes long.
func sample(words []string) string {
	total := 0
	for _, w := range words {
		total += len([]rune(w)) + 1
	}
	step := 1
	if total > sampleRunes {
		step = (total + sampleRunes - 1) / sampleRunes
	}
	var b strings.Builder
	// Chunks of consecutive words keep some context for lingua's n-grams.
	const chunk = 12
	for i := 0; i < len(words); i += chunk * step {
		for j := i; j < i+chunk && j < len(words); j++ {
			b.WriteString(words[j])
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// scripts are the script groups letters are counted in; a language's
// script decides which group it is detected in.
var scripts = []struct {
	name   string
	tables []*unicode.RangeTable
}{
	{"Latin", []*unicode.RangeTable{unicode.Latin}},
	{"Arabic", []*unicode.RangeTable{unicode.Arabic}},
	{"Hebrew", []*unicode.RangeTable{unicode.Hebrew}},
	{"Cyrillic", []*unicode.RangeTable{unicode.Cyrillic}},
	{"Greek", []*unicode.RangeTable{unicode.Greek}},
	{"CJK", []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana}},
	{"Hangul", []*unicode.RangeTable{unicode.Hangul}},
	{"Devanagari", []*unicode.RangeTable{unicode.Devanagari}},
	{"Thai", []*unicode.RangeTable{unicode.Thai}},
	{"Armenian", []*unicode.RangeTable{unicode.Armenian}},
	{"Georgian", []*unicode.RangeTable{unicode.Georgian}},
	{"Bengali", []*unicode.RangeTable{unicode.Bengali}},
	{"Gujarati", []*unicode.RangeTable{unicode.Gujarati}},
}

// scriptOf names the script of most of a word's letters and counts them.
func scriptOf(w string) (string, int) {
	counts := make([]int, len(scripts)+1)
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) {
			continue
		}
		n++
		k := len(scripts)
		for i, s := range scripts {
			if unicode.In(r, s.tables...) {
				k = i
				break
			}
		}
		counts[k]++
	}
	best := 0
	for i, c := range counts {
		if c > counts[best] {
			best = i
		}
	}
	if best == len(scripts) {
		return "Other", n
	}
	return scripts[best].name, n
}

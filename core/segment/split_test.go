package segment

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/rivo/uniseg"
)

// wholeTextCuts is sentenceCuts as it was: the segmenter over the whole text.
func wholeTextCuts(text string) []int {
	var cuts []int
	state := -1
	off := 0
	rest := text
	for len(rest) > 0 {
		var s string
		s, rest, state = uniseg.FirstSentenceInString(rest, state)
		off += len(s)
		if len(rest) == 0 {
			break
		}
		if strings.TrimSpace(rest) == "" || isAbbreviation(s) || startsLower(rest) {
			continue
		}
		cuts = append(cuts, off)
	}
	return cuts
}

// The segmenter run on windows around the terminators cuts where it cuts
// over the whole text: on prose, abbreviations, initials, numbers, quotes
// and brackets, line breaks, other scripts, and random strings of the
// characters the rules look at, short and long.
func TestSentenceCutsAgreeWithWholeText(t *testing.T) {
	texts := []string{
		"Hello world. This is a test! Is it? Yes; it is… Done.",
		"Mr. Smith met Dr. Jones at 3.30 p.m. in St. Louis. They spoke.",
		"J. R. R. Tolkien wrote it. The U.S.A. is big. e.g.Hello there.",
		`He said: "Stop." Then (quietly) left. [See fig. 3.] Next.`,
		"Line one\nLine two. Three\r\nfour.\u2029Five.",
		"مرحبا بالعالم. هذا اختبار؟ نعم. 日本語です。次の文！終わり？",
		"1. First item. 2. Second item. Version 2.0.1 is out. Ends with a number 42.",
		"no terminator here", "", ".", "...", "a.", " . ", "Trailing spaces.   ", "x.\n",
	}
	alphabet := []rune("aZ .!?;…。\n\r\"')(][:,0123456789ءبتAbcM \u2029\u00a0x")
	r := rand.New(rand.NewSource(1))
	for i := range 220_000 {
		n := 1 + r.Intn(30)
		if i%10 == 0 {
			n = 1 + r.Intn(400)
		}
		b := make([]rune, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := sentenceCuts(s), wholeTextCuts(s); !slices.Equal(got, want) {
			t.Fatalf("%q: cuts %v, over the whole text %v", s, got, want)
		}
	}
}

func TestSplitSentences(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`One. Two! Three?`, []string{`One. `, `Two! `, `Three?`}},
		{`Dr. Smith came. He left.`, []string{`Dr. Smith came. `, `He left.`}},
		{`See e.g. the table. Then J. R. Tolkien wrote.`, []string{`See e.g. the table. `, `Then J. R. Tolkien wrote.`}},
		{`First <g id="1">bold. Still bold</g> end. Next.`, []string{`First <g id="1">bold. Still bold</g> end. `, `Next.`}},
		{`Note.<x id="1"/> Next <g id="2">word</g>.`, []string{`Note.<x id="1"/> `, `Next <g id="2">word</g>.`}},
		{`Note. <x id="1"/>Next.`, []string{`Note. `, `<x id="1"/>Next.`}},
		{`Version 1.2 is out. a lower start.`, []string{`Version 1.2 is out. a lower start.`}},
		{`Trailing space. `, []string{`Trailing space. `}},
		{`Fig. 3 shows it. Done &amp; dusted.`, []string{`Fig. 3 shows it. `, `Done &amp; dusted.`}},
	}
	for _, c := range cases {
		got := SplitSentences(c.in)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("SplitSentences(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Join(got, "") != c.in {
			t.Errorf("pieces of %q do not join back: %q", c.in, got)
		}
	}
}

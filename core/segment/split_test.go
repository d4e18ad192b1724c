package segment

import (
	"strings"
	"testing"
)

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

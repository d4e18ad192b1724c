package main

import (
	"context"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

func TestSerbianTransliteration(t *testing.T) {
	if got := serbianToLatin(`Љубав и <g id="1">џеп</g> њиве.`); got != `Ljubav i <g id="1">džep</g> njive.` {
		t.Errorf("to Latin: %q", got)
	}
	in := `Ljubav i <g id="1">džep</g> na https://example.org/x, Wi-Fi i NJIVE.`
	if got := serbianToCyrillic(in); got != `Љубав и <g id="1">џеп</g> на https://example.org/x, Wi-Fi и ЊИВЕ.` {
		t.Errorf("to Cyrillic: %q", got)
	}
}

// TestVariantsAndSerbianThroughApertium (issue 22 §1): the variant modes
// and Serbian in Cyrillic work through the real Apertium, with the pairs
// make deps installs.
func TestVariantsAndSerbianThroughApertium(t *testing.T) {
	e := newEngine("", "")
	ctx := context.Background()
	for _, c := range []struct {
		src, tgt, in string
		want         []string // words the output holds
		script       func(rune) bool
	}{
		{"sr", "en", "Стари мост преко ријеке био је затворен.", []string{"bridge", "river"}, nil},
		{"en", "sr", "The old bridge was closed for two weeks.", []string{"мост"}, isCyrillic},
		{"hr", "en", "Stari most preko rijeke bio je zatvoren.", []string{"bridge"}, nil},
		{"es", "pt-BR", "El tren sale a las siete.", []string{"trem"}, nil},
		{"en", "ca-valencia", "The children walked to school.", []string{"xiquets"}, nil},
	} {
		res, err := e.Translate(ctx, sdk.TranslateRequest{Source: c.src, Target: c.tgt, Mode: sdk.Full, Segments: []string{c.in}})
		if err != nil {
			t.Errorf("%s→%s: %v", c.src, c.tgt, err)
			continue
		}
		out := res.Segments[0]
		for _, w := range c.want {
			if !strings.Contains(strings.ToLower(out), w) {
				t.Errorf("%s→%s: %q lacks %q", c.src, c.tgt, out, w)
			}
		}
		if c.script != nil && strings.IndexFunc(out, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 {
			t.Errorf("%s→%s: %q is not all Cyrillic", c.src, c.tgt, out)
		}
	}
}

func isCyrillic(r rune) bool { return r >= 0x400 && r <= 0x4ff }

package rtl

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// TestSameDirection covers RTL→RTL (Hebrew and Arabic sources to Arabic
// or Persian: run-level fixes, fonts for the new script, no mirroring)
// and LTR→LTR (nil fidelity, no RTL flags on Latin runs).
func TestSameDirection(t *testing.T) {
	sameDirection = true
	defer func() { sameDirection = false }()
	l := New(Options{})
	fc := rtltest.NewFontconfig()
	for _, c := range []struct{ dir, from, to string }{{"rtl", "he", "ar"}, {"rtl", "ar", "fa"}, {"ltr", "en", "fr"}} {
		for _, p := range corpus(t, c.dir) {
			src := read(t, p)
			in := pseudoTranslate(t, src, map[string]string{"ar": "ar", "fa": "fa", "fr": "en"}[c.to])
			var out bytes.Buffer
			f, err := l.Apply(context.Background(), newBlob(in), ports.LayoutRequest{SourceLang: c.from, TargetLang: c.to}, &out)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			rtl := c.to != "fr"
			fs, _, err := rtltest.CheckXML(in, out.Bytes(), rtltest.Target{RTL: rtl, Lang: c.to, Covers: fc.Covers})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range fs {
				if !rtl && strings.HasPrefix(x.Rule, "3 ") {
					continue // LTR→LTR leaves tables as they were
				}
				t.Errorf("%s %s→%s: %s", filepath.Base(p), c.from, c.to, x)
			}
			if rtl && (f == nil || f.Status != "full" && f.Status != "degraded") {
				t.Errorf("%s: same-direction RTL job should report fonts only, got %+v", p, f)
			}
			pk, err := openPkg(newBlob(in))
			if err != nil {
				t.Fatal(err)
			}
			if lang := rtlScriptLang(t, pk); !rtl && f != nil && lang == "" {
				t.Errorf("%s: LTR→LTR without RTL text must return nil fidelity, got %+v", p, f)
			}
		}
	}
}

// rtlScriptLang finds the language of RTL text in an LTR document:
// "he" for Hebrew letters, "ar" for other RTL scripts, "" for none.
func rtlScriptLang(t *testing.T, pk *pkg) string {
	lang := ""
	for _, name := range pk.stories {
		err := pk.eachBlock(name, nil, func(b storyBlock) {
			b.c.Walk(func(n *node) bool {
				if n.IsW("t") {
					for _, r := range n.TextOf() {
						if inRTLBlock(r) {
							if r >= 0x0590 && r <= 0x05FF || r >= 0xFB1D && r <= 0xFB4F {
								lang = "he"
							} else if lang == "" {
								lang = "ar"
							}
						}
					}
				}
				return true
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return lang
}

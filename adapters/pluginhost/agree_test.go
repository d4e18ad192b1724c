package pluginhost

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// The SDK keeps its own copy of the inline-code grammar (plugins/sdk/tagged)
// so that plugins never import core. These tests fail as soon as the copy
// and core/segment read, write or repair tagged text differently.

// randomTagged builds tagged text with nested <g>, <x/>, escaped and
// unescaped markup characters, blanks and non-Latin text.
func randomTagged(r *rand.Rand) string {
	words := []string{"the", "cat", "&", "<", ">", "&amp;", "&lt;b&gt;", "  ", "\t", "ita", "lic", "®", ".”", "كتاب", "日本", "-", "x<y", "a&b", "M☉", "won't"}
	var b strings.Builder
	var open []int
	id := 0
	for n := r.IntN(14); n > 0; n-- {
		switch r.IntN(6) {
		case 0:
			id++
			open = append(open, id)
			fmt.Fprintf(&b, `<g id="%d">`, id)
		case 1:
			if len(open) > 0 {
				open = open[:len(open)-1]
				b.WriteString(`</g>`)
			}
		case 2:
			id++
			fmt.Fprintf(&b, `<x id="%d"/>`, id)
		default:
			w := words[r.IntN(len(words))]
			if r.IntN(2) == 0 {
				w = segment.Escape(w)
			}
			b.WriteString(w)
			if r.IntN(2) == 0 {
				b.WriteString(" ")
			}
		}
	}
	for range open {
		b.WriteString(`</g>`)
	}
	return b.String()
}

// mangle does to a segment what engines do: drop, duplicate, move and
// invent codes, drop closing tags, reorder words, leave stray markup.
func mangle(r *rand.Rand, s string) string {
	for n := r.IntN(4); n > 0; n-- {
		switch r.IntN(8) {
		case 0:
			s = strings.Replace(s, `</g>`, ``, 1)
		case 1:
			if i := strings.Index(s, `<g id="`); i >= 0 {
				if j := strings.Index(s[i:], `>`); j >= 0 {
					s = s[:i] + s[i+j+1:]
				}
			}
		case 2:
			s = s + ` <x id="99"/>`
		case 3:
			s = `<g id="1">` + s
		case 4:
			f := strings.Fields(s)
			slices.Reverse(f)
			s = strings.Join(f, " ")
		case 5:
			s = strings.ReplaceAll(s, `<x id="`, `<x  id="`)
		case 6:
			s = s + " <b>stray</b> <g id=\"2\"></g>"
		case 7:
			s = strings.ToUpper(s[:len(s)/2]) + s[len(s)/2:]
		}
	}
	return s
}

func tokensOf(ts []segment.Token) []tagged.Token {
	out := make([]tagged.Token, len(ts))
	for i, t := range ts {
		out[i] = tagged.Token{Kind: tagged.TokenKind(t.Kind), ID: t.ID, Text: t.Text}
	}
	return out
}

func TestTaggedAgreesWithCoreSegment(t *testing.T) {
	if tagged.Text != tagged.TokenKind(segment.Text) || tagged.Open != tagged.TokenKind(segment.Open) ||
		tagged.Close != tagged.TokenKind(segment.Close) || tagged.Place != tagged.TokenKind(segment.Place) {
		t.Fatal("token kinds differ")
	}
	r := rand.New(rand.NewPCG(11, 2))
	fixed := []string{"", "plain", `<g id="1">a</g>`, `</g>a<g id="2">`, `<x id="3"/>`, `<x id="a"/>`, `a < b & c > d`, `&quot;&apos;&#39;&#34;`, `<g id="1"><g id="2">x</g>`, `<G ID="1">x</G>`}
	for i := 0; i < 4000; i++ {
		var src, tgt string
		if i < len(fixed) {
			src, tgt = fixed[i], fixed[len(fixed)-1-i]
		} else {
			src = randomTagged(r)
			tgt = mangle(r, src)
			if r.IntN(4) == 0 {
				tgt = randomTagged(r)
			}
		}
		for _, s := range []string{src, tgt} {
			mine, theirs := tagged.Tokenize(s), tokensOf(segment.Tokenize(s))
			if !reflect.DeepEqual(mine, theirs) && (len(mine) != 0 || len(theirs) != 0) {
				t.Fatalf("Tokenize(%q):\n sdk  %v\n core %v", s, mine, theirs)
			}
			if a, b := tagged.Render(mine), segment.Render(segment.Tokenize(s)); a != b {
				t.Fatalf("Render(Tokenize(%q)): sdk %q, core %q", s, a, b)
			}
			if a, b := tagged.Plain(s), segment.Plain(s); a != b {
				t.Fatalf("Plain(%q): sdk %q, core %q", s, a, b)
			}
			if a, b := tagged.Escape(s), segment.Escape(s); a != b {
				t.Fatalf("Escape(%q): sdk %q, core %q", s, a, b)
			}
			if a, b := tagged.Unescape(s), segment.Unescape(s); a != b {
				t.Fatalf("Unescape(%q): sdk %q, core %q", s, a, b)
			}
		}
		a, wa := tagged.Repair(src, tgt)
		b, wb := segment.Repair(src, tgt)
		if a != b || !slices.Equal(wa, wb) {
			t.Fatalf("Repair(%q, %q):\n sdk  %q %q\n core %q %q", src, tgt, a, wa, b, wb)
		}
	}
	var w1 tagged.Builder
	var w2 segment.Builder
	w1.Text("a<b&")
	w2.Text("a<b&")
	w1.Open(3)
	w2.Open(3)
	w1.Place(4)
	w2.Place(4)
	w1.Close()
	w2.Close()
	if w1.String() != w2.String() {
		t.Errorf("Builder: sdk %q, core %q", w1.String(), w2.String())
	}
}

// The SDK's modes are the job's, in the same order, and map both ways.
func TestSDKModesAreTheJobModes(t *testing.T) {
	if len(sdk.Modes) != len(job.Modes) {
		t.Fatalf("sdk.Modes %v, job.Modes %v", sdk.Modes, job.Modes)
	}
	for i := range sdk.Modes {
		if string(sdk.Modes[i]) != string(job.Modes[i]) {
			t.Errorf("mode %d: sdk %q, job %q", i, sdk.Modes[i], job.Modes[i])
		}
		if m, err := job.ParseMode(string(sdk.Modes[i])); err != nil || m != job.Modes[i] {
			t.Errorf("job.ParseMode(%q) = %q, %v", sdk.Modes[i], m, err)
		}
	}
	caps := capsFromSDK(sdk.Capabilities{Name: "n", Pairs: []sdk.Pair{{Source: "en", Target: "ar"}}, AnyToAny: true, MaxSegments: 3, MaxChars: 4, Modes: sdk.Modes})
	if caps.Name != "n" || len(caps.Pairs) != 1 || caps.Pairs[0].Target != "ar" || !caps.AnyToAny || caps.MaxSegments != 3 || caps.MaxChars != 4 || !slices.Equal(caps.Modes, job.Modes) {
		t.Errorf("capsFromSDK = %+v", caps)
	}
}

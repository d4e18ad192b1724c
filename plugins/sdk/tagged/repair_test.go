package tagged

import (
	"testing"
)

func TestRepair(t *testing.T) {
	cases := []struct {
		name, src, tgt, want string
		warns                int
	}{
		{"intact", `a <g id="1">b</g> c<x id="2"/>`, `A <g id="1">B</g> C<x id="2"/>`, `A <g id="1">B</g> C<x id="2"/>`, 0},
		{"reordered kept", `<g id="1">a</g> <g id="2">b</g>`, `<g id="2">B</g> <g id="1">A</g>`, `<g id="2">B</g> <g id="1">A</g>`, 0},
		{"dropped pair found by text", `Visit <g id="1">Dragoman</g> now.`, `Besuchen Sie jetzt Dragoman.`, `Besuchen Sie jetzt <g id="1">Dragoman</g>.`, 1},
		{"dropped pair by position", `<g id="1">Hello</g> world again`, `Bonjour le monde encore`, `<g id="1">Bonjour</g> le monde encore`, 1},
		{"dropped whole span", `<g id="1">all of it</g>`, `tout`, `<g id="1">tout</g>`, 1},
		{"dropped isolated at end", `Text<x id="1"/>`, `Texte`, `Texte<x id="1"/>`, 1},
		{"dropped isolated at start", `<x id="1"/>Text`, `Texte`, `<x id="1"/>Texte`, 1},
		{"duplicate pair", `<g id="1">a</g> b`, `<g id="1">A</g> <g id="1">B</g>`, `<g id="1">A</g> B`, 1},
		{"duplicate isolated", `a<x id="1"/>`, `A<x id="1"/><x id="1"/>`, `A<x id="1"/>`, 1},
		{"unknown code", `a`, `<g id="7">A</g><x id="8"/>`, `A`, 2},
		{"wrong kind", `<g id="1">a</g>`, `<x id="1"/>A`, `<g id="1">A</g>`, 2},
		{"unclosed", `<g id="1">a</g> b`, `<g id="1">A B`, `<g id="1">A B</g>`, 0},
		{"crossing", `<g id="1">a <g id="2">b</g></g>`, `<g id="1">A <g id="2">B</g1></g>`, `<g id="1">A <g id="2">B&lt;/g1&gt;</g></g>`, 0},
		{"escaped text kept", `a &amp; <g id="1">b</g>`, `A &amp; B &lt;c&gt;`, `A &amp; B <g id="1">&lt;c&gt;</g>`, 1},
		{"nested missing inner", `<g id="1">click <g id="2">here</g></g>`, `<g id="1">klicken Sie hier</g>`, `<g id="1">klicken Sie <g id="2">hier</g></g>`, 1},
		{"emptied span around a symbol", `LATICRETE<g id="1">®</g> 3701 Mortar`, `LATICRETE® 3701 Mortero<g id="1"></g>`, `LATICRETE<g id="1">®</g> 3701 Mortero`, 1},
		{"emptied spans around punctuation, nearest", `<g id="1">&lt;</g>w:p a<g id="2">="</g>1<g id="3">"&gt;</g> b<g id="4">="</g>2`, `&lt;w:p a="1"&gt; b="2<g id="1"></g><g id="2"></g><g id="3"></g><g id="4"></g>`, `<g id="1">&lt;</g>w:p a<g id="2">="</g>1<g id="3">"&gt;</g> b<g id="4">="</g>2`, 4},
		{"emptied word span by position", `<g id="1">Bold</g> text here`, `Texto aquí <g id="1"></g>`, `<g id="1">Texto</g> aquí `, 1},
		{"emptied blank span kept", `a<g id="1"> </g>b`, `A B<g id="1"></g>`, `A B<g id="1"></g>`, 0},
		{"empty target", `<g id="1">a</g><x id="2"/>`, ``, `<g id="1"></g><x id="2"/>`, 2},
	}
	for _, c := range cases {
		got, w := Repair(c.src, c.tgt)
		if got != c.want || len(w) != c.warns {
			t.Errorf("%s: Repair(%q, %q) = %q %q, want %q with %d warnings", c.name, c.src, c.tgt, got, w, c.want, c.warns)
		}
		checkRepaired(t, c.src, c.tgt, got)
	}
}

// checkRepaired asserts the invariants: every source code once, same kind,
// all target text kept, output canonical.
func checkRepaired(t *testing.T, src, tgt, out string) {
	t.Helper()
	want := map[int]TokenKind{}
	for _, tk := range Tokenize(src) {
		if tk.Kind == Open || tk.Kind == Place {
			if _, ok := want[tk.ID]; !ok {
				want[tk.ID] = tk.Kind
			}
		}
	}
	got := map[int]int{}
	for _, tk := range Tokenize(out) {
		if tk.Kind == Open || tk.Kind == Place {
			if want[tk.ID] != tk.Kind {
				t.Fatalf("code %d kind %v not in source %q (out %q)", tk.ID, tk.Kind, src, out)
			}
			got[tk.ID]++
		}
	}
	for id := range want {
		if got[id] != 1 {
			t.Fatalf("code %d appears %d times in %q (src %q tgt %q)", id, got[id], out, src, tgt)
		}
	}
	if Plain(out) != Plain(tgt) {
		t.Fatalf("text changed: %q -> %q", Plain(tgt), Plain(out))
	}
	if Render(Tokenize(out)) != out {
		t.Fatalf("output not canonical: %q", out)
	}
}

// canonicalSource makes any string a valid source: unique ids.
func canonicalSource(s string) string {
	seen := map[int]bool{}
	var toks []Token
	var keep []bool
	for _, t := range Tokenize(s) {
		switch t.Kind {
		case Open:
			ok := !seen[t.ID]
			seen[t.ID] = true
			keep = append(keep, ok)
			if ok {
				toks = append(toks, t)
			}
		case Close:
			if keep[len(keep)-1] {
				toks = append(toks, t)
			}
			keep = keep[:len(keep)-1]
		case Place:
			if !seen[t.ID] {
				seen[t.ID] = true
				toks = append(toks, t)
			}
		default:
			toks = append(toks, t)
		}
	}
	return Render(toks)
}

func FuzzRepair(f *testing.F) {
	f.Add(`a <g id="1">b</g> c<x id="2"/>`, `C <g id="2">B</g> a`)
	f.Add(`<g id="1">x <g id="2">y</g> z</g><x id="3"/>`, `z y x`)
	f.Add(`<g id="1">héllo wörld</g>`, `<x id="1"/>日本語のテキスト</g><g id="9">`)
	f.Add(`<x id="1"/><x id="2"/>a`, `<g id="1">a</g><x id="2"/><x id="2"/>`)
	f.Fuzz(func(t *testing.T, src, tgt string) {
		src = canonicalSource(src)
		out, _ := Repair(src, tgt)
		checkRepaired(t, src, tgt, out)
	})
}

package xmlscan

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// Concatenating every token's raw bytes gives back the input exactly, even
// when the reader hands over one byte at a time.
func TestRawRoundTrip(t *testing.T) {
	in := "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- c -->" +
		`<a:doc xmlns:a="u" x='1>2'><a:p attr="&quot;q&quot;">text &amp; more<b/><![CDATA[<raw>]]></a:p>` + "\n</a:doc>"
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
		sc := New(r)
		var out bytes.Buffer
		var kinds []Kind
		for {
			tok, err := sc.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			out.Write(tok.Raw)
			kinds = append(kinds, tok.Kind)
		}
		if out.String() != in {
			t.Fatalf("round trip:\n%q\n%q", out.String(), in)
		}
		if len(kinds) < 8 {
			t.Fatalf("kinds %v", kinds)
		}
	}
}

func TestRefusals(t *testing.T) {
	for in, want := range map[string]string{
		`<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`: "DTD",
		`<x>&a;</x>`:     "entity",
		`<x><y></x></y>`: "unexpected",
		`<x>`:            "unclosed",
		`<x/><y/>`:       "more than one root",
		`junk<x/>`:       "outside",
		`<x>&#0;</x>`:    "character reference",
		``:               "no root",
	} {
		sc := New(strings.NewReader(in))
		var err error
		for err == nil {
			_, err = sc.Next()
		}
		if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

func TestAttrsAndEscape(t *testing.T) {
	v, ok := AttrValue([]byte(`<w:hyperlink r:id="rId5" w:anchor='a&amp;b'>`), "anchor")
	if !ok || v != "a&b" {
		t.Fatalf("anchor %q %v", v, ok)
	}
	got := string(EscapeText(nil, "a<b>&\"c\x01\x00\xff\uFFFEz"))
	if got != "a&lt;b&gt;&amp;&quot;cz" {
		t.Fatalf("escape %q", got)
	}
}

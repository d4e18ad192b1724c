package ooxml

import (
	"bytes"
	"strings"
	"testing"
)

const part = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
	`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14">` +
	`<!-- kept --><w:body><w:p w14:paraId="1A2B"><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:t xml:space="preserve">a &amp; b &lt; c</w:t></w:r></w:p></w:body></w:document>`

// An untouched tree writes back the same part: prefixes, namespace
// declarations, mc:Ignorable, comments and escapes survive.
func TestTreeRoundTrip(t *testing.T) {
	doc, err := Parse([]byte(part))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteTree(&out, doc); err != nil {
		t.Fatal(err)
	}
	if out.String() != part {
		t.Fatalf("round trip changed the part:\n%s\n%s", part, out.String())
	}
}

func TestTreeEdits(t *testing.T) {
	doc, err := Parse([]byte(part))
	if err != nil {
		t.Fatal(err)
	}
	root := doc.RootElem()
	p := root.Child("body").Child("p")
	if p == nil || !p.IsW("p") || p.NS != NSW {
		t.Fatalf("paragraph not found with its namespace: %+v", p)
	}
	jc := p.Child("pPr").Child("jc")
	jc.SetAttr("val", "right")
	p.Child("pPr").InsertAt(0, NewW(p, "bidi"))
	ts := root.FindAllW("t")
	if len(ts) != 1 || ts[0].TextOf() != "a & b < c" {
		t.Fatalf("text: %v", ts)
	}
	ts[0].SetText("x\x01y & z") // a control character cannot be written in XML 1.0
	var out bytes.Buffer
	if err := WriteTree(&out, doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<w:pPr><w:bidi/><w:jc w:val="right"/></w:pPr>`, `>xy &amp; z</w:t>`, `mc:Ignorable="w14"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %s:\n%s", want, out.String())
		}
	}
	if _, err := Parse(out.Bytes()); err != nil {
		t.Fatalf("edited part does not parse: %v", err)
	}
}

func TestTreeRefusals(t *testing.T) {
	for name, data := range map[string]string{
		"DTD":             `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>`,
		"truncated":       part[:len(part)-20],
		"mismatch":        `<a><b></a></b>`,
		"empty":           ``,
		"unquoted":        `<a b=c/>`,
		"lt in attribute": `<a b="<"/>`,
		"no value":        `<a b/>`,
		"entity":          `<a>&nbsp;</a>`,
	} {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

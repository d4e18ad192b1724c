// Package rtltest verifies a laid-out .docx independently of the
// adapter that produced it: the XML assertions (effective values resolved
// through styles and defaults) and a render check through LibreOffice,
// pdftotext and pdffonts, both listed in README "How the RTL output is
// checked".
//
// It is test support, a test oracle: it reads packages with its own small
// reader on purpose, not through adapters/ooxml, so a bug in the shared
// package model cannot hide itself from the checks.
package rtltest

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// el is a namespace-resolved element (a separate, simpler reader than the
// adapter's, so the checks do not share its bugs).
type el struct {
	space, local string
	attr         map[string]string // by local name
	kids         []*el
	text         string
	parent       *el
}

const (
	wT = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	wS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
)

func parse(data []byte) (*el, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	root := &el{}
	cur := root
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &el{space: t.Name.Space, local: t.Name.Local, attr: map[string]string{}, parent: cur}
			for _, a := range t.Attr {
				if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
					e.attr[a.Name.Local] = a.Value
				}
			}
			cur.kids = append(cur.kids, e)
			cur = e
		case xml.EndElement:
			cur = cur.parent
		case xml.CharData:
			cur.text += string(t)
		}
	}
	if len(root.kids) != 1 {
		return nil, fmt.Errorf("no document element")
	}
	return root.kids[0], nil
}

func (e *el) w(local string) bool {
	return e != nil && e.local == local && (e.space == wT || e.space == wS)
}

func (e *el) kid(local string) *el {
	if e == nil {
		return nil
	}
	for _, k := range e.kids {
		if k.w(local) {
			return k
		}
	}
	return nil
}

func (e *el) each(fn func(*el) bool) {
	for _, k := range e.kids {
		if fn(k) {
			k.each(fn)
		}
	}
}

func (e *el) get(local string) (string, bool) {
	if e == nil {
		return "", false
	}
	v, ok := e.attr[local]
	return v, ok
}

// flag is a boolean property's value and whether it is set.
func flag(e *el) (val, set bool) {
	if e == nil {
		return false, false
	}
	v, ok := e.attr["val"]
	if !ok {
		return true, true
	}
	switch strings.ToLower(v) {
	case "0", "false", "off":
		return false, true
	}
	return true, true
}

// docx is an opened package's parts.
type docx struct {
	parts map[string]*el
	order []string
}

func openDocx(data []byte) (*docx, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	d := &docx{parts: map[string]*el{}}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".xml") && !strings.HasSuffix(f.Name, ".rels") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		root, err := parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s is not well-formed XML: %w", f.Name, err)
		}
		d.parts[f.Name] = root
		d.order = append(d.order, f.Name)
	}
	return d, nil
}

// stories are the parts holding text, main document first.
func (d *docx) stories() []string {
	out := []string{"word/document.xml"}
	for _, n := range d.order {
		b := strings.TrimPrefix(n, "word/")
		if b == n || strings.Contains(b, "/") {
			continue
		}
		for _, p := range []string{"header", "footer", "footnotes", "endnotes", "comments"} {
			if strings.HasPrefix(b, p) {
				out = append(out, n)
			}
		}
	}
	return out
}

// paraText is a paragraph's w:t text without nested text-box paragraphs.
func paraText(p *el) string {
	var b strings.Builder
	p.each(func(e *el) bool {
		if e.w("txbxContent") {
			return false
		}
		if e.w("t") {
			b.WriteString(e.text)
		}
		return true
	})
	return b.String()
}

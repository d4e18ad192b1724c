package docx

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// emitNode writes a subtree, rewriting the paragraphs and alt texts in it.
func (p *proc) emitNode(b []byte, n *node) []byte {
	switch {
	case n.name == p.d.p && p.paras[n] != nil:
		return p.emitPara(b, n)
	case n.name == p.d.docPr:
		if u := p.lookup[p.descrID(n)]; u != nil {
			b = appendWithAttr(b, n.start, "descr", p.plainTarget(u))
			for _, k := range n.kids {
				b = p.emitNode(b, k)
			}
			return append(b, n.end...)
		}
	}
	b = append(b, n.start...)
	for _, k := range n.kids {
		b = p.emitNode(b, k)
	}
	return append(b, n.end...)
}

// appendWithAttr appends a start tag with one attribute's value replaced.
func appendWithAttr(b, tag []byte, name, value string) []byte {
	for _, a := range xmlscan.Attrs(tag) {
		if localName(string(a.Name)) == name {
			b = append(b, tag[:a.ValStart]...)
			b = xmlscan.EscapeText(b, value)
			return append(b, tag[a.ValEnd:]...)
		}
	}
	return append(b, tag...)
}

// emitPara writes a paragraph with its translation, or as it was when it
// has none.
func (p *proc) emitPara(b []byte, n *node) []byte {
	pa := p.paras[n]
	id := p.paraID(n)
	if a := p.aliasOf(n); a != nil {
		id = p.paraID(a)
	}
	u := p.lookup[id]
	if u == nil || !pa.hasText {
		b = append(b, n.start...)
		for _, k := range n.kids {
			b = p.emitNode(b, k)
		}
		return append(b, n.end...)
	}
	var src strings.Builder
	for _, s := range u.Segments {
		src.WriteString(s.Source)
	}
	if src.String() != pa.tagged {
		p.warn(fmt.Sprintf("%s: the unit does not match the source document; paragraph kept untranslated", id))
		return p.emitNode(b, &node{kind: n.kind, start: n.start, end: n.end, kids: n.kids})
	}
	var tgt strings.Builder
	for _, s := range u.Segments {
		t := s.Target
		if t == "" {
			t = s.Source
			p.stats.untranslated++
		}
		fixed, w := tagged.Repair(s.Source, t)
		if len(w) > 0 {
			p.stats.repaired++
			p.warn(fmt.Sprintf("segment %s: %s", s.ID, strings.Join(w, "; ")))
		}
		tgt.WriteString(keepEdgeSpace(s.Source, fixed))
	}

	b = append(b, n.start...)
	if pa.pPr != nil {
		b = writeRaw(b, pa.pPr)
	}
	for _, a := range pa.prefix {
		b = p.emitAtom(b, a)
	}
	toks := tagged.Tokenize(tgt.String())
	if p.restoreFieldOrder(pa, toks) {
		p.warn(fmt.Sprintf("%s: the engine reordered the parts of a field; their order was restored", id))
	}
	var stack []int
	for _, t := range toks {
		switch t.Kind {
		case tagged.Text:
			b = p.emitText(b, p.rprFor(pa, stack), t.Text)
		case tagged.Open:
			c := pa.codes[t.ID-1]
			if c.wrap != nil {
				b = append(b, wrapperOpen(p.d, c.wrap)...)
			}
			stack = append(stack, t.ID)
		case tagged.Close:
			c := pa.codes[stack[len(stack)-1]-1]
			stack = stack[:len(stack)-1]
			if c.wrap != nil {
				b = append(b, wrapperClose(p.d, c.wrap)...)
			}
		case tagged.Place:
			for _, a := range pa.codes[t.ID-1].items {
				b = p.emitAtom(b, a)
			}
		}
	}
	for _, a := range pa.suffix {
		b = p.emitAtom(b, a)
	}
	return append(b, n.end...)
}

// restoreFieldOrder puts the isolated codes holding complex-field
// characters (w:fldChar begin, separate, end) back in their source order,
// at the positions the engine gave them: a reordered sentence may carry a
// field's end before its begin, and no word processor opens that. Code ids
// grow in source order, so sorting them restores it. Reports a change.
func (p *proc) restoreFieldOrder(pa *para, toks []tagged.Token) bool {
	var at, ids []int
	for i, t := range toks {
		if t.Kind == tagged.Place && t.ID >= 1 && t.ID <= len(pa.codes) && p.holdsFieldChar(pa.codes[t.ID-1]) {
			at, ids = append(at, i), append(ids, t.ID)
		}
	}
	if slices.IsSorted(ids) {
		return false
	}
	slices.Sort(ids)
	for k, i := range at {
		toks[i].ID = ids[k]
	}
	return true
}

func (p *proc) holdsFieldChar(c code) bool {
	for _, a := range c.items {
		if a.item != nil && a.item.name == p.d.fldChar {
			return true
		}
	}
	return false
}

// rprFor is the run formatting for text under the open codes: the
// innermost span's, else the base formatting of the innermost wrapper.
func (p *proc) rprFor(pa *para, stack []int) *node {
	for i := len(stack) - 1; i >= 0; i-- {
		c := pa.codes[stack[i]-1]
		if c.fmt {
			return c.rpr
		}
		if c.wrap != nil {
			if r, ok := pa.base[c.wrap]; ok {
				return r
			}
		}
	}
	return pa.base[nil]
}

func (p *proc) emitText(b []byte, rpr *node, text string) []byte {
	if text == "" {
		return b
	}
	b = append(append(append(b, '<'), p.d.r...), '>')
	if rpr != nil {
		b = writeRaw(b, rpr)
	}
	b = append(append(b, '<'), p.d.t...)
	if p.d.word {
		b = append(b, ` xml:space="preserve"`...)
	}
	b = append(b, '>')
	b = xmlscan.EscapeText(b, text)
	b = append(append(append(b, "</"...), p.d.t...), '>')
	return append(append(append(b, "</"...), p.d.r...), '>')
}

func (p *proc) emitAtom(b []byte, a atom) []byte {
	if !a.inRun {
		return p.emitNode(b, a.item)
	}
	b = append(append(append(b, '<'), p.d.r...), '>')
	if a.rpr != nil {
		b = writeRaw(b, a.rpr)
	}
	b = p.emitNode(b, a.item)
	return append(append(append(b, "</"...), p.d.r...), '>')
}

// keepEdgeSpace gives the target the leading and trailing spaces of its
// source, which engines tend to trim and sentences need to join.
func keepEdgeSpace(src, tgt string) string {
	sl, st := edgeSpace(src)
	tl, tt := edgeSpace(tgt)
	if sl != "" && tl == "" {
		tgt = sl + tgt
	}
	if st != "" && tt == "" {
		tgt += st
	}
	return tgt
}

// edgeSpace is the white space that begins and ends the text of tagged
// text, looking past tags at either end.
func edgeSpace(s string) (lead, trail string) {
	i := 0
	for i < len(s) && s[i] == '<' {
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		i += j + 1
	}
	k := i
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsSpace(r) {
			break
		}
		k += n
	}
	lead = s[i:k]
	e := len(s)
	for e > 0 && s[e-1] == '>' {
		j := strings.LastIndexByte(s[:e], '<')
		if j < 0 {
			break
		}
		e = j
	}
	b := e
	for b > k {
		r, n := utf8.DecodeLastRuneInString(s[:b])
		if !unicode.IsSpace(r) {
			break
		}
		b -= n
	}
	return lead, s[b:e]
}

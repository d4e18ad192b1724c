package docx

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// proc walks one part. Extraction and assembly share it so that both see
// the same paragraphs, in the same order, with the same ids and codes.
type proc struct {
	part  string
	kind  ooxml.Kind
	d     *dialect
	f     fieldState
	np    int // paragraphs seen
	nd    int // drawing descriptions seen
	props map[string]bool
	trees treeReader

	// charts and SmartArt (charts.go, smartart.go)
	caches  map[string]bool // string cache elements of a chart part
	cacheID map[string]string
	diagram map[string]*segment.Unit

	// extraction
	units []segment.Unit
	check ports.ExtractCheck // nil: read everything
	told  int                // units already passed to check

	// assembly
	assemble bool
	lookup   map[string]*segment.Unit
	out      *bufio.Writer
	buf      []byte
	paras    map[*node]*para
	warn     func(string)
	stats    *assembleStats
}

type assembleStats struct {
	untranslated int
	repaired     int
}

// run streams the part; paragraphs are read as small trees, the rest is
// copied token by token.
func (p *proc) run(r io.Reader) error {
	p.f.keys = &keyCache{}
	sc := xmlscan.New(r)
	for {
		t, err := sc.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrNotDocx, p.part, err)
		}
		isStart := t.Kind == xmlscan.Start || t.Kind == xmlscan.Empty
		if isStart && p.d == nil {
			p.root(t.Raw)
		}
		if isStart && p.d != nil && p.wants(string(t.Name)) {
			tree, err := p.trees.read(sc, t)
			if err != nil {
				return fmt.Errorf("%w: %s: %v", ErrNotDocx, p.part, err)
			}
			if err := p.tree(tree); err != nil {
				return err
			}
			continue
		}
		if p.assemble {
			if _, err := p.out.Write(t.Raw); err != nil {
				return err
			}
		}
	}
}

// root reads the namespace prefixes the part declares.
func (p *proc) root(raw []byte) {
	ns := map[string]string{}
	for _, a := range xmlscan.Attrs(raw) {
		n := string(a.Name)
		if strings.HasPrefix(n, "xmlns:") {
			ns[string(a.Value)] = n[6:]
		} else if n == "xmlns" {
			ns[string(a.Value)] = ""
		}
	}
	pick := func(uris ...string) string {
		for _, u := range uris {
			if pr, ok := ns[u]; ok {
				return pr
			}
		}
		return "\x00" // matches no element
	}
	switch p.kind {
	case ooxml.Story:
		p.d = wordDialect(pick(nsW, nsWStrict), pick(nsWP, nsWPStr), pick(nsMC))
	case ooxml.Drawing, ooxml.DiagramDrawing:
		p.d = drawingDialect(pick(nsA, nsAStrict))
		p.caches = chartCaches(pick(nsC, nsCStrict))
	case ooxml.CoreProp:
		dc := pick("http://purl.org/dc/elements/1.1/")
		p.d = &dialect{}
		p.props = map[string]bool{q(dc, "title"): true, q(dc, "subject"): true, q(dc, "description"): true}
	default:
		p.d = &dialect{}
	}
}

func (p *proc) wants(name string) bool {
	if p.props != nil {
		return p.props[name]
	}
	return name == p.d.p || p.caches[name]
}

// tree handles one outermost paragraph (or document property).
func (p *proc) tree(t *node) error {
	if p.props != nil {
		return p.property(t)
	}
	if p.caches[t.name] {
		return p.cache(t)
	}
	// number paragraphs and drawing descriptions in document order, then
	// read every paragraph before writing any (field state follows order)
	var order []*node
	var walk func(n *node)
	walk = func(n *node) {
		switch n.name {
		case p.d.p:
			n.pid = p.np
			p.np++
			order = append(order, n)
		case p.d.docPr:
			n.pid = p.nd
			p.nd++
			if !p.assemble {
				p.extractDescr(n)
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
		if n.name == p.d.mcAlt {
			pairAlternate(p.d, n)
		}
	}
	walk(t)
	p.paras = map[*node]*para{}
	for _, n := range order {
		pa := flatten(p.d, &p.f, n)
		p.paras[n] = pa
		if !p.assemble && pa.hasText && p.aliasOf(n) == nil && p.kind != ooxml.DiagramDrawing {
			p.units = append(p.units, p.unit(pa))
		}
	}
	if !p.assemble {
		return p.tell()
	}
	if p.kind == ooxml.DiagramDrawing {
		p.shareDiagramText(order)
	}
	p.buf = p.emitNode(p.buf[:0], t)
	_, err := p.out.Write(p.buf)
	return err
}

// pairAlternate links the paragraphs of a text box's VML fallback to the
// same paragraphs of its DrawingML choice, so they are translated once and
// stay consistent.
func pairAlternate(d *dialect, alt *node) {
	var choice, fallback []*node
	for _, k := range alt.kids {
		switch {
		case k.name == d.mcChoice && choice == nil:
			choice = paragraphsIn(d, k, nil)
		case k.name == d.mcFb:
			fallback = paragraphsIn(d, k, nil)
		}
	}
	if len(choice) != len(fallback) {
		return
	}
	for i := range fallback {
		fallback[i].alias = choice[i]
	}
}

func paragraphsIn(d *dialect, n *node, out []*node) []*node {
	if n.name == d.p {
		out = append(out, n)
	}
	for _, k := range n.kids {
		out = paragraphsIn(d, k, out)
	}
	return out
}

// aliasOf is the paragraph whose unit n shares, if n is a fallback copy
// with exactly the same text and codes.
func (p *proc) aliasOf(n *node) *node {
	if n.alias == nil {
		return nil
	}
	a, b := p.paras[n.alias], p.paras[n]
	if a == nil || b == nil || a.tagged != b.tagged {
		return nil
	}
	return n.alias
}

func (p *proc) paraID(n *node) string  { return fmt.Sprintf("%s#p%d", p.part, n.pid) }
func (p *proc) descrID(n *node) string { return fmt.Sprintf("%s#d%d", p.part, n.pid) }

// unit turns a paragraph into a translation unit split into sentences.
func (p *proc) unit(pa *para) segment.Unit {
	id := p.paraID(pa.n)
	u := segment.Unit{ID: id, Part: p.part}
	for i, c := range pa.codes {
		sc := segment.Code{ID: i + 1, Kind: c.kind, Type: c.typ}
		switch {
		case c.wrap != nil:
			sc.Native = string(wrapperOpen(p.d, c.wrap))
		case c.fmt:
			sc.Native = string(writeRaw(nil, c.rpr))
		default:
			var b []byte
			for _, a := range c.items {
				b = p.rawAtom(b, a)
			}
			sc.Native = string(b)
		}
		u.Codes = append(u.Codes, sc)
	}
	for i, s := range segment.SplitSentences(pa.tagged) {
		u.Segments = append(u.Segments, segment.Segment{ID: fmt.Sprintf("%s:%d", id, i), Source: s})
	}
	return u
}

func (p *proc) rawAtom(b []byte, a atom) []byte {
	if !a.inRun {
		return writeRaw(b, a.item)
	}
	b = append(b, '<')
	b = append(b, p.d.r...)
	b = append(b, '>')
	if a.rpr != nil {
		b = writeRaw(b, a.rpr)
	}
	b = writeRaw(b, a.item)
	return append(append(append(b, "</"...), p.d.r...), '>')
}

// tell passes the units read since the last call to the extraction's
// check, which may stop the extraction (a document over a cap).
func (p *proc) tell() error {
	if p.check == nil || p.told == len(p.units) {
		return nil
	}
	from := p.told
	p.told = len(p.units)
	return p.check(p.units[from:])
}

// extractDescr makes a unit of an image's alt text.
func (p *proc) extractDescr(n *node) {
	v, ok := xmlscan.AttrValue(n.start, "descr")
	if !ok || strings.TrimSpace(v) == "" || looksLikeFileName(v) {
		return
	}
	id := p.descrID(n)
	p.units = append(p.units, segment.Unit{ID: id, Part: p.part, Segments: []segment.Segment{{ID: id + ":0", Source: tagged.Escape(v)}}})
}

// property handles a docProps/core.xml element (title, subject, description).
func (p *proc) property(t *node) error {
	id := p.part + "#" + localName(t.name)
	if !p.assemble {
		if v := textOf(t); strings.TrimSpace(v) != "" {
			p.units = append(p.units, segment.Unit{ID: id, Part: p.part, Segments: []segment.Segment{{ID: id + ":0", Source: tagged.Escape(v)}}})
		}
		return nil
	}
	b := p.buf[:0]
	if u := p.lookup[id]; u != nil && t.kind == xmlscan.Start {
		b = append(b, t.start...)
		b = xmlscan.EscapeText(b, p.plainTarget(u))
		b = append(b, t.end...)
	} else {
		b = writeRaw(b, t)
	}
	p.buf = b
	_, err := p.out.Write(b)
	return err
}

// plainTarget is a code-free unit's translation as plain text.
func (p *proc) plainTarget(u *segment.Unit) string {
	var sb strings.Builder
	for _, s := range u.Segments {
		t := s.Target
		if t == "" {
			t = s.Source
			p.stats.untranslated++
		}
		sb.WriteString(tagged.Plain(t))
	}
	return sb.String()
}

// looksLikeFileName spots alt texts that are only a picture's file name or
// path, which Word fills in by default and which are not prose.
func looksLikeFileName(v string) bool {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, "\\/") && !strings.Contains(v, " ") {
		return true
	}
	if strings.Contains(v, ":\\") {
		return true
	}
	ext := path.Ext(v)
	return !strings.Contains(v, " ") && len(ext) >= 3 && len(ext) <= 5
}

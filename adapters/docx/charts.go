package docx

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Chart text outside DrawingML paragraphs: series names and category
// labels live in string caches (c:strCache, c:multiLvlStrCache) under
// c:tx and c:cat, and data labels showing them read the same caches. Word
// and LibreOffice draw the cached strings, so they are translated; a
// label that repeats (a category shared by every series) is one unit, so
// it reads the same everywhere. Titles, axis titles and rich data labels
// are a:p paragraphs and go through the paragraph path. Numbers stay as
// they are, and the embedded workbook keeps the source strings (Word
// shows the translation until the data is edited).

const (
	nsC       = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsCStrict = "http://purl.oclc.org/ooxml/drawingml/chart"
)

// chartCaches are the string cache elements of a chart part.
func chartCaches(c string) map[string]bool {
	return map[string]bool{q(c, "strCache"): true, q(c, "multiLvlStrCache"): true}
}

// cache extracts or rewrites the c:v values of one string cache.
func (p *proc) cache(t *node) error {
	if p.cacheID == nil {
		p.cacheID = map[string]string{}
	}
	var vals []*node
	var find func(n *node)
	find = func(n *node) {
		if localName(n.name) == "v" && n.kind == xmlscan.Start {
			vals = append(vals, n)
			return
		}
		for _, k := range n.kids {
			find(k)
		}
	}
	find(t)
	ids := map[*node]string{}
	for _, v := range vals {
		text := textOf(v)
		if !hasLetter(text) {
			continue
		}
		id, seen := p.cacheID[text]
		if !seen {
			id = fmt.Sprintf("%s#c%d", p.part, len(p.cacheID))
			p.cacheID[text] = id
			if !p.assemble {
				p.units = append(p.units, segment.Unit{ID: id, Part: p.part, Segments: []segment.Segment{{ID: id + ":0", Source: tagged.Escape(text)}}})
			}
		}
		ids[v] = id
	}
	if !p.assemble {
		return nil
	}
	var emit func(b []byte, n *node) []byte
	emit = func(b []byte, n *node) []byte {
		if id, ok := ids[n]; ok {
			if u := p.lookup[id]; u != nil {
				b = append(b, n.start...)
				b = xmlscan.EscapeText(b, p.plainTarget(u))
				return append(b, n.end...)
			}
		}
		b = append(b, n.start...)
		for _, k := range n.kids {
			b = emit(b, k)
		}
		return append(b, n.end...)
	}
	p.buf = emit(p.buf[:0], t)
	_, err := p.out.Write(p.buf)
	return err
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

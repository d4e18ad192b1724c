package docx

import (
	"fmt"
	"strings"
	"unicode"

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

// isCache: n is a string cache of a chart.
func isCache(n *node) bool {
	return n.Is("strCache", nsC, nsCStrict) || n.Is("multiLvlStrCache", nsC, nsCStrict)
}

// cache extracts or rewrites the c:v values of one string cache.
func (p *proc) cache(t *node) {
	if p.cacheID == nil {
		p.cacheID = map[string]string{}
	}
	var vals []*node
	var find func(n *node)
	find = func(n *node) {
		if n.Local == "v" && len(n.Children) > 0 {
			vals = append(vals, n)
			return
		}
		for _, k := range n.Children {
			find(k)
		}
	}
	find(t)
	for _, v := range vals {
		text := v.TextOf()
		if !hasLetter(text) {
			continue
		}
		id, seen := p.cacheID[text]
		if !seen {
			id = fmt.Sprintf("%s#c%d", p.part, len(p.cacheID))
			p.cacheID[text] = id
			if p.r == nil {
				p.units = append(p.units, segment.Unit{ID: id, Part: p.part, Where: storyOf(p.part), Segments: []segment.Segment{{ID: id + ":0", Source: tagged.Escape(text)}}})
			}
		}
		if p.r != nil {
			if u := p.r.unit(id); u != nil {
				v.SetText(p.plainTarget(u))
			}
		}
	}
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

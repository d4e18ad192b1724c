package docx

import (
	"strings"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// SmartArt keeps its text twice: the diagram data (diagrams/data*.xml),
// which is extracted and translated, and the cached drawing
// (diagrams/drawing*.xml), which Word and LibreOffice display. The
// drawing's paragraphs make no units of their own: each takes the
// translation of the data paragraph with the same tagged source, so both
// say the same thing from one engine call. A drawing paragraph without a
// twin in the data keeps its text.

// shareDiagramText points the drawing paragraphs of one tree at the data
// units with the same source.
func (p *proc) shareDiagramText(order []*node) {
	if p.diagram == nil {
		p.diagram = map[string]*segment.Unit{}
		for _, u := range p.lookup {
			if !strings.Contains(u.Part, "diagrams/data") {
				continue
			}
			var src strings.Builder
			for _, s := range u.Segments {
				src.WriteString(s.Source)
			}
			if have := p.diagram[src.String()]; have == nil || u.ID < have.ID {
				p.diagram[src.String()] = u
			}
		}
	}
	for _, n := range order {
		if pa := p.paras[n]; pa != nil && pa.hasText {
			if u := p.diagram[pa.tagged]; u != nil {
				p.lookup[p.paraID(n)] = u
			}
		}
	}
}

package bilingual

import "github.com/dragoman-translate/dragoman/adapters/ooxml"

// styleSheet is what a paragraph inherits from its document's styles: the
// paragraph properties of its style (the default paragraph style when it
// names none, or one the document lacks), of the styles that one is based
// on (w:basedOn), then of the document defaults.
type styleSheet struct {
	byID     map[string]*ooxml.Node // paragraph styles
	defStyle string
	defaults *ooxml.Node // docDefaults' w:pPr, nil when none
}

// loadStyles reads p's styles part (none: nothing is inherited).
func loadStyles(p *ooxml.Package) (*styleSheet, error) {
	s := &styleSheet{byID: map[string]*ooxml.Node{}}
	name := partNamed(p, "styles")
	if name == "" {
		return s, nil
	}
	doc, err := parsePart(p, name)
	if err != nil {
		return nil, err
	}
	root := doc.RootElem()
	s.defaults = root.Child("docDefaults").Child("pPrDefault").Child("pPr")
	for _, st := range root.ChildrenW("style") {
		if st.AttrOr("type", "paragraph") != "paragraph" {
			continue
		}
		id := st.AttrOr("styleId", "")
		s.byID[id] = st
		if v := st.AttrOr("default", ""); v == "1" || v == "true" || v == "on" {
			s.defStyle = id
		}
	}
	return s, nil
}

// inherited lists the w:pPr paragraph p inherits, nearest first: its
// style's, those of the styles it is based on, the document defaults'.
func (s *styleSheet) inherited(p *ooxml.Node) []*ooxml.Node {
	id := p.Child("pPr").Child("pStyle").AttrOr("val", "")
	if s.byID[id] == nil {
		id = s.defStyle
	}
	var out []*ooxml.Node
	seen := map[string]bool{}
	for st := s.byID[id]; st != nil && !seen[id]; st = s.byID[id] {
		seen[id] = true
		if ppr := st.Child("pPr"); ppr != nil {
			out = append(out, ppr)
		}
		id = st.Child("basedOn").AttrOr("val", "")
	}
	if s.defaults != nil {
		out = append(out, s.defaults)
	}
	return out
}

// rtl is paragraph p's direction: its own w:bidi, else the nearest one
// it inherits.
func (s *styleSheet) rtl(p *ooxml.Node) bool {
	if b := flag(p.Child("pPr")); b != nil {
		return *b
	}
	for _, ppr := range s.inherited(p) {
		if b := flag(ppr); b != nil {
			return *b
		}
	}
	return false
}

func flag(ppr *ooxml.Node) *bool {
	if ppr == nil || ppr.Child("bidi") == nil {
		return nil
	}
	on := ooxml.On(ppr.Child("bidi"))
	return &on
}

// pPrSequence is the schema's order of a w:pPr's children.
var pPrSequence = []string{"pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr",
	"suppressLineNumbers", "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap", "overflowPunct",
	"topLinePunct", "autoSpaceDE", "autoSpaceDN", "bidi"}

// pPrAt is where a new w:pPr child local goes: after the properties the
// schema puts before it.
func pPrAt(ppr *ooxml.Node, local string) int {
	before := map[string]bool{}
	for _, k := range pPrSequence {
		if k == local {
			break
		}
		before[k] = true
	}
	at := 0
	for i, c := range ppr.Children {
		if c.Kind == ooxml.ElemNode && before[c.Local] {
			at = i + 1
		}
	}
	return at
}

// pPrOf is p's w:pPr, made (first, as the schema wants) when it has none.
func pPrOf(p *ooxml.Node) *ooxml.Node {
	if ppr := p.Child("pPr"); ppr != nil {
		return ppr
	}
	ppr := w(p, "pPr")
	p.InsertAt(0, ppr)
	return ppr
}

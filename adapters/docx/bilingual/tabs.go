package bilingual

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// fitTabs brings the tab stops of the paragraphs in n into room twips
// when the farthest lies beyond it: stops set for the page (a table of
// contents' right tab with its dot leader at the page's text width, a
// header style's right tab) push the text after them past the cell, off
// the page in a right-to-left column.
//
// A paragraph's stops are its style chain's merged with its own, as Word
// and LibreOffice merge them: each level adds its stops to those it
// inherits and removes those it clears (w:val="clear" at their position).
// The styles are the document's, shared with what stays full width
// (headers, footers, the translation-only parts), so the fitted stops are
// written on the paragraph: every stop it has, scaled, and a clear for
// each inherited one that would otherwise still apply.
func fitTabs(n *ooxml.Node, room int, styles *styleSheet) {
	if room <= 0 {
		return
	}
	ps := n.FindAllW("p") // a table's, a text box's
	if n.IsW("p") {
		ps = append(ps, n)
	}
	for _, p := range ps {
		fitParagraphTabs(p, room, styles)
	}
}

func fitParagraphTabs(p *ooxml.Node, room int, styles *styleSheet) {
	chain := styles.inherited(p)
	inherited := map[int]*ooxml.Node{}
	for i := len(chain) - 1; i >= 0; i-- {
		mergeTabs(inherited, chain[i].Child("tabs"))
	}
	stops := map[int]*ooxml.Node{}
	for pos, tab := range inherited {
		stops[pos] = tab
	}
	own := p.Child("pPr").Child("tabs")
	mergeTabs(stops, own)
	far := math.MinInt
	for pos := range stops {
		far = max(far, pos)
	}
	if far <= room {
		return
	}
	f := float64(room) / float64(far)
	fitted := map[int]*ooxml.Node{}
	for pos, tab := range stops {
		at := int(float64(pos) * f)
		kv := []string{"val", tab.AttrOr("val", "left")}
		if l, ok := tab.Attr("leader"); ok {
			kv = append(kv, "leader", l)
		}
		fitted[at] = w(p, "tab")
		fitted[at].Attrs = wAttrs(p, append(kv, "pos", strconv.Itoa(at))...)
	}
	for pos := range inherited {
		if fitted[pos] == nil {
			fitted[pos] = w(p, "tab")
			fitted[pos].Attrs = wAttrs(p, "val", "clear", "pos", strconv.Itoa(pos))
		}
	}
	if own == nil {
		ppr := pPrOf(p)
		own = w(p, "tabs")
		ppr.InsertAt(pPrAt(ppr, "tabs"), own)
	}
	own.Children = nil
	positions := make([]int, 0, len(fitted))
	for pos := range fitted {
		positions = append(positions, pos)
	}
	slices.Sort(positions)
	for _, pos := range positions {
		appendAll(own, fitted[pos])
	}
}

// mergeTabs applies a w:tabs to the stops inherited (by position).
func mergeTabs(stops map[int]*ooxml.Node, tabs *ooxml.Node) {
	for _, tab := range tabs.ChildrenW("tab") {
		pos, ok := twips(tab.AttrOr("pos", ""))
		if !ok {
			continue
		}
		if tab.AttrOr("val", "") == "clear" {
			delete(stops, pos)
		} else {
			stops[pos] = tab
		}
	}
}

// twips reads a signed measure: twips, or a number with a unit (Strict
// documents write "468pt").
func twips(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	for unit, k := range map[string]float64{"pt": 20, "pc": 240, "pi": 240, "in": 1440, "cm": 1440 / 2.54, "mm": 1440 / 25.4} {
		if v, ok := strings.CutSuffix(s, unit); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				return int(math.Round(f * k)), true
			}
		}
	}
	return 0, false
}

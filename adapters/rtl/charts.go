package rtl

import (
	"encoding/xml"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// layoutChart mirrors what a chart can mirror when the direction flips
// (brief §4 list A, "Charts"): a horizontal axis runs the other way
// (c:orientation minMax ⇄ maxMin: the categories of a column chart, the
// values of a bar chart), a vertical axis changes side (c:axPos l ⇄ r;
// LibreOffice moves the axis because the reversed categories make it
// cross at the last one, but draws a value-axis title on the left whatever
// axPos says, and honours a manual title position only in edge mode,
// without making room for it: measured, left alone), and a legend on the
// left or right changes side. Text inside the chart keeps its own
// direction, data tables and 3-D views are not mirrored: the report says
// so (kindChart).
func layoutChart(root *node) {
	root.RootElem().Walk(func(n *node) bool {
		switch {
		case n.Is("catAx", nsChart, nsChartStrict) || n.Is("dateAx", nsChart, nsChartStrict) || n.Is("valAx", nsChart, nsChartStrict):
			mirrorAxis(n)
		case n.Is("legendPos", nsChart, nsChartStrict):
			if v := n.AttrOr("val", "r"); v == "l" || v == "r" {
				n.SetAttr("val", map[string]string{"l": "r", "r": "l"}[v])
			}
		}
		return true
	})
}

// mirrorAxis reverses a horizontal axis and moves a vertical one.
func mirrorAxis(ax *node) {
	for _, c := range ax.Children {
		if c.Is("axPos", ax.NS) {
			switch c.AttrOr("val", "") {
			case "l":
				c.SetAttr("val", "r")
			case "r":
				c.SetAttr("val", "l")
			case "b", "t":
				flipOrientation(ax)
			}
			return
		}
	}
}

// flipOrientation reverses an axis (c:scaling/c:orientation, default minMax).
func flipOrientation(ax *node) {
	for _, sc := range ax.Children {
		if !sc.Is("scaling", ax.NS) {
			continue
		}
		for _, o := range sc.Children {
			if o.Is("orientation", ax.NS) {
				if o.AttrOr("val", "minMax") == "maxMin" {
					o.SetAttr("val", "minMax")
				} else {
					o.SetAttr("val", "maxMin")
				}
				return
			}
		}
		// schema order: logBase?, orientation?, max?, min?
		at := 0
		for i, c := range sc.Children {
			if c.Is("logBase", ax.NS) {
				at = i + 1
			}
		}
		o := &node{Kind: ooxml.ElemNode, Prefix: ax.Prefix, Local: "orientation", NS: ax.NS,
			Attrs: []xml.Attr{{Name: xml.Name{Local: "val"}, Value: "maxMin"}}}
		sc.InsertAt(at, o)
		return
	}
}

// LibreOffice draws an inline chart in a right-to-left paragraph mirrored,
// its text reversed ("tnioPrewoP", "006" for 600, measured on the corpus);
// Word draws a chart's text by the chart's own properties (c:txPr,
// a:pPr/@rtl), whatever the paragraph's direction, and a floating chart
// is drawn right in both. A paragraph holding inline charts and no text
// has no direction of its own to keep: it stays left to right (brief row
// 1: w:bidi w:val="0"), and its alignment is written physically, the side
// the right-to-left paragraph would have put it on (start: right), so the
// chart sits where the mirrored page wants it in Word and LibreOffice.

// inlineChart reports whether paragraph p holds an inline chart.
func inlineChart(p *node) bool {
	found := false
	p.Walk(func(n *node) bool {
		if n.Is("inline", nsWP, nsWPStrict) {
			n.Walk(func(c *node) bool {
				found = found || c.Is("chart", nsChart, nsChartStrict)
				return !found
			})
		}
		return !found
	})
	return found
}

// alignChart writes a left-to-right chart paragraph's alignment and
// indents physically: the right-to-left start (jc none, left, start, or
// justified) is the right, its end the left.
func (ps *pass) alignChart(p *node) {
	ppr := ensureFirst(p, "pPr")
	side := "right"
	switch ps.styles.paraProp(p, "jc").AttrOr("val", "") {
	case "right", "end":
		side = "left"
	case "center":
		side = "center"
	}
	jc := ensure(ppr, "jc", pPrOrder)
	jc.Attrs = nil
	jc.SetAttr("val", side)
	if ind := ppr.Child("ind"); ind != nil {
		for _, pair := range [][2]string{{"left", "right"}, {"start", "end"}} {
			l, okL := ind.Attr(pair[0])
			r, okR := ind.Attr(pair[1])
			ind.DelAttr(pair[0])
			ind.DelAttr(pair[1])
			if okR {
				ind.SetAttr(pair[0], r)
			}
			if okL {
				ind.SetAttr(pair[1], l)
			}
		}
	}
}

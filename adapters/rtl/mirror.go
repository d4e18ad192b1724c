package rtl

import (
	"fmt"
	"strconv"
	"strings"
)

// Physical positions are named by page side, so a direction change has
// to mirror them explicitly (brief rows 9, 10, 25, 28, 34, 35). Logical
// values (jc, ind, tabs, tblInd, table borders, cell margins) are left
// alone: toggling the direction already mirrors them.

// pageGeom is the page of a section, in twips (sections.go).
type pageGeom struct {
	width, left, right int
}

func (g pageGeom) text() int { return g.width - g.left - g.right }

var defaultGeom = pageGeom{width: 12240, left: 1440, right: 1440}

var borderOrder = seq("top left start bottom right end between bar insideH insideV tl2br tr2bl")

// swapSides exchanges a container's left and right children when they
// differ (an asymmetric border), keeping schema order.
func swapSides(c *node) {
	if c == nil {
		return
	}
	for _, pair := range [][2]string{{"left", "right"}, {"start", "end"}} {
		l, r := c.Child(pair[0]), c.Child(pair[1])
		switch {
		case l != nil && r != nil:
			l.Attrs, r.Attrs = r.Attrs, l.Attrs
		case l != nil:
			c.Remove(l)
			l.Local = pair[1]
			insertOrdered(c, l, borderOrder)
		case r != nil:
			c.Remove(r)
			r.Local = pair[0]
			insertOrdered(c, r, borderOrder)
		}
	}
}

// physicalPPr mirrors a paragraph's physical properties: asymmetric
// borders (LibreOffice draws them physically) and frame positions.
func (ps *pass) physicalPPr(ppr *node) {
	if b := ppr.Child("pBdr"); b != nil && asymmetric(b) {
		swapSides(b)
	}
	f := ppr.Child("framePr")
	if f == nil {
		return
	}
	if a, ok := f.Attr("xAlign"); ok {
		f.SetAttr("xAlign", swapLR(a))
		return
	}
	x, errX := strconv.Atoi(f.AttrOr("x", ""))
	w, errW := strconv.Atoi(f.AttrOr("w", ""))
	if errX == nil && errW == nil {
		base := ps.geom.text()
		if f.AttrOr("hAnchor", "text") == "page" {
			base = ps.geom.width
		}
		f.SetAttr("x", strconv.Itoa(base-x-w))
	}
}

// asymmetric reports whether a border/margin container's left and right
// sides differ.
func asymmetric(c *node) bool {
	l, r := c.Child("left"), c.Child("right")
	if l == nil {
		l = c.Child("start")
	}
	if r == nil {
		r = c.Child("end")
	}
	return attrsKey(l) != attrsKey(r)
}

func attrsKey(n *node) string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, a := range n.Attrs {
		parts = append(parts, a.Name.Local+"="+a.Value)
	}
	return strings.Join(parts, ";")
}

func swapLR(v string) string {
	switch v {
	case "left":
		return "right"
	case "right":
		return "left"
	case "leftMargin":
		return "rightMargin"
	case "rightMargin":
		return "leftMargin"
	}
	return v
}

// mirrorDrawing mirrors DrawingML anchors and VML shape positions.
func (ps *pass) mirrorDrawing(n *node) {
	switch {
	case n.Is("anchor", nsWP, nsWPStrict):
		ps.mirrorAnchor(n)
	case n.NS == nsV:
		if st, ok := n.Attr("style"); ok {
			n.SetAttr("style", ps.mirrorVMLStyle(st))
		}
	case n.Is("oMathParaPr", nsMath, nsMathStrict):
		mirrorMathJc(mathChild(n, "jc"))
	}
}

// mirrorMathJc swaps a display equation's justification (m:oMathParaPr's
// m:jc, or settings' m:defJc): unlike w:jc it is physical, so a
// left-aligned equation stayed at the left of a right-to-left page
// (brief row 40).
func mirrorMathJc(jc *node) {
	if jc == nil {
		return
	}
	if v, ok := jc.Attr("val"); ok {
		jc.SetAttr("val", swapLR(v))
	}
}

// mathChild is n's first Office Math child named local.
func mathChild(n *node, local string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Is(local, nsMath, nsMathStrict) {
			return c
		}
	}
	return nil
}

func (ps *pass) mirrorAnchor(a *node) {
	var cx int64
	for _, c := range a.Children {
		if c.Is("extent", nsWP, nsWPStrict) {
			cx, _ = strconv.ParseInt(c.AttrOr("cx", "0"), 10, 64)
		}
		if c.Is("wrapSquare", nsWP, nsWPStrict) || c.Is("wrapTight", nsWP, nsWPStrict) || c.Is("wrapThrough", nsWP, nsWPStrict) {
			if v, ok := c.Attr("wrapText"); ok {
				c.SetAttr("wrapText", swapLR(v))
			}
		}
	}
	for _, h := range positionsH(a) {
		rel := h.AttrOr("relativeFrom", "column")
		base, ok := ps.baseEMU(rel)
		for _, c := range h.Children {
			switch {
			case c.Is("align", nsWP, nsWPStrict):
				c.SetText(swapLR(strings.TrimSpace(c.TextOf())))
			case c.Is("posOffset", nsWP, nsWPStrict):
				off, err := strconv.ParseInt(strings.TrimSpace(c.TextOf()), 10, 64)
				if err != nil || !ok {
					continue
				}
				mirrored := base - off - cx
				// An object flush with an edge keeps to it by alignment:
				// LibreOffice measures posOffset from the right in an RTL
				// paragraph, Word from the left, but both read wp:align
				// physically (brief row 34, surprise 8).
				if edge := edgeAlign(rel, off, mirrored); edge != "" {
					c.Local = "align"
					c.SetText(edge)
					continue
				}
				c.SetText(strconv.FormatInt(mirrored, 10))
			case c.Local == "pctPosHOffset" && c.NS == nsWP14 && ok && base > 0:
				// thousandths of a percent of the base width
				pct, err := strconv.ParseInt(strings.TrimSpace(c.TextOf()), 10, 64)
				if err == nil {
					c.SetText(strconv.FormatInt(100000-pct-cx*100000/base, 10))
				}
			}
		}
		h.SetAttr("relativeFrom", swapLR(rel))
	}
}

const nsWP14 = "http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing"

// positionsH are an anchor's horizontal positions, those inside
// mc:AlternateContent (a wp14 percentage and its fallback) included.
func positionsH(a *node) []*node {
	var out []*node
	for _, c := range a.Children {
		switch {
		case c.Is("positionH", nsWP, nsWPStrict):
			out = append(out, c)
		case c.Is("AlternateContent", nsMC):
			for _, b := range c.Children {
				for _, h := range b.Children {
					if h.Is("positionH", nsWP, nsWPStrict) {
						out = append(out, h)
					}
				}
			}
		}
	}
	return out
}

// edgeAlign is the alignment that keeps an object flush with the edge of
// its base after mirroring ("" if it touches neither edge).
func edgeAlign(rel string, off, mirrored int64) string {
	switch rel {
	case "page", "margin", "column":
	default:
		return ""
	}
	const slack = 635 * 10 // half a point
	switch {
	case abs64(mirrored) <= slack:
		return "left"
	case abs64(off) <= slack:
		return "right"
	}
	return ""
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// baseEMU is the width of a horizontal positioning base in EMU.
func (ps *pass) baseEMU(rel string) (int64, bool) {
	const emuPerTwip = 635
	g := ps.geom
	switch rel {
	case "page":
		return int64(g.width) * emuPerTwip, true
	case "margin", "column":
		return int64(g.text()) * emuPerTwip, true
	case "leftMargin":
		return int64(g.left) * emuPerTwip, true
	case "rightMargin":
		return int64(g.right) * emuPerTwip, true
	}
	return 0, false
}

// mirrorVMLStyle swaps mso-position-horizontal and mirrors margin-left of
// an absolutely positioned VML shape.
func (ps *pass) mirrorVMLStyle(style string) string {
	decls := strings.Split(style, ";")
	kv := map[string]int{}
	for i, d := range decls {
		if k, _, ok := strings.Cut(d, ":"); ok {
			kv[strings.TrimSpace(k)] = i
		}
	}
	get := func(k string) string {
		if i, ok := kv[k]; ok {
			_, v, _ := strings.Cut(decls[i], ":")
			return strings.TrimSpace(v)
		}
		return ""
	}
	set := func(k, v string) { decls[kv[k]] = k + ":" + v }
	if h := get("mso-position-horizontal"); h != "" {
		set("mso-position-horizontal", swapLR(h))
	} else if get("position") == "absolute" {
		ml, okM := cssPt(get("margin-left"))
		w, okW := cssPt(get("width"))
		if okM && okW {
			base := float64(ps.geom.text()) / 20
			switch get("mso-position-horizontal-relative") {
			case "page":
				base = float64(ps.geom.width) / 20
			case "char":
				return style
			}
			set("margin-left", fmt.Sprintf("%.2fpt", base-ml-w))
		}
	}
	if r := get("mso-position-horizontal-relative"); r == "left-margin-area" || r == "right-margin-area" {
		set("mso-position-horizontal-relative", map[string]string{"left-margin-area": "right-margin-area", "right-margin-area": "left-margin-area"}[r])
	}
	return strings.Join(decls, ";")
}

// cssPt parses a VML length into points.
func cssPt(v string) (float64, bool) {
	units := map[string]float64{"pt": 1, "in": 72, "cm": 72 / 2.54, "mm": 72 / 25.4, "px": 0.75, "pc": 12}
	for u, f := range units {
		if strings.HasSuffix(v, u) {
			x, err := strconv.ParseFloat(strings.TrimSuffix(v, u), 64)
			return x * f, err == nil
		}
	}
	x, err := strconv.ParseFloat(v, 64)
	return x * 0.75, err == nil && v != ""
}

// mirrorFloatingTable mirrors the horizontal position of a floating table
// of grid width width.
func (ps *pass) mirrorFloatingTable(tblPr *node, width int) {
	f := tblPr.Child("tblpPr")
	if f == nil {
		return
	}
	if v, ok := f.Attr("tblpXSpec"); ok {
		f.SetAttr("tblpXSpec", swapLR(v))
		return
	}
	x, err := strconv.Atoi(f.AttrOr("tblpX", ""))
	if err != nil {
		return
	}
	base := ps.geom.text()
	if f.AttrOr("horzAnchor", "text") == "page" {
		base = ps.geom.width
	}
	f.SetAttr("tblpX", strconv.Itoa(base-x-width))
}

// mirrorSection swaps unequal page margins and asymmetric page borders.
func (ps *pass) mirrorSection(s *node) {
	if m := s.Child("pgMar"); m != nil {
		l, okL := m.Attr("left")
		r, okR := m.Attr("right")
		if okL && okR && l != r {
			m.SetAttr("left", r)
			m.SetAttr("right", l)
		}
	}
	if b := s.Child("pgBorders"); b != nil && asymmetric(b) {
		swapSides(b)
	}
}

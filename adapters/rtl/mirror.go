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

// pageGeom is the page of the body's last section, in twips.
type pageGeom struct {
	width, left, right int
}

func (g pageGeom) text() int { return g.width - g.left - g.right }

func geomOf(body *node) pageGeom {
	g := pageGeom{width: 12240, left: 1440, right: 1440}
	var last *node
	if body != nil {
		body.walk(func(n *node) bool {
			if n.isW("sectPr") {
				last = n
			}
			return true
		})
	}
	if last == nil {
		return g
	}
	if v, err := strconv.Atoi(last.child("pgSz").attrOr("w", "")); err == nil {
		g.width = v
	}
	if v, err := strconv.Atoi(last.child("pgMar").attrOr("left", "")); err == nil {
		g.left = v
	}
	if v, err := strconv.Atoi(last.child("pgMar").attrOr("right", "")); err == nil {
		g.right = v
	}
	return g
}

var borderOrder = seq("top left start bottom right end between bar insideH insideV tl2br tr2bl")

// swapSides exchanges a container's left and right children when they
// differ (an asymmetric border), keeping schema order.
func swapSides(c *node) {
	if c == nil {
		return
	}
	for _, pair := range [][2]string{{"left", "right"}, {"start", "end"}} {
		l, r := c.child(pair[0]), c.child(pair[1])
		switch {
		case l != nil && r != nil:
			l.attrs, r.attrs = r.attrs, l.attrs
		case l != nil:
			c.remove(l)
			l.local = pair[1]
			insertOrdered(c, l, borderOrder)
		case r != nil:
			c.remove(r)
			r.local = pair[0]
			insertOrdered(c, r, borderOrder)
		}
	}
}

// physicalPPr mirrors a paragraph's physical properties: asymmetric
// borders (LibreOffice draws them physically) and frame positions.
func (ps *pass) physicalPPr(ppr *node) {
	if b := ppr.child("pBdr"); b != nil && asymmetric(b) {
		swapSides(b)
	}
	f := ppr.child("framePr")
	if f == nil {
		return
	}
	if a, ok := f.attr("xAlign"); ok {
		f.setAttr("xAlign", swapLR(a))
		return
	}
	x, errX := strconv.Atoi(f.attrOr("x", ""))
	w, errW := strconv.Atoi(f.attrOr("w", ""))
	if errX == nil && errW == nil {
		base := ps.geom.text()
		if f.attrOr("hAnchor", "text") == "page" {
			base = ps.geom.width
		}
		f.setAttr("x", strconv.Itoa(base-x-w))
	}
}

// asymmetric reports whether a border/margin container's left and right
// sides differ.
func asymmetric(c *node) bool {
	l, r := c.child("left"), c.child("right")
	if l == nil {
		l = c.child("start")
	}
	if r == nil {
		r = c.child("end")
	}
	return attrsKey(l) != attrsKey(r)
}

func attrsKey(n *node) string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, a := range n.attrs {
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
	case n.is("anchor", nsWP, nsWPStrict):
		ps.mirrorAnchor(n)
	case n.ns == nsV:
		if st, ok := n.attr("style"); ok {
			n.setAttr("style", ps.mirrorVMLStyle(st))
		}
	}
}

func (ps *pass) mirrorAnchor(a *node) {
	var cx int64
	for _, c := range a.children {
		if c.is("extent", nsWP, nsWPStrict) {
			cx, _ = strconv.ParseInt(c.attrOr("cx", "0"), 10, 64)
		}
		if c.is("wrapSquare", nsWP, nsWPStrict) || c.is("wrapTight", nsWP, nsWPStrict) || c.is("wrapThrough", nsWP, nsWPStrict) {
			if v, ok := c.attr("wrapText"); ok {
				c.setAttr("wrapText", swapLR(v))
			}
		}
	}
	for _, h := range a.children {
		if !h.is("positionH", nsWP, nsWPStrict) {
			continue
		}
		rel := h.attrOr("relativeFrom", "column")
		for _, c := range h.children {
			switch {
			case c.is("align", nsWP, nsWPStrict):
				c.setText(swapLR(strings.TrimSpace(c.textOf())))
			case c.is("posOffset", nsWP, nsWPStrict):
				off, err := strconv.ParseInt(strings.TrimSpace(c.textOf()), 10, 64)
				base, ok := ps.baseEMU(rel)
				if err == nil && ok {
					c.setText(strconv.FormatInt(base-off-cx, 10))
				}
			}
		}
		h.setAttr("relativeFrom", swapLR(rel))
	}
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

// mirrorFloatingTable mirrors a floating table's horizontal position.
func (ps *pass) mirrorFloatingTable(t, tblPr *node) {
	f := tblPr.child("tblpPr")
	if f == nil {
		return
	}
	if v, ok := f.attr("tblpXSpec"); ok {
		f.setAttr("tblpXSpec", swapLR(v))
		return
	}
	x, err := strconv.Atoi(f.attrOr("tblpX", ""))
	if err != nil {
		return
	}
	width := 0
	for _, gc := range t.child("tblGrid").childrenW("gridCol") {
		v, _ := strconv.Atoi(gc.attrOr("w", "0"))
		width += v
	}
	base := ps.geom.text()
	if f.attrOr("horzAnchor", "text") == "page" {
		base = ps.geom.width
	}
	f.setAttr("tblpX", strconv.Itoa(base-x-width))
}

// mirrorSection swaps unequal page margins and asymmetric page borders.
func (ps *pass) mirrorSection(s *node) {
	if m := s.child("pgMar"); m != nil {
		l, okL := m.attr("left")
		r, okR := m.attr("right")
		if okL && okR && l != r {
			m.setAttr("left", r)
			m.setAttr("right", l)
		}
	}
	if b := s.child("pgBorders"); b != nil && asymmetric(b) {
		swapSides(b)
	}
}

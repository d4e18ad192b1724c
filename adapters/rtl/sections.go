package rtl

import (
	"encoding/xml"
	"path"
	"strconv"
	"strings"
)

// A floating object, frame or table is mirrored against the page of its
// own section (issue 22 §5): a document whose sections differ in size or
// orientation (a landscape appendix) puts a corner picture of a portrait
// page mid-page when mirrored against the landscape one. The main part's
// sections are read by the first pass (pkg.direction); the layout then
// follows them as it goes (sectionCursor). A section's properties end it:
// those in a paragraph's w:pPr close the section that paragraph ends, the
// body's last w:sectPr the last one. A header or footer belongs to the
// first section that refers to it; notes and comments, drawn where they
// are referred to, keep the last section's page, as before.

// sections are the main part's sections in document order.
type sections struct {
	geoms []pageGeom     // one per w:sectPr, the body's last one last
	parts map[string]int // header or footer part → the first section referring to it
}

// sectGeom is the page of one w:sectPr, in twips.
func sectGeom(sp *node) pageGeom {
	g := defaultGeom
	if v, err := strconv.Atoi(sp.Child("pgSz").AttrOr("w", "")); err == nil {
		g.width = v
	}
	if v, err := strconv.Atoi(sp.Child("pgMar").AttrOr("left", "")); err == nil {
		g.left = v
	}
	if v, err := strconv.Atoi(sp.Child("pgMar").AttrOr("right", "")); err == nil {
		g.right = v
	}
	return g
}

// add records the sections whose properties n holds, and the header and
// footer relationship ids each refers to (resolved later: resolveParts).
func (s *sections) add(n *node, refs map[string]int) {
	n.Walk(func(n *node) bool {
		if n.IsW("sectPrChange") { // the section before a tracked change
			return false
		}
		if n.IsW("sectPr") {
			for _, c := range n.Children {
				if c.IsW("headerReference") || c.IsW("footerReference") {
					if id := relID(c); id != "" {
						if _, seen := refs[id]; !seen {
							refs[id] = len(s.geoms)
						}
					}
				}
			}
			s.geoms = append(s.geoms, sectGeom(n))
		}
		return true
	})
}

// relID is a header or footer reference's r:id, its one attribute named
// id (the tree keeps prefixes, not namespaces).
func relID(n *node) string { return n.AttrOr("id", "") }

// last is the body's last section's page (defaultGeom if none).
func (s *sections) last() pageGeom {
	if len(s.geoms) == 0 {
		return defaultGeom
	}
	return s.geoms[len(s.geoms)-1]
}

// of is the page of section sect of the main part, or, for another part
// (sect < 0), of the first section referring to it (the last one's when
// none does).
func (s *sections) of(part string, sect int, mainPart string) pageGeom {
	if sect < 0 || part != "" && part != mainPart {
		sect = len(s.geoms) - 1
		if i, ok := s.parts[part]; ok {
			sect = i
		}
	}
	if sect < 0 || sect >= len(s.geoms) {
		return s.last()
	}
	return s.geoms[sect]
}

// resolveParts maps the header and footer relationship ids to part names
// through the main part's relationships.
func (s *sections) resolveParts(pk *pkg, refs map[string]int) error {
	s.parts = map[string]int{}
	if len(refs) == 0 {
		return nil
	}
	dir, base := path.Split(pk.mainDoc)
	data, err := pk.ReadPart(dir + "_rels/" + base + ".rels")
	if err != nil || data == nil {
		return err
	}
	var rels struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
			Mode   string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if err := xml.Unmarshal(data, &rels); err != nil {
		return nil // a broken relationships part: the last section's page for every part, as before
	}
	for _, r := range rels.Rel {
		idx, ok := refs[r.ID]
		if !ok || r.Mode == "External" {
			continue
		}
		name := path.Clean(path.Join(dir, r.Target))
		if strings.HasPrefix(r.Target, "/") {
			name = strings.TrimPrefix(path.Clean(r.Target), "/")
		}
		if _, seen := s.parts[name]; !seen {
			s.parts[name] = idx
		}
	}
	return nil
}

// sectionCursor follows the section of what the layout visits, in
// document order, and keeps the pass's page (pass.geom) on it.
type sectionCursor struct {
	s     *sections
	idx   int
	main  bool  // the main part: sections advance as their ends go by
	after *node // a paragraph that ends a section: the next begins after it
}

// start positions the cursor at the beginning of part name.
func (c *sectionCursor) start(name string, main bool) pageGeom {
	c.main, c.after, c.idx = main, nil, 0
	if !main {
		c.idx = len(c.s.geoms) - 1
		if i, ok := c.s.parts[name]; ok {
			c.idx = i
		}
	}
	return c.geom()
}

func (c *sectionCursor) geom() pageGeom {
	if c.idx < 0 || c.idx >= len(c.s.geoms) {
		return c.s.last()
	}
	return c.s.geoms[c.idx]
}

// visit notes node n, visited in document order (Walk), and reports the
// page n lies on: the section advances once the paragraph that ended the
// previous one is behind.
func (c *sectionCursor) visit(n *node) pageGeom {
	if !c.main {
		return c.geom()
	}
	if c.after != nil && !ancestor(c.after, n) && n != c.after {
		c.advance()
	}
	if n.IsW("p") && n.Child("pPr").Child("sectPr") != nil {
		c.after = n
	}
	return c.geom()
}

// done ends a walk: a paragraph that ended a section at its end (the
// last of a block) lets the next section begin.
func (c *sectionCursor) done() pageGeom {
	if c.main && c.after != nil {
		c.advance()
	}
	return c.geom()
}

func (c *sectionCursor) advance() {
	c.after = nil
	if c.idx < len(c.s.geoms)-1 {
		c.idx++
	}
}

// ancestor reports whether a is an ancestor of n.
func ancestor(a, n *node) bool {
	p := n.Parent
	for p != nil && p != a {
		p = p.Parent
	}
	return p != nil
}

package bilingual

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// Namespaces of what the source copies carry besides WordprocessingML.
const (
	nsWP       = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsA        = "http://schemas.openxmlformats.org/drawingml/2006/main"
	emuPerTwip = 635
)

// sourceCopy makes a source block fit to stand beside its translation in
// one document: what must be unique is not repeated (bookmarks, comment
// ranges and references, content-control ids, paragraph ids, drawing ids),
// note references stay with the translation (one note, referenced once),
// and lists count on their own, apart from the translation's.
func (c *composition) sourceCopy(n *ooxml.Node) {
	drop := map[string]bool{"bookmarkStart": true, "bookmarkEnd": true, "commentRangeStart": true, "commentRangeEnd": true,
		"commentReference": true, "footnoteReference": true, "endnoteReference": true, "permStart": true, "permEnd": true}
	var strip func(p *ooxml.Node)
	strip = func(p *ooxml.Node) {
		kept := p.Children[:0]
		for _, k := range p.Children {
			if k.Kind == ooxml.ElemNode && (k.NS == ooxml.NSW || k.NS == ooxml.NSWStrict) && drop[k.Local] {
				continue
			}
			if k.Kind == ooxml.ElemNode && k.IsW("sdtPr") {
				k.RemoveW("id")
			}
			kept = append(kept, k)
			if k.Kind == ooxml.ElemNode {
				strip(k)
			}
		}
		p.Children = kept
	}
	strip(n)
	for _, a := range []string{"paraId", "textId"} {
		n.DelAttr(a)
		n.Walk(func(k *ooxml.Node) bool { k.DelAttr(a); return true })
	}
	n.Walk(func(k *ooxml.Node) bool {
		switch {
		case k.Is("docPr", nsWP):
			k.SetAttr("id", strconv.Itoa(c.ids.next()))
		case k.IsW("numId"):
			if v, ok := k.Attr("val"); ok {
				k.SetAttr("val", c.numbers.sourceList(v))
			}
		}
		return true
	})
}

// drawingIDs hands out drawing ids (wp:docPr/@id) above every id the
// translation uses.
type drawingIDs struct{ max int }

func newDrawingIDs(body *ooxml.Node) *drawingIDs {
	d := &drawingIDs{}
	body.Walk(func(k *ooxml.Node) bool {
		if k.Is("docPr", nsWP) {
			d.max = max(d.max, atoi(k.AttrOr("id", ""), 0))
		}
		return true
	})
	return d
}

func (d *drawingIDs) next() int { d.max++; return d.max }

// numbers gives the source column lists of its own: each list (w:num) the
// source copies use gets a copy of its abstract definition under a new id
// (and list identifier, w:nsid), so the source's items count 1, 2, 3 as
// the translation's do, instead of continuing each other's numbers.
type numbers struct {
	root             *ooxml.Node // w:numbering, or nil
	mapped           map[string]string
	changed          bool
	nextNum, nextAbs int
}

func newNumbers(numbering *ooxml.Node) *numbers {
	n := &numbers{mapped: map[string]string{}}
	if numbering == nil {
		return n
	}
	n.root = numbering.RootElem()
	for _, k := range n.root.ChildrenW("num") {
		n.nextNum = max(n.nextNum, atoi(k.AttrOr("numId", ""), 0))
	}
	for _, k := range n.root.ChildrenW("abstractNum") {
		n.nextAbs = max(n.nextAbs, atoi(k.AttrOr("abstractNumId", ""), 0))
	}
	return n
}

// sourceList is the numId the source copies use for list numID.
func (n *numbers) sourceList(numID string) string {
	if numID == "0" || n.root == nil { // 0: no list
		return numID
	}
	if m, ok := n.mapped[numID]; ok {
		return m
	}
	var num, abs *ooxml.Node
	for _, k := range n.root.ChildrenW("num") {
		if k.AttrOr("numId", "") == numID {
			num = k
		}
	}
	if num != nil {
		if a := num.Child("abstractNumId"); a != nil {
			for _, k := range n.root.ChildrenW("abstractNum") {
				if k.AttrOr("abstractNumId", "") == a.AttrOr("val", "") {
					abs = k
				}
			}
		}
	}
	if abs == nil {
		n.mapped[numID] = numID
		return numID
	}
	n.nextAbs++
	n.nextNum++
	absCopy := abs.Clone()
	absCopy.SetAttr("abstractNumId", strconv.Itoa(n.nextAbs))
	if id := absCopy.Child("nsid"); id != nil {
		id.SetAttr("val", nsid())
	}
	numCopy := num.Clone()
	numCopy.SetAttr("numId", strconv.Itoa(n.nextNum))
	numCopy.Child("abstractNumId").SetAttr("val", strconv.Itoa(n.nextAbs))
	// Abstract definitions come before the lists (the schema's order).
	lastAbs := n.root.IndexOf(n.root.ChildrenW("abstractNum")[len(n.root.ChildrenW("abstractNum"))-1])
	n.root.InsertAt(lastAbs+1, absCopy)
	lastNum := n.root.IndexOf(n.root.ChildrenW("num")[len(n.root.ChildrenW("num"))-1])
	n.root.InsertAt(lastNum+1, numCopy)
	n.changed = true
	m := strconv.Itoa(n.nextNum)
	n.mapped[numID] = m
	return m
}

func nsid() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return strings.ToUpper(hex.EncodeToString(b))
}

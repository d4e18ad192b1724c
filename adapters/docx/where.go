package docx

import (
	"strings"

	"github.com/dragoman-translate/dragoman/core/review"
)

const nsWPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"

// storyOf is where the units of a part are, for a person: the story a
// part holds (segment.Places).
func storyOf(part string) string {
	name := strings.ToLower(part)
	switch {
	case strings.Contains(name, "header"):
		return "header"
	case strings.Contains(name, "footer"):
		return "footer"
	case strings.Contains(name, "footnotes"):
		return "footnote"
	case strings.Contains(name, "endnotes"):
		return "endnote"
	case strings.Contains(name, "comments"):
		return "comment"
	case strings.Contains(name, "charts/"):
		return "chart"
	case strings.Contains(name, "diagrams/"):
		return "diagram"
	case strings.HasPrefix(name, "docprops/"):
		return "document properties"
	}
	return "body"
}

// place is where paragraph n is (the innermost text box, frame or table
// holding it, else its part's story), and the fixed-size container its
// text must fit: a text box that does not grow with its text, a frame or
// a table row of exact height. A renderer clips what does not fit them.
func (p *proc) place(n *node) (where, fixed string) {
	if pPr := n.Child("pPr"); pPr != nil {
		if f := pPr.Child("framePr"); f != nil {
			if v, _ := f.Attr("hRule"); v == "exact" {
				return "frame", review.Frame
			}
			return "frame", ""
		}
	}
	for a := n.Parent; a != nil; a = a.Parent {
		switch {
		case p.d.is(a, "txbxContent"):
			if textBoxGrows(a) {
				return "text box", ""
			}
			return "text box", review.TextBox
		case p.d.is(a, "tc"):
			if row := a.Parent; row != nil && (p.exactRows[row] || exactRow(p.d, row.Child("trPr"))) {
				return "table", review.TableRow
			}
			return "table", ""
		}
	}
	return storyOf(p.part), ""
}

// textBoxGrows: a DrawingML text box with spAutoFit, or a VML one fitted
// to its text (mso-fit-shape-to-text), grows as its text does.
func textBoxGrows(content *node) bool {
	box := content.Parent // wps:txbx or v:textbox
	if box == nil {
		return true
	}
	if style, ok := box.Attr("style"); ok && strings.Contains(strings.ReplaceAll(style, " ", ""), "mso-fit-shape-to-text:t") {
		return true
	}
	if box.Local == "textbox" { // VML without the fit
		return false
	}
	shape := box.Parent // wps:wsp
	if shape == nil {
		return true
	}
	for _, k := range shape.Children {
		if k.Local == "bodyPr" && k.NS == nsWPS {
			for _, f := range k.Children {
				if f.Local == "spAutoFit" {
					return true
				}
			}
			return false
		}
	}
	return false
}

// exactRow reports whether a row's properties give it an exact height.
func exactRow(d *dialect, trPr *node) bool {
	if trPr == nil {
		return false
	}
	for _, k := range trPr.Children {
		if d.is(k, "trHeight") {
			if v, _ := k.Attr("hRule"); v == "exact" {
				return true
			}
		}
	}
	return false
}

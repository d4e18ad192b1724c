// Package bilingual composes a bilingual .docx from a document and its
// translation: the body becomes a two-column table, the source beside the
// target block by block (paragraphs with their formatting, lists, headings,
// pictures, tables), while everything else — headers, footers, notes,
// styles, media — is the translation's. It writes the translation's
// package with its body (and numbering) replaced.
//
// Direction is not set here: the bilingual document is laid out afterwards
// by the same RTL layout as the target-only output (ports.RTLLayout), which
// gives right-to-left text its direction paragraph by paragraph, so the
// target column of an Arabic translation is right to left while its
// English source column stays left to right, and the table's visual order
// follows the target's direction.
package bilingual

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Composer implements ports.BilingualComposer.
type Composer struct {
	Layout Layout // lays the composed document out (nil: none)
	Dir    string // where the steps' temporary files go ("": the system's)
}

var _ ports.BilingualComposer = Composer{}

// ErrStructure is returned when the translation's body does not follow
// the source's block for block (it was not assembled from it).
var ErrStructure = errors.New("bilingual: the translation's body does not match the source's")

// Compose writes the bilingual document of src and its translation (an
// assembled copy of src, not yet laid out) to out.
func (Composer) Compose(ctx context.Context, src, translated ports.Blob, out io.Writer) error {
	sp, err := ooxml.Open(src, src.Size())
	if err != nil {
		return err
	}
	tp, err := ooxml.Open(translated, translated.Size())
	if err != nil {
		return err
	}
	sdoc, err := parsePart(sp, sp.Main())
	if err != nil {
		return err
	}
	tdoc, err := parsePart(tp, tp.Main())
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	sbody, tbody := bodyOf(sdoc), bodyOf(tdoc)
	if sbody == nil || tbody == nil {
		return fmt.Errorf("%w: no w:body", ErrStructure)
	}
	numName := partNamed(tp, "numbering")
	var numbering *ooxml.Node
	if numName != "" {
		if numbering, err = parsePart(tp, numName); err != nil {
			return err
		}
	}
	styles, err := loadStyles(tp)
	if err != nil {
		return err
	}
	c := newComposition(tbody, numbering, styles)
	if err := c.compose(elems(sbody), elems(tbody)); err != nil {
		return err
	}
	changed := map[string][]byte{}
	if changed[tp.Main()], err = serialise(tdoc); err != nil {
		return err
	}
	if numbering != nil && c.numbers.changed {
		if changed[numName], err = serialise(numbering); err != nil {
			return err
		}
	}
	return tp.Write(out, changed)
}

func parsePart(p *ooxml.Package, name string) (*ooxml.Node, error) {
	b, err := p.ReadPart(name)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, fmt.Errorf("%w: no part %s", ooxml.ErrInvalid, name)
	}
	return ooxml.Parse(b)
}

func serialise(doc *ooxml.Node) ([]byte, error) {
	var b bytes.Buffer
	err := ooxml.WriteTree(&b, doc)
	return b.Bytes(), err
}

// partNamed finds the part of a kind by its conventional name
// (word/numbering.xml), "" when the package has none.
func partNamed(p *ooxml.Package, kind string) string {
	for _, f := range p.Files() {
		if ct := p.ContentType(f); ct == "application/vnd.openxmlformats-officedocument.wordprocessingml."+kind+"+xml" {
			return f.Name
		}
	}
	return ""
}

func bodyOf(doc *ooxml.Node) *ooxml.Node {
	root := doc.RootElem()
	if root == nil {
		return nil
	}
	return root.Child("body")
}

// elems are n's element children.
func elems(n *ooxml.Node) []*ooxml.Node {
	var out []*ooxml.Node
	for _, c := range n.Children {
		if c.Kind == ooxml.ElemNode {
			out = append(out, c)
		}
	}
	return out
}

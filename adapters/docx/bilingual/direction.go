package bilingual

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// KeepSourceDirection writes the laid-out bilingual document with every
// paragraph of its source column set, explicitly, to the direction it has
// in the source. The layout gives each paragraph the direction its text
// calls for in the target's direction; a source paragraph without letters
// of either kind (a number, a list of symbols) would otherwise follow the
// target's, and one of a right-to-left source could follow a left-to-right
// target's styles.
func (Composer) KeepSourceDirection(ctx context.Context, src, laidOut ports.Blob, out io.Writer) error {
	sp, err := ooxml.Open(src, src.Size())
	if err != nil {
		return err
	}
	lp, err := ooxml.Open(laidOut, laidOut.Size())
	if err != nil {
		return err
	}
	sdoc, err := parsePart(sp, sp.Main())
	if err != nil {
		return err
	}
	ldoc, err := parsePart(lp, lp.Main())
	if err != nil {
		return err
	}
	dir, err := loadStyles(sp)
	if err != nil {
		return err
	}
	var want []bool    // the source's paragraphs in order, as the source column holds them
	var closing []bool // per row: the cell ends with a paragraph added to close it
	sblocks := elems(bodyOf(sdoc))
	plain := endsSection(sblocks)
	for i, b := range sblocks {
		if !isBlock(b) || isBreak(b) || plain[i] {
			continue
		}
		blocks := unwrap(b)
		for _, k := range blocks {
			for _, p := range paragraphs(k) {
				want = append(want, dir.rtl(p))
			}
		}
		closing = append(closing, len(blocks) == 0 || blocks[len(blocks)-1].IsW("tbl"))
	}
	var got []*ooxml.Node
	row := 0
	for _, tbl := range bodyOf(ldoc).ChildrenW("tbl") {
		for _, tr := range tbl.ChildrenW("tr") {
			tc := tr.ChildrenW("tc")
			if len(tc) != 2 || row >= len(closing) {
				return ErrStructure
			}
			var ps []*ooxml.Node
			for _, k := range elems(tc[0])[1:] { // after the cell's properties
				ps = append(ps, paragraphs(k)...)
			}
			if closing[row] && len(ps) > 0 {
				ps = ps[:len(ps)-1]
			}
			got = append(got, ps...)
			row++
		}
	}
	if len(got) != len(want) {
		return ErrStructure
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, p := range got {
		ppr := pPrOf(p)
		bidi := ppr.Child("bidi")
		if bidi == nil {
			bidi = w(p, "bidi")
			ppr.InsertAt(pPrAt(ppr, "bidi"), bidi)
		}
		bidi.Attrs = nil
		if !want[i] {
			bidi.Attrs = wAttrs(p, "val", "0")
		}
	}
	b, err := serialise(ldoc)
	if err != nil {
		return err
	}
	return lp.Write(out, map[string][]byte{lp.Main(): b})
}

// paragraphs are the paragraphs of a block in document order, nested ones
// included.
func paragraphs(b *ooxml.Node) []*ooxml.Node {
	if b.IsW("p") {
		return []*ooxml.Node{b}
	}
	return b.FindAllW("p")
}

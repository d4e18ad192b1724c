package ooxml

import (
	"archive/zip"
	"context"
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// Checker is the upload's deep check of a .docx (ports.PackageChecker):
// the package is opened as the pipeline opens it, and every XML part is
// read with the parser the pipeline uses (parseTree: no DTD, no undefined
// entity, well-formed attributes, at most maxDepth deep, within the part
// size limits), holding only the open elements. Issue 26: a DTD in
// styles.xml or nesting over 4,096 passed the upload and failed the job at
// layout after ten attempts. Every XML part is read, not only the ones the
// pipeline parses today: the PDF rendition reads them all.
type Checker struct{}

var _ ports.PackageChecker = Checker{}

// CheckPackage reads every XML part of src; the refusal names the part.
func (Checker) CheckPackage(ctx context.Context, src ports.Blob) error {
	p, err := Open(src, src.Size())
	if err != nil {
		return fmt.Errorf("%w: %v", ports.ErrBadPackage, err)
	}
	for _, f := range p.Files() {
		if !p.isXML(f) || f.FileInfo().IsDir() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.UncompressedSize64 > MaxXMLPart {
			return fmt.Errorf("%w: part %s: an XML part of %d MB, over the %d MB limit", ports.ErrBadPackage, f.Name, f.UncompressedSize64>>20, MaxXMLPart>>20)
		}
		if err := p.checkPart(f.Name); err != nil {
			return fmt.Errorf("%w: part %s: %v", ports.ErrBadPackage, f.Name, err)
		}
	}
	return nil
}

// isXML says whether the pipeline may parse f: an XML name (.xml, .rels),
// or an XML content type whatever the name, since the main document and
// the other stories are found by content type (a main part named
// word/body.dat with a DTD passed the upload and failed the job).
func (p *Package) isXML(f *zip.File) bool {
	return docformat.IsXMLPart(f.Name) || strings.HasSuffix(strings.ToLower(p.ContentType(f)), "xml")
}

// checkPart parses one part as the pipeline does, every element a
// container so that nothing but the open elements is held.
func (p *Package) checkPart(name string) error {
	rc, err := p.Open(p.File(name))
	if err != nil {
		return err
	}
	defer rc.Close()
	every := func(*Node) bool { return true }
	return StreamBlocks(rc, nil, every, func(*Node) error { return nil })
}

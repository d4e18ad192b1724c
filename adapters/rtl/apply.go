package rtl

import (
	"archive/zip"
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Estimate pre-scans a source document for what the output would lose.
func (l *Layout) Estimate(ctx context.Context, src ports.Blob, req ports.LayoutRequest) (*job.RTLReport, error) {
	pk, err := l.open(src)
	if err != nil {
		return nil, err
	}
	if l.nothingToDo(pk, req) {
		return nil, nil
	}
	d, err := l.read(pk)
	if err != nil {
		return nil, err
	}
	if ok, err := d.prepare(req, nil, false); err != nil || !ok {
		return nil, err
	}
	return d.Report(), nil
}

// Apply lays out a document as it is (translated or not) and writes it:
// as it came where nothing in it or the target is right to left.
func (l *Layout) Apply(ctx context.Context, src ports.Blob, req ports.LayoutRequest, out io.Writer) (*job.RTLReport, error) {
	pk, err := l.open(src)
	if err != nil {
		return nil, err
	}
	unchanged := func() error {
		if _, err := src.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.Copy(out, src)
		return err
	}
	if l.nothingToDo(pk, req) {
		return nil, unchanged()
	}
	d, err := l.read(pk)
	if err != nil {
		return nil, err
	}
	if ok, err := d.Prepare(req, nil); err != nil {
		return nil, err
	} else if !ok {
		return nil, unchanged()
	}
	// Story parts are laid out as the package is written, block by block
	// (a top-level paragraph, table or content control at a time), so the
	// peak is the largest block's tree, not a story's.
	err = pk.Rewrite(out, func(f *zip.File) ooxml.Edit { return d.Edit(f.Name) })
	if err != nil {
		return nil, badBlock("the document", err)
	}
	return d.Report(), nil
}

// Edit is how a render writes part name for the layout alone: a story
// block by block, a part laid out whole as its tree, any other as it is.
func (d *Doc) Edit(name string) ooxml.Edit {
	if lay := d.Story(name); lay != nil {
		return ooxml.Edit{Story: &ooxml.StoryStream{Block: func(b *ooxml.Block) error { lay(b); return nil }}}
	}
	return ooxml.Edit{Tree: d.Tree(name)}
}

// read shows a new layout every block of the package's stories, as they
// are (nothing is translated).
func (l *Layout) read(pk *pkg) (*Doc, error) {
	d, err := l.begin(pk)
	if err != nil {
		return nil, err
	}
	for _, name := range pk.stories {
		if pk.onParse != nil {
			pk.onParse(name, 0)
		}
		s := &ooxml.StoryStream{Block: func(b *ooxml.Block) error { d.Observe(name, b, nil); return nil }}
		if err := pk.Stream(pk.File(name), nil, ooxml.Edit{Story: s}); err != nil {
			return nil, badBlock(name, err)
		}
	}
	return d, nil
}

// open opens src for this layout.
func (l *Layout) open(src ports.Blob) (*pkg, error) {
	pk, err := openPkg(src)
	if err != nil {
		return nil, err
	}
	pk.onParse = l.onParse
	return pk, nil
}

package docx

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
)

// Limits against zip bombs. Parts are streamed, so these bound work and
// time rather than memory; the real sizes are counted, not the declared ones.
const (
	MaxPartSize  = 512 << 20 // one XML part, uncompressed
	MaxTotalSize = 2 << 30   // all XML parts read, uncompressed
	MaxRatio     = 200       // uncompressed/compressed for a part over 1 MB (XML: 5-30)
)

// ErrNotDocx is wrapped by every error about a file that is not a usable package.
var ErrNotDocx = errors.New("not a valid .docx package")

type partKind int

const (
	kindOther   partKind = iota
	kindWord             // paragraphs of WordprocessingML
	kindDrawing          // DrawingML text: charts, SmartArt data
	kindCore             // docProps/core.xml
	kindSettings
)

// kindOf classifies a part by its content type.
func kindOf(ct string) partKind {
	ct = strings.ToLower(ct)
	switch {
	case strings.HasSuffix(ct, "document.main+xml"),
		strings.HasSuffix(ct, "template.main+xml"),
		strings.HasSuffix(ct, "document.macroenabled.main+xml"),
		strings.HasSuffix(ct, "template.macroenabledtemplate.main+xml"),
		strings.HasSuffix(ct, "wordprocessingml.header+xml"),
		strings.HasSuffix(ct, "wordprocessingml.footer+xml"),
		strings.HasSuffix(ct, "wordprocessingml.footnotes+xml"),
		strings.HasSuffix(ct, "wordprocessingml.endnotes+xml"),
		strings.HasSuffix(ct, "wordprocessingml.comments+xml"):
		return kindWord
	case strings.HasSuffix(ct, "drawingml.diagramdata+xml"), strings.HasSuffix(ct, "drawingml.chart+xml"):
		return kindDrawing
	case strings.HasSuffix(ct, "package.core-properties+xml"):
		return kindCore
	case strings.HasSuffix(ct, "wordprocessingml.settings+xml"):
		return kindSettings
	}
	return kindOther
}

// pkg is an opened package.
type pkg struct {
	zr    *zip.Reader
	kinds map[*zip.File]partKind
	read  int64 // uncompressed bytes read so far
}

func openPkg(r io.ReaderAt, size int64) (*pkg, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotDocx, err)
	}
	p := &pkg{zr: zr, kinds: map[*zip.File]partKind{}}
	types, err := p.contentTypes()
	if err != nil {
		return nil, err
	}
	main := false
	for _, f := range zr.File {
		name := "/" + strings.TrimPrefix(f.Name, "/")
		ct, ok := types.over[strings.ToLower(name)]
		if !ok {
			ct = types.def[strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))]
		}
		k := kindOf(ct)
		if k != kindOther {
			p.kinds[f] = k
		}
		if k == kindWord && strings.Contains(strings.ToLower(ct), "main+xml") {
			main = true
		}
	}
	if !main {
		return nil, fmt.Errorf("%w: no main document part", ErrNotDocx)
	}
	return p, nil
}

type contentTypes struct{ def, over map[string]string }

func (p *pkg) contentTypes() (contentTypes, error) {
	ct := contentTypes{def: map[string]string{}, over: map[string]string{}}
	var f *zip.File
	for _, z := range p.zr.File {
		if z.Name == "[Content_Types].xml" {
			f = z
		}
	}
	if f == nil {
		return ct, fmt.Errorf("%w: no [Content_Types].xml", ErrNotDocx)
	}
	rc, err := p.open(f)
	if err != nil {
		return ct, err
	}
	defer rc.Close()
	sc := xmlscan.New(rc)
	for {
		t, err := sc.Next()
		if err == io.EOF {
			return ct, nil
		}
		if err != nil {
			return ct, fmt.Errorf("%w: [Content_Types].xml: %v", ErrNotDocx, err)
		}
		if t.Kind != xmlscan.Start && t.Kind != xmlscan.Empty {
			continue
		}
		typ, _ := xmlscan.AttrValue(t.Raw, "ContentType")
		switch string(xmlscan.Local(t.Name)) {
		case "Default":
			ext, _ := xmlscan.AttrValue(t.Raw, "Extension")
			ct.def[strings.ToLower(ext)] = typ
		case "Override":
			name, _ := xmlscan.AttrValue(t.Raw, "PartName")
			ct.over[strings.ToLower(name)] = typ
		}
	}
}

// open opens a part for reading within the size limits.
func (p *pkg) open(f *zip.File) (io.ReadCloser, error) {
	if f.UncompressedSize64 > MaxPartSize {
		return nil, fmt.Errorf("%w: part %s declares %d bytes, over the %d limit", ErrNotDocx, f.Name, f.UncompressedSize64, MaxPartSize)
	}
	if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64 > MaxRatio*max(f.CompressedSize64, 1) {
		return nil, fmt.Errorf("%w: part %s compresses %d:1, a zip bomb", ErrNotDocx, f.Name, f.UncompressedSize64/max(f.CompressedSize64, 1))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: part %s: %v", ErrNotDocx, f.Name, err)
	}
	return &limited{rc: rc, p: p, name: f.Name, left: MaxPartSize}, nil
}

// limited counts what is really decompressed, whatever the header says.
type limited struct {
	rc   io.ReadCloser
	p    *pkg
	name string
	left int64
}

func (l *limited) Read(b []byte) (int, error) {
	n, err := l.rc.Read(b)
	l.left -= int64(n)
	l.p.read += int64(n)
	if l.left < 0 {
		return n, fmt.Errorf("%w: part %s is larger than %d bytes", ErrNotDocx, l.name, MaxPartSize)
	}
	if l.p.read > MaxTotalSize {
		return n, fmt.Errorf("%w: package expands to more than %d bytes", ErrNotDocx, MaxTotalSize)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: part %s: %v", ErrNotDocx, l.name, err)
	}
	return n, err
}

func (l *limited) Close() error { return l.rc.Close() }

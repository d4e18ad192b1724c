// Package ooxml is the one model of an OOXML (.docx) package that the DOCX
// engine, the RTL layout and the fidelity check share: opening a zip within
// the bomb limits, classifying parts by content type (the one answer to
// "which parts hold text"), reading parts as streams or trees, and writing
// a package back with untouched entries copied raw.
package ooxml

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// ErrInvalid is wrapped by every error about a file that is not a usable package.
var ErrInvalid = errors.New("not a valid .docx package")

// Kind is what a part holds, decided by its content type.
type Kind int

const (
	Other    Kind = iota
	Story         // WordprocessingML paragraphs: body, headers, footers, notes, comments
	Drawing       // DrawingML text: charts, SmartArt data
	CoreProp      // docProps/core.xml
	Settings      // word/settings.xml
	// DiagramDrawing is SmartArt's cached drawing (diagrams/drawing*.xml),
	// which Word and LibreOffice display: its text is the diagram data's.
	DiagramDrawing
)

// KindOf classifies a part by its content type.
func KindOf(contentType string) Kind {
	ct := strings.ToLower(contentType)
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
		return Story
	case strings.HasSuffix(ct, "drawingml.diagramdata+xml"), strings.HasSuffix(ct, "drawingml.chart+xml"):
		return Drawing
	case strings.HasSuffix(ct, "drawingml.diagramdrawing+xml"):
		return DiagramDrawing
	case strings.HasSuffix(ct, "package.core-properties+xml"):
		return CoreProp
	case strings.HasSuffix(ct, "wordprocessingml.settings+xml"):
		return Settings
	}
	return Other
}

// isMain reports whether a content type is a main document's.
func isMain(contentType string) bool {
	return KindOf(contentType) == Story && strings.HasSuffix(strings.ToLower(contentType), "main+xml")
}

// Package is an opened package. It reads lazily: Open reads the zip
// directory and [Content_Types].xml only.
//
// A package is also the document between the DOCX engine's assembly and
// the RTL layout: parts replaced with SetPart are held in memory over the
// opened zip, read back by Open and ReadPart as they now are, and written
// once by WriteTo with every other entry copied raw.
type Package struct {
	zr      *zip.Reader
	byName  map[string]*zip.File
	types   map[*zip.File]string
	main    string
	read    int64             // uncompressed bytes read so far
	changed map[string][]byte // replaced parts, by entry name
}

// Open opens a package, refusing zip bombs and packages without a main
// WordprocessingML document.
func Open(r io.ReaderAt, size int64) (*Package, error) {
	return open(r, size, false)
}

// OpenLenient is Open for packages that may lack [Content_Types].xml
// (made by other tools, compared rather than translated): their parts get
// the content type Word gives the usual part names.
func OpenLenient(r io.ReaderAt, size int64) (*Package, error) {
	return open(r, size, true)
}

func open(r io.ReaderAt, size int64, lenient bool) (*Package, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := checkDirectory(zr); err != nil {
		return nil, err
	}
	p := &Package{zr: zr, byName: make(map[string]*zip.File, len(zr.File)), types: map[*zip.File]string{}}
	for _, f := range zr.File {
		p.byName[f.Name] = f
	}
	def, over, err := p.contentTypes(lenient)
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		name := "/" + strings.TrimPrefix(f.Name, "/")
		ct, ok := over[strings.ToLower(name)]
		if !ok {
			ct = def[strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))]
		}
		if ct == "" && def == nil {
			ct = conventionalType(f.Name)
		}
		if ct == "" {
			continue
		}
		p.types[f] = ct
		if p.main == "" && isMain(ct) {
			p.main = f.Name
		}
	}
	if p.main == "" {
		return nil, fmt.Errorf("%w: no main document part", ErrInvalid)
	}
	return p, nil
}

// contentTypes reads [Content_Types].xml; a lenient open of a package
// without one returns nil maps.
func (p *Package) contentTypes(lenient bool) (def, over map[string]string, err error) {
	f := p.byName["[Content_Types].xml"]
	if f == nil {
		if lenient {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("%w: no [Content_Types].xml", ErrInvalid)
	}
	def, over = map[string]string{}, map[string]string{}
	rc, err := p.Open(f)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	sc := xmlscan.New(rc)
	for {
		t, err := sc.Next()
		if err == io.EOF {
			return def, over, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: [Content_Types].xml: %v", ErrInvalid, err)
		}
		if t.Kind != xmlscan.Start && t.Kind != xmlscan.Empty {
			continue
		}
		typ, _ := xmlscan.AttrValue(t.Raw, "ContentType")
		switch string(xmlscan.Local(t.Name)) {
		case "Default":
			ext, _ := xmlscan.AttrValue(t.Raw, "Extension")
			def[strings.ToLower(ext)] = typ
		case "Override":
			name, _ := xmlscan.AttrValue(t.Raw, "PartName")
			over[strings.ToLower(name)] = typ
		}
	}
}

// conventionalType is the content type Word declares for a usual part name.
func conventionalType(name string) string {
	const wml = "application/vnd.openxmlformats-officedocument.wordprocessingml."
	if !strings.HasPrefix(name, "word/") || path.Dir(name) != "word" || path.Ext(name) != ".xml" {
		return ""
	}
	base := strings.TrimSuffix(path.Base(name), ".xml")
	for _, p := range []string{"document", "header", "footer", "footnotes", "endnotes", "comments", "settings"} {
		if strings.HasPrefix(base, p) {
			if p == "document" {
				p = "document.main"
			}
			return wml + p + "+xml"
		}
	}
	return ""
}

// Files are the package's entries in zip order.
func (p *Package) Files() []*zip.File { return p.zr.File }

// File is the entry named name, or nil.
func (p *Package) File(name string) *zip.File { return p.byName[name] }

// ContentType is the declared content type of an entry ("" if none).
func (p *Package) ContentType(f *zip.File) string { return p.types[f] }

// Kind classifies an entry.
func (p *Package) Kind(f *zip.File) Kind { return KindOf(p.types[f]) }

// Main is the name of the main document part.
func (p *Package) Main() string { return p.main }

// Stories are the parts holding WordprocessingML text: the main document
// first, then the others by name.
func (p *Package) Stories() []string {
	var rest []string
	for _, f := range p.zr.File {
		if f.Name != p.main && p.Kind(f) == Story {
			rest = append(rest, f.Name)
		}
	}
	sort.Strings(rest)
	return append([]string{p.main}, rest...)
}

// Open opens an entry for reading, counting what it really inflates
// against the limits. A replaced part reads as its new content.
func (p *Package) Open(f *zip.File) (io.ReadCloser, error) {
	if data, ok := p.changed[f.Name]; ok {
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	limit := int64(MaxPartSize)
	if docformat.IsXMLPart(f.Name) {
		limit = MaxXMLPart
	}
	if f.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("%w: part %s declares %d bytes, over the %d limit", ErrInvalid, f.Name, f.UncompressedSize64, limit)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: part %s: %v", ErrInvalid, f.Name, err)
	}
	return &limited{rc: rc, p: p, name: f.Name, left: limit, max: limit}, nil
}

// ReadPart reads an entry whole; a missing entry is (nil, nil). A
// replaced part is its new content, not a copy: callers do not modify it.
func (p *Package) ReadPart(name string) ([]byte, error) {
	if data, ok := p.changed[name]; ok {
		return data, nil
	}
	f := p.byName[name]
	if f == nil {
		return nil, nil
	}
	rc, err := p.Open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// SetPart replaces the content of the entry name; the package keeps data
// (the caller does not modify it afterwards). Only existing entries can be
// replaced: a translation adds no parts.
func (p *Package) SetPart(name string, data []byte) error {
	if p.byName[name] == nil {
		return fmt.Errorf("ooxml: no entry %s to replace", name)
	}
	if p.changed == nil {
		p.changed = map[string][]byte{}
	}
	p.changed[name] = data
	return nil
}

package ooxml

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"io"
	"sync"
)

// Writer writes a package: untouched entries are copied raw (still
// compressed, byte for byte), changed ones are deflated anew.
type Writer struct {
	bw *bufio.Writer
	zw *zip.Writer
}

// NewWriter starts a package on out.
func NewWriter(out io.Writer) *Writer {
	bw := bufio.NewWriterSize(out, 64<<10)
	zw := zip.NewWriter(bw)
	zw.RegisterCompressor(zip.Deflate, pooledDeflate)
	return &Writer{bw: bw, zw: zw}
}

// Copy copies an entry of an opened package without inflating it.
func (w *Writer) Copy(f *zip.File) error { return w.zw.Copy(f) }

// Create starts a new content for the entry f, keeping its name and time.
func (w *Writer) Create(f *zip.File) (io.Writer, error) {
	return w.zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: f.Modified})
}

// Close finishes the package and flushes it to the output.
func (w *Writer) Close() error {
	if err := w.zw.Close(); err != nil {
		return err
	}
	return w.bw.Flush()
}

// Write writes the package with the entries in changed replaced by their
// bytes, then those replaced with SetPart, and every other entry copied
// raw (still compressed), in the original order.
func (p *Package) Write(out io.Writer, changed map[string][]byte) error {
	return p.WriteEach(out, func(name string) func(io.Writer) error {
		if data, ok := changed[name]; ok {
			return func(w io.Writer) error { _, err := w.Write(data); return err }
		}
		return nil
	})
}

// WriteEach is Write with replaced entries produced as they are written:
// for each entry, part returns the function writing its new content, or
// nil to keep what SetPart left or copy the entry raw. A part serialised
// this way is never held whole.
func (p *Package) WriteEach(out io.Writer, part func(name string) func(io.Writer) error) error {
	w := NewWriter(out)
	for _, f := range p.zr.File {
		produce := part(f.Name)
		if produce == nil {
			if data, ok := p.changed[f.Name]; ok {
				produce = func(w io.Writer) error { _, err := w.Write(data); return err }
			}
		}
		if produce == nil {
			if err := w.Copy(f); err != nil {
				return err
			}
			continue
		}
		ew, err := w.Create(f)
		if err != nil {
			return err
		}
		if err := produce(ew); err != nil {
			return err
		}
	}
	return w.Close()
}

// WriteTo writes the package as it now is (io.WriterTo): replaced parts
// deflated, every other entry copied raw.
func (p *Package) WriteTo(out io.Writer) (int64, error) {
	cw := &countWriter{w: out}
	err := p.Write(cw, nil)
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// Deflate writers are large to set up; they are reused across parts and
// documents.
var deflaters sync.Pool

type pooledWriter struct{ *flate.Writer }

func (p pooledWriter) Close() error {
	err := p.Writer.Close()
	deflaters.Put(p.Writer)
	return err
}

func pooledDeflate(w io.Writer) (io.WriteCloser, error) {
	if fw, ok := deflaters.Get().(*flate.Writer); ok {
		fw.Reset(w)
		return pooledWriter{fw}, nil
	}
	fw, err := flate.NewWriter(w, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	return pooledWriter{fw}, nil
}

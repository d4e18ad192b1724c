package pool

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// benchFiles are small, ordinary documents of each format, so the numbers
// show the cost of LibreOffice's start rather than of a big document.
var benchFiles = []struct {
	k    Kind
	path string
}{
	{Word, "doc/abiword-Word97Test.doc"},
	{Word, "doc/poi-Word6.doc"},
	{ODT, "odt/pandoc-footnote.odt"},
	{RTF, "rtf/pandoc-writer.rtf"},
}

// BenchmarkWarm converts through a one-instance pool (started outside the timer).
func BenchmarkWarm(b *testing.B) {
	p, err := New(Config{Size: 1, TempDir: b.TempDir()}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if err := p.Ready(context.Background()); err != nil {
		b.Fatal(err)
	}
	for _, f := range benchFiles {
		data, err := os.ReadFile(filepath.Join(corpus, f.path))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(f.path), func(b *testing.B) {
			for b.Loop() {
				if err := p.Convert(context.Background(), f.k, bytes.NewReader(data), new(bytes.Buffer)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCold runs one `soffice --convert-to` with a fresh profile per file.
func BenchmarkCold(b *testing.B) {
	for _, f := range benchFiles {
		data, err := os.ReadFile(filepath.Join(corpus, f.path))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(f.path), func(b *testing.B) {
			for b.Loop() {
				if err := coldConvertDoc(context.Background(), Config{TempDir: b.TempDir()}, f.k, bytes.NewReader(data), new(bytes.Buffer)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

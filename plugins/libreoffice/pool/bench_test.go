package pool

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
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

// BenchmarkLarge compares a warm instance with a fresh one (a cold
// `soffice --convert-to`) on generated 1 MB and 10 MB documents (issue
// 13: which is faster for large files). Run with -benchtime=1x; the
// sizes are taken from DRAGOMAN_BENCH_LO_MB (default "1,10").
func BenchmarkLarge(b *testing.B) {
	sizes := []int{1, 10}
	if v := os.Getenv("DRAGOMAN_BENCH_LO_MB"); v != "" {
		sizes = nil
		for _, s := range strings.Split(v, ",") {
			n, err := strconv.Atoi(s)
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	cfg := Config{Size: 1, TempDir: b.TempDir(), Timeout: time.Hour}
	p, err := New(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if err := p.Ready(context.Background()); err != nil {
		b.Fatal(err)
	}
	// A first small conversion loads the filters, as in a pool in use.
	if err := p.Convert(context.Background(), RTF, bytes.NewReader(pooltest.LargeRTF(1000)), io.Discard); err != nil {
		b.Fatal(err)
	}
	for _, mb := range sizes {
		for _, d := range []struct {
			k    Kind
			data []byte
		}{
			{RTF, pooltest.LargeRTF(mb << 20)},
			{ODT, pooltest.LargeODT(mb << 20)},
		} {
			name := fmt.Sprintf("%s-%dMB", d.k.Name, mb)
			b.Run(name+"/warm", func(b *testing.B) {
				for b.Loop() {
					if err := p.Convert(context.Background(), d.k, bytes.NewReader(d.data), io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/cold", func(b *testing.B) {
				for b.Loop() {
					if err := coldConvertDoc(context.Background(), cfg, d.k, bytes.NewReader(d.data), io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

package rtl

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// BenchmarkApply measures a full LTR→RTL pass over a large document
// (poi-stress004: 1.7 MB document.xml) and a small one.
func BenchmarkApply(b *testing.B) {
	for _, name := range []string{"rtl/poi-stress004.docx", "ltr/aspose-Nested_tables.docx"} {
		doc := read(b, testDoc(name))
		l := New(Options{})
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for i := 0; i < b.N; i++ {
				if _, err := l.Apply(context.Background(), newBlob(doc), ports.LayoutRequest{SourceLang: "fa", TargetLang: "en"}, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEstimate measures the pre-scan behind the 202 response.
func BenchmarkEstimate(b *testing.B) {
	doc := read(b, testDoc("rtl/poi-stress004.docx"))
	l := New(Options{})
	for i := 0; i < b.N; i++ {
		if _, err := l.Estimate(context.Background(), newBlob(doc), ports.LayoutRequest{SourceLang: "fa", TargetLang: "en"}); err != nil {
			b.Fatal(err)
		}
	}
}

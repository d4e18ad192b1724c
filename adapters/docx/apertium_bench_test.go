package docx_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// apertiumMode is an English-source pair installed with the apertium
// packages (apt-get install -y apertium-eng-cat).
const apertiumMode = "eng-cat"

func apertium(b *testing.B, in string, args ...string) string {
	cmd := exec.Command("apertium", append(args, apertiumMode)...)
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("apertium %v: %v", args, err)
	}
	return string(out)
}

// BenchmarkApertiumEndToEnd compares, on the same generated .docx:
// apertium's own document mode (apertium -f docx), apertium on the
// document's plain text (the engine's limit), and this engine: extract,
// apertium on the segments in one call (one line per segment, codes left
// to Repair), assemble. Reports x-faster (f-docx time / ours) and overhead
// (ours / plain text).
func BenchmarkApertiumEndToEnd(b *testing.B) {
	if _, err := exec.LookPath("apertium"); err != nil {
		b.Fatal("apertium not installed")
	}
	for _, sz := range []struct {
		name string
		xml  int
	}{{"8k-words", 260 << 10}, {"80k-words", 2600 << 10}} {
		b.Run(sz.name, func(b *testing.B) {
			dir := b.TempDir()
			var buf bytes.Buffer
			if err := genDocx(&buf, sz.xml, 0); err != nil {
				b.Fatal(err)
			}
			src := buf.Bytes()
			in := filepath.Join(dir, "in.docx")
			os.WriteFile(in, src, 0o644)
			ctx := context.Background()
			var fdocx, plain, ours time.Duration
			words := 0
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if out, err := exec.Command("apertium", "-f", "docx", apertiumMode, in, filepath.Join(dir, "f.docx")).CombinedOutput(); err != nil {
					b.Fatalf("apertium -f docx: %v %s", err, out)
				}
				fdocx += time.Since(t0)

				doc, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
				if err != nil {
					b.Fatal(err)
				}
				text := doc.PlainText()
				words = len(strings.Fields(text))
				t1 := time.Now()
				apertium(b, text)
				plain += time.Since(t1)

				t2 := time.Now()
				doc, err = docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
				if err != nil {
					b.Fatal(err)
				}
				var lines []string
				doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
					lines = append(lines, strings.ReplaceAll(tagged.Plain(s.Source), "\n", " "))
				})
				got := strings.Split(strings.TrimRight(apertium(b, strings.Join(lines, "\n")+"\n"), "\n"), "\n")
				k := 0
				doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
					if k < len(got) {
						s.Target = tagged.Escape(strings.ReplaceAll(got[k], "*", ""))
					}
					k++
				})
				if len(got) != len(lines) {
					b.Fatalf("apertium returned %d lines for %d", len(got), len(lines))
				}
				var out bytes.Buffer
				if _, err := docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), doc, &out); err != nil {
					b.Fatal(err)
				}
				ours += time.Since(t2)
			}
			b.ReportMetric(float64(words), "words")
			b.ReportMetric(fdocx.Seconds()/float64(b.N), "f-docx-s")
			b.ReportMetric(plain.Seconds()/float64(b.N), "plain-s")
			b.ReportMetric(ours.Seconds()/float64(b.N), "ours-s")
			b.ReportMetric(float64(fdocx)/float64(ours), "x-faster")
			b.ReportMetric(float64(ours)/float64(plain), "overhead")
		})
	}
}

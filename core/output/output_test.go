package output

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

type blob struct{ *bytes.Reader }

func (blob) Close() error { return nil }

type blobs map[string][]byte

func (m blobs) Put(_ context.Context, k string, r io.Reader) (int64, error) {
	b, err := io.ReadAll(r)
	m[k] = b
	return int64(len(b)), err
}

func (m blobs) Open(_ context.Context, k string) (ports.Blob, error) {
	b, ok := m[k]
	if !ok {
		return nil, ports.ErrNotFound
	}
	return blob{bytes.NewReader(b)}, nil
}

func (m blobs) Delete(_ context.Context, k string) error { delete(m, k); return nil }

func (m blobs) DeletePrefix(context.Context, string) error { return nil }

// docs assembles the source's text with the targets after it.
type docs struct{}

func (docs) Extract(context.Context, ports.Blob) (*segment.Document, error) { return nil, nil }

func (docs) Assemble(_ context.Context, src ports.Blob, doc *segment.Document, w io.Writer) ([]string, error) {
	b, _ := io.ReadAll(src)
	var t []string
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { t = append(t, s.Target) })
	_, err := io.WriteString(w, string(b)+"|"+strings.Join(t, ","))
	return []string{"written"}, err
}

// memDocs also assembles in memory.
type memDocs struct{ docs }

type assembled struct{ bytes.Buffer }

func (a *assembled) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(a.Bytes())
	return int64(n), err
}

func (d memDocs) AssembleInMemory(ctx context.Context, src ports.Blob, doc *segment.Document) (ports.Assembled, []string, error) {
	a := &assembled{}
	_, err := d.Assemble(ctx, src, doc, &a.Buffer)
	return a, []string{"in memory"}, err
}

type layout struct{}

func (layout) Estimate(context.Context, ports.Blob, ports.LayoutRequest) (*job.RTLReport, error) {
	return nil, nil
}

func (layout) Apply(_ context.Context, src ports.Blob, req ports.LayoutRequest, w io.Writer) (*job.RTLReport, error) {
	io.WriteString(w, req.TargetLang+" written:")
	_, err := io.Copy(w, src)
	return &job.RTLReport{Status: "full"}, err
}

type memLayout struct{ layout }

func (memLayout) ApplyAssembled(_ context.Context, doc ports.Assembled, req ports.LayoutRequest, w io.Writer) (*job.RTLReport, error) {
	io.WriteString(w, req.TargetLang+" held:")
	_, err := doc.WriteTo(w)
	return &job.RTLReport{Status: "full"}, err
}

// Build takes the in-memory path when both engine and layout offer it,
// else the written one, and leaves no temporary document either way.
func TestBuildTakesTheInMemoryPathWhenItCan(t *testing.T) {
	doc := &segment.Document{Units: []segment.Unit{{ID: "u", Segments: []segment.Segment{{ID: "s", Source: "a", Target: "b"}}}}}
	req := ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}
	for _, c := range []struct {
		name   string
		b      Builder
		out    string
		warn   string
		hasRTL bool
	}{
		{"in memory", Builder{Docs: memDocs{}, Layout: memLayout{}}, "ar held:src|b", "in memory", true},
		{"layout cannot take it", Builder{Docs: memDocs{}, Layout: layout{}}, "ar written:src|b", "written", true},
		{"engine cannot", Builder{Docs: docs{}, Layout: memLayout{}}, "ar written:src|b", "written", true},
		{"no layout, in memory", Builder{Docs: memDocs{}}, "src|b", "in memory", false},
		{"no layout, written", Builder{Docs: docs{}}, "src|b", "written", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := blobs{}
			c.b.Blobs = m
			warnings, rtl, err := c.b.Build(context.Background(), blob{bytes.NewReader([]byte("src"))}, doc, req, "out", "tmp")
			if err != nil {
				t.Fatal(err)
			}
			if got := string(m["out"]); got != c.out {
				t.Errorf("output %q, want %q", got, c.out)
			}
			if len(warnings) != 1 || warnings[0] != c.warn {
				t.Errorf("warnings %q, want %q", warnings, c.warn)
			}
			if (rtl != nil) != c.hasRTL {
				t.Errorf("rtl report %v, want one: %v", rtl, c.hasRTL)
			}
			if _, ok := m["tmp"]; ok || len(m) != 1 {
				t.Errorf("stored %d blobs (tmp kept: %v), want only the output", len(m), ok)
			}
		})
	}
}

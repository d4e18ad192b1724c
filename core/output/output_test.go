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

// docs renders the source's text with the targets after it.
type docs struct{}

func (docs) Read(_ context.Context, src ports.Blob, _ func([]segment.Unit) error) (ports.Source, error) {
	b, err := io.ReadAll(src)
	return source(b), err
}

type source []byte

func (s source) Render(_ context.Context, next func() (*segment.Unit, error), req ports.LayoutRequest, w io.Writer) (*ports.Rendered, error) {
	var t []string
	for {
		u, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for _, sg := range u.Segments {
			t = append(t, sg.Target)
		}
	}
	_, err := io.WriteString(w, req.TargetLang+":"+string(s)+"|"+strings.Join(t, ","))
	return &ports.Rendered{Warnings: []string{"rendered"}, RTL: &job.RTLReport{Status: "full"}}, err
}

// A revision renders the source with the stored units, in their order,
// and stores the result under the output key.
func TestRebuildRendersTheStoredUnits(t *testing.T) {
	doc := &segment.Document{Units: []segment.Unit{
		{ID: "a", Segments: []segment.Segment{{Source: "x", Target: "1"}, {Source: "y", Target: "2"}}},
		{ID: "b", Segments: []segment.Segment{{Source: "z", Target: "3"}}},
	}}
	bs := blobs{}
	r, err := Rebuild(context.Background(), bs, docs{}, blob{bytes.NewReader([]byte("src"))}, doc, ports.LayoutRequest{TargetLang: "ar"}, "out")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(bs["out"]); got != "ar:src|1,2,3" {
		t.Errorf("stored %q", got)
	}
	if len(r.Warnings) != 1 || r.RTL == nil || r.RTL.Status != "full" {
		t.Errorf("rendered %+v", r)
	}
}

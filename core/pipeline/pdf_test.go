package pipeline

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
)

type pdfRenderer struct {
	err   error
	calls int
}

func (r *pdfRenderer) RenderPDF(_ context.Context, format string, in io.Reader, out io.Writer) error {
	r.calls++
	if format != "docx" {
		return errors.New("asked to render " + format)
	}
	if r.err != nil {
		return r.err
	}
	_, err := io.WriteString(out, "%PDF-1.7")
	return err
}

// The PDF is rendered only for jobs that asked; a rendition that fails,
// or a server without a renderer, completes the job with a warning instead
// of failing the translation; a cancelled stage is run again.
func TestPDFRendition(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		asked     bool
		renderer  *pdfRenderer
		want      job.PDFState
		warning   string
		wantCalls int
	}{
		{"not asked", false, &pdfRenderer{}, "", "", 0},
		{"asked", true, &pdfRenderer{}, job.PDFReady, "", 1},
		{"fails", true, &pdfRenderer{err: errors.New("LibreOffice crashed")}, job.PDFFailed, "no PDF was rendered: LibreOffice crashed", 1},
		{"no renderer", true, nil, job.PDFFailed, "no PDF was rendered: this server has no PDF renderer", 0},
	} {
		p, _, _, _ := newPipeline(t)
		if tc.renderer != nil {
			p.PDF = tc.renderer
		}
		j := job.New("j1", "a1", clock{}.Now())
		if tc.asked {
			j.PDF = job.PDFRequested
		}
		state, warning, pdf, err := p.renderPDF(ctx, j)
		if err != nil || (state == job.PDFReady) != (pdf != nil) || state != tc.want || !strings.HasPrefix(warning, tc.warning) || (tc.warning == "") != (warning == "") {
			t.Errorf("%s: state %q, warning %q, err %v; want %q, %q", tc.name, state, warning, err, tc.want, tc.warning)
		}
		if tc.renderer != nil && tc.renderer.calls != tc.wantCalls {
			t.Errorf("%s: %d renders, want %d", tc.name, tc.renderer.calls, tc.wantCalls)
		}
	}
	p, _, _, _ := newPipeline(t)
	p.PDF = &pdfRenderer{err: context.Canceled}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	j := job.New("j1", "a1", clock{}.Now())
	j.PDF = job.PDFRequested
	if _, _, _, err := p.renderPDF(cctx, j); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled rendition: %v, want the stage to run again", err)
	}
}

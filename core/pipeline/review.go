package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/output"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// reviewing is a pass's review of its translation (package review): each
// batch is checked as it comes back from the engines, the units that must
// fit a fixed-size container are kept for the PDF rendition, and the
// original is rendered beside the translation when the job asks for a PDF.
type reviewing struct {
	check *review.Checker
	tally review.Tally

	mu   sync.Mutex
	fits []*segment.Unit // copies of the units of fixed size, as rendered

	source chan *review.Rendition // the original's rendition; nil when none is made
}

// startReview prepares the checks once the job's language, glossary and
// route are known.
func (r *run) startReview(g *glossary.Glossary, route []job.Leg) {
	j := *r.j
	j.DetectedLang, j.Route = r.source.Code, route
	r.rv.check = review.NewChecker(output.ReviewJob(&j, g, r.dnt))
}

// checkBatch repairs and checks the targets of a translated batch
// (output.Check) and counts their flags.
func (r *run) checkBatch(units []segment.Unit) {
	for i := range units {
		output.Check(r.rv.check, &units[i])
		for _, sg := range units[i].Segments {
			r.rv.tally.Add(sg.Flags)
		}
	}
}

// rendered notes a unit as the render takes it: one that must fit a
// fixed-size container is kept for the rendition.
func (r *run) rendered(u *segment.Unit) {
	if u.Fixed == "" {
		return
	}
	c := *u
	c.Segments = append([]segment.Segment(nil), u.Segments...)
	r.rv.mu.Lock()
	r.rv.fits = append(r.rv.fits, &c)
	r.rv.mu.Unlock()
}

// renderSource renders the original to PDF while the pass goes on, for a
// job that asked for a PDF: its page count and its own clipped boxes are
// what the translation's are measured against. It needs the job's source
// and a PDF renderer and text reader.
func (r *run) renderSource(ctx context.Context) {
	p, j := r.p, r.j
	if j.PDF != job.PDFRequested || p.PDF == nil || p.PDFText == nil {
		return
	}
	r.rv.source = make(chan *review.Rendition, 1)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		var rend *review.Rendition
		defer func() { r.rv.source <- rend }()
		in, err := p.Blobs.Open(ctx, sourceKey(j))
		if err != nil {
			return
		}
		defer in.Close()
		var pdf bytes.Buffer
		if err := p.PDF.RenderPDF(ctx, "docx", in, &pdf); err != nil {
			p.log().Warn("rendition of the original failed", "job_id", j.ID, "err", err)
			return
		}
		text, err := p.PDFText.PDFText(ctx, &pdf)
		if err != nil {
			p.log().Warn("text of the original's rendition", "job_id", j.ID, "err", err)
			return
		}
		rend = review.NewRendition(text)
	}()
}

// measure reads the translation's PDF rendition (pdf; nil when none was
// made): segments a fixed-size container cuts off get an overflow flag,
// in the stored segments too, and a page count that grew is a flag about
// the document. It returns the job's review.
func (r *run) measure(ctx context.Context, pdf []byte) (*review.Summary, error) {
	p, j := r.p, r.j
	var src *review.Rendition
	if r.rv.source != nil {
		select {
		case src = <-r.rv.source:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if pdf == nil || p.PDFText == nil {
		return r.rv.tally.Summary(), nil
	}
	text, err := p.PDFText.PDFText(ctx, bytes.NewReader(pdf))
	if err != nil {
		p.log().Warn("text of the rendition", "job_id", j.ID, "err", err)
		return r.rv.tally.Summary(), nil
	}
	out := review.NewRendition(text)
	s := r.rv.tally.Summary()
	if src != nil {
		s.SourcePages = src.Pages
		if f := review.PagesFlag(src.Pages, out.Pages); f != nil {
			s.Document = append(s.Document, *f)
		}
	}
	s.Pages = out.Pages
	before := map[string][]review.Flag{}
	for _, u := range r.rv.fits {
		for _, sg := range u.Segments {
			before[sg.ID] = sg.Flags
		}
	}
	if output.MarkOverflow(r.rv.fits, out, src) == 0 {
		return s, nil
	}
	// The stored segments gain the flags, and the summary counts them.
	after := map[string][]review.Flag{}
	for _, u := range r.rv.fits {
		for _, sg := range u.Segments {
			if review.Has(sg.Flags, review.Overflow) {
				after[sg.ID] = sg.Flags
				if !review.ToCheck(before[sg.ID]) {
					s.ToCheck++
				}
				if s.ByKind == nil {
					s.ByKind = map[review.Kind]int{}
				}
				s.ByKind[review.Overflow]++
			}
		}
	}
	b, err := p.Blobs.Open(ctx, job.SegmentsKey(j))
	if err != nil {
		return nil, err
	}
	var doc segment.Document
	err = json.NewDecoder(b).Decode(&doc)
	b.Close()
	if err != nil {
		return nil, fmt.Errorf("read the segments of job %s: %w", j.ID, err)
	}
	doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) {
		if f, ok := after[sg.ID]; ok {
			sg.Flags = f
		}
	})
	return s, p.write(ctx, job.SegmentsKey(j), func(w io.Writer) error { return json.NewEncoder(w).Encode(&doc) })
}

// agree makes the structure check's verdict and the review say the same:
// "no loss" stays, but names the sentences whose links or formatting the
// host put back, and a loss the check found is a flag about the document.
func agree(structure string, lost bool, s *review.Summary) string {
	if s == nil || structure == "" {
		return structure
	}
	if lost {
		s.Document = append(s.Document, review.Flag{Kind: review.Formatting, Severity: review.Medium,
			Message: "The structure check found formatting, links or objects of the original missing from the translation."})
		return structure
	}
	n := s.ByKind[review.Links] + s.ByKind[review.Formatting]
	const verdict = "fidelity: no loss"
	if n == 0 || !strings.HasPrefix(structure, verdict) {
		return structure
	}
	what := "1 sentence"
	if n > 1 {
		what = fmt.Sprintf("%d sentences", n)
	}
	return verdict + ", formatting put back in " + what + " to check" + structure[len(verdict):]
}

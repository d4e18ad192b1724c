package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/service"
)

// Segment is one sentence of a job's translation, as a person reviews it.
type Segment struct {
	ID        string        `json:"id" doc:"Its position in the document, from 1: the {segment_id} to edit it"`
	Paragraph int           `json:"paragraph" doc:"The paragraph it belongs to, from 1 in document order"`
	Location  string        `json:"location" enum:"body,table,text box,frame,header,footer,footnote,endnote,comment,chart,diagram,image description,document properties" doc:"Where a person finds it: its story, or the table, text box or frame holding it"`
	FixedSize *string       `json:"fixed_size" nullable:"true" enum:"text box,table row,frame" doc:"The container of fixed size its text must fit (a text box that does not grow, an exact-height table row, a frame); null when it grows with its text"`
	Source    string        `json:"source" doc:"The original sentence, inline formatting as tags: <g id=\"N\">…</g> wraps text (bold, a link…), <x id=\"N\"/> stands alone (a tab, a footnote reference…); & < > of the text as &amp; &lt; &gt;"`
	Target    string        `json:"target" doc:"The translation, with the same tags"`
	Codes     []SegmentCode `json:"codes" doc:"The inline codes of its paragraph, with what each stands for"`
	Flags     []Flag        `json:"flags" doc:"The review's reasons to check it; empty when there are none"`
	Score     float64       `json:"score" minimum:"0" maximum:"1" doc:"How likely the sentence needs a correction, from its flags: 1 − Π(1 − w), w 0.1 for a low flag, 0.4 medium, 0.7 high"`
	ToCheck   bool          `json:"to_check" doc:"Its score is 0.4 or more: one medium or high flag"`
	Edited    bool          `json:"edited" doc:"A person changed its target (PATCH, or an XLIFF import)"`
}

// SegmentCode is an inline code of a paragraph.
type SegmentCode struct {
	ID   int    `json:"id"`
	Kind string `json:"kind" enum:"paired,isolated" doc:"paired: <g id>…</g>; isolated: <x id/>"`
	Type string `json:"type" doc:"What it stands for: fmt (bold, italic…), link, fn (footnote reference), en, tab, br, image, field, bookmark, comment…"`
}

// SegmentList is one page of a job's segments.
type SegmentList struct {
	Segments   []Segment `json:"segments"`
	NextCursor *string   `json:"next_cursor" nullable:"true" doc:"Pass as cursor to read the next page; null on the last page"`
	Matching   int       `json:"matching" doc:"Segments the filter selects, on all pages"`
	Revision   int       `json:"revision" doc:"The job's revision these segments are of (also the ETag): send it as If-Match when editing"`
	Review     *Review   `json:"review" doc:"The job's review summary"`
}

// SegmentEdit is a new target for a segment.
type SegmentEdit struct {
	Target string `json:"target" maxLength:"100000" doc:"The new translation, with exactly the inline tags of the source (in any order, balanced)"`
}

// SegmentEdited answers an edit: the segment checked again, and the new
// revision of the job.
type SegmentEdited struct {
	Segment  Segment `json:"segment"`
	Revision int     `json:"revision" doc:"The job's new revision (also the ETag)"`
	Review   *Review `json:"review" doc:"The job's review after the edit"`
}

type listSegmentsInput struct {
	APIKey  string   `header:"X-API-Key" required:"false" doc:"API key"`
	JobID   string   `path:"job_id" format:"uuid" doc:"Job identifier"`
	Kind    []string `query:"kind,explode" doc:"Only segments with a flag of one of these kinds (repeat the parameter, or separate them with commas): see Flag.kind"`
	ToCheck bool     `query:"to_check" doc:"Only the segments to check (score 0.4 or more)"`
	Order   string   `query:"order" enum:"document,score" default:"document" doc:"document: as the document reads; score: most likely to need a correction first"`
	Cursor  string   `query:"cursor" maxLength:"512" doc:"next_cursor of the previous page"`
	Limit   int      `query:"limit" minimum:"1" maximum:"500" default:"50" doc:"At most this many segments"`
}

type listSegmentsOutput struct {
	ETag string `header:"ETag" doc:"The job's revision, quoted"`
	Body SegmentList
}

type editSegmentInput struct {
	APIKey    string `header:"X-API-Key" required:"false" doc:"API key"`
	IfMatch   string `header:"If-Match" doc:"The revision the edit was made on (the segments' ETag, or their revision): an edit on an older revision is refused with 412. Without it the edit applies to the latest revision"`
	JobID     string `path:"job_id" format:"uuid" doc:"Job identifier"`
	SegmentID string `path:"segment_id" maxLength:"12" doc:"The segment's id (its position in the document, from 1)"`
	Body      SegmentEdit
}

type editSegmentOutput struct {
	ETag string `header:"ETag" doc:"The job's new revision, quoted"`
	Body SegmentEdited
}

func (a *API) registerSegments() {
	huma.Register(a.api, huma.Operation{
		OperationID: "listJobSegments", Method: http.MethodGet, Path: "/jobs/{job_id}/segments", Tags: []string{"Review"},
		Summary: "List a job's sentences with the review's flags",
		Description: "The completed job's segments (sentences), each with where it is, its source and target (inline formatting as tags), " +
			"the review's flags (each with a kind, a severity and one sentence saying why), its score and whether a person edited it; " +
			"a page at a time (follow `next_cursor`). Filter by flag `kind` and by `to_check`; `order=score` puts the sentences most likely to need a correction first. " +
			"Available while the download window is open: 404 before completion, 410 after.",
		Security: security, Errors: []int{401, 403, 404, 410, 422, 429},
	}, a.listSegments)
	huma.Register(a.api, huma.Operation{
		OperationID: "editJobSegment", Method: http.MethodPatch, Path: "/jobs/{job_id}/segments/{segment_id}", Tags: []string{"Review"},
		Summary: "Correct a sentence of a job's translation",
		Description: "Sets the segment's target. It must carry exactly the inline tags of its source, balanced (else 422 naming the tag). " +
			"The edit makes a new revision of the document, as an XLIFF import does: the job's `revision` counts up, the .docx is rebuilt " +
			"(and its PDF rendition, when the job has one), the download window opens afresh, `job.completed` is sent again with the revision, " +
			"and the sentence goes to the account's translation memory, so the same sentence is translated the same way next time. " +
			"Send the revision you edited as `If-Match`: an edit made on an older revision is refused with 412.",
		Security: security, Errors: []int{401, 403, 404, 410, 412, 422, 429},
	}, a.editSegment)
}

func (a *API) listSegments(ctx context.Context, in *listSegmentsInput) (*listSegmentsOutput, error) {
	f := service.SegmentFilter{ToCheck: in.ToCheck, Order: in.Order, Cursor: in.Cursor, Limit: in.Limit}
	for _, k := range in.Kind {
		for _, part := range strings.Split(k, ",") {
			if part = strings.TrimSpace(part); part != "" {
				f.Kinds = append(f.Kinds, review.Kind(part))
			}
		}
	}
	page, err := a.svc.Documents.Segments(ctx, caller(ctx), in.JobID, f)
	if err != nil {
		return nil, a.fail(err)
	}
	out := &listSegmentsOutput{ETag: etag(page.Job.Revision), Body: SegmentList{
		Segments: make([]Segment, 0, len(page.Segments)), NextCursor: strp(page.NextCursor),
		Matching: page.Matching, Revision: page.Job.Revision, Review: reviewOut(page.Job)}}
	for _, v := range page.Segments {
		out.Body.Segments = append(out.Body.Segments, segmentOut(v))
	}
	return out, nil
}

func (a *API) editSegment(ctx context.Context, in *editSegmentInput) (*editSegmentOutput, error) {
	base, err := ifMatch(in.IfMatch)
	if err != nil {
		return nil, err
	}
	j, v, err := a.svc.Documents.EditSegment(ctx, caller(ctx), in.JobID, in.SegmentID, in.Body.Target, base)
	if err != nil {
		return nil, a.fail(err)
	}
	return &editSegmentOutput{ETag: etag(j.Revision), Body: SegmentEdited{Segment: segmentOut(*v), Revision: j.Revision, Review: reviewOut(j)}}, nil
}

func segmentOut(v service.SegmentView) Segment {
	s := Segment{ID: v.ID, Paragraph: v.Paragraph, Location: v.Where, FixedSize: strp(v.Fixed), Source: v.Source, Target: v.Target,
		Codes: make([]SegmentCode, 0, len(v.Codes)), Flags: flagsOut(v.Flags), Score: float64(int(v.Score*1000+0.5)) / 1000,
		ToCheck: v.ToCheck, Edited: v.Edited}
	for _, c := range v.Codes {
		s.Codes = append(s.Codes, SegmentCode{ID: c.ID, Kind: string(c.Kind), Type: c.Type})
	}
	return s
}

func etag(revision int) string { return `"` + strconv.Itoa(revision) + `"` }

// ifMatch reads an If-Match header: a revision, quoted or not (an ETag,
// weak or strong); "" and "*" ask for none.
func ifMatch(h string) (*int, error) {
	h = strings.TrimSpace(h)
	if h == "" || h == "*" {
		return nil, nil
	}
	v := strings.Trim(strings.TrimPrefix(h, "W/"), `"`)
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return nil, newProblem(http.StatusPreconditionFailed, "If-Match must be the job's revision (the segments' ETag), such as \"3\", not "+strconv.Quote(h))
	}
	return &n, nil
}

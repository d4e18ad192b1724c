package service

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Segment orders.
const (
	OrderDocument = "document" // as the document reads
	OrderScore    = "score"    // most likely to need a correction first, then as the document reads
)

// SegmentFilter selects and orders a job's segments.
type SegmentFilter struct {
	Kinds   []review.Kind // a flag of any of these kinds; none: any segment
	ToCheck bool          // only the segments to check
	Order   string        // OrderDocument (default) or OrderScore
	Cursor  string        // next_cursor of the previous page
	Limit   int           // default 50, at most MaxSegmentPage
}

// MaxSegmentPage is the most segments one page lists.
const MaxSegmentPage = 500

// SegmentView is one segment of a job as a person reviews it.
type SegmentView struct {
	ID        string // its position in the document, from 1: the {segment_id} of the API
	Paragraph int    // the paragraph (unit) it belongs to, from 1
	Where     string // segment.Places
	Fixed     string // the fixed-size container it must fit, "" for none
	Source    string // tagged text
	Target    string
	Codes     []segment.Code // its paragraph's inline codes (their types)
	Flags     []review.Flag
	Score     float64
	ToCheck   bool
	Edited    bool
}

// SegmentPage is one page of a job's segments.
type SegmentPage struct {
	Job        *job.Job
	Segments   []SegmentView
	Matching   int    // segments the filter selects, on every page
	NextCursor string // "" on the last page
}

// Segments lists a completed job's segments with the review's flags,
// while its download window is open.
func (s *Documents) Segments(ctx context.Context, c *Caller, id string, f SegmentFilter) (*SegmentPage, error) {
	for _, k := range f.Kinds {
		if !k.Valid() {
			return nil, fail(KindUnprocessable, "unknown flag kind %q: one of %s", k, kindList())
		}
	}
	switch f.Order {
	case "", OrderDocument, OrderScore:
	default:
		return nil, fail(KindUnprocessable, "order must be %s or %s, not %q", OrderDocument, OrderScore, f.Order)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	if limit > MaxSegmentPage {
		return nil, fail(KindUnprocessable, "limit must be at most %d", MaxSegmentPage)
	}
	after, err := parseSegmentCursor(f.Cursor)
	if err != nil {
		return nil, err
	}
	j, doc, err := s.editable(ctx, c, id)
	if err != nil {
		return nil, err
	}
	all := views(doc)
	var picked []SegmentView
	for _, v := range all {
		if f.ToCheck && !v.ToCheck {
			continue
		}
		if len(f.Kinds) > 0 && !slices.ContainsFunc(f.Kinds, func(k review.Kind) bool { return review.Has(v.Flags, k) }) {
			continue
		}
		picked = append(picked, v)
	}
	byScore := f.Order == OrderScore
	if byScore {
		slices.SortStableFunc(picked, func(a, b SegmentView) int { return cmp.Compare(b.Score, a.Score) })
	}
	p := &SegmentPage{Job: j, Matching: len(picked)}
	from := 0
	if after != nil {
		from = len(picked)
		for i, v := range picked {
			if after.before(v, byScore) {
				from = i
				break
			}
		}
	}
	end := min(from+limit, len(picked))
	p.Segments = picked[from:end]
	if end < len(picked) {
		p.NextCursor = cursorAfter(picked[end-1])
	}
	return p, nil
}

// segmentCursor is where a page ended: its last segment's position and
// score. The next page starts after that segment in the list's order, not
// at an offset, so an edit made between two pages (which can take a
// segment out of a filter, or move it in the score order) skips none.
type segmentCursor struct {
	pos   int
	score float64
}

func cursorAfter(v SegmentView) string {
	return base64.RawURLEncoding.EncodeToString([]byte("a" + v.ID + ":" + strconv.FormatFloat(v.Score, 'g', -1, 64)))
}

// before says whether v comes after the cursor's segment: in document
// order by position; by score, a lower score or the same one further on.
func (c *segmentCursor) before(v SegmentView, byScore bool) bool {
	pos, _ := strconv.Atoi(v.ID)
	if byScore && v.Score != c.score {
		return v.Score < c.score
	}
	return pos > c.pos
}

func parseSegmentCursor(s string) (*segmentCursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil && len(b) > 1 && b[0] == 'a' {
		if pos, score, ok := strings.Cut(string(b[1:]), ":"); ok {
			n, err1 := strconv.Atoi(pos)
			sc, err2 := strconv.ParseFloat(score, 64)
			if err1 == nil && err2 == nil && n >= 1 {
				return &segmentCursor{pos: n, score: sc}, nil
			}
		}
	}
	return nil, fail(KindUnprocessable, "cursor %q is not a next_cursor of this list", s)
}

func kindList() string {
	names := make([]string, len(review.Kinds))
	for i, k := range review.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// views are doc's segments as listed, in document order.
func views(doc *segment.Document) []SegmentView {
	var out []SegmentView
	n := 0
	for i := range doc.Units {
		u := &doc.Units[i]
		for _, sg := range u.Segments {
			n++
			t := sg.Target
			if t == "" {
				t = sg.Source
			}
			out = append(out, SegmentView{ID: strconv.Itoa(n), Paragraph: i + 1, Where: cmp.Or(u.Where, "body"), Fixed: u.Fixed,
				Source: sg.Source, Target: t, Codes: u.Codes, Flags: sg.Flags, Score: review.Score(sg.Flags),
				ToCheck: review.ToCheck(sg.Flags), Edited: sg.Edited})
		}
	}
	return out
}

// MaxEditedTarget is the longest translation an edit may give one
// segment, in bytes: far more than any sentence, far less than a body the
// server would have to hold for nothing.
const MaxEditedTarget = 100000

// EditSegment sets the target of one segment of a completed job, written
// by a person: the same inline codes as its source (segment.ValidTarget,
// else KindUnprocessable naming the code), checked by the review, and a
// new revision of the document (revise). ifMatch, when set, is the
// revision the edit was made on (the segments' ETag): an older one is
// refused with KindStale. Without it the edit applies to the latest
// revision, even one another process saved while this one was being made.
func (s *Documents) EditSegment(ctx context.Context, c *Caller, id, segmentID, target string, ifMatch *int) (*job.Job, *SegmentView, error) {
	if len(target) > MaxEditedTarget { // the API's schema says so too; the dashboard reaches here directly
		return nil, nil, fail(KindUnprocessable, "the new translation is %d bytes long; at most %d", len(target), MaxEditedTarget)
	}
	n, err := strconv.Atoi(segmentID)
	if err != nil || n < 1 {
		return nil, nil, fail(KindNotFound, "job %s has no segment %q: segments are numbered from 1", id, segmentID)
	}
	defer s.revising.lock(id)()
	for attempt := 1; ; attempt++ {
		j, v, err := s.editSegment(ctx, c, id, n, target, ifMatch)
		var se *Error
		if ifMatch == nil && attempt < 3 && errors.As(err, &se) && se.Kind == KindStale {
			continue // another process saved an edit first: apply this one to it
		}
		return j, v, err
	}
}

func (s *Documents) editSegment(ctx context.Context, c *Caller, id string, n int, target string, ifMatch *int) (*job.Job, *SegmentView, error) {
	j, doc, err := s.editable(ctx, c, id)
	if err != nil {
		return nil, nil, err
	}
	if ifMatch != nil && *ifMatch != j.Revision {
		return nil, nil, stale(j, *ifMatch)
	}
	u, sg := nth(doc, n)
	if sg == nil {
		return nil, nil, fail(KindNotFound, "job %s has no segment %d: it has %d", id, n, len(views(doc)))
	}
	if err := segment.ValidTarget(sg.Source, target, u.Codes); err != nil {
		return nil, nil, &Error{Kind: KindUnprocessable, Message: "the target's inline codes do not match the original's: " + err.Error(), Err: err}
	}
	if target == sg.Target {
		v := views(doc)[n-1]
		return j, &v, nil // nothing changed: no revision
	}
	old := sg.Target
	sg.Target = target
	j, err = s.revise(ctx, j, doc, map[string]string{sg.ID: old}, j.Revision, fmt.Sprintf("sentence %d edited in the review", n))
	if err != nil {
		return nil, nil, err
	}
	v := views(doc)[n-1]
	return j, &v, nil
}

// nth is the n-th segment of doc (from 1) and its unit; nil past the end.
func nth(doc *segment.Document, n int) (*segment.Unit, *segment.Segment) {
	for i := range doc.Units {
		u := &doc.Units[i]
		if n <= len(u.Segments) {
			return u, &u.Segments[n-1]
		}
		n -= len(u.Segments)
	}
	return nil, nil
}

package client

import (
	"context"
	"strconv"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// Models of the review, re-exported from the generated package.
type (
	Segment       = gen.Segment
	SegmentList   = gen.SegmentList
	SegmentEdited = gen.SegmentEdited
	Flag          = gen.Flag
	Review        = gen.Review
)

// SegmentQuery selects a job's segments: Kinds of flags (any of them),
// only those ToCheck, the most likely to need a correction first
// (ByScore), from Cursor (a NextCursor), Limit at a time (0: the server's
// default).
type SegmentQuery struct {
	Kinds   []string
	ToCheck bool
	ByScore bool
	Cursor  string
	Limit   int
}

// Segments reads one page of a completed job's segments with the review's
// flags.
func (c *Client) Segments(ctx context.Context, id string, q SegmentQuery) (*SegmentList, error) {
	u, err := jobID(id)
	if err != nil {
		return nil, err
	}
	p := &gen.ListJobSegmentsParams{}
	if len(q.Kinds) > 0 {
		p.Kind = &q.Kinds
	}
	if q.ToCheck {
		p.ToCheck = &q.ToCheck
	}
	if q.ByScore {
		o := gen.Score
		p.Order = &o
	}
	if q.Cursor != "" {
		p.Cursor = &q.Cursor
	}
	if q.Limit > 0 {
		l := int64(q.Limit)
		p.Limit = &l
	}
	r, err := c.API.ListJobSegmentsWithResponse(ctx, u, p)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// EditSegment corrects a segment's target (with the inline tags of its
// source), making a new revision of the job's document. revision is the
// revision the edit was made on (If-Match: a stale one is a 412
// *APIError); a negative one applies the edit to the latest.
func (c *Client) EditSegment(ctx context.Context, id, segmentID, target string, revision int) (*SegmentEdited, error) {
	u, err := jobID(id)
	if err != nil {
		return nil, err
	}
	p := &gen.EditJobSegmentParams{}
	if revision >= 0 {
		m := strconv.Quote(strconv.Itoa(revision))
		p.IfMatch = &m
	}
	r, err := c.API.EditJobSegmentWithResponse(ctx, u, segmentID, p, gen.SegmentEdit{Target: target})
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

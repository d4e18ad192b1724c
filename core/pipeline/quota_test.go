package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// usedQuota has used words already spent this period; Reserve enforces the
// limit as the SQL store does.
type usedQuota struct {
	quotaStore
	used int64
}

func (q *usedQuota) Used(context.Context, string, string) (int64, error) { return q.used, nil }
func (q *usedQuota) Reserve(ctx context.Context, a, period, jobID string, words int64, limit *int64) error {
	if limit != nil && q.used+words > *limit {
		return quota.ErrExceeded
	}
	return q.quotaStore.Reserve(ctx, a, period, jobID, words, limit)
}

type oneAccount struct {
	ports.AccountStore
	a *account.Account
}

func (s oneAccount) GetAccount(context.Context, string) (*account.Account, error) { return s.a, nil }

// countingDocs extracts a document of n segments of ten words each and
// counts how far the words were read (tagged.Plain is called per segment
// by the count, so the count is observed through the document it returns).
type countingDocs struct {
	ports.DocumentEngine
	segments int
}

func (d countingDocs) Extract(context.Context, ports.Blob) (*segment.Document, error) {
	doc := &segment.Document{Format: "docx"}
	for i := 0; i < d.segments; i++ {
		doc.Units = append(doc.Units, segment.Unit{ID: fmt.Sprint(i), Segments: []segment.Segment{
			{ID: fmt.Sprint(i), Source: "one two three four five six seven eight nine ten"}}})
	}
	return doc, nil
}

func extractJob(t *testing.T, a *account.Account, used int64, segments int) (*job.Job, *usedQuota, *bus) {
	t.Helper()
	p, js, _, b := newPipeline(t)
	q := &usedQuota{quotaStore: quotaStore{reserved: map[string]int64{}}, used: used}
	p.Quota, p.Accounts, p.Docs = q, oneAccount{a: a}, countingDocs{segments: segments}
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error {
		j.Format, j.SourceLang, j.TargetLang = "docx", "English", "English"
		return j.Start(clock{}.Now())
	})
	h := p.stage(job.StageExtracted, ports.TopicExtracted, p.extract)
	if err := h(context.Background(), event()); err != nil {
		t.Fatal(err)
	}
	return mustJob(t, js), q, b
}

// A free account with 95 words left and a 2,000-word document: counting
// stops once the words pass what is left, the job fails there with a
// 402-equivalent message, nothing is charged, and the job reports the
// words counted (issue 15 items 3 and 10: it ran 52 s before failing,
// and reported total_words 0 while its message quoted the count).
func TestQuotaFailureStopsCountingAndReportsTheWords(t *testing.T) {
	free := &account.Account{ID: "a1", PlanName: "free"}
	j, q, b := extractJob(t, free, 10_000-95, 200)
	if j.Status != job.Failed || !strings.Contains(j.Error, "word quota exceeded") || !strings.Contains(j.Error, "only 95 of this month's 10000 remain") {
		t.Fatalf("job %s: %q", j.Status, j.Error)
	}
	if j.Words != 100 {
		t.Errorf("total_words %d, want the 100 counted before counting stopped", j.Words)
	}
	if len(q.reserved) != 0 || b.count(ports.TopicFailed) != 1 {
		t.Errorf("reserved %v, failures announced %d", q.reserved, b.count(ports.TopicFailed))
	}
}

// When the count fits what is left but a concurrent job took the rest
// first, the reservation fails: the job still reports its words.
func TestReservationFailureReportsTheWords(t *testing.T) {
	q := &usedQuota{quotaStore: quotaStore{reserved: map[string]int64{}}, used: 0}
	p, js, _, _ := newPipeline(t)
	p.Quota, p.Accounts, p.Docs = raceQuota{q}, oneAccount{a: &account.Account{ID: "a1", PlanName: "free"}}, countingDocs{segments: 3}
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error {
		j.Format, j.SourceLang, j.TargetLang = "docx", "English", "English"
		return j.Start(clock{}.Now())
	})
	p.stage(job.StageExtracted, ports.TopicExtracted, p.extract)(context.Background(), event())
	if j := mustJob(t, js); j.Status != job.Failed || j.Words != 30 || !strings.Contains(j.Error, "30 words") {
		t.Fatalf("job %s, total_words %d: %q", j.Status, j.Words, j.Error)
	}
}

// raceQuota reports nothing used, then refuses the reservation (another
// job reserved the rest in between).
type raceQuota struct{ *usedQuota }

func (r raceQuota) Reserve(context.Context, string, string, string, int64, *int64) error {
	r.used = 10_000
	return quota.ErrExceeded
}
func (r raceQuota) Used(context.Context, string, string) (int64, error) { return r.used, nil }

// The per-document caps of the plan (or the account's override) fail a
// job over them, charging nothing.
func TestDocumentCaps(t *testing.T) {
	words, segs := int64(55), int64(1000)
	a := &account.Account{ID: "a1", PlanName: "pro", MaxDocWordsOverride: &words, MaxDocSegmentsOverride: &segs}
	j, q, _ := extractJob(t, a, 0, 20)
	if j.Status != job.Failed || !strings.Contains(j.Error, "cap of 55 words per document") || j.Words != 60 || len(q.reserved) != 0 {
		t.Fatalf("word cap: job %s, words %d, reserved %v: %q", j.Status, j.Words, q.reserved, j.Error)
	}
	segs = 19
	j, _, _ = extractJob(t, a, 0, 20)
	if j.Status != job.Failed || !strings.Contains(j.Error, "20 segments, over the pro plan's cap of 19") {
		t.Fatalf("segment cap: job %s: %q", j.Status, j.Error)
	}
	words, segs = 1000, 1000
	j, q, _ = extractJob(t, a, 0, 20)
	if j.Status == job.Failed || j.Words != 200 || q.reserved["j1"] != 200 {
		t.Fatalf("under the caps: job %s (%s), words %d, reserved %v", j.Status, j.Error, j.Words, q.reserved)
	}
}

// checkingDocs is an engine that tells the extraction check about every
// unit as it reads it, as the DOCX engine does, and counts what it read.
type checkingDocs struct {
	ports.DocumentEngine
	segments int
	read     *int
}

func (d checkingDocs) Extract(ctx context.Context, _ ports.Blob) (*segment.Document, error) {
	doc := &segment.Document{Format: "docx"}
	check := ports.ExtractCheckOf(ctx)
	for i := 0; i < d.segments; i++ {
		u := segment.Unit{ID: fmt.Sprint(i), Segments: []segment.Segment{
			{ID: fmt.Sprint(i), Source: "one two three four five six seven eight nine ten"}}}
		*d.read++
		if check != nil {
			if err := check([]segment.Unit{u}); err != nil {
				return nil, err
			}
		}
		doc.Units = append(doc.Units, u)
	}
	return doc, nil
}

// Issue 15: the per-document cap was checked after the whole document was
// extracted. Now extraction stops at the first unit past the cap: a free
// account (10,000 words per document) reads 1,001 units of ten words of a
// million, and the job fails with the words counted, nothing charged.
func TestExtractionStopsAtTheDocumentCap(t *testing.T) {
	p, js, _, b := newPipeline(t)
	read := 0
	q := &usedQuota{quotaStore: quotaStore{reserved: map[string]int64{}}}
	p.Quota, p.Accounts = q, oneAccount{a: &account.Account{ID: "a1", PlanName: "free"}}
	p.Docs = checkingDocs{segments: 1_000_000, read: &read}
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error {
		j.Format, j.SourceLang, j.TargetLang = "docx", "English", "English"
		return j.Start(clock{}.Now())
	})
	if err := p.stage(job.StageExtracted, ports.TopicExtracted, p.extract)(context.Background(), event()); err != nil {
		t.Fatal(err)
	}
	j := mustJob(t, js)
	if j.Status != job.Failed || j.Words != 10_010 || len(q.reserved) != 0 || b.count(ports.TopicFailed) != 1 {
		t.Fatalf("job %s, words %d, reserved %v: %q", j.Status, j.Words, q.reserved, j.Error)
	}
	if read != 1001 {
		t.Errorf("the engine read %d units; extraction should stop at the 1,001st", read)
	}
}

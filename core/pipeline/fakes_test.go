package pipeline

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// sliceDocs is a document engine over a list of units: Read hands them
// over one by one (calling between, when set, before each), Render asks
// for every unit and writes their targets, one per line.
type sliceDocs struct {
	units   []segment.Unit
	n       int // with gen: n units made by gen instead
	gen     func(i int) segment.Unit
	between func(i int) // before unit i is handed over
	read    *int        // units handed over
	report  *job.RTLReport
	got     *ports.LayoutRequest
}

func (d sliceDocs) Read(ctx context.Context, _ ports.Blob, emit func([]segment.Unit) error) (ports.Source, error) {
	n := len(d.units)
	if d.gen != nil {
		n = d.n
	}
	for i := range n {
		if d.between != nil {
			d.between(i)
		}
		if d.read != nil {
			*d.read++
		}
		var u segment.Unit
		if d.gen != nil {
			u = d.gen(i)
		} else {
			u = d.units[i]
			u.Segments = append([]segment.Segment(nil), u.Segments...)
		}
		if err := emit([]segment.Unit{u}); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d sliceDocs) Render(_ context.Context, next func() (*segment.Unit, error), req ports.LayoutRequest, w io.Writer) (*ports.Rendered, error) {
	if d.got != nil {
		*d.got = req
	}
	for {
		u, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for _, s := range u.Segments {
			fmt.Fprintln(w, s.Target)
		}
	}
	return &ports.Rendered{RTL: d.report, Structure: "fidelity: no loss"}, nil
}

// tenWords are units of one ten-word segment each, all different.
func tenWords(n int) []segment.Unit {
	var out []segment.Unit
	for i := range n {
		out = append(out, tenWordUnit(i))
	}
	return out
}

func tenWordUnit(i int) segment.Unit {
	return segment.Unit{ID: fmt.Sprint(i), Segments: []segment.Segment{
		{ID: fmt.Sprint(i), Source: fmt.Sprintf("one two three four five six seven eight nine ten%d", i)}}}
}

// shout upper-cases the text of every segment (codes kept) and records what it was sent.
// shout translates into capitals and notes "zork" as a word it does not
// know.
type shout struct {
	mu    sync.Mutex
	sent  []string
	calls int
}

func (s *shout) Capabilities(context.Context) (ports.Capabilities, error) {
	return ports.Capabilities{Name: "shout", AnyToAny: true}, nil
}
func (s *shout) Translate(_ context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	out := make([]string, len(r.Segments))
	var notes []tagged.Note
	for i, x := range r.Segments {
		s.sent = append(s.sent, x)
		toks := tagged.Tokenize(x)
		for k := range toks {
			toks[k].Text = strings.ToUpper(toks[k].Text)
		}
		out[i] = tagged.Render(toks)
		if strings.Contains(x, "zork") { // a word it does not know, as Apertium notes it
			notes = append(notes, tagged.Note{Segment: i, Unknown: []string{"zork"}})
		}
	}
	return ports.TranslateResult{Segments: out, Notes: notes}, nil
}

func (s *shout) seen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent)
}

type shoutRegistry struct {
	p    *shout
	caps ports.Capabilities
}

func (r shoutRegistry) Engines(context.Context) ([]ports.Engine, error) {
	c := r.caps
	c.Name, c.AnyToAny = "shout", true
	return []ports.Engine{{Name: "shout", Provider: r.p, Caps: c}}, nil
}

type accounts struct{}

func (accounts) CreateAccount(context.Context, *account.Account) error { return nil }
func (accounts) GetAccount(_ context.Context, id string) (*account.Account, error) {
	return &account.Account{ID: id, PlanName: "pro"}, nil
}
func (accounts) UpdateAccount(context.Context, string, func(*account.Account) error) (*account.Account, error) {
	return nil, nil
}
func (accounts) CreateKey(context.Context, account.Key) error            { return nil }
func (accounts) KeyByHash(context.Context, string) (*account.Key, error) { return nil, nil }
func (accounts) RevokeKey(context.Context, string, time.Time) error      { return nil }

type detector struct{ code string }

func (d detector) Detect(string) (string, float64) { return d.code, 0.99 }

// passPipeline is a pipeline whose pass reads docs and translates with
// eng, on job j1 (English to Spanish unless edit says otherwise).
func passPipeline(t *testing.T, docs ports.DocumentEngine, eng *shout, edit func(*job.Job)) (*Pipeline, *jobs, *bus, *memBlobs) {
	t.Helper()
	p, js, _, b := newPipeline(t)
	mb := &memBlobs{m: map[string][]byte{}}
	p.Blobs, p.Docs, p.Accounts = mb, docs, accounts{}
	p.Translator = &translate.Translator{Engines: shoutRegistry{p: eng}}
	p.Engines = shoutRegistry{p: eng}
	p.SpoolDir = t.TempDir()
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error {
		j.Format, j.SourceLang, j.TargetLang, j.Mode = "docx", "en", "es", translation.Full
		if edit != nil {
			edit(j)
		}
		return nil
	})
	mb.Put(context.Background(), job.SourceKey("j1", "docx"), strings.NewReader("docx"))
	return p, js, b, mb
}

// runPass runs the translate step on job j1 as the bus would.
func runPass(t *testing.T, p *Pipeline) {
	t.Helper()
	if err := p.stage(job.StageLaidOut, ports.TopicLaidOut, p.translate)(context.Background(), event()); err != nil {
		t.Fatal(err)
	}
}

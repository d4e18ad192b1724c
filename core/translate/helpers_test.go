package translate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// upper is an in-process engine: it upper-cases the text between codes,
// so a test sees exactly what it was sent, and it records every request.
type upper struct {
	mu       sync.Mutex
	requests []ports.TranslateRequest
	fail     error // returned by every call when set
	inFlight int
	maxSeen  int
	gate     chan struct{} // when set, each call waits for a token
}

func (u *upper) Capabilities(context.Context) (ports.Capabilities, error) {
	return ports.Capabilities{Name: "upper", AnyToAny: true}, nil
}

func (u *upper) Translate(ctx context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
	u.mu.Lock()
	u.requests = append(u.requests, r)
	u.inFlight++
	u.maxSeen = max(u.maxSeen, u.inFlight)
	u.mu.Unlock()
	defer func() { u.mu.Lock(); u.inFlight--; u.mu.Unlock() }()
	if u.gate != nil {
		<-u.gate
	}
	if u.fail != nil {
		return ports.TranslateResult{}, u.fail
	}
	out := make([]string, len(r.Segments))
	for i, s := range r.Segments {
		toks := tagged.Tokenize(s)
		for j := range toks {
			if toks[j].Kind == tagged.Text {
				toks[j].Text = strings.ToUpper(toks[j].Text) + "/" + r.Target
			}
		}
		out[i] = tagged.Render(toks)
	}
	return ports.TranslateResult{Segments: out}, nil
}

func (u *upper) sent() (segs []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, r := range u.requests {
		segs = append(segs, r.Segments...)
	}
	return segs
}

func (u *upper) calls() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.requests)
}

type registry []ports.Engine

func (r registry) Engines(context.Context) ([]ports.Engine, error) {
	if len(r) == 0 {
		return nil, errors.New("no engines")
	}
	return r, nil
}

func engine(name string, p ports.Provider, caps ports.Capabilities) ports.Engine {
	caps.Name = name
	return ports.Engine{Name: name, Provider: p, Caps: caps}
}

// memoryTM is a translation memory in a map, with the SQL store's semantics.
type memoryTM struct {
	mu   sync.Mutex
	m    map[string]string
	gets int
}

func newMemoryTM() *memoryTM { return &memoryTM{m: map[string]string{}} }

func tmKey(account, engine, mode, src, tgt, hash string) string {
	return strings.Join([]string{account, engine, mode, src, tgt, hash}, "\x00")
}

func (t *memoryTM) GetTM(_ context.Context, account, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gets++
	out := map[string]string{}
	for _, h := range hashes {
		if v, ok := t.m[tmKey(account, engine, mode, src, tgt, h)]; ok {
			out[h] = v
		}
	}
	return out, nil
}

// GetSharedTM looks in every account's entries.
func (t *memoryTM) GetSharedTM(_ context.Context, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gets++
	out := map[string]string{}
	for k, v := range t.m {
		for _, h := range hashes {
			if strings.HasSuffix(k, "\x00"+strings.Join([]string{engine, mode, src, tgt, h}, "\x00")) {
				out[h] = v
			}
		}
	}
	return out, nil
}

func (t *memoryTM) PutTM(_ context.Context, account, engine, mode, src, tgt string, entries map[string]string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for h, v := range entries {
		t.m[tmKey(account, engine, mode, src, tgt, h)] = v
	}
	return nil
}

// docOf builds a document with one unit per text.
func docOf(texts ...string) *segment.Document {
	d := &segment.Document{Format: "docx"}
	for _, s := range texts {
		d.Units = append(d.Units, segment.Unit{Segments: []segment.Segment{{Source: s}}})
	}
	return d
}

func targets(d *segment.Document) (out []string) {
	d.EachSegment(func(_ *segment.Unit, s *segment.Segment) { out = append(out, s.Target) })
	return out
}

func loadCorpusDoc(tb testing.TB, name string) *segment.Document {
	tb.Helper()
	b, err := os.ReadFile("../../testdata/engines/" + name + ".segments.json")
	if err != nil {
		tb.Fatal(err)
	}
	var d segment.Document
	if err := json.Unmarshal(b, &d); err != nil {
		tb.Fatal(err)
	}
	return &d
}

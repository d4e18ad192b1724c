package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// engine runs apertium pipelines: one per batch, or a large batch split
// across several so that every core works on one large document; at most
// procs run at once in the plugin.
type engine struct {
	bin   string
	dir   string
	procs int
	slots chan struct{}

	once   sync.Once
	pairs  []sdk.Pair
	modes  map[sdk.Pair]string
	conErr error
}

func newEngine(bin, dir string) *engine { return newEngineProcs(bin, dir, 0) }

// newEngineProcs is newEngine running at most procs apertium pipelines at
// once (0: the number of CPUs).
func newEngineProcs(bin, dir string, procs int) *engine {
	if bin == "" {
		bin = "apertium"
	}
	if procs <= 0 {
		procs = runtime.NumCPU()
	}
	return &engine{bin: bin, dir: dir, procs: procs, slots: make(chan struct{}, procs)}
}

// minSplitChars is the least text worth an apertium pipeline of its own:
// starting one costs about 0.4 s of CPU (every stage loads its
// transducer), a 50,000-character piece about 2.5 s of work.
const minSplitChars = 50_000

// pieces cuts segs into at most procs runs of similar length, none below
// minSplitChars unless the whole batch is.
func (e *engine) pieces(segs []string) [][]string {
	total := 0
	for _, s := range segs {
		total += len(s)
	}
	n := min(e.procs, max(total/minSplitChars, 1), len(segs))
	if n <= 1 {
		return [][]string{segs}
	}
	var out [][]string
	from, chars, want := 0, 0, (total+n-1)/n
	for i, s := range segs {
		chars += len(s)
		if chars >= want && len(out) < n-1 {
			out = append(out, segs[from:i+1])
			from, chars = i+1, 0
		}
	}
	if from < len(segs) {
		out = append(out, segs[from:])
	}
	return out
}

// runSplit translates segs in pieces, each in its own apertium pipeline
// once a slot is free, and puts the results back in order.
func (e *engine) runSplit(ctx context.Context, mode string, segs []string) ([][]tagged.Token, error) {
	parts := e.pieces(segs)
	if len(parts) == 1 {
		return e.runInSlot(ctx, mode, segs)
	}
	results := make([][][]tagged.Token, len(parts))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error // the cause, not the pieces stopped because of it
	)
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			results[i], err = e.runInSlot(ctx, mode, part)
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
					cancel() // the batch fails anyway: stop its other pieces
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	var out [][]tagged.Token
	for _, r := range results {
		out = append(out, r...)
	}
	return out, nil
}

// runInSlot runs one pipeline once fewer than procs run.
func (e *engine) runInSlot(ctx context.Context, mode string, segs []string) ([][]tagged.Token, error) {
	select {
	case e.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-e.slots }()
	return e.run(ctx, mode, segs)
}

func (e *engine) args(rest ...string) []string {
	if e.dir != "" {
		return append([]string{"-d", e.dir}, rest...)
	}
	return rest
}

// load lists the installed modes once (`apertium -l`).
func (e *engine) load(ctx context.Context) error {
	e.once.Do(func() {
		out, err := exec.CommandContext(ctx, e.bin, e.args("-l")...).Output()
		if err != nil {
			e.conErr = fmt.Errorf("listing apertium modes (%s -l): %w", e.bin, err)
			return
		}
		e.pairs, e.modes = pairsFromModes(strings.Fields(string(out)))
		if len(e.pairs) == 0 {
			e.conErr = errors.New("apertium has no usable language pair installed")
		}
	})
	return e.conErr
}

func (e *engine) Capabilities(ctx context.Context) (sdk.Capabilities, error) {
	if err := e.load(ctx); err != nil {
		return sdk.Capabilities{}, err
	}
	return sdk.Capabilities{
		Name:        "apertium",
		Pairs:       e.pairs,
		MaxSegments: 10000,
		MaxChars:    400_000,
		Modes:       []sdk.Mode{sdk.Full, sdk.Literal},
	}, nil
}

// Health checks that the modes could be listed.
func (e *engine) Health(ctx context.Context) error { return e.load(ctx) }

func (e *engine) Translate(ctx context.Context, req sdk.TranslateRequest) (sdk.TranslateResult, error) {
	if err := e.load(ctx); err != nil {
		return sdk.TranslateResult{}, err
	}
	mode, ok := e.modes[sdk.Pair{Source: req.Source, Target: req.Target}]
	if !ok {
		return sdk.TranslateResult{}, fmt.Errorf("apertium has no %s→%s pair installed", req.Source, req.Target)
	}
	var res sdk.TranslateResult
	if len(req.Segments) == 0 {
		return res, nil
	}
	segs := req.Segments
	if req.Source == "sr" { // Apertium reads Serbo-Croatian in Latin
		segs = make([]string, len(req.Segments))
		for i, s := range req.Segments {
			segs[i] = serbianToLatin(s)
		}
	}
	toks, err := e.runSplit(ctx, mode, segs)
	if err != nil {
		return res, err
	}
	for i, src := range segs {
		out, warns := repair(src, toks[i])
		if req.Target == "sr" {
			out = serbianToCyrillic(out)
		}
		res.Segments = append(res.Segments, out)
		for _, w := range warns {
			res.Warnings = append(res.Warnings, fmt.Sprintf("segment %d: %s", i, w))
		}
	}
	return res, nil
}

// run translates a batch in one `apertium -f none` call on the stream
// format (stream.go). Should the output not split into as many segments as
// went in, the batch is halved and retried, so a segment that confuses
// Apertium cannot sink its neighbours.
func (e *engine) run(ctx context.Context, mode string, segs []string) ([][]tagged.Token, error) {
	cmd := exec.CommandContext(ctx, e.bin, e.args("-u", "-f", "none", mode)...)
	// os/exec feeds stdin and drains stdout in their own goroutines, so a
	// large batch cannot deadlock on full pipes.
	cmd.Stdin = strings.NewReader(encodeStream(segs))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("apertium %s: %w: %s", mode, err, strings.TrimSpace(stderr.String()))
	}
	out := decodeStream(stdout.String())
	if len(out) == len(segs) {
		return out, nil
	}
	if len(segs) == 1 {
		return nil, fmt.Errorf("apertium %s: segment came back as %d segments", mode, len(out))
	}
	half := len(segs) / 2
	a, err := e.run(ctx, mode, segs[:half])
	if err != nil {
		return nil, err
	}
	b, err := e.run(ctx, mode, segs[half:])
	if err != nil {
		return nil, err
	}
	return append(a, b...), nil
}

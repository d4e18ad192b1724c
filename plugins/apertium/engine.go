package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// engine runs one apertium process per batch.
type engine struct {
	bin string
	dir string

	once   sync.Once
	pairs  []sdk.Pair
	modes  map[sdk.Pair]string
	conErr error
}

func newEngine(bin, dir string) *engine {
	if bin == "" {
		bin = "apertium"
	}
	return &engine{bin: bin, dir: dir}
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
	toks, err := e.run(ctx, mode, req.Segments)
	if err != nil {
		return res, err
	}
	for i, src := range req.Segments {
		out, warns := repair(src, toks[i])
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

// Command dragoman-provider-pseudo is a pseudo-localisation engine: it
// serves every language pair without any model, writing each segment with
// the target's script, about 30 % longer and with its words reversed, so
// that a whole pipeline (layout, RTL, fonts, inline codes surviving word
// reordering, text expansion) can be tested and demonstrated offline.
//
// For tests of the service around an engine, two settings make it behave
// like a remote one: DRAGOMAN_PSEUDO_DELAY (a Go duration) answers each
// call only after that long, and DRAGOMAN_PSEUDO_CALL_LOG (a file) gets one
// JSON line per call answered, {"at": …, "segments": [the tagged texts]},
// written before the answer is sent.
package main

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type engine struct {
	delay time.Duration
	mu    sync.Mutex
	log   *os.File // nil: no log
}

func (*engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	return sdk.Capabilities{Name: "pseudo", AnyToAny: true, Modes: sdk.Modes}, nil
}

func (e *engine) Translate(ctx context.Context, req sdk.TranslateRequest) (sdk.TranslateResult, error) {
	script := scriptFor(req.Target)
	out := make([]string, len(req.Segments))
	for i, s := range req.Segments {
		out[i] = pseudo(s, script)
	}
	if e.delay > 0 {
		select {
		case <-time.After(e.delay):
		case <-ctx.Done():
			return sdk.TranslateResult{}, ctx.Err()
		}
	}
	if err := e.logCall(req.Segments); err != nil {
		return sdk.TranslateResult{}, err
	}
	return sdk.TranslateResult{Segments: out}, nil
}

// logCall appends the call to the call log, if there is one.
func (e *engine) logCall(segments []string) error {
	if e.log == nil {
		return nil
	}
	line, err := json.Marshal(struct {
		At       time.Time `json:"at"`
		Segments []string  `json:"segments"`
	}{time.Now().UTC(), segments})
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, err = e.log.Write(append(line, '\n'))
	return err
}

func main() {
	e := &engine{}
	if d, err := time.ParseDuration(os.Getenv("DRAGOMAN_PSEUDO_DELAY")); err == nil && d > 0 {
		e.delay = d
	}
	if p := os.Getenv("DRAGOMAN_PSEUDO_CALL_LOG"); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			panic(err)
		}
		e.log = f
	}
	sdk.ServeProvider(e)
}

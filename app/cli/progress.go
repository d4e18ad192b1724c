package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// display shows the progress of every document: bars on a terminal,
// one plain line per change elsewhere.
type display struct {
	mu  sync.Mutex
	w   io.Writer
	tty bool
	p   *mpb.Progress
}

func newDisplay(w io.Writer, tty bool) *display {
	d := &display{w: w, tty: tty}
	if tty {
		d.p = mpb.New(mpb.WithOutput(w), mpb.WithWidth(32))
	}
	return d
}

func (d *display) note(msg string) {
	if d.tty {
		return // the bars say it
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Fprintln(d.w, msg)
}

func (d *display) wait() {
	if d.p != nil {
		d.p.Wait()
	}
}

// tracker is one document's progress.
type tracker struct {
	d     *display
	name  string
	bar   *mpb.Bar
	mu    sync.Mutex
	state string
	last  string
}

const barTotal = 100

func (d *display) track(name string) *tracker {
	t := &tracker{d: d, name: name, state: "queued"}
	if d.tty {
		t.bar = d.p.AddBar(barTotal,
			mpb.PrependDecorators(
				decor.Name(name, decor.WC{C: decor.DSyncWidthR}),
				decor.Any(func(decor.Statistics) string { return t.text() }, decor.WC{W: 24, C: decor.DSyncWidthR}),
			),
			mpb.AppendDecorators(decor.Percentage(decor.WC{W: 5})),
		)
	}
	return t
}

func (t *tracker) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return " " + t.state
}

// update maps a step to a share of the bar: upload 0-15, the stages
// 15-75, download 75-100.
func (t *tracker) update(p client.Progress) {
	var pos int64
	var state string
	switch p.Phase {
	case client.PhaseUpload:
		state = "uploading"
		if p.Total > 0 {
			pos = 15 * p.Done / p.Total
		}
	case client.PhaseWaiting:
		state = fmt.Sprintf("rate limited, waiting %s", p.Wait)
	case client.PhaseProcess:
		state = strings.ReplaceAll(p.Stage, "_", " ")
		if state == "" {
			state = "queued"
		}
		for i, s := range client.Stages {
			if s == p.Stage {
				pos = 15 + int64(i)*10
			}
		}
	case client.PhaseDownload:
		state = "downloading"
		pos = 75
		if p.Total > 0 {
			pos += 25 * p.Done / p.Total
		}
	case client.PhaseDone:
		state, pos = "done", barTotal
	}
	t.mu.Lock()
	t.state = state
	changed := state != t.last
	t.last = state
	t.mu.Unlock()
	if t.bar != nil {
		if pos > 0 && pos < barTotal {
			t.bar.SetCurrent(pos)
		}
		return
	}
	if changed {
		line := t.name + ": " + state
		if p.Phase == client.PhaseProcess && p.JobID != "" {
			line += " (job " + p.JobID + ")"
		}
		t.d.note(line)
	}
}

func (t *tracker) finish(err error) {
	if t.bar != nil {
		t.mu.Lock()
		if err != nil {
			t.state = "failed"
		} else {
			t.state = "done"
		}
		t.mu.Unlock()
		if err != nil {
			t.bar.Abort(false)
		} else {
			t.bar.SetCurrent(barTotal)
		}
		return
	}
	if err != nil {
		t.d.note(t.name + ": failed")
	}
}

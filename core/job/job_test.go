package job

import (
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)

func TestTransitions(t *testing.T) {
	j := New("j", "a", t0)
	if j.Status != Pending || j.Stage != StageAccepted {
		t.Fatalf("new job: %s %s", j.Status, j.Stage)
	}
	if err := j.Advance(StageConverted, t0); !errors.Is(err, ErrTransition) {
		t.Errorf("a pending job advanced: %v", err)
	}
	if err := j.Complete(t0); !errors.Is(err, ErrTransition) {
		t.Errorf("a pending job completed: %v", err)
	}
	if err := j.Start(t0); err != nil || j.Status != Processing {
		t.Fatalf("start: %v %s", err, j.Status)
	}
	if err := j.Start(t0); err != nil {
		t.Errorf("restarting a processing job (redelivery) must be allowed: %v", err)
	}
	j.Advance(StageTranslated, t0)
	j.Advance(StageExtracted, t0) // a late, out-of-order stage never moves it back
	if j.Stage != StageTranslated {
		t.Errorf("stage went back to %s", j.Stage)
	}
	if err := j.Complete(t0.Add(time.Minute)); err != nil || j.Status != Completed || j.CompletedAt == nil {
		t.Fatalf("complete: %v %+v", err, j)
	}
	for name, f := range map[string]func() error{
		"start":    func() error { return j.Start(t0) },
		"fail":     func() error { return j.Fail("x", t0) },
		"complete": func() error { return j.Complete(t0) },
		"advance":  func() error { return j.Advance(StageLaidOut, t0) },
	} {
		if err := f(); !errors.Is(err, ErrTransition) {
			t.Errorf("%s on a completed job: %v", name, err)
		}
	}
}

func TestFailFromPendingAndProcessing(t *testing.T) {
	for _, start := range []bool{false, true} {
		j := New("j", "a", t0)
		if start {
			j.Start(t0)
		}
		if err := j.Fail("quota", t0); err != nil || j.Status != Failed || j.Error != "quota" || j.CompletedAt == nil {
			t.Errorf("fail (started %v): %v %+v", start, err, j)
		}
	}
}

func TestDownloadWindow(t *testing.T) {
	j := New("j", "a", t0)
	if j.Download(t0, time.Minute) != DownloadNotReady {
		t.Error("pending job downloadable")
	}
	j.Start(t0)
	j.Complete(t0)
	for _, c := range []struct {
		at   time.Duration
		want DownloadState
	}{{0, DownloadReady}, {59 * time.Second, DownloadReady}, {time.Minute, DownloadExpired}} {
		if got := j.Download(t0.Add(c.at), time.Minute); got != c.want {
			t.Errorf("at +%s: %v, want %v", c.at, got, c.want)
		}
	}
	at := t0
	j.ExpiredAt = &at
	if j.Download(t0, time.Minute) != DownloadExpired {
		t.Error("a deleted output is downloadable")
	}
}

func TestWarnOnce(t *testing.T) {
	j := New("j", "a", t0)
	j.Warn("w")
	j.Warn("w")
	if len(j.Warnings) != 1 {
		t.Errorf("warnings %v", j.Warnings)
	}
}

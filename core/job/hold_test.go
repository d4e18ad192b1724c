package job

import (
	"errors"
	"testing"
	"time"
)

func TestHoldConfirm(t *testing.T) {
	j := New("j", "a", t0)
	if j.Held() {
		t.Fatal("a new job is held")
	}
	if err := j.Hold(t0.Add(time.Hour)); err != nil || !j.Held() {
		t.Fatalf("hold: %v held=%v", err, j.Held())
	}
	if err := j.Confirm(t0.Add(time.Hour)); !errors.Is(err, ErrHoldExpired) || !j.Held() {
		t.Errorf("confirmed at the end of its hold: %v held=%v", err, j.Held())
	}
	if err := j.Confirm(t0.Add(time.Minute)); err != nil || j.Held() || j.HeldUntil != nil {
		t.Fatalf("confirm: %v held=%v", err, j.Held())
	}
	if err := j.Confirm(t0.Add(2 * time.Minute)); !errors.Is(err, ErrTransition) {
		t.Errorf("confirmed twice: %v", err)
	}
	if err := j.Start(t0); err != nil {
		t.Fatal(err)
	}
	if err := j.Hold(t0.Add(time.Hour)); !errors.Is(err, ErrTransition) {
		t.Errorf("a processing job was held: %v", err)
	}
}

func TestHeldJobThatFailedIsNotHeld(t *testing.T) {
	j := New("j", "a", t0)
	_ = j.Hold(t0.Add(time.Hour))
	_ = j.Fail("cancelled", t0)
	if j.Held() {
		t.Error("a failed job still counts as held")
	}
	if err := j.Confirm(t0); !errors.Is(err, ErrTransition) {
		t.Errorf("a cancelled held job was confirmed: %v", err)
	}
}

package e2e

import (
	"strings"

	"github.com/chromedp/chromedp"
)

// signIn checks the sign-in form: signed out, every page leads to it; a wrong
// password is refused in words; ana signs in.
func (tour *browserTour) signIn() {
	t, u := tour.t, tour.u
	// Signed out, every page leads to the sign-in form.
	u.open("/jobs")
	if loc := u.location(); !strings.Contains(loc, "/signin?next=%2Fjobs") {
		t.Fatalf("signed out /jobs went to %s", loc)
	}
	// A wrong password is refused in words.
	u.signIn("ana@example.com", "wrong password!")
	if msg := u.text(".alert.error"); !strings.Contains(msg, "Wrong e-mail address or password") {
		t.Fatalf("wrong password: %q", msg)
	}
	u.screenshot("01-signin-refused")
	u.signIn("ANA@example.com ", "correct horse battery")
	if loc := u.location(); !strings.HasSuffix(loc, "/translate") {
		t.Fatalf("after sign-in: %s (%s)", loc, u.text("main"))
	}
	u.screenshot("02-translate")
	u.strict("translate page")
}

// signInRefusals ends the tour: a second user of the account signs in with
// their one-time password; a disabled user and a suspended account are
// refused with the reason.
func (tour *browserTour) signInRefusals() {
	t, s, u := tour.t, tour.s, tour.u
	acctA, acctB, carlaPW := tour.acctA, tour.acctB, tour.carlaPW
	// A disabled user and a suspended account are refused with the reason.
	u.signIn("carla@example.com", carlaPW) // the one-time password works
	if loc := u.location(); !strings.HasSuffix(loc, "/translate") {
		u.screenshot("failed-carla")
		t.Fatalf("carla's sign-in: %s: %s", loc, u.text("main"))
	}
	u.open("/jobs")
	if !strings.Contains(u.text("#job-rows"), "oxpt-WC043") {
		t.Errorf("a second user of the account does not see its jobs")
	}
	s.admin("user", "disable", "--account", acctA, "--user", "carla@example.com")
	// The live page notices that its session ended and goes to sign-in.
	u.do("the jobs page notices", chromedp.WaitVisible(chromedp.CSS("#signin")))
	u.signIn("carla@example.com", carlaPW)
	if msg := u.text(".alert.error"); !strings.Contains(msg, "disabled") {
		t.Errorf("disabled user: %q", msg)
	}
	s.admin("account", "suspend", "--account", acctB)
	u.signIn("bo@example.org", "another long password")
	if msg := u.text(".alert.error"); !strings.Contains(msg, "suspended") {
		t.Errorf("suspended account: %q", msg)
	}
	u.screenshot("11-suspended")
}

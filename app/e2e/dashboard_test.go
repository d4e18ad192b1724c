package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDashboardInABrowser drives the real binary with headless Chromium:
// sign-in, translation with live progress and download, keys that work on
// the API at once, a signed webhook test ping with its history, and an
// account that sees nothing of another. Its steps, one concern each, live in
// the dashboard_browser_*_test.go files and run in this order on one tab.
func TestDashboardInABrowser(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	acctA := s.admin("account", "create", "--plan", "starter", "--name", "Acme")["account_id"].(string)
	acctB := s.admin("account", "create", "--plan", "free", "--name", "Other")["account_id"].(string)
	dashUser(t, s, acctA, "Ana@Example.com", "correct horse battery")
	dashUser(t, s, acctB, "bo@example.org", "another long password")
	// Without --password-file a one-time password is printed, and it works.
	oneTime := s.admin("user", "create", "--account", acctA, "--email", "carla@example.com")
	carlaPW, _ := oneTime["password"].(string)
	if len(carlaPW) < 16 {
		t.Fatalf("one-time password: %v", oneTime)
	}

	// Screenshots outlive the test (t.TempDir would delete them) so a
	// person can look at them; they go to the system's temp dir, never
	// into the repository.
	shots := os.Getenv("DASHBOARD_SCREENSHOTS")
	if shots == "" {
		var err error
		if shots, err = os.MkdirTemp("", "dragoman-dashboard-shots-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots in %s", shots)
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: shots}

	doc, _ := filepath.Abs("../../testdata/corpus/docx/oxpt-WC043-Nested-Table.docx")
	tour := &browserTour{t: t, s: s, u: u, rcv: rcv, acctA: acctA, acctB: acctB, carlaPW: carlaPW, doc: doc}

	tour.signIn()
	tour.translateForm()
	tour.translateAndWatch()
	tour.download()
	tour.preview()
	tour.translateByURL()
	tour.keys()
	tour.webhooks()
	tour.usage()
	tour.otherAccountSeesNothing()
	tour.limits()
	tour.signInRefusals()
}

// browserTour is what TestDashboardInABrowser's steps share: the server,
// the browser tab, the accounts, and what one step made for a later one.
type browserTour struct {
	t   *testing.T
	s   *server
	u   *ui
	rcv *receiver // the webhook receiver

	acctA, acctB string // Acme (ana, carla) and Other (bo)
	carlaPW      string // carla's one-time password
	doc          string // the corpus document translated

	arabicJob string // made by translateAndWatch
	hookPath  string // the first webhook's page, made by webhooks
}

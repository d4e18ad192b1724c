package webhook

import (
	"net/url"
	"strings"
	"sync"

	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

// inFlight counts the attempts running, by destination and by account,
// so that deliveries are scheduled per destination: a receiver that
// hangs holds at most Config.PerDestination slots, and an account at most
// Config.PerAccount, while the other receivers' deliveries go out
// (issue 26: one account's hanging receiver delayed another account's
// job.completed by 27 s with 20 jobs, 72 s with 40, when all deliveries
// shared 8 slots in due order).
type inFlight struct {
	mu      sync.Mutex
	dest    map[string]int
	account map[string]int
}

// destination is what one receiver is: scheme, host and port.
func destination(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	host := strings.ToLower(u.Host)
	if u.Port() == "" {
		host += map[string]string{"http": ":80", "https": ":443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

// admitter returns the Admit of one claim: it lets a delivery through
// while its destination and account are under their shares, counting the
// running attempts and those it let through in this claim; and a report
// of whether it held any back.
func (f *inFlight) admitter(perDest, perAccount int) (admit corewebhook.Admit, held func() bool) {
	batchDest, batchAccount := map[string]int{}, map[string]int{}
	var heldAny bool
	admit = func(accountID, rawURL string) bool {
		d := destination(rawURL)
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.dest[d]+batchDest[d] >= perDest || f.account[accountID]+batchAccount[accountID] >= perAccount {
			heldAny = true
			return false
		}
		batchDest[d]++
		batchAccount[accountID]++
		return true
	}
	return admit, func() bool { return heldAny }
}

// begin counts a claimed attempt as running.
func (f *inFlight) begin(c *corewebhook.Claim) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dest == nil {
		f.dest, f.account = map[string]int{}, map[string]int{}
	}
	f.dest[destination(c.URL)]++
	f.account[c.Delivery.AccountID]++
}

// end counts an attempt as finished.
func (f *inFlight) end(c *corewebhook.Claim) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d := destination(c.URL); f.dest[d] <= 1 {
		delete(f.dest, d)
	} else {
		f.dest[d]--
	}
	if a := c.Delivery.AccountID; f.account[a] <= 1 {
		delete(f.account, a)
	} else {
		f.account[a]--
	}
}

package problem

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// Of answers every kind with its status, in words without a plugin's
// transport text or a path of the server, and with Retry-After where
// waiting helps.
func TestOf(t *testing.T) {
	lost := errors.New(`rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /tmp/plugin99: connect: connection refused"`)
	for _, c := range []struct {
		err    error
		status int
		detail string
		retry  int
	}{
		{&service.Error{Kind: service.KindUnavailable, Message: "translation engines are unavailable: " + lost.Error(), Err: lost}, 503, failure.Lost, 10},
		{&service.Error{Kind: service.KindUnprocessable, Message: "a.odt: the document could not be converted: rpc error: code = Unknown desc = soffice could not convert /tmp/lo-1/in/a.odt: general input/output error"},
			422, "a.odt: the document could not be converted: soffice could not convert the document: general input/output error", 0},
		{fmt.Errorf("submit: %w", &ports.Unavailable{What: "the database", Reason: "is full", RetryAfter: time.Minute, Err: errors.New("disk I/O error: /var/lib/dragoman/db.sqlite")}),
			503, "the database is full; try again in 60 s", 60},
		{&service.Error{Kind: service.KindRateLimited, Message: "too many requests", RetryAfter: 3 * time.Second}, 429, "too many requests", 3},
		{&service.Error{Kind: service.KindNotFound, Message: "job j1 not found"}, 404, "job j1 not found", 0},
		{errors.New("sqlstore: scan /srv/x/y/z: bad row"), 500, Internal, 0},
	} {
		p := Of(c.err)
		if p.Status != c.status || p.Detail != c.detail || p.Message != c.detail || p.RetryAfter != c.retry {
			t.Errorf("%v:\n got %d %q (retry %d)\nwant %d %q (retry %d)", c.err, p.Status, p.Detail, p.RetryAfter, c.status, c.detail, c.retry)
		}
		if c.retry > 0 && p.GetHeaders().Get("Retry-After") != fmt.Sprint(c.retry) {
			t.Errorf("%v: Retry-After %q", c.err, p.GetHeaders().Get("Retry-After"))
		}
		for _, bad := range []string{"rpc error", "desc =", "/tmp/", "/var/", "/srv/"} {
			if strings.Contains(p.Detail, bad) {
				t.Errorf("%v: the detail says %q", c.err, bad)
			}
		}
	}
}

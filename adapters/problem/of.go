package problem

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// kindStatus is the status of each kind of core error.
var kindStatus = map[service.Kind]int{
	service.KindUnauthenticated: 401, service.KindForbidden: 403, service.KindNotFound: 404,
	service.KindGone: 410, service.KindTooLarge: 413, service.KindUnprocessable: 422,
	service.KindBadURL: 400, service.KindQuota: 402, service.KindRateLimited: 429,
	service.KindUnavailable: 503, service.KindConflict: 409, service.KindStale: 412,
}

// Internal is the detail of a 500: what failed is logged, not told.
const Internal = "internal error"

// Of is the problem that answers err, for the API and the dashboard
// alike: the status of its kind, its detail in the words of package
// failure (never a plugin's transport text, a path of the server or a Go
// error chain: those stay in err, for the caller's log), and Retry-After
// where waiting helps. A dependency that is down, full or locked
// (ports.Unavailable) is a 503 naming it, never a 500. Anything else the
// core did not classify is a 500 without detail.
func Of(err error) *Problem {
	var se *service.Error
	var down *ports.Unavailable
	switch {
	case errors.As(err, &se):
		st := kindStatus[se.Kind]
		if st == 0 {
			return New(http.StatusInternalServerError, Internal)
		}
		lost := failure.JobFailed
		if st == http.StatusServiceUnavailable {
			lost = failure.Lost
		}
		p := New(st, failure.WordsOr(se.Message, lost))
		switch {
		case se.Kind == service.KindRateLimited:
			p.WithRetryAfter(se.RetryAfter)
		case se.Kind == service.KindUnavailable && errors.As(se.Err, &down):
			p.WithRetryAfter(down.RetryAfter)
		case se.Kind == service.KindUnavailable && se.Err != nil: // a passing failure, not a missing feature
			p.WithRetryAfter(10 * time.Second)
		}
		return p
	case errors.As(err, &down):
		wait := max(down.RetryAfter, time.Second)
		secs := int((wait + time.Second - 1) / time.Second)
		return New(http.StatusServiceUnavailable, fmt.Sprintf("%s; try again in %d s", down.Message(), secs)).WithRetryAfter(wait)
	}
	return New(http.StatusInternalServerError, Internal)
}

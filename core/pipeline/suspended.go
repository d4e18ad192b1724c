package pipeline

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// SuspendedReason is the error of a job stopped because its account was
// suspended.
const SuspendedReason = "the account was suspended: the job was stopped and its words were not charged"

// stopIfSuspended fails j, when its account is suspended, before the
// pipeline spends more on it: a job of an account suspended mid-job stops
// at its next stage (a stage already running ends first) or before it
// completes, its reserved words are given back, its files deleted and
// job.failed announced, as for any failure. Resuming the account does not
// restart it. It reports whether the job was stopped.
func (p *Pipeline) stopIfSuspended(ctx context.Context, j *job.Job) (bool, error) {
	if p.Accounts == nil {
		return false, nil
	}
	a, err := p.Accounts.GetAccount(ctx, j.AccountID)
	if errors.Is(err, ports.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !a.Suspended {
		return false, nil
	}
	return true, p.fail(ctx, j, SuspendedReason)
}

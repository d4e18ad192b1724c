package service

import "github.com/dragoman-translate/dragoman/core/settle"

// settler settles the jobs the service ends (a cancellation) or completes
// again (a revision): what an outage stops stays due on the job, and the
// workers' sweep finishes it.
func (s *Service) settler() *settle.Settler {
	return &settle.Settler{Jobs: s.Jobs, Quota: s.Quota, Blobs: s.Blobs, Bus: s.Bus, Clock: s.Clock}
}

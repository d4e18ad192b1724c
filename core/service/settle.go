package service

import "github.com/dragoman-translate/dragoman/core/settle"

// The use cases that end a job (a cancellation) or complete it again (a
// revision) settle it as the pipeline does: what an outage stops stays due
// on the job, and the workers' sweep finishes it.

func (s *Jobs) settler() *settle.Settler {
	return &settle.Settler{Jobs: s.Jobs, Quota: s.Quota, Blobs: s.Blobs, Bus: s.Bus, Clock: s.Clock}
}

// A revision owes only its announcement: no words to give back.
func (s *Documents) settler() *settle.Settler {
	return &settle.Settler{Jobs: s.Jobs, Blobs: s.Blobs, Bus: s.Bus, Clock: s.Clock}
}

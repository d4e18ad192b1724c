package e2e

import (
	"testing"
)

// jobLatencyWhereRecorded: in scale-out the job latency histogram is
// observed by the process that records a job's end, a worker; the API
// processes, which only accept jobs, observe none. Every process exports
// dragoman_build_info. workers are the live ones, which ended at least
// ended jobs.
func jobLatencyWhereRecorded(t *testing.T, apis, workers []*server, ended float64) {
	t.Helper()
	var byWorkers float64
	for _, w := range workers {
		m := w.scrape()
		v, _ := sum(m, "dragoman_job_duration_seconds_count", map[string]string{"outcome": "completed"})
		byWorkers += v
		if b, ok := sum(m, "dragoman_build_info", nil); !ok || b != 1 {
			t.Errorf("worker build_info %v", b)
		}
	}
	if byWorkers < ended {
		t.Errorf("the workers observed %v completed jobs in dragoman_job_duration_seconds, want at least %v", byWorkers, ended)
	}
	for _, a := range apis {
		m := a.scrape()
		if v, _ := sum(m, "dragoman_job_duration_seconds_count", map[string]string{"outcome": "completed"}); v != 0 {
			t.Errorf("an API process observed %v job ends it did not record", v)
		}
		if b, ok := sum(m, "dragoman_build_info", nil); !ok || b != 1 {
			t.Errorf("API build_info %v", b)
		}
	}
}

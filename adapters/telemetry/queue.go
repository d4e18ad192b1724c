package telemetry

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// queueStages are the pipeline's steps with the stages a job waiting for
// (or in) each has last finished: the queue it waits in. A job in its
// pass (translate) goes through several.
var queueStages = []struct {
	next string
	done []job.Stage
}{
	{"convert", []job.Stage{job.StageAccepted}},
	{"translate", []job.Stage{job.StageConverted, job.StageExtracted, job.StageTranslated, job.StageAssembled}},
	{"finish", []job.Stage{job.StageLaidOut}},
}

// WatchQueues exports, at every scrape, how many unfinished jobs wait for
// (or are in) each stage and how long the oldest of them has waited since
// its last change. It reads the job store, so every process of a
// deployment reports the same shared queue.
func (m *Metrics) WatchQueues(jobs ports.JobStore, clock ports.Clock) {
	m.reg.MustRegister(&queueCollector{jobs: jobs, clock: clock,
		depth: prometheus.NewDesc(Namespace+"_queue_depth", "Unfinished jobs waiting for or in each stage.", []string{"stage"}, nil),
		age:   prometheus.NewDesc(Namespace+"_queue_oldest_age_seconds", "Time since the oldest job waiting for or in each stage last changed (0 when none).", []string{"stage"}, nil),
	})
}

type queueCollector struct {
	jobs       ports.JobStore
	clock      ports.Clock
	depth, age *prometheus.Desc
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.depth; ch <- c.age }

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	jobs, err := c.jobs.Unfinished(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.depth, err)
		return
	}
	now := c.clock.Now()
	count := map[job.Stage]int{}
	oldest := map[job.Stage]time.Time{}
	for _, j := range jobs {
		count[j.Stage]++
		if o, ok := oldest[j.Stage]; !ok || j.UpdatedAt.Before(o) {
			oldest[j.Stage] = j.UpdatedAt
		}
	}
	for _, q := range queueStages {
		n, age := 0, 0.0
		for _, st := range q.done {
			n += count[st]
			if o, ok := oldest[st]; ok {
				age = max(age, now.Sub(o).Seconds())
			}
		}
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(n), q.next)
		ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, age, q.next)
	}
}

package e2e

import (
	"crypto/tls"
	"database/sql"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore/pgtest"
)

// BenchmarkRateLimitScaleOut measures what counting the per-minute limit
// costs on PostgreSQL with production durability (fsync, synchronous
// commits): two api processes on one database, clients polling one job
// through both. Each mode runs the load paced at 300 requests/s, then
// closed-loop with 32 clients (the most the two processes serve), with the
// account's requests counted (a limit of 10,000,000 a minute: every
// request passes and is counted) and uncounted (no limit: nothing is
// written), and reports requests/s, latencies and the WAL written per
// request.
//
//	DRAGOMAN_BIN=$PWD/bin go test -run '^$' -bench RateLimitScaleOut -benchtime 1x ./app
func BenchmarkRateLimitScaleOut(b *testing.B) {
	pg, err := pgtest.StartDurable()
	if err != nil {
		b.Fatal(err)
	}
	defer pg.Remove()
	dbURL := pg.Database(b)
	so := newScaleOut(dbURL, s3test.Start(b), startNATS(b))
	a, a2 := so.process(b, "api"), so.process(b, "api")
	acct := so.admin(b, "account", "create", "--plan", "pro", "--name", "bench")["account_id"].(string)
	key := so.admin(b, "key", "create", "--account", acct)["api_key"].(string)
	r := a.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if r.status != 202 {
		b.Fatalf("submit: %d %s", r.status, r.body)
	}
	path := "/v1/jobs/" + r.json(b)["job_id"].(string)
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, mode := range []struct{ name, rpm string }{{"uncounted", "0"}, {"counted", "10000000"}} {
		// 0 (no limit) is below what the admin CLI accepts: set it directly.
		if _, err := db.Exec(`UPDATE accounts SET rpm_override = `+mode.rpm+` WHERE id = $1`, acct); err != nil {
			b.Fatal(err)
		}
		time.Sleep(2 * time.Second) // the processes read the plan per request; let the pools settle
		for _, load := range []struct {
			name    string
			rate    int // requests/s; 0: closed loop
			clients int
		}{{"paced300", 300, 32}, {"max32", 0, 32}} {
			b.Run(mode.name+"/"+load.name, func(b *testing.B) {
				wal0, ins0 := walAndHits(b, db)
				res := pollLoad([]*server{a, a2}, key, path, load.rate, load.clients, 15*time.Second)
				wal1, ins1 := walAndHits(b, db)
				n := float64(max(res.ok, 1))
				b.ReportMetric(res.perSecond, "req/s")
				b.ReportMetric(res.p50.Seconds()*1000, "p50-ms")
				b.ReportMetric(res.p99.Seconds()*1000, "p99-ms")
				b.ReportMetric(float64(wal1-wal0)/n, "WAL-B/req")
				b.ReportMetric(float64(ins1-ins0)/n, "rows/req")
				if res.failed > 0 {
					b.Errorf("%d requests failed", res.failed)
				}
			})
		}
	}
}

// walAndHits is the WAL position and the rows inserted into the rate
// limit's table so far.
func walAndHits(b *testing.B, db *sql.DB) (wal, rows int64) {
	if err := db.QueryRow(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint`).Scan(&wal); err != nil {
		b.Fatal(err)
	}
	db.Exec(`SELECT pg_stat_force_next_flush()`)
	_ = db.QueryRow(`SELECT COALESCE(SUM(n_tup_ins + n_tup_upd), 0)::bigint FROM pg_stat_user_tables WHERE relname LIKE 'rate_limit%'`).Scan(&rows)
	return wal, rows
}

type loadResult struct {
	ok, failed int
	perSecond  float64
	p50, p99   time.Duration
}

// pollLoad GETs path on the servers in turn from clients goroutines for
// d, paced at rate requests/s in all (0: as fast as they answer).
func pollLoad(servers []*server, key, path string, rate, clients int, d time.Duration) loadResult {
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var (
		mu      sync.Mutex
		lat     []time.Duration
		failed  atomic.Int64
		wg      sync.WaitGroup
		tickets = make(chan struct{}, clients)
		stop    = make(chan struct{})
	)
	if rate > 0 {
		go func() {
			t := time.NewTicker(time.Second / time.Duration(rate))
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					select {
					case tickets <- struct{}{}:
					default: // every client busy: the load is not met
					}
				}
			}
		}()
	}
	began := time.Now()
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; ; n++ {
				if rate > 0 {
					select {
					case <-tickets:
					case <-stop:
						return
					}
				} else {
					select {
					case <-stop:
						return
					default:
					}
				}
				s := servers[n%len(servers)]
				req, _ := http.NewRequest("GET", s.url(path), nil)
				req.Header.Set("X-API-Key", key)
				t0 := time.Now()
				resp, err := c.Do(req)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if err != nil || resp.StatusCode != 200 {
					failed.Add(1)
					continue
				}
				mu.Lock()
				lat = append(lat, time.Since(t0))
				mu.Unlock()
			}
		}()
	}
	time.Sleep(d)
	close(stop)
	wg.Wait()
	elapsed := time.Since(began)
	slices.Sort(lat)
	r := loadResult{ok: len(lat), failed: int(failed.Load()), perSecond: float64(len(lat)) / elapsed.Seconds()}
	if len(lat) > 0 {
		r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	return r
}

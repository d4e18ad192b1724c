package service

import (
	"context"
	"time"

	"github.com/dragoman-translate/dragoman/core/quota"
)

// DayWords is the words charged on one day.
type DayWords struct {
	Day   time.Time
	Words int64
}

// UsageByDay lists every day of the caller's current period up to today
// with the words charged that day.
func (s *Accounts) UsageByDay(ctx context.Context, c *Caller) ([]DayWords, error) {
	if s.History == nil {
		return nil, nil
	}
	now := s.Clock.Now().UTC()
	byDay, err := s.History.DailyUsage(ctx, c.Account.ID, quota.Period(now))
	if err != nil {
		return nil, err
	}
	var out []DayWords
	for d := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC); !d.After(now); d = d.AddDate(0, 0, 1) {
		out = append(out, DayWords{Day: d, Words: byDay[d.Format("2006-01-02")]})
	}
	return out, nil
}

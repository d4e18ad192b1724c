package sqlstore

import (
	"fmt"
	"time"
)

// timeLayout is fixed-width so that SQLite TEXT times sort and compare as
// strings; PostgreSQL parses the same text into TIMESTAMPTZ.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// norm is a time as the store keeps it: UTC, whole microseconds (the
// precision of PostgreSQL), so a stored time reads back Equal and ==.
func norm(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func normPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := norm(*t)
	return &n
}

// ts is a time as a query argument.
func ts(t time.Time) string { return norm(t).Format(timeLayout) }

// tsPtr is a nullable time as a query argument.
func tsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ts(*t)
}

// timeCol scans a time from either driver: time.Time from PostgreSQL,
// text from SQLite.
type timeCol struct{ time.Time }

func (c *timeCol) Scan(src any) error {
	t, ok, err := parseTime(src)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("sqlstore: NULL in a NOT NULL time column")
	}
	c.Time = t
	return nil
}

// nullTimeCol scans a nullable time.
type nullTimeCol struct{ T *time.Time }

func (c *nullTimeCol) Scan(src any) error {
	t, ok, err := parseTime(src)
	if err != nil {
		return err
	}
	c.T = nil
	if ok {
		c.T = &t
	}
	return nil
}

func parseTime(src any) (time.Time, bool, error) {
	switch v := src.(type) {
	case nil:
		return time.Time{}, false, nil
	case time.Time:
		return norm(v), true, nil
	case string:
		t, err := time.Parse(time.RFC3339Nano, v)
		return norm(t), err == nil, err
	case []byte:
		t, err := time.Parse(time.RFC3339Nano, string(v))
		return norm(t), err == nil, err
	}
	return time.Time{}, false, fmt.Errorf("sqlstore: cannot scan %T into a time", src)
}

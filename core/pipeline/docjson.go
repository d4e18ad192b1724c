package pipeline

import (
	"encoding/json"
	"io"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// docWriter writes a segment.Document's JSON (the form json.Marshal gives
// it) one unit at a time, as a pass translates them: json.Encoder would
// build the whole document's JSON in memory first.
type docWriter struct {
	w   io.Writer
	n   int
	err error
}

func (d *docWriter) begin(format string) {
	f, _ := json.Marshal(format)
	d.write([]byte(`{"format":`))
	d.write(f)
	d.write([]byte(`,"units":[`))
}

func (d *docWriter) unit(u *segment.Unit) error {
	b, err := json.Marshal(u)
	if err != nil {
		return err
	}
	if d.n > 0 {
		d.write([]byte{','})
	}
	d.n++
	d.write(b)
	return d.err
}

func (d *docWriter) end() error {
	d.write([]byte("]}\n"))
	return d.err
}

func (d *docWriter) write(b []byte) {
	if d.err == nil {
		_, d.err = d.w.Write(b)
	}
}

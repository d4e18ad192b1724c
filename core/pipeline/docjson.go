package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// putDoc stores doc as JSON, unit by unit: json.Encoder would build the
// whole document's JSON in memory before writing it (as large again as the
// text, for every stage that stores segments).
func (p *Pipeline) putDoc(ctx context.Context, k string, doc *segment.Document) error {
	return p.write(ctx, k, func(w io.Writer) error { return encodeDoc(w, doc) })
}

// encodeDoc writes the JSON of doc (the form json.Marshal gives it) one
// unit at a time.
func encodeDoc(w io.Writer, doc *segment.Document) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	format, err := json.Marshal(doc.Format)
	if err != nil {
		return err
	}
	bw.WriteString(`{"format":`)
	bw.Write(format)
	bw.WriteString(`,"units":[`)
	for i := range doc.Units {
		if i > 0 {
			bw.WriteByte(',')
		}
		u, err := json.Marshal(&doc.Units[i])
		if err != nil {
			return err
		}
		if _, err := bw.Write(u); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

func (p *Pipeline) getDoc(ctx context.Context, k string) (*segment.Document, error) {
	b, err := p.Blobs.Open(ctx, k)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	d, err := decodeDoc(b)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", k, err)
	}
	return d, nil
}

// decodeDoc reads a document's JSON unit by unit: json.Decoder.Decode
// would first read the whole JSON into memory, beside the document it
// builds from it.
func decodeDoc(r io.Reader) (*segment.Document, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	d := &segment.Document{}
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t {
		case "format":
			if err := dec.Decode(&d.Format); err != nil {
				return nil, err
			}
		case "units":
			t, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if t == nil { // an empty document stored by json.Encoder
				continue
			}
			if t != json.Delim('[') {
				return nil, fmt.Errorf("expected [, found %v", t)
			}
			for dec.More() {
				d.Units = append(d.Units, segment.Unit{})
				if err := dec.Decode(&d.Units[len(d.Units)-1]); err != nil {
					return nil, err
				}
			}
			if err := expectDelim(dec, ']'); err != nil {
				return nil, err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	return d, expectDelim(dec, '}')
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != want {
		return fmt.Errorf("expected %v, found %v", want, t)
	}
	return nil
}

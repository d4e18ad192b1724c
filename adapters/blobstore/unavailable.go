package blobstore

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// unavailable turns the errors of a store that cannot serve (its disk is
// full, the S3 server is down or overloaded) into *ports.Unavailable,
// which the API answers with 503 and Retry-After and the pipeline retries;
// a missing blob, a bad key or another failure is left as it is.
func unavailable(err error) error {
	if err == nil || errors.Is(err, ports.ErrNotFound) || errors.Is(err, ports.ErrUnavailable) || errors.Is(err, ErrBadKey) {
		return err
	}
	down := func(reason string, wait time.Duration) error {
		return &ports.Unavailable{What: "the document store", Reason: reason, RetryAfter: wait, Err: err}
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return down("is full (no space left on its disk)", time.Minute)
	case errors.Is(err, syscall.EROFS), errors.Is(err, syscall.EIO):
		return down("cannot be written", 30*time.Second)
	}
	switch resp := minio.ToErrorResponse(err); {
	case resp.StatusCode >= 500, resp.Code == "SlowDown", resp.Code == "ServiceUnavailable", resp.Code == "RequestTimeout":
		return down("is not answering", 5*time.Second)
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || strings.HasSuffix(err.Error(), " is offline.") {
		return down("is not answering", 5*time.Second)
	}
	return err
}

package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/dragoman-translate/dragoman/plugins/sdk/pluginpb/dragoman/plugin/v1"
)

// ChunkSize is the largest data chunk either side sends; well under gRPC's
// 4 MiB message limit.
const ChunkSize = 512 << 10

// ConverterPlugin is the go-plugin glue for converters: the plugin side
// serves Impl, the host side gets a *ConverterClient.
type ConverterPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Converter
}

var _ plugin.GRPCPlugin = (*ConverterPlugin)(nil)

func (p *ConverterPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterConverterServer(s, &converterServer{impl: p.Impl})
	return nil
}

func (p *ConverterPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return &ConverterClient{rpc: pb.NewConverterClient(c)}, nil
}

type converterServer struct {
	pb.UnimplementedConverterServer
	impl Converter
}

func (s *converterServer) Formats(context.Context, *pb.FormatsRequest) (*pb.FormatsResponse, error) {
	resp := &pb.FormatsResponse{Formats: s.impl.Formats(), ProtocolVersion: ProtocolVersion}
	if _, ok := s.impl.(PDFRenderer); ok {
		resp.Targets = []string{TargetPDF}
	}
	if c, ok := s.impl.(ConcurrencyReporter); ok {
		resp.MaxConcurrent = uint32(max(c.MaxConcurrent(), 0))
	}
	return resp, nil
}

func (s *converterServer) Health(ctx context.Context, _ *pb.HealthRequest) (*pb.HealthResponse, error) {
	return health(ctx, s.impl), nil
}

func (s *converterServer) Convert(stream pb.Converter_ConvertServer) error {
	first, err := stream.Recv()
	if err != nil {
		return fmt.Errorf("convert: reading the first chunk: %w", err)
	}
	if first.Format == "" {
		return errors.New("convert: the first chunk must name the source format")
	}
	in := &chunkReader{recv: stream.Recv, buf: first.Data}
	out := &chunkWriter{send: func(b []byte) error { return stream.Send(&pb.Chunk{Data: b}) }}
	convert := s.impl.Convert
	switch first.Target {
	case "", "docx":
	case TargetPDF:
		r, ok := s.impl.(PDFRenderer)
		if !ok {
			return status.Error(codes.Unimplemented, "convert: this converter renders no PDF")
		}
		convert = r.RenderPDF
	default:
		return status.Errorf(codes.InvalidArgument, "convert: unknown target format %q", first.Target)
	}
	if err := convert(stream.Context(), first.Format, in, out); err != nil {
		return err
	}
	return out.Flush()
}

// ConverterClient is the host's handle on a converter plugin; the host's
// adapters/pluginhost maps it to its own ports. It implements Converter and
// HealthChecker.
type ConverterClient struct {
	rpc           pb.ConverterClient
	formats       []string
	targets       []string
	maxConcurrent int
}

var (
	_ Converter     = (*ConverterClient)(nil)
	_ HealthChecker = (*ConverterClient)(nil)
)

// Load asks the plugin for its formats once; Formats answers from memory,
// because Converter.Formats cannot fail.
func (c *ConverterClient) Load(ctx context.Context) error {
	resp, err := c.rpc.Formats(ctx, &pb.FormatsRequest{})
	if err != nil {
		return err
	}
	if resp.ProtocolVersion != ProtocolVersion {
		return &VersionError{Plugin: "converter", PluginVersion: int(resp.ProtocolVersion)}
	}
	c.formats, c.targets, c.maxConcurrent = resp.Formats, resp.Targets, int(resp.MaxConcurrent)
	return nil
}

// MaxConcurrent is the most documents the plugin converts at once, as
// loaded by Load; 0 when the plugin does not say (one built before the
// protocol had the field, or one without ConcurrencyReporter).
func (c *ConverterClient) MaxConcurrent() int { return c.maxConcurrent }

// Targets lists the output formats besides docx ("pdf"), as loaded by Load.
func (c *ConverterClient) Targets() []string { return c.targets }

// Formats lists the source formats, as loaded by Load.
func (c *ConverterClient) Formats() []string { return c.formats }

// Health pings the plugin.
func (c *ConverterClient) Health(ctx context.Context) error {
	resp, err := c.rpc.Health(ctx, &pb.HealthRequest{})
	if err != nil {
		return err
	}
	if !resp.Ok {
		return fmt.Errorf("plugin unhealthy: %s", resp.Detail)
	}
	return nil
}

// Convert streams in to the plugin and its .docx to out, both at once, so
// neither side has to hold a whole document.
func (c *ConverterClient) Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	return c.convert(ctx, format, "", in, out)
}

// RenderPDF streams in to the plugin and its PDF rendition to out; only
// for a plugin whose Targets include "pdf".
func (c *ConverterClient) RenderPDF(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	return c.convert(ctx, format, TargetPDF, in, out)
}

func (c *ConverterClient) convert(ctx context.Context, format, target string, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.Convert(ctx)
	if err != nil {
		return err
	}
	sendErr := make(chan error, 1)
	go func() {
		err := sendAll(stream, format, target, in)
		if err != nil && !errors.Is(err, io.EOF) {
			cancel() // the plugin would wait for the rest forever
		}
		sendErr <- err
	}()
	recvErr := receiveAll(stream, out)
	if recvErr != nil {
		cancel() // unblocks the sender
	}
	if err := <-sendErr; err != nil && !errors.Is(err, io.EOF) {
		return err // the read error caused the cancel that recvErr reports
	}
	return documentError(recvErr)
}

// documentError maps the plugin's gRPC status to what the pipeline needs:
// InvalidArgument, DeadlineExceeded and FailedPrecondition become an
// *Error that ends the job with the plugin's message (it matches
// ErrBadDocument); anything else (a crash) may be retried.
func documentError(err error) error { return fromStatus(err) }

func sendAll(stream pb.Converter_ConvertClient, format, target string, in io.Reader) error {
	if err := stream.Send(&pb.Chunk{Format: format, Target: target}); err != nil {
		return err
	}
	for {
		buf := make([]byte, ChunkSize) // gRPC may still hold the last one
		n, err := in.Read(buf)
		if n > 0 {
			if err := stream.Send(&pb.Chunk{Data: buf[:n]}); err != nil {
				return err // io.EOF: the plugin ended the call; Recv has its status
			}
		}
		if errors.Is(err, io.EOF) {
			return stream.CloseSend()
		}
		if err != nil {
			return fmt.Errorf("convert: reading the document: %w", err)
		}
	}
}

func receiveAll(stream pb.Converter_ConvertClient, out io.Writer) error {
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := out.Write(chunk.Data); err != nil {
			return fmt.Errorf("convert: writing the result: %w", err)
		}
	}
}

// chunkReader reads a stream of chunks as one byte stream.
type chunkReader struct {
	recv func() (*pb.Chunk, error)
	buf  []byte
	err  error
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		c, err := r.recv()
		if err != nil {
			r.err = err
			continue
		}
		r.buf = c.Data
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// chunkWriter cuts a byte stream into chunks of ChunkSize.
type chunkWriter struct {
	send func([]byte) error
	buf  []byte
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		room := ChunkSize - len(w.buf)
		take := min(room, len(p))
		w.buf = append(w.buf, p[:take]...)
		p = p[take:]
		if len(w.buf) == ChunkSize {
			if err := w.Flush(); err != nil {
				return n - len(p), err
			}
		}
	}
	return n, nil
}

// Flush sends what is buffered.
func (w *chunkWriter) Flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	err := w.send(w.buf)
	w.buf = nil // gRPC may still hold the sent slice
	return err
}

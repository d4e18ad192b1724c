// Package sdk is what a Dragoman plugin is built with. A plugin is its own
// executable that the host starts with hashicorp/go-plugin over gRPC; the
// host finds it by file name in its plugin directory:
//
//	dragoman-provider-<name>   a translation engine (ServeProvider)
//	dragoman-converter-<name>  a .doc/.odt/.rtf → .docx converter (ServeConverter)
//
// A whole engine is a main package of a few lines:
//
//	type engine struct{}
//
//	func (engine) Capabilities(ctx context.Context) (ports.Capabilities, error) {
//		return ports.Capabilities{Name: "upper", AnyToAny: true}, nil
//	}
//
//	func (engine) Translate(ctx context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
//		out := make([]string, len(r.Segments))
//		for i, s := range r.Segments {
//			out[i] = strings.ToUpper(s) // a real engine keeps the <g>/<x> codes intact
//		}
//		return ports.TranslateResult{Segments: out}, nil
//	}
//
//	func main() { sdk.ServeProvider(engine{}) }
//
// The plugin inherits the host's environment, so it reads its own
// DRAGOMAN_<ENGINE>_… settings. It must not write to stdout (go-plugin's
// handshake line goes there) and logs with Logger(), whose records reach the
// host's log with their level; go-plugin discards what a plugin writes to
// os.Stderr once it serves.
package sdk

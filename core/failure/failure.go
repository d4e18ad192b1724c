// Package failure words what went wrong for the people and programs the
// service answers: an API problem's detail, a job's error (its status, its
// job.failed webhook), a dashboard page. What a plugin or a library said
// (gRPC's wrapping, a broken connection's transport text, a temporary
// path on the server, a Go error chain) stays in the logs; the answer says
// what happened in a sentence a person can act on.
//
// This is the one place that wording lives: the HTTP API (adapters/problem)
// and the dashboard both call it, so the two never tell the same failure
// differently.
package failure

import (
	"errors"
	"regexp"
	"strings"
)

// JobFailed is said of a job's failure that nothing a person can read
// explains (a plugin process that stopped answering).
const JobFailed = "the translation could not be finished because of a problem on our side; try again, and if it fails again the document may be damaged"

// Lost is said of a request refused because a plugin process (a
// translation engine, a converter) stopped answering.
const Lost = "a translation engine or document converter of the server is not answering; try again in a moment"

// EnginesDown is said of a request refused because no translation engine
// answers (none could be started, or every one is failing).
const EnginesDown = "no translation engine is answering right now; try again in a moment"

var (
	// gRPC's wrapping of a plugin's error: "rpc error: code = Unknown desc = ".
	rpcPrefix = regexp.MustCompile(`(?:rpc error: code = \w+ desc = )+`)
	// gRPC's codes for a call that never reached the plugin's own code:
	// its process died or its connection broke.
	lostCode = regexp.MustCompile(`rpc error: code = (?:Unavailable|Canceled|Internal|DataLoss) desc = `)
	// What is left of a broken connection to a plugin: nothing a person can
	// act on. ("unexpected EOF" alone is not one: XML and zip readers say
	// it of a truncated document, which the person can mend.)
	transport = regexp.MustCompile(`(?i)\b(?:desc = |code = |transport: |connection (?:error|refused|reset)|broken pipe|plugin (?:exited|crashed)|panic:|goroutine \d+|unrecognized remote plugin message|plugin's stdout|exit status \d+|did not start)`)
	// A path on the server: temporary folders and any absolute path three levels deep.
	serverPath = regexp.MustCompile(`(?:/tmp|/var/tmp|/dev/shm|/run)(?:/[^\s:;,'"()]+)+|(?:/[\w.+\-]+){3,}`)
)

// Words is msg, a message of the core or of a plugin, as it may be shown:
// gRPC's wrapping taken off, each path on the server said as "the
// document", and JobFailed for a message that only tells of a broken
// connection to a plugin.
func Words(msg string) string { return WordsOr(msg, JobFailed) }

// WordsOr is Words saying lost, rather than JobFailed, for a message that
// only tells of a broken connection.
func WordsOr(msg, lost string) string {
	if lostCode.MatchString(msg) {
		return lost
	}
	msg = strings.TrimSpace(rpcPrefix.ReplaceAllString(msg, ""))
	if transport.MatchString(msg) {
		return lost
	}
	return withoutServerPaths(msg)
}

// withoutServerPaths says "the document" for each path on the server; a
// URL's path (after "//host"), the API's own (/v1/…) and a quoted one (a
// name the message quotes from the person's own document, such as a zip
// entry's) are not one.
func withoutServerPaths(msg string) string {
	var b strings.Builder
	last := 0
	for _, m := range serverPath.FindAllStringIndex(msg, -1) {
		quoted := m[0] > 0 && msg[m[0]-1] == '"' && m[1] < len(msg) && msg[m[1]] == '"'
		if quoted || m[0] > 0 && strings.ContainsRune(":/.", rune(msg[m[0]-1])) || isWordByte(msg, m[0]-1) || strings.HasPrefix(msg[m[0]:], "/v1/") {
			continue
		}
		b.WriteString(msg[last:m[0]])
		b.WriteString("the document")
		last = m[1]
	}
	return b.String() + msg[last:]
}

func isWordByte(s string, i int) bool {
	if i < 0 {
		return false
	}
	c := s[i]
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Raw is the whole text of err for a log: its message and, where the
// message does not already say it, its cause's (a refusal worded for the
// client keeps what the plugin or the library said behind it).
func Raw(err error) string {
	if err == nil {
		return ""
	}
	msg, u := err.Error(), errors.Unwrap(err)
	switch {
	case u == nil:
		return msg
	case strings.Contains(msg, u.Error()):
		return strings.Replace(msg, u.Error(), Raw(u), 1)
	}
	return msg + ": " + Raw(u)
}

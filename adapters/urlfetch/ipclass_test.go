package urlfetch

import (
	"net/netip"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestForbiddenAddresses(t *testing.T) {
	for _, s := range []string{
		"127.0.0.1", "127.255.255.254", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255",
		"192.168.1.1", "169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.255",
		"0.0.0.0", "0.1.2.3", "255.255.255.255", "240.0.0.1", "224.0.0.1", "239.255.255.250",
		"192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "192.0.0.8", "192.88.99.1",
		"::", "::1", "fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456::1", "ff02::1", "fec0::1",
		"2001:db8::1", "3fff::1", "100::1", "2001::1", "2001:2::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:0.0.0.0",
		"::127.0.0.1",        // IPv4-compatible
		"64:ff9b::7f00:1",    // NAT64 of 127.0.0.1
		"64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254
		"64:ff9b:1::1",       // local-use NAT64
		"2002:7f00:1::1",     // 6to4 of 127.0.0.1
		"2002:c0a8:101::1",   // 6to4 of 192.168.1.1
	} {
		ip, err := netip.ParseAddr(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if forbidden(ip) == "" {
			t.Errorf("%s is allowed, want forbidden", s)
		}
	}
}

func TestAllowedAddresses(t *testing.T) {
	for _, s := range []string{
		"1.1.1.1", "8.8.8.8", "93.184.215.14", "172.15.255.255", "172.32.0.1", "100.63.255.255",
		"100.128.0.1", "169.253.1.1", "192.169.0.1", "11.0.0.1", "223.255.255.255", "198.20.0.1",
		"2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
		"2002:808:808::1", "2400:cb00::1",
	} {
		ip, err := netip.ParseAddr(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if why := forbidden(ip); why != "" {
			t.Errorf("%s is forbidden (%s), want allowed", s, why)
		}
	}
	if forbidden(netip.Addr{}) == "" {
		t.Error("the zero Addr must be forbidden")
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{
		"report.docx":          "report.docx",
		"../../etc/passwd":     "passwd",
		`C:\Users\me\doc.docx`: "doc.docx",
		"a\x00b\x1fc\x7f.docx": "abc.docx",
		"evil\u202excod.exe":   "evilxcod.exe", // right-to-left override removed
		"  spaced.docx  ":      "spaced.docx",
		"..":                   "",
		"/":                    "",
		"דוח שנתי.docx":        "דוח שנתי.docx",
		"trailing.docx.":       "trailing.docx",
		"":                     "",
	} {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	long := sanitizeName(strings.Repeat("ש", 300))
	if len(long) > 200 || !utf8.ValidString(long) {
		t.Errorf("long name not cut safely: %d bytes", len(long))
	}
}

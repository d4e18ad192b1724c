package pool

import (
	"os"
	"path/filepath"
)

// lockedDown is the user configuration every profile starts with: a
// document may name pictures, objects, sections and fields anywhere, and
// converting it must fetch none of them (issue 15: soffice sent
// OPTIONS/HEAD/GET to loopback for an uploaded .odt).
//
//   - Writer/Content/Update/Link 0: never update links (1, the default,
//     asks, and a headless office takes the default answer).
//   - Writer/Content/Update/Field false: no field refresh on load
//     (INCLUDETEXT, INCLUDEPICTURE).
//   - Security/Scripting/BlockUntrustedRefererLinks: no linked picture is
//     loaded for a document whose referer is not a trusted location; the
//     helper loads each document with an untrusted referer.
//   - Macros off, and no link-warning dialog to hang on.
//
// The network namespace (netns_linux.go) is the second wall.
const lockedDown = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Field" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Chart" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowLinkWarningDialog" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`

// writeProfile seeds a new profile directory with lockedDown.
func writeProfile(profileDir string) error {
	user := filepath.Join(profileDir, "user")
	if err := os.MkdirAll(user, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(user, "registrymodifications.xcu"), []byte(lockedDown), 0o600)
}

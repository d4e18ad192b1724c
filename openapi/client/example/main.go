// Command example translates one document with the Go SDK; the README
// shows this file, and a test runs it against a real server.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

func main() {
	c, err := client.FromEnv() // DRAGOMAN_URL, DRAGOMAN_KEY, DRAGOMAN_CA
	if err != nil {
		log.Fatal(err)
	}
	res, err := c.TranslateFile(context.Background(), os.Args[1], client.Options{To: "Spanish"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", res.Path, "rtl_fidelity:", res.Job.RtlFidelity.Status)
}

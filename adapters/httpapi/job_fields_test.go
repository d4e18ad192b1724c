package httpapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// A submission option is declared once: each field of JobOptions is a form
// field with its description and reaches the service, whichever way the
// job was submitted; a field left out of one of them fails here.
func TestEveryJobOptionIsAFormFieldAndReachesTheService(t *testing.T) {
	var o JobOptions
	ot := reflect.TypeFor[JobOptions]()
	for i := range ot.NumField() {
		name := jsonName(ot.Field(i))
		if formDocs[name] == "" {
			t.Errorf("%s has no form description in formDocs", name)
		}
		value := "x"
		if ot.Field(i).Type.Kind() == reflect.Bool {
			value = "yes"
		}
		if err := o.setFormField(name, value); err != nil {
			t.Fatalf("%s=%s: %v", name, value, err)
		}
	}
	if len(formDocs) != ot.NumField() || len(formSchemas()) != ot.NumField() {
		t.Errorf("%d form descriptions and %d form fields for %d options", len(formDocs), len(formSchemas()), ot.NumField())
	}
	got := reflect.ValueOf(o.submission())
	if got.NumField() != ot.NumField() {
		t.Fatalf("service.JobOptions has %d fields, JobOptions %d", got.NumField(), ot.NumField())
	}
	for i := range got.NumField() {
		if got.Field(i).IsZero() {
			t.Errorf("service.JobOptions.%s is not set from the API's options", got.Type().Field(i).Name)
		}
	}
	var empty service.JobOptions
	if !reflect.DeepEqual((JobOptions{}).submission(), empty) {
		t.Error("empty options are not the service's defaults")
	}
}

// The modes the contract lists and describes are plugins/sdk/translation's.
func TestContractModesAreTheSDKs(t *testing.T) {
	o := New(service.UseCases{}, nil).OpenAPI()
	body := o.Components.Schemas.Map()["TranslateURLInputBody"]
	upload := o.Paths["/translate"].Post.RequestBody.Content["multipart/form-data"].Schema
	want := make([]any, len(translation.Modes))
	for i, m := range translation.Modes {
		want[i] = string(m)
		if !strings.Contains(modeDoc, "`"+string(m)+"`") || !strings.Contains(modeDoc, m.About().API) {
			t.Errorf("the modes' description leaves %s out: %s", m, modeDoc)
		}
	}
	for where, enum := range map[string][]any{
		"translate-url": body.Properties["translation_mode"].Enum,
		"upload":        upload.Properties["translation_mode"].Enum,
	} {
		if !reflect.DeepEqual(enum, want) {
			t.Errorf("%s: enum %v, want %v", where, enum, want)
		}
	}
}

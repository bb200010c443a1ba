package parentmsg

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestRenderEveryPlaceholder(t *testing.T) {
	values := map[string]string{}
	var tmpl strings.Builder
	for _, p := range Placeholders {
		values[p] = "<" + p + ">"
		tmpl.WriteString("{" + p + "} ")
	}
	got := Render(tmpl.String(), values)
	for _, p := range Placeholders {
		if !strings.Contains(got, "<"+p+">") {
			t.Errorf("placeholder %s not rendered in %q", p, got)
		}
	}
	if strings.Contains(got, "{") {
		t.Errorf("a placeholder is left: %q", got)
	}
}

func TestRenderKeepsUnknownAndBraces(t *testing.T) {
	got := Render("Halo {nama_siswa}, {nama} {", map[string]string{"nama_siswa": "Budi {kelas}"})
	if want := "Halo Budi {kelas}, {nama} {"; got != want {
		t.Errorf("Render = %q, want %q (a value is not rendered again)", got, want)
	}
}

func TestUnknown(t *testing.T) {
	got := Unknown("{nama_siswa} {nama} {poin} {nama} {x y}")
	if want := []string{"nama"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Unknown = %v, want %v", got, want)
	}
	for _, tmpl := range []string{DefaultViolationTemplate, DefaultLetterTemplate, DefaultSummonsTemplate, DefaultLetterCorrectionTemplate} {
		if u := Unknown(tmpl); len(u) > 0 {
			t.Errorf("default template uses unknown %v", u)
		}
	}
}

// TestPrepareSendAndSettle: the letter's send_on and correction template
// and the attendance day's settle time keep their stored values when a PUT
// leaves them out, and are checked when given.
func TestPrepareSendAndSettle(t *testing.T) {
	stored := Defaults()
	stored.Events.Violation.SettleMinutes = 45
	stored.Events.WarningLetter.SendOn = "printed"
	in := SettingsInput{MessagingSettings: stored.Wire(), EventsGiven: true, QuietHoursGiven: true}
	in.Events.Violation.SettleMinutes, in.Events.WarningLetter.SendOn, in.Events.WarningLetter.CorrectionTemplate = 0, "", ""
	in.Events.Summons.SendOn, in.Events.Summons.SettleMinutes = "printed", 5
	got, err := Prepare(in, stored)
	if err != nil {
		t.Fatal(err)
	}
	e := got.Events
	if e.Violation.SettleMinutes != 45 || e.WarningLetter.SendOn != "printed" || e.WarningLetter.CorrectionTemplate != DefaultLetterCorrectionTemplate ||
		e.Summons.SendOn != "" || e.Summons.SettleMinutes != 0 {
		t.Fatalf("kept %+v", e)
	}
	in.Events.Violation.SettleMinutes, in.Events.WarningLetter.SendOn = 1441, "later"
	in.Events.WarningLetter.CorrectionTemplate = "{nama}"
	_, err = Prepare(in, stored)
	for _, field := range []string{"events.violation.settle_minutes", "events.warning_letter.send_on", "events.warning_letter.correction_template"} {
		if !strings.Contains(fmt.Sprint(err), field) {
			t.Errorf("no field error for %s: %v", field, err)
		}
	}
}

package main

import (
	"strings"
	"testing"

	"github.com/SherClockHolmes/webpush-go"
)

// Web Push and the e-mail digest are off unless configured; their variables are checked
// together, and a refusal never repeats the SMTP password.
func TestReachConfig(t *testing.T) {
	c, err := loadConfig(env(map[string]string{"APP_ENV": "test"}))
	if err != nil || c.VAPID.PublicKey != "" || c.SMTP != nil {
		t.Fatalf("nothing set: %+v %v", c.VAPID, err)
	}
	// `make run` (development, nothing set) has push with the development pair, a valid one.
	c, err = loadConfig(env(map[string]string{}))
	if err != nil || c.VAPID != devVAPID || c.VAPID.Check() != nil || c.SMTP != nil {
		t.Fatalf("development: %+v %v", c.VAPID, err)
	}
	private, public, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	otherPrivate, _, _ := webpush.GenerateVAPIDKeys()
	ok := map[string]string{"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private, "VAPID_SUBJECT": "mailto:ops@tripplan.example",
		"SMTP_URL": "smtp://news:hunter22@mail.example:587", "MAIL_FROM": "Tripplan <news@tripplan.example>"}
	c, err = loadConfig(env(ok))
	if err != nil || c.VAPID.PublicKey != public || c.SMTP == nil || c.SMTP.Host() != "mail.example:587" || c.MailFrom != ok["MAIL_FROM"] {
		t.Fatalf("all set: %v", err)
	}
	for name, tc := range map[string]struct {
		change map[string]string
		says   string
	}{
		"half of VAPID":       {map[string]string{"VAPID_SUBJECT": ""}, "must be set together"},
		"keys of two pairs":   {map[string]string{"VAPID_PRIVATE_KEY": otherPrivate}, "is not the private key of VAPID_PUBLIC_KEY"},
		"a subject not a URL": {map[string]string{"VAPID_SUBJECT": "ops@tripplan.example"}, "VAPID_SUBJECT must be a mailto: or https: URL"},
		"not a key":           {map[string]string{"VAPID_PUBLIC_KEY": "abc"}, "VAPID_PUBLIC_KEY must be"},
		"an http mail server": {map[string]string{"SMTP_URL": "http://news:hunter22@mail.example"}, "SMTP_URL must be smtp://"},
		"no sender":           {map[string]string{"MAIL_FROM": ""}, "SMTP_URL needs MAIL_FROM"},
	} {
		vars := map[string]string{}
		for k, v := range ok {
			vars[k] = v
		}
		for k, v := range tc.change {
			vars[k] = v
		}
		_, err := loadConfig(env(vars))
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "hunter22") {
			t.Errorf("%s: %v, want %q without the password", name, err, tc.says)
		}
	}
}

package e2e

import (
	"fmt"
	"testing"
)

// A throwaway VAPID key pair for the browser test only (no push service ever sees it).
const (
	e2eVAPIDPublic  = "BJe3fK7i4weoaudOf15lqjqEQ1NQufLum_XFQgL0ow5bfvmEIUD4tcylzTfqoFGnsU3wDkiIvKCucjPik3_pMSM"
	e2eVAPIDPrivate = "9VGSJKRBvYazpgblsXx7JN0QqUpKsqqEEk_MtW4vhhE"
)

// On a phone and a desktop, the profile's table of how news reaches Ana fits the screen, is
// saved by its button without leaving the page (a checkbox by tap or keyboard, kept after a
// reload), and the notifications page offers this device's push switch (the service worker
// registered, its state said), with no serious axe violation.
func TestNewsSettingsOnPhoneAndDesktop(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t, "VAPID_PUBLIC_KEY="+e2eVAPIDPublic, "VAPID_PRIVATE_KEY="+e2eVAPIDPrivate,
		"VAPID_SUBJECT=mailto:ops@tripplan.test", "SMTP_URL=smtp://127.0.0.1:1", "MAIL_FROM=news@tripplan.test")
	axe := axeSource(t)
	for _, scr := range []screen{phone, desktop} {
		t.Run(scr.name, func(t *testing.T) {
			ana := newBrowser(t, "ana-"+scr.name, chromium)
			s := newShell(t, srv, scr, axe, ana, nil, "news")
			s.size(t, ana)
			devSignIn(t, ana, srv.base, "demo-ana")
			s.visit(t, ana, "/profile", "profile")
			box := `#news input[name="push"][value="COLLECTION"]`
			want := !eval[bool](t, ana, fmt.Sprintf(`document.querySelector(%s).checked`, js(box)))
			ana.click(t, box)
			ana.clickAndAwait(t, `#news button[type="submit"]`, "put /users/me/notification-settings")
			if !eval[bool](t, ana, `document.querySelector("#news [role=status]").innerText.trim() !== ""`) {
				t.Error("saving says nothing")
			}
			s.check(t, ana, "profile saved")
			s.visit(t, ana, "/profile", "profile again")
			if got := eval[bool](t, ana, fmt.Sprintf(`document.querySelector(%s).checked`, js(box))); got != want {
				t.Errorf("after a reload the box is %v, want %v", got, want)
			}
			s.visit(t, ana, "/notifications", "notifications")
			ana.waitUntil(t, "the push switch shown", `!document.querySelector("[data-push-toggle]").hidden`)
			if eval[string](t, ana, `document.querySelector("[data-push-status]").innerText`) == "" {
				t.Error("the push switch's state is not said")
			}
			s.check(t, ana, "notifications")
		})
	}
}

package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// asksFor makes the browser ask for pages in the language (Accept-Language), as a browser set
// to Korean does.
func asksFor(t *testing.T, b *browser, language string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("%s: enable the network domain: %v", b.name, err)
	}
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
		Headers: network.Headers{"Accept-Language": language}}); err != nil {
		t.Fatalf("%s: ask for %s: %v", b.name, language, err)
	}
}

// pageLanguage waits until the page that loaded is in the language (<html lang>).
func pageLanguage(t *testing.T, b *browser, lang string) {
	t.Helper()
	b.waitUntil(t, "a page in "+lang, `document.readyState === "complete" && document.documentElement.lang === `+js(lang))
}

// TestShellInKorean is the shell and the small pages in Korean at 390×844 (a phone) and at
// 1440×900: a guest picks 한국어 from the header's language menu by keyboard and the landing,
// sign-in and error pages come in Korean; Ana's browser asks for Korean, and her home (with the
// phone's header menu), notifications and profile come in Korean. Every page fits the screen
// and passes axe-core (as TestEveryPageFitsTheScreen checks in English); the language menus lie
// inside the viewport. Ana then picks English on her profile (her setting wins over her
// browser's Korean) and 한국어 again from the header. Screenshots go to
// e2e/artifacts/<run>/shell-ko/<size>/.
func TestShellInKorean(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	axe := axeSource(t)
	for _, scr := range []screen{phone, desktop} {
		t.Run(scr.name, func(t *testing.T) {
			s := newShell(t, srv, scr, axe, newBrowser(t, "ana-ko-"+scr.name, chromium), newBrowser(t, "guest-ko-"+scr.name, chromium), "shell-ko")
			s.size(t, s.ana)
			s.size(t, s.guest)
			s.step("a guest picks Korean in the header", func(t *testing.T) {
				g := s.guest
				s.visit(t, g, "/", "landing in English")
				pageLanguage(t, g, "en")
				const menu = `header details[data-language-menu]`
				b := g
				b.idle(t)
				b.do(t, "open the language menu with the keyboard", chromedp.Focus(chromedp.CSS(menu+` > summary`)), chromedp.KeyEvent(kb.Enter))
				b.waitUntil(t, "the language menu open", `document.querySelector(`+js(menu)+`).open`)
				s.inside(t, g, menu+` button[value="ko"]`, "the language menu's 한국어")
				s.screenshot(t, g, "language menu", false)
				b.do(t, "choose 한국어 with the keyboard", chromedp.Focus(chromedp.CSS(menu+` button[value="ko"]`)), chromedp.KeyEvent(kb.Enter))
				pageLanguage(t, g, "ko")
				if path := eval[string](t, g, `location.pathname`); path != "/" {
					t.Errorf("the switch went to %s, want back to /", path)
				}
				s.check(t, g, "landing")
				s.visit(t, g, "/login", "sign-in")
				pageLanguage(t, g, "ko")
				s.visit(t, g, "/no-such-page", "error page")
				pageLanguage(t, g, "ko")
			})
			s.step("Ana's browser asks for Korean", func(t *testing.T) {
				asksFor(t, s.ana, "ko-KR,ko;q=0.9")
				devSignIn(t, s.ana, srv.base, "demo-ana")
				pageLanguage(t, s.ana, "ko")
				s.visit(t, s.ana, "/home", "home")
				s.headerMenu(t)
				if scr.phone {
					b := s.ana
					b.click(t, `header [data-menu-button]`)
					b.waitUntil(t, "the header menu open", `!document.querySelector("#site-menu").hidden`)
					s.inside(t, b, `#site-menu button[value="en"]`, "the header menu's English")
					s.screenshot(t, b, "header menu with the language", false)
					b.do(t, "press Escape", chromedp.KeyEvent(kb.Escape))
					b.waitUntil(t, "Escape to close the header menu", `document.querySelector("#site-menu").hidden`)
				} else {
					s.menu(t, s.ana, `header details[data-language-menu]`, "language menu")
				}
				s.visit(t, s.ana, "/notifications", "notifications")
				s.visit(t, s.ana, "/profile", "profile")
			})
			s.step("Ana picks English on her profile, then 한국어 from the header", func(t *testing.T) {
				b := s.ana
				b.click(t, `main form[action="/language"] button[value="en"]`)
				pageLanguage(t, b, "en") // her setting now, though her browser asks for Korean
				if path := eval[string](t, b, `location.pathname`); path != "/profile" {
					t.Errorf("the switch went to %s, want back to /profile", path)
				}
				if scr.phone {
					b.click(t, `header [data-menu-button]`)
					b.waitUntil(t, "the header menu open", `!document.querySelector("#site-menu").hidden`)
					b.click(t, `#site-menu button[value="ko"]`)
				} else {
					b.click(t, `header details[data-language-menu] > summary`)
					b.waitUntil(t, "the language menu open", `document.querySelector("header details[data-language-menu]").open`)
					b.click(t, `header details[data-language-menu] button[value="ko"]`)
				}
				pageLanguage(t, b, "ko")
				s.check(t, b, "profile again in Korean")
			})
			s.step("the pages reported no script errors", func(t *testing.T) {
				for _, b := range []*browser{s.ana, s.guest} {
					for _, p := range b.reported() {
						if strings.Contains(p, "404 (Not Found) "+srv.base+"/no-such-page") {
							continue // the error page, asked for on purpose
						}
						t.Errorf("%s: %s", b.name, p)
					}
				}
			})
		})
	}
}

package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestKoreanCollectionAndBudgetOnAPhone opens the collection pages, the plan form and the demo
// plan's budget in a Korean browser (Accept-Language: ko) at 390×844, as Ana: each page says
// its words in Korean, is no wider than the screen (Korean words are shorter or longer than
// English ones) and passes axe-core, as TestEveryPageFitsTheScreen checks them in English; the
// collection's rename menu opens inside the screen. Screenshots go to
// e2e/artifacts/<run>/korean/phone-390x844/.
func TestKoreanCollectionAndBudgetOnAPhone(t *testing.T) {
	chromium := findChromium(t)
	srv := startServer(t)
	ana := newBrowser(t, "ana-ko", chromium)
	ana.do(t, "ask for Korean", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "ko-KR,ko;q=0.9"}})
		return err
	}))
	s := newShell(t, srv, phone, axeSource(t), ana, nil, "korean")
	s.size(t, ana)
	devSignIn(t, ana, srv.base, "demo-ana")

	says := func(page string, words ...string) {
		t.Helper()
		for _, w := range words {
			if !eval[bool](t, ana, fmt.Sprintf(`document.querySelector("main").innerText.includes(%s)`, js(w))) {
				t.Errorf("%s in Korean does not say %q", page, w)
			}
		}
	}
	s.visit(t, ana, "/collections", "collections")
	says("the collections page", "컬렉션", "새 컬렉션")
	collection := eval[string](t, ana, `([...document.querySelectorAll('main a[href^="/collections/"]')].map(a => a.getAttribute("href")).find(h => /^\/collections\/[^/]+$/.test(h) && h !== "/collections/new") || "")`)
	if collection == "" {
		t.Fatal("the collections page links to no collection (the demo data has one)")
	}
	s.visit(t, ana, collection, "collection")
	says("the collection page", "장소 추가", "장소 찾기", "님이 추가", "찜", "패스", "최신순")
	s.menu(t, ana, `main details[data-menu]:has(#rename-title)`, "rename menu")
	s.visit(t, ana, "/collections/new", "new collection")
	says("the new-collection form", "이름을 정해 주세요", "컬렉션 만들기")
	s.visit(t, ana, "/plans/new", "new plan")
	says("the new-plan form", "여행지", "지도를 이 도시에 맞추고")

	s.visit(t, ana, "/plans", "plans")
	plan := eval[string](t, ana, `([...document.querySelectorAll('main a[href^="/plans/"]')].map(a => a.getAttribute("href")).find(h => /^\/plans\/[^/]+$/.test(h) && h !== "/plans/new") || "")`)
	if plan == "" {
		t.Fatal("the plans page links to no plan (the demo data has one)")
	}
	s.visit(t, ana, plan+"/budget", "budget")
	says("the budget page", "총비용", "남은 예산", "1인당", "일자별 지출", "1일차 지출", "정산")
	for _, p := range ana.reported() {
		t.Errorf("%s: %s", ana.name, p)
	}
}

package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"tripplan/internal/planner"
	"tripplan/internal/signin"
	"tripplan/views"
)

// routes is the one list of every route the server answers.
func (s *Server) routes() {
	e := s.echo
	e.Pre(middleware.RequestIDWithConfig(middleware.RequestIDConfig{TargetHeader: echo.HeaderXRequestID}), measure)
	if len(s.cfg.CORSOrigins) > 0 {
		// Before routing, so preflight requests are answered here. The request headers a front
		// end sends and the answer's headers it reads (docs/API.md §App sign-in).
		e.Pre(middleware.CORSWithConfig(middleware.CORSConfig{
			AllowOrigins: s.cfg.CORSOrigins,
			AllowMethods: []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
			AllowHeaders: []string{echo.HeaderAuthorization, echo.HeaderContentType, echo.HeaderAccept, "Accept-Language",
				echo.HeaderCacheControl, "If-Match", idempotencyKeyHeader},
			ExposeHeaders: []string{"ETag", echo.HeaderLocation, echo.HeaderRetryAfter, "X-Unread-Count",
				replayedHeader, echo.HeaderXRequestID, "Server-Timing"},
			AllowCredentials: true,
			MaxAge:           600,
		}))
	}
	e.Use(s.logRequests, compress, s.recoverPanics, securityHeaders(s.cfg), middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
		Limit: s.cfg.BodyLimit, Skipper: func(c echo.Context) bool { return c.Path() == "/uploads" || importPaths[c.Path()] }, // storage caps uploads itself, imports have their own
	}),
		s.authenticate, s.speak, s.crossOriginProtection, checkIdempotencyKey, conditionalGET)

	signIn := s.rateLimit()
	// The middleware authenticates and no more: account routes need a signed-in account, viewer
	// routes an account or an invite link's guest. Who may read or change a plan or a collection
	// — its owner, its members, its link's guests — is the store's decision alone.
	account := s.requireAccount(false)
	viewer := s.requireViewer(false, true)
	preTerms := s.requireAccount(true)

	// Operations and documents.
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/openapi.json", s.openAPIDocument)
	s.page(http.MethodGet, "/static/*", staticFile)
	s.page(http.MethodGet, "/sw.js", serviceWorker) // the service worker: Web Push and reading offline
	s.page(http.MethodGet, views.ManifestPath, webManifest)
	s.page(http.MethodGet, views.OfflinePath, s.offlinePage)

	// Authentication (docs/API.md §Authentication).
	e.POST("/auth/reissue", s.reissue, signIn)
	e.POST("/auth/logout", s.logout, preTerms)
	if s.cfg.DevLogin {
		e.POST("/dev/auth/login", s.devLogin, signIn)
	}
	// Social sign-in: browser redirects, so HTML-only routes. Unknown or disabled providers 404.
	s.page(http.MethodGet, signin.StartPath+":provider", s.beginSignIn, signIn)
	s.page(http.MethodGet, signin.CallbackPath+":provider", s.completeSignIn, signIn)
	// Sign-in for apps (docs/API.md §App sign-in): the one-time code of a browser sign-in, or a token
	// of the provider's own SDK, for tokens.
	e.POST("/auth/token", s.redeemAppCode, signIn)
	e.POST("/auth/:provider/token", s.signInWithProviderToken, signIn)

	// Users.
	e.GET("/users/me", s.me, preTerms)
	e.PATCH("/users/me/terms", s.acceptTerms, preTerms)
	e.PUT("/users/me", s.updateMe, account)
	e.DELETE("/users/me", s.withdraw, account)
	e.PATCH("/users/me/picture", s.startPictureUpload, account)
	e.DELETE("/users/me/picture", s.deletePicture, account)
	e.GET("/users/me/notification-settings", s.notificationSettings, account)
	e.PUT("/users/me/notification-settings", s.setNotificationSettings, account)
	e.POST("/users/me/push-subscriptions", s.subscribePush, account)
	e.DELETE("/users/me/push-subscriptions", s.unsubscribePush, account)

	// Stored files: uploads to signed URLs (the signature is the authorization) and pictures.
	s.page(http.MethodPut, "/uploads", s.acceptUpload)
	s.page(http.MethodGet, filesPath+"*", s.serveFile)

	// Places.
	e.GET("/places/search", s.searchPlaces, account)

	// Collections.
	e.POST("/collections", s.createCollection, account)
	e.GET("/collections", s.listCollections, account)
	e.GET("/collections/:collectionId", s.getCollection, viewer)
	e.PUT("/collections/:collectionId", s.renameCollection, viewer)
	e.DELETE("/collections/:collectionId", s.deleteCollection, viewer)
	e.GET("/collections/:collectionId/plans", s.collectionPlans, viewer)
	e.GET("/collections/:collectionId/members", s.collectionMembers, viewer)
	e.PATCH("/collections/:collectionId/owner", s.changeCollectionOwner, viewer)
	e.DELETE("/collections/:collectionId/members/me", s.leaveCollection, viewer)
	e.DELETE("/collections/:collectionId/members/:collectionMemberId", s.removeCollectionMember, viewer)
	e.POST("/collections/:collectionId/invitations", s.createInvitation(planner.ShareCollection, "collectionId"), viewer)
	e.GET("/collections/:collectionId/invitations", s.listInvitations(collectionShares), viewer)
	e.DELETE("/collections/:collectionId/invitations/:code", s.revokeInvitation(collectionShares), viewer)
	e.GET("/collections/:collectionId/removed-members", s.listRemovedMembers(collectionShares), viewer)
	e.DELETE("/collections/:collectionId/removed-members/:memberId", s.letMemberBack(collectionShares), viewer)

	// Collection places.
	e.POST("/collections/:collectionId/places", s.addCollectionPlace, viewer)
	e.GET("/collections/:collectionId/places", s.listCollectionPlaces, viewer)
	e.GET("/collections/:collectionId/places/:collectionPlaceId", s.getCollectionPlace, viewer)
	e.PATCH("/collections/:collectionId/places/:collectionPlaceId/memo", s.setCollectionPlaceMemo, viewer)
	e.DELETE("/collections/:collectionId/places/:collectionPlaceId", s.deleteCollectionPlace, viewer)
	e.POST("/collections/:collectionId/places/:collectionPlaceId/preference", s.togglePreference, viewer)

	// Extraction of places from a link (each member sees their own jobs).
	e.POST("/collections/:collectionId/extraction-jobs", s.startExtraction, viewer)
	e.GET("/collections/:collectionId/extraction-jobs/latest", s.latestExtraction, viewer)
	e.GET("/collections/:collectionId/extraction-jobs/:jobId", s.getExtraction, viewer)
	e.POST("/collections/:collectionId/extraction-jobs/:jobId/places", s.addFromExtraction, viewer)
	e.POST("/collections/:collectionId/extraction-jobs/:jobId/custom-places", s.addCustomFromExtraction, viewer)
	e.DELETE("/collections/:collectionId/extraction-jobs/:jobId", s.dismissExtraction, viewer)

	// Places brought in from a file.
	e.POST("/collections/:collectionId/imports", s.importPlaces, importBodyLimit, viewer)

	// Plans.
	e.POST("/plans", s.createPlan, account)
	e.POST("/plans/imports", s.restorePlan, restoreBodyLimit, account) // a backup (export.json) as a new plan
	e.GET("/plans", s.listPlans, account)
	e.GET("/plans/:planId", s.getPlan, viewer)
	e.PUT("/plans/:planId", s.updatePlan, viewer)
	e.DELETE("/plans/:planId", s.deletePlan, viewer)
	e.PATCH("/plans/:planId/owner", s.changePlanOwner, viewer)
	e.GET("/plans/:planId/members", s.planMembers, viewer)
	e.DELETE("/plans/:planId/members/me", s.leavePlan, viewer)
	e.DELETE("/plans/:planId/members/:planMemberId", s.removePlanMember, viewer)
	e.POST("/plans/:planId/invitations", s.createInvitation(planner.SharePlan, "planId"), viewer)
	e.GET("/plans/:planId/invitations", s.listInvitations(planShares), viewer)
	e.DELETE("/plans/:planId/invitations/:code", s.revokeInvitation(planShares), viewer)
	e.GET("/plans/:planId/removed-members", s.listRemovedMembers(planShares), viewer)
	e.DELETE("/plans/:planId/removed-members/:memberId", s.letMemberBack(planShares), viewer)

	// Notifications.
	e.GET("/notifications", s.listNotifications, account)
	e.PATCH("/notifications", s.readAllNotifications, account)
	e.PATCH("/notifications/:notificationId", s.readNotification, account)
	// The digest's unsubscribe link: its signature stands for the user, no sign-in.
	s.page(http.MethodGet, views.DigestOffPath, s.digestOffPage)
	s.page(http.MethodPost, views.DigestOffPath, s.digestOff, s.idempotent) // a signed-in retry gets its answer again

	// Live updates (Server-Sent Events), who is here, and the history.
	e.GET("/plans/:planId/events", s.planEvents, viewer)
	e.GET("/plans/:planId/presence", s.planPresence, viewer)
	e.GET("/plans/:planId/activity", s.planActivity, viewer)
	e.GET("/collections/:collectionId/events", s.collectionEvents, viewer)
	e.GET("/collections/:collectionId/activity", s.collectionActivity, viewer)

	// A plan taken elsewhere: exports, and the calendar feed (its token is the authorization).
	e.GET("/plans/:planId/export.ics", s.exportICS, viewer)
	e.GET("/plans/:planId/export.gpx", s.exportGPX, viewer)
	e.GET("/plans/:planId/export.json", s.exportJSON, viewer)
	e.GET("/plans/:planId/expenses.csv", s.exportExpensesCSV, viewer)
	e.GET("/plans/:planId/calendar-feed", s.calendarFeed, viewer)
	e.POST("/plans/:planId/calendar-feed", s.createCalendarFeed, viewer)
	e.DELETE("/plans/:planId/calendar-feed", s.deleteCalendarFeed, viewer)
	e.GET("/calendar/:token", s.feed)

	// Share links: open to anyone holding one.
	e.GET("/invite/:code", s.openInvite)
	e.GET("/s/:code", s.openInvite)

	// Plan collections.
	e.GET("/plans/:planId/collections", s.planCollections, viewer)
	e.POST("/plans/:planId/collections", s.linkCollections, viewer)
	e.DELETE("/plans/:planId/collections/:collectionId", s.unlinkCollection, viewer)
	e.GET("/plans/:planId/collections/:collectionId/places", s.planCollectionPlaces, viewer)
	e.GET("/plans/:planId/collections/:collectionId/places/:collectionPlaceId", s.planCollectionPlace, viewer)

	// Blocks. :blockId is a time block id or a candidate id, as each operation says.
	e.POST("/plans/:planId/blocks", s.addBlock, viewer)
	e.POST("/plans/:planId/blocks/by-place", s.addBlockByPlace, viewer)
	e.POST("/plans/:planId/blocks/manual", s.addManualBlock, viewer)
	e.GET("/plans/:planId/blocks", s.dayBlocks, viewer)
	e.GET("/plans/:planId/blocks/:blockId", s.blockDetail, viewer)
	e.PATCH("/plans/:planId/blocks/:blockId", s.updateBlock, viewer)
	e.DELETE("/plans/:planId/blocks/:blockId", s.deleteTimeBlock, viewer)
	e.POST("/plans/:planId/deleted-blocks/:deletionId/restore", s.restoreTimeBlock, viewer)
	e.POST("/plans/:planId/blocks/:blockId/copies", s.copyBlock, viewer)
	e.POST("/plans/:planId/blocks/:blockId/candidates", s.addCandidates, viewer)
	e.GET("/plans/:planId/blocks/:blockId/candidates", s.candidates, viewer)
	e.PATCH("/plans/:planId/blocks/:blockId/selection", s.changeSelection, viewer)
	e.DELETE("/plans/:planId/blocks/:blockId/candidates/:candidateId", s.deleteCandidate, viewer)

	// Days: the route between their places, swapping two, an optimised order and applying it,
	// and places for their free gaps.
	e.GET("/plans/:planId/days/:day/route", s.dayRouteHandler, viewer)
	e.POST("/plans/:planId/days/:day/swap", s.swapDays, viewer)
	e.GET("/plans/:planId/days/:day/optimised", s.optimisedDayHandler, viewer)
	e.POST("/plans/:planId/days/:day/arrangement", s.arrangeDay, viewer)
	e.GET("/plans/:planId/days/:day/gaps", s.dayGapsHandler, viewer)

	// Budget.
	e.GET("/plans/:planId/budgets", s.getBudget, viewer)
	e.PATCH("/plans/:planId/budgets", s.updateBudget, viewer)
	e.POST("/plans/:planId/expenses", s.addExpense, viewer)
	e.GET("/plans/:planId/expenses", s.dayExpenses, viewer)
	e.PUT("/plans/:planId/expenses/:expenseId", s.setExpense, viewer)
	e.DELETE("/plans/:planId/expenses/:expenseId", s.deleteExpense, viewer)
	e.GET("/plans/:planId/settlement", s.settlement, viewer)
	e.POST("/plans/:planId/settlements", s.recordSettlement, viewer)
	e.GET("/plans/:planId/settlements", s.listSettlements, viewer)
	e.DELETE("/plans/:planId/settlements/:settlementId", s.deleteSettlement, viewer)

	// Opinions on a candidate (:blockId is the candidate).
	e.POST("/plans/:planId/blocks/:blockId/opinions", s.addOpinion, viewer)
	e.GET("/plans/:planId/blocks/:blockId/opinions", s.listOpinions, viewer)
	e.GET("/plans/:planId/blocks/:blockId/opinions/:opinionId", s.getOpinion, viewer)
	e.PUT("/plans/:planId/blocks/:blockId/opinions/:opinionId", s.updateOpinion, viewer)
	e.DELETE("/plans/:planId/blocks/:blockId/opinions/:opinionId", s.deleteOpinion, viewer)
	e.GET("/opinion-tags", s.listOpinionTags, viewer) // any signed-in user or guest

	// Pages that only make sense in a browser.
	s.page(http.MethodGet, "/", s.landing)
	s.page(http.MethodGet, "/login", s.signInPage)
	s.page(http.MethodGet, "/onboarding/terms", s.onboardingPage, preTerms)
	s.page(http.MethodPost, "/onboarding/terms", s.acceptTerms, preTerms)
	s.page(http.MethodGet, "/home", s.home, account)
	s.page(http.MethodGet, views.NewCollectionPath, s.newCollectionPage, account)
	s.page(http.MethodGet, views.NewPlanPath, s.newPlanPage, account)
	s.page(http.MethodGet, views.ProfilePath, s.profilePage, account)
	s.page(http.MethodPost, views.LanguagePath, s.chooseLanguage, s.idempotent) // for guests too: their cookie
	s.page(http.MethodGet, views.NicknamePath, s.nicknamePage, account)
	s.page(http.MethodGet, views.LinkErrorPath, s.linkErrorPage)
	s.page(http.MethodGet, "/plans/:planId/edit", s.editPlanPage, viewer)
	s.page(http.MethodGet, "/plans/:planId/header", s.planHeader, viewer)
	s.page(http.MethodGet, "/plans/:planId/panel", s.planPanel, viewer)
	s.page(http.MethodGet, "/plans/:planId/place-choices", s.placeChoices, viewer)
	s.page(http.MethodGet, "/plans/:planId/budget", s.budgetPage, viewer)
	s.page(http.MethodGet, "/plans/:planId/print", s.printPage, viewer)
}

// page registers an HTML-only route.
func (s *Server) page(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	s.echo.Add(method, path, h, m...)
	s.pages[method+" "+path] = true
}

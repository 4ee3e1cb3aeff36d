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
	user := s.requireUser(false)
	reader := s.requireReader() // a user, or a guest of the plan or collection read
	preTerms := s.requireUser(true)

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
	e.PUT("/users/me", s.updateMe, user)
	e.DELETE("/users/me", s.withdraw, user)
	e.PATCH("/users/me/picture", s.startPictureUpload, user)
	e.DELETE("/users/me/picture", s.deletePicture, user)
	e.GET("/users/me/notification-settings", s.notificationSettings, user)
	e.PUT("/users/me/notification-settings", s.setNotificationSettings, user)
	e.POST("/users/me/push-subscriptions", s.subscribePush, user)
	e.DELETE("/users/me/push-subscriptions", s.unsubscribePush, user)

	// Stored files: uploads to signed URLs (the signature is the authorization) and pictures.
	s.page(http.MethodPut, "/uploads", s.acceptUpload)
	s.page(http.MethodGet, filesPath+"*", s.serveFile)

	// Places.
	e.GET("/places/search", s.searchPlaces, user)

	// Collections.
	e.POST("/collections", s.createCollection, user)
	e.GET("/collections", s.listCollections, user)
	e.GET("/collections/:collectionId", s.getCollection, reader)
	e.PUT("/collections/:collectionId", s.renameCollection, user)
	e.DELETE("/collections/:collectionId", s.deleteCollection, user)
	e.GET("/collections/:collectionId/plans", s.collectionPlans, user)
	e.GET("/collections/:collectionId/members", s.collectionMembers, reader)
	e.PATCH("/collections/:collectionId/owner", s.changeCollectionOwner, user)
	e.DELETE("/collections/:collectionId/members/me", s.leaveCollection, user)
	e.DELETE("/collections/:collectionId/members/:collectionMemberId", s.removeCollectionMember, user)
	e.POST("/collections/:collectionId/invitations", s.createInvitation(planner.ShareCollection, "collectionId"), user)
	e.GET("/collections/:collectionId/invitations", s.listInvitations(collectionShares), user)
	e.DELETE("/collections/:collectionId/invitations/:code", s.revokeInvitation(collectionShares), user)
	e.GET("/collections/:collectionId/removed-members", s.listRemovedMembers(collectionShares), user)
	e.DELETE("/collections/:collectionId/removed-members/:memberId", s.letMemberBack(collectionShares), user)

	// Collection places.
	e.POST("/collections/:collectionId/places", s.addCollectionPlace, user)
	e.GET("/collections/:collectionId/places", s.listCollectionPlaces, reader)
	e.GET("/collections/:collectionId/places/:collectionPlaceId", s.getCollectionPlace, reader)
	e.PATCH("/collections/:collectionId/places/:collectionPlaceId/memo", s.setCollectionPlaceMemo, user)
	e.DELETE("/collections/:collectionId/places/:collectionPlaceId", s.deleteCollectionPlace, user)
	e.POST("/collections/:collectionId/places/:collectionPlaceId/preference", s.togglePreference, user)

	// Extraction of places from a link (each member sees their own jobs).
	e.POST("/collections/:collectionId/extraction-jobs", s.startExtraction, user)
	e.GET("/collections/:collectionId/extraction-jobs/latest", s.latestExtraction, user)
	e.GET("/collections/:collectionId/extraction-jobs/:jobId", s.getExtraction, user)
	e.POST("/collections/:collectionId/extraction-jobs/:jobId/places", s.addFromExtraction, user)
	e.POST("/collections/:collectionId/extraction-jobs/:jobId/custom-places", s.addCustomFromExtraction, user)
	e.DELETE("/collections/:collectionId/extraction-jobs/:jobId", s.dismissExtraction, user)

	// Places brought in from a file.
	e.POST("/collections/:collectionId/imports", s.importPlaces, importBodyLimit, user)

	// Plans.
	e.POST("/plans", s.createPlan, user)
	e.POST("/plans/imports", s.restorePlan, restoreBodyLimit, user) // a backup (export.json) as a new plan
	e.GET("/plans", s.listPlans, user)
	e.GET("/plans/:planId", s.getPlan, reader)
	e.PUT("/plans/:planId", s.updatePlan, user)
	e.DELETE("/plans/:planId", s.deletePlan, user)
	e.PATCH("/plans/:planId/owner", s.changePlanOwner, user)
	e.GET("/plans/:planId/members", s.planMembers, reader)
	e.DELETE("/plans/:planId/members/me", s.leavePlan, user)
	e.DELETE("/plans/:planId/members/:planMemberId", s.removePlanMember, user)
	e.POST("/plans/:planId/invitations", s.createInvitation(planner.SharePlan, "planId"), user)
	e.GET("/plans/:planId/invitations", s.listInvitations(planShares), user)
	e.DELETE("/plans/:planId/invitations/:code", s.revokeInvitation(planShares), user)
	e.GET("/plans/:planId/removed-members", s.listRemovedMembers(planShares), user)
	e.DELETE("/plans/:planId/removed-members/:memberId", s.letMemberBack(planShares), user)

	// Notifications.
	e.GET("/notifications", s.listNotifications, user)
	e.PATCH("/notifications", s.readAllNotifications, user)
	e.PATCH("/notifications/:notificationId", s.readNotification, user)
	// The digest's unsubscribe link: its signature stands for the user, no sign-in.
	s.page(http.MethodGet, views.DigestOffPath, s.digestOffPage)
	s.page(http.MethodPost, views.DigestOffPath, s.digestOff, s.idempotent) // a signed-in retry gets its answer again

	// Live updates (Server-Sent Events), who is here, and the history.
	e.GET("/plans/:planId/events", s.planEvents, reader)
	e.GET("/plans/:planId/presence", s.planPresence, reader)
	e.GET("/plans/:planId/activity", s.planActivity, reader)
	e.GET("/collections/:collectionId/events", s.collectionEvents, reader)
	e.GET("/collections/:collectionId/activity", s.collectionActivity, reader)

	// A plan taken elsewhere: exports, and the calendar feed (its token is the authorization).
	e.GET("/plans/:planId/export.ics", s.exportICS, reader)
	e.GET("/plans/:planId/export.gpx", s.exportGPX, reader)
	e.GET("/plans/:planId/export.json", s.exportJSON, reader)
	e.GET("/plans/:planId/expenses.csv", s.exportExpensesCSV, reader)
	e.GET("/plans/:planId/calendar-feed", s.calendarFeed, user)
	e.POST("/plans/:planId/calendar-feed", s.createCalendarFeed, user)
	e.DELETE("/plans/:planId/calendar-feed", s.deleteCalendarFeed, user)
	e.GET("/calendar/:token", s.feed)

	// Share links: open to anyone holding one.
	e.GET("/invite/:code", s.openInvite)
	e.GET("/s/:code", s.openInvite)

	// Plan collections.
	e.GET("/plans/:planId/collections", s.planCollections, user)
	e.POST("/plans/:planId/collections", s.linkCollections, user)
	e.DELETE("/plans/:planId/collections/:collectionId", s.unlinkCollection, user)
	e.GET("/plans/:planId/collections/:collectionId/places", s.planCollectionPlaces, user)
	e.GET("/plans/:planId/collections/:collectionId/places/:collectionPlaceId", s.planCollectionPlace, user)

	// Blocks. :blockId is a time block id or a candidate id, as each operation says.
	e.POST("/plans/:planId/blocks", s.addBlock, user)
	e.POST("/plans/:planId/blocks/by-place", s.addBlockByPlace, user)
	e.POST("/plans/:planId/blocks/manual", s.addManualBlock, user)
	e.GET("/plans/:planId/blocks", s.dayBlocks, reader)
	e.GET("/plans/:planId/blocks/:blockId", s.blockDetail, reader)
	e.PATCH("/plans/:planId/blocks/:blockId", s.updateBlock, user)
	e.DELETE("/plans/:planId/blocks/:blockId", s.deleteTimeBlock, user)
	e.POST("/plans/:planId/deleted-blocks/:deletionId/restore", s.restoreTimeBlock, user)
	e.POST("/plans/:planId/blocks/:blockId/copies", s.copyBlock, user)
	e.POST("/plans/:planId/blocks/:blockId/candidates", s.addCandidates, user)
	e.GET("/plans/:planId/blocks/:blockId/candidates", s.candidates, reader)
	e.PATCH("/plans/:planId/blocks/:blockId/selection", s.changeSelection, user)
	e.DELETE("/plans/:planId/blocks/:blockId/candidates/:candidateId", s.deleteCandidate, user)

	// Days: the route between their places, swapping two, an optimised order and applying it,
	// and places for their free gaps.
	e.GET("/plans/:planId/days/:day/route", s.dayRouteHandler, reader)
	e.POST("/plans/:planId/days/:day/swap", s.swapDays, user)
	e.GET("/plans/:planId/days/:day/optimised", s.optimisedDayHandler, reader)
	e.POST("/plans/:planId/days/:day/arrangement", s.arrangeDay, user)
	e.GET("/plans/:planId/days/:day/gaps", s.dayGapsHandler, user)

	// Budget.
	e.GET("/plans/:planId/budgets", s.getBudget, reader)
	e.PATCH("/plans/:planId/budgets", s.updateBudget, user)
	e.POST("/plans/:planId/expenses", s.addExpense, user)
	e.GET("/plans/:planId/expenses", s.dayExpenses, reader)
	e.PUT("/plans/:planId/expenses/:expenseId", s.setExpense, user)
	e.DELETE("/plans/:planId/expenses/:expenseId", s.deleteExpense, user)
	e.GET("/plans/:planId/settlement", s.settlement, reader)
	e.POST("/plans/:planId/settlements", s.recordSettlement, user)
	e.GET("/plans/:planId/settlements", s.listSettlements, reader)
	e.DELETE("/plans/:planId/settlements/:settlementId", s.deleteSettlement, user)

	// Opinions on a candidate (:blockId is the candidate).
	e.POST("/plans/:planId/blocks/:blockId/opinions", s.addOpinion, user)
	e.GET("/plans/:planId/blocks/:blockId/opinions", s.listOpinions, reader)
	e.GET("/plans/:planId/blocks/:blockId/opinions/:opinionId", s.getOpinion, reader)
	e.PUT("/plans/:planId/blocks/:blockId/opinions/:opinionId", s.updateOpinion, user)
	e.DELETE("/plans/:planId/blocks/:blockId/opinions/:opinionId", s.deleteOpinion, user)
	e.GET("/opinion-tags", s.listOpinionTags, reader) // any signed-in user or guest

	// Pages that only make sense in a browser.
	s.page(http.MethodGet, "/", s.landing)
	s.page(http.MethodGet, "/login", s.signInPage)
	s.page(http.MethodGet, "/onboarding/terms", s.onboardingPage, preTerms)
	s.page(http.MethodPost, "/onboarding/terms", s.acceptTerms, preTerms)
	s.page(http.MethodGet, "/home", s.home, user)
	s.page(http.MethodGet, views.NewCollectionPath, s.newCollectionPage, user)
	s.page(http.MethodGet, views.NewPlanPath, s.newPlanPage, user)
	s.page(http.MethodGet, views.ProfilePath, s.profilePage, user)
	s.page(http.MethodPost, views.LanguagePath, s.chooseLanguage, s.idempotent) // for guests too: their cookie
	s.page(http.MethodGet, views.NicknamePath, s.nicknamePage, user)
	s.page(http.MethodGet, views.LinkErrorPath, s.linkErrorPage)
	s.page(http.MethodGet, "/plans/:planId/edit", s.editPlanPage, user)
	s.page(http.MethodGet, "/plans/:planId/header", s.planHeader, reader)
	s.page(http.MethodGet, "/plans/:planId/panel", s.planPanel, user)
	s.page(http.MethodGet, "/plans/:planId/place-choices", s.placeChoices, user)
	s.page(http.MethodGet, "/plans/:planId/budget", s.budgetPage, reader)
	s.page(http.MethodGet, "/plans/:planId/print", s.printPage, reader)
}

// page registers an HTML-only route.
func (s *Server) page(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	s.echo.Add(method, path, h, m...)
	s.pages[method+" "+path] = true
}

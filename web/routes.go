package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"tripplan/static"
	"tripplan/views"
)

// routes is the one list of every route the server answers.
func (s *Server) routes() {
	e := s.echo
	e.Pre(middleware.RequestIDWithConfig(middleware.RequestIDConfig{TargetHeader: echo.HeaderXRequestID}))
	e.Use(s.logRequests, s.recoverPanics, securityHeaders(s.cfg), middleware.BodyLimit(s.cfg.BodyLimit),
		s.authenticate, s.crossOriginProtection)

	signIn := s.rateLimit()
	user := s.requireUser(false)
	preTerms := s.requireUser(true)

	// Operations and documents.
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/openapi.json", s.openAPIDocument)
	s.page(http.MethodGet, "/static/*", echo.WrapHandler(http.StripPrefix("/static/", staticFiles(static.FS))))

	// Authentication (API.md §3).
	e.POST("/auth/reissue", s.reissue, signIn)
	e.POST("/auth/logout", s.logout, preTerms)
	if s.cfg.DevLogin {
		e.POST("/dev/auth/login", s.devLogin, signIn)
	}

	// Users.
	e.GET("/users/me", s.me, preTerms)
	e.PATCH("/users/me/terms", s.acceptTerms, preTerms)

	// Places.
	e.GET("/places/search", s.searchPlaces, user)

	// Collections.
	e.POST("/collections", s.createCollection, user)
	e.GET("/collections", s.listCollections, user)
	e.GET("/collections/:collectionId", s.getCollection, user)
	e.PUT("/collections/:collectionId", s.renameCollection, user)
	e.DELETE("/collections/:collectionId", s.deleteCollection, user)
	e.GET("/collections/:collectionId/plans", s.collectionPlans, user)
	e.GET("/collections/:collectionId/members", s.collectionMembers, user)

	// Collection places.
	e.POST("/collections/:collectionId/places", s.addCollectionPlace, user)
	e.GET("/collections/:collectionId/places", s.listCollectionPlaces, user)
	e.GET("/collections/:collectionId/places/:collectionPlaceId", s.getCollectionPlace, user)
	e.PATCH("/collections/:collectionId/places/:collectionPlaceId/memo", s.setCollectionPlaceMemo, user)
	e.DELETE("/collections/:collectionId/places/:collectionPlaceId", s.deleteCollectionPlace, user)
	e.POST("/collections/:collectionId/places/:collectionPlaceId/preference", s.togglePreference, user)

	// Pages that only make sense in a browser.
	s.page(http.MethodGet, "/", s.landing)
	s.page(http.MethodGet, "/login", s.signInPage)
	s.page(http.MethodGet, "/onboarding/terms", s.onboardingPage, preTerms)
	s.page(http.MethodPost, "/onboarding/terms", s.acceptTerms, preTerms)
	s.page(http.MethodGet, "/home", s.home, user)
	s.page(http.MethodGet, views.NewCollectionPath, s.newCollectionPage, user)
}

// page registers an HTML-only route.
func (s *Server) page(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	s.echo.Add(method, path, h, m...)
	s.pages[method+" "+path] = true
}

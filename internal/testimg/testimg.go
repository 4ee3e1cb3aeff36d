// Package testimg makes small images for tests that upload pictures.
package testimg

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// PNG is a w×h PNG picture with a colour gradient, so that no two sizes encode alike.
func PNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{R: uint8(10 * x), G: 120, B: uint8(15 * y), A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Command icons draws the app's PNG icons (the web app manifest's, web/offline.go) from the
// mark of static/img/logo.svg, with the standard library only, so they are made again the same
// way by `make generate`:
//
//	go run ./cmd/icons static/img
//
// writes icon-192.png and icon-512.png (the logo as it is: a rounded teal square, transparent
// corners) and icon-maskable-512.png (a full teal square with the mark inside the central
// circle of 80% that launchers may crop to). The shapes are logo.svg's, in its 64×64 units:
// keep the two in step.
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
)

type point struct{ x, y float64 }

// shape is one filled shape of the mark, in logo.svg's units.
type shape struct {
	c      color.NRGBA
	inside func(p point) bool
}

var (
	teal      = color.NRGBA{0x0d, 0x94, 0x88, 0xff} // brand-600
	tealLight = color.NRGBA{0x99, 0xf6, 0xe4, 0xff} // brand-200
	tealPale  = color.NRGBA{0xcc, 0xfb, 0xf1, 0xff} // brand-100
	white     = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

func circle(cx, cy, r float64) func(point) bool {
	return func(p point) bool { return (p.x-cx)*(p.x-cx)+(p.y-cy)*(p.y-cy) <= r*r }
}

// roundedSquare is logo.svg's background: 64 units square, corners of radius r.
func roundedSquare(r float64) func(point) bool {
	return func(p point) bool {
		if p.x < 0 || p.y < 0 || p.x > 64 || p.y > 64 {
			return false
		}
		cx, cy := math.Max(r, math.Min(64-r, p.x)), math.Max(r, math.Min(64-r, p.y))
		return (p.x-cx)*(p.x-cx)+(p.y-cy)*(p.y-cy) <= r*r
	}
}

// cubic flattens a cubic Bézier curve from p0 into n points (p0 excluded).
func cubic(p0, p1, p2, p3 point, n int) []point {
	out := make([]point, 0, n)
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
		out = append(out, point{a*p0.x + b*p1.x + c*p2.x + d*p3.x, a*p0.y + b*p1.y + c*p2.y + d*p3.y})
	}
	return out
}

// polygon is the even-odd inside test of a closed polygon.
func polygon(pts []point) func(point) bool {
	return func(p point) bool {
		in := false
		for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
			a, b := pts[i], pts[j]
			if (a.y > p.y) != (b.y > p.y) && p.x < (b.x-a.x)*(p.y-a.y)/(b.y-a.y)+a.x {
				in = !in
			}
		}
		return in
	}
}

// mark is logo.svg's shapes above its background, bottom first.
func mark() []shape {
	var shapes []shape
	// The route: a dotted curve (stroke-dasharray 0.5 6.5, round caps 3.5 wide) from the start
	// dot to the pin, drawn as its dots.
	route := append([]point{{14, 50}}, cubic(point{14, 50}, point{22, 50}, point{22, 41}, point{30, 41}, 200)...)
	route = append(route, cubic(point{30, 41}, point{38, 41}, point{36, 47}, point{41, 44}, 200)...)
	next, walked := 0.25, 0.0
	for i := 1; i < len(route); i++ {
		a, b := route[i-1], route[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		for next <= walked+seg {
			t := (next - walked) / seg
			shapes = append(shapes, shape{tealLight, circle(a.x+t*(b.x-a.x), a.y+t*(b.y-a.y), 1.75)})
			next += 7
		}
		walked += seg
	}
	shapes = append(shapes, shape{tealPale, circle(14, 50, 4.5)})
	// The pin.
	pin := []point{{41, 9}}
	pin = append(pin, cubic(point{41, 9}, point{33.3, 9}, point{27, 15}, point{27, 22.4}, 60)...)
	pin = append(pin, cubic(point{27, 22.4}, point{27, 32.6}, point{41, 45}, point{41, 45}, 60)...)
	pin = append(pin, cubic(point{41, 45}, point{41, 45}, point{55, 32.6}, point{55, 22.4}, 60)...)
	pin = append(pin, cubic(point{55, 22.4}, point{55, 15}, point{48.7, 9}, point{41, 9}, 60)...)
	shapes = append(shapes, shape{white, polygon(pin)}, shape{teal, circle(41, 22, 5.2)})
	return shapes
}

// draw renders the mark at size×size pixels: over the logo's rounded square, or for a
// maskable icon over a full square with the mark scaled into the safe zone. Each pixel is the
// mean of 5×5 samples.
func draw(size int, maskable bool) *image.NRGBA {
	const n = 5
	background := roundedSquare(15)
	scale, shift := 64/float64(size), 0.0
	if maskable {
		background = func(point) bool { return true }
		// 0.8 about the centre keeps every shape within the central circle of radius 40%.
		scale, shift = scale/0.8, 32-32/0.8
	}
	shapes := mark()
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var r, g, b, a float64
			for sy := 0; sy < n; sy++ {
				for sx := 0; sx < n; sx++ {
					p := point{(float64(x) + (float64(sx)+0.5)/n) * scale, (float64(y) + (float64(sy)+0.5)/n) * scale}
					if !background(p) {
						continue
					}
					c := teal
					q := point{p.x + shift, p.y + shift}
					for _, s := range shapes {
						if s.inside(q) {
							c = s.c
						}
					}
					r, g, b, a = r+float64(c.R), g+float64(c.G), b+float64(c.B), a+1
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(math.Round(r / a)), uint8(math.Round(g / a)), uint8(math.Round(b / a)), uint8(math.Round(a * 255 / (n * n)))})
		}
	}
	return img
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: icons DIR")
		os.Exit(2)
	}
	for _, icon := range []struct {
		name     string
		size     int
		maskable bool
	}{{"icon-192.png", 192, false}, {"icon-512.png", 512, false}, {"icon-maskable-512.png", 512, true}} {
		f, err := os.Create(filepath.Join(os.Args[1], icon.name))
		if err == nil {
			err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(f, draw(icon.size, icon.maskable))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "icons:", err)
			os.Exit(1)
		}
	}
}

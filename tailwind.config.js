/** Tailwind CSS v3 configuration for Tripplan.
 *  Rebuild after changing templates: `npm run build:css` (output committed). */
// The plan page's day grid has one row per quarter hour (96 rows); blocks are placed with
// row-start-N / row-end-N classes (the CSP forbids inline styles), so every N is generated.
const quarterRows = Object.fromEntries(Array.from({ length: 97 }, (_, i) => [String(i + 1), String(i + 1)]));

/** @type {import('tailwindcss').Config} */
module.exports = {
  content: [
    "./views/**/*.templ",
    "./views/**/*.go",
    "./static/js/app.js",
    "./static/js/plan.js",
    "./static/js/arrange.js",
    "./static/js/map.js",
    "./static/js/forms.js",
  ],
  safelist: [{ pattern: /^row-(start|end)-\d+$/ }],
  theme: {
    extend: {
      gridTemplateRows: {
        quarters: "repeat(96, 1.75rem)",
      },
      gridRowStart: quarterRows,
      gridRowEnd: quarterRows,
      colors: {
        // One accent (teal) over slate neutrals; `brand` is an alias so the accent can change in one place.
        brand: {
          50: "#f0fdfa",
          100: "#ccfbf1",
          200: "#99f6e4",
          300: "#5eead4",
          400: "#2dd4bf",
          500: "#14b8a6",
          600: "#0d9488",
          700: "#0f766e",
          800: "#115e59",
          900: "#134e4a",
          950: "#042f2e",
        },
      },
      maxWidth: {
        page: "72rem",
      },
    },
  },
  plugins: [],
};

/** Tailwind CSS v3 configuration for Tripplan.
 *  Rebuild after changing templates: `npm run build:css` (output committed). */
/** @type {import('tailwindcss').Config} */
module.exports = {
  content: [
    "./views/**/*.templ",
    "./views/**/*.go",
    "./static/js/app.js",
  ],
  theme: {
    extend: {
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

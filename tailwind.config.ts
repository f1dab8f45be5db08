import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  // The accessibility panel puts `dark` on <html>; high-contrast, highlight-links and
  // reduce-motion are plain classes styled in app/tailwind.css and via the variants below.
  darkMode: "class",
  theme: {
    extend: {
      colors: {
        brand: {
          50: "#effaf3",
          100: "#d8f3e1",
          200: "#b3e6c6",
          300: "#80d2a3",
          400: "#4bb87d",
          500: "#289c61",
          600: "#1a7d4d",
          700: "#166440",
          800: "#145035",
          900: "#11422d",
          950: "#082519",
        },
        sand: {
          50: "#fbf8f3",
          100: "#f5eee2",
          200: "#e9dcc3",
          700: "#6b5433",
          900: "#3b2e1c",
        },
      },
      fontFamily: {
        sans: ["system-ui", "-apple-system", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif"],
      },
    },
  },
  plugins: [
    function ({ addVariant }: { addVariant: (name: string, selector: string | string[]) => void }) {
      addVariant("hc", ":is(.high-contrast &)");
      addVariant("motion-off", ":is(.reduce-motion &)");
      // Set on <html> by the accessibility panel at 110–130% and 140–150% text size, so that
      // layouts can move their breakpoints (media queries do not see the root font size).
      addVariant("text-large", ':is([data-text-scale="large"] &)');
      addVariant("text-x-large", ':is([data-text-scale="x-large"] &)');
      // Wide enough for the header's row of links: lg, or xl at large text, or 2xl at x-large.
      // The three selectors weigh the same (:root + attribute), more than a state like [open].
      addVariant("wide", [
        "@media (min-width: 1024px) { :root:not([data-text-scale]) & }",
        '@media (min-width: 1280px) { :root[data-text-scale="large"] & }',
        '@media (min-width: 1536px) { :root[data-text-scale="x-large"] & }',
      ]);
    },
  ],
} satisfies Config;

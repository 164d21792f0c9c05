/** Tailwind CSS 4 through its PostCSS plugin; tokens and layers live in app/globals.css. */
const config = {
  plugins: { "@tailwindcss/postcss": {} },
};

export default config;

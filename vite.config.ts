import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.VITE_API_PROXY ?? "http://127.0.0.1:3000";

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    manifest: true,
    // The module-preload polyfill would be an inline script, which our CSP forbids.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  server: {
    proxy: { "/api": apiTarget, "/healthz": apiTarget, "/readyz": apiTarget },
  },
});

import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const apiTarget = process.env.VITE_API_PROXY ?? "http://127.0.0.1:3000";

/** The brand colour of the logo (web/public/favicon.svg), the title bar of the installed app. */
const THEME_COLOR = "#4f46e5";

export default defineConfig({
  root: "web",
  plugins: [
    react(),
    tailwindcss(),
    // Issue 38, decision 0076: the installable app. Our own worker (web/src/sw/sw.ts) gets the list
    // of built files to precache; the page registers it itself through workbox-window.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "sw.ts",
      injectRegister: false,
      manifest: {
        name: "Mailwise",
        short_name: "Mailwise",
        description: "One AI-assisted inbox for Gmail and Outlook.",
        id: "/dashboard",
        start_url: "/dashboard",
        scope: "/",
        display: "standalone",
        theme_color: THEME_COLOR,
        background_color: "#ffffff",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      injectManifest: {
        // The app shell: every built script, style, page and icon, except the PDF viewer (pdf.js and
        // its 1.2 MB worker), which only previews attachments fetched from the provider anyway.
        globPatterns: ["**/*.{js,mjs,css,html,svg,png,webmanifest}"],
        globIgnores: ["**/pdf.worker*", "**/pdf-render-*", ".vite/**"],
      },
    }),
  ],
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

import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { CookieNotice } from "./components/cookie-notice.tsx";
import { ErrorBoundary } from "./components/error-boundary.tsx";
import { Toaster } from "./components/ui/toaster.tsx";
import { UpdatePrompt } from "./features/installable/update-prompt.tsx";
import { persistQueries, restorePersistedQueries } from "./lib/persisted-queries.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { AppRoutes } from "./routes.tsx";
import "./index.css";

const queryClient = createQueryClient();
// Issue 38: the last loaded inbox, so the installed app opens offline with it.
restorePersistedQueries(queryClient);
persistQueries(queryClient);
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <AppRoutes />
        <CookieNotice />
        <Toaster />
        <UpdatePrompt />
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);

/**
 * The service worker (issue 38) once the page has loaded, so it never competes with the first
 * paint; only in builds, where the worker and its precache list exist.
 */
function registerServiceWorker(): void {
  void import("./features/installable/register-worker.ts")
    .then((m) => m.registerWorker())
    .catch((err: unknown) => console.warn("Service worker not registered", err));
}
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  if (document.readyState === "complete") registerServiceWorker();
  else window.addEventListener("load", registerServiceWorker, { once: true });
}

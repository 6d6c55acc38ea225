import { QueryClientProvider } from "@tanstack/react-query";
import { Tooltip } from "radix-ui";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { CookieNotice } from "./components/cookie-notice.tsx";
import { ErrorBoundary } from "./components/error-boundary.tsx";
import { Toaster } from "./components/ui/toaster.tsx";
import { createQueryClient } from "./lib/query-client.ts";
import { AppRoutes } from "./routes.tsx";
import "./index.css";

const queryClient = createQueryClient();
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        {/* Spec section 9: tooltip open delay 700 ms, skip delay 300 ms. */}
        <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
          <AppRoutes />
          <CookieNotice />
          <Toaster />
        </Tooltip.Provider>
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);
